"""The one Markdown reader of the number check: markdown-it-py, the parser pytest-markdown-docs
runs on, taught the containers mkdocs sites render.

A page is parsed here once (`page.Page.tokens`, `page.Page.fences`), so the check, a provider
that runs the page's fences and a site's tests agree on where a fence starts and what it holds.
Besides CommonMark and tables it reads, as Python-Markdown's extensions render them:
admonitions and collapsible details (`!!! note`, `??? note`, `???+ note`), content tabs
(`=== "Tab"`, pymdownx.tabbed), footnotes (`[^1]: …`), Markdown inside HTML (`<div markdown>`,
md_in_html) and math (`$…$` and `$$`, as pymdownx.arithmatex finds it: a `$` with a space on its
inner side opens or closes nothing, so `$5 and $6` are prices). The text of each is prose; an
indented block anywhere else is code.
Line numbers are the file's own (1-based): the front matter is blanked, not cut, before parsing.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.utils import is_code_block

from bound_numbers.page import FRONT, Fence

# An include line as pymdownx.snippets reads it: a file, and after a colon perhaps a section.
INCLUDE = re.compile(r"""^[ \t]*-+8<-+[ \t]+["'](?P<path>[^"':]+):?(?P<part>[^"']*)["'][ \t]*$""")
# A content tab as pymdownx.tabbed opens one: `=== "Title"` (`===+` or `===!` to select it).
_TAB = re.compile(r'={3}(?:\+!?|!\+?)?[ \t]+"(?P<title>.*?)"[ \t]*$')
# A block of HTML whose Markdown md_in_html renders: its first line opens a tag marked `markdown`.
_MARKDOWN_IN_HTML = re.compile(r"[ \t]*<[A-Za-z][\w-]*(?:\s[^>]*)?\smarkdown\b[^>]*>[ \t]*$")
_CLOSING_TAG = re.compile(r"[ \t]*</[A-Za-z][\w-]*>[ \t]*$")


def _tab(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A content tab: its title, then the lines indented four spaces past its marker, as blocks."""
    if is_code_block(state, start):
        return False
    found = _TAB.match(state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]])
    if found is None:
        return False
    if silent:
        return True
    kept = state.parentType, state.lineMax, state.blkIndent
    state.blkIndent = state.sCount[start] + 4
    last = start
    for line in range(start + 1, end):
        if state.isEmpty(line):
            continue
        if state.sCount[line] < state.blkIndent:
            break
        last = line
    state.lineMax = last + 1
    opened = state.push("tab_open", "div", 1)
    opened.markup, opened.map, opened.block = "===", [start, last + 1], True
    title = state.push("inline", "", 0)
    title.content, title.map, title.children = found["title"], [start, start + 1], []
    state.md.block.tokenize(state, start + 1, last + 1)
    state.push("tab_close", "div", -1).block = True
    state.parentType, state.lineMax, state.blkIndent = kept
    state.line = last + 1
    return True


PARSER = (
    MarkdownIt("commonmark", {"html": True})
    .enable("table")
    .use(admon_plugin)
    .use(dollarmath_plugin, allow_space=False)
    .use(footnote_plugin, inline=False, move_to_end=False)
)
PARSER.block.ruler.before("fence", "tab", _tab, {"alt": ["paragraph", "reference", "blockquote", "list"]})


def parse(text: str) -> tuple[Token, ...]:
    """The text's block tokens; each `token.map` is `[first line, line after]`, 0-based."""
    blanked = FRONT.sub(lambda m: "\n" * m.group(0).count("\n"), text, count=1)
    return tuple(_markdown_in_html(PARSER.parse(blanked), blanked.split("\n")))


def _markdown_in_html(tokens: list[Token], lines: list[str]) -> list[Token]:
    """`tokens` with each block of HTML whose first tag is marked `markdown` (md_in_html) read
    as what it renders: that tag, its lines as Markdown, and the tag closing it."""
    found: list[Token] = []
    for token in tokens:
        first, end = token.map or (0, 0)
        if token.type != "html_block" or end - first < 2 or not _MARKDOWN_IN_HTML.match(lines[first]):
            found.append(token)
            continue
        closes = _CLOSING_TAG.match(lines[end - 1]) is not None
        inner = lines[first + 1 : end - closes]
        opening = Token("html_block", "", 0, map=[first, first + 1], content=lines[first] + "\n", block=True)
        inside = PARSER.parse("\n" * (first + 1) + "\n".join(inner))
        found += [opening, *_markdown_in_html(inside, lines)]
        if closes:
            found.append(
                Token("html_block", "", 0, map=[end - 1, end], content=lines[end - 1] + "\n", block=True)
            )
    return found


def code_lines(tokens: Iterable[Token]) -> frozenset[int]:
    """The lines (0-based) of every code block of a page's tokens, fenced or indented, wherever
    it is: what is shown exactly as written."""
    blocks = (t.map for t in tokens if t.type in ("fence", "code_block") and t.map)
    return frozenset(n for first, end in blocks for n in range(first, end))


def fences_in(tokens: Iterable[Token]) -> tuple[Fence, ...]:
    """Every fenced block of a page's tokens, outermost only (a fence shown inside a fence is its body)."""
    found = []
    for token in tokens:
        if token.type != "fence" or token.map is None:
            continue
        try:
            language, *rest = shlex.split(token.info) or [""]
            unread = ""
        except ValueError as error:  # SuperFences shows such a fence as text, and runs nothing
            language, rest = token.info.split()[0], []
            unread = (
                f"this fence's info string `{token.info}` cannot be read ({error}), so it is shown as text"
            )
        options = {k: v for k, _, v in (w.partition("=") for w in rest if "=" in w)}
        words = frozenset(w for w in rest if "=" not in w)
        body = token.content.removesuffix("\n")
        line, end = token.map[0] + 1, token.map[1]
        found.append(Fence(line, end, token.markup, language, words, options, body, unread))
    return tuple(found)
