"""The one Markdown reader of the number check: markdown-it-py, the parser pytest-markdown-docs
runs on, taught the containers mkdocs sites render.

A page is parsed here once (`page.Page.tokens`, `page.Page.fences`), so the check, a provider
that runs the page's fences and a site's tests agree on where a fence starts and what it holds.
Besides CommonMark and tables it reads, as Python-Markdown's extensions render them:
admonitions and collapsible details (`!!! note`, `??? note`, `???+ note`), content tabs
(`=== "Tab"`, pymdownx.tabbed), footnotes (`[^1]: …`), Markdown inside HTML (`<div markdown>`,
md_in_html) and math (`$…$` and `$$`, as pymdownx.arithmatex finds it: a `$` with a space on its
inner side opens or closes nothing, so `$5 and $6` are prices). The text of each is prose; an
indented block anywhere else is code. A container's body is every line indented past its marker,
blank lines and all, as Python-Markdown reads it: the admonitions and tabs are read here, not by
mdit-py-plugins' admonition plugin, which ended one at two blank lines (the blank lines Python
puts between functions), so that the check ran a fence cut short that the reader was shown whole.
Line numbers are the file's own (1-based): the front matter is blanked, not cut, before parsing.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.utils import is_code_block

from bound_numbers.page import FRONT, Fence

# An include line as pymdownx.snippets reads it: a file, and after a colon perhaps a section.
INCLUDE = re.compile(r"""^[ \t]*-+8<-+[ \t]+["'](?P<path>[^"':]+):?(?P<part>[^"']*)["'][ \t]*$""")
# A content tab as pymdownx.tabbed opens one: `=== "Title"` (`===+` or `===!` to select it).
_TAB = re.compile(r'={3}(?:\+!?|!\+?)?[ \t]+"(?P<title>.*?)"[ \t]*$')
# An admonition (`!!! note "Title"`, Python-Markdown's admonition) or a collapsible block
# (`??? note`, `???+ note`, pymdownx.details): its kinds, perhaps a quoted title.
_ADMONITION = re.compile(
    r'(?P<marker>!!!|\?{3}\+?) ?(?P<kinds>[\w-]+(?: +[\w-]+)*?)?(?: +"(?P<title>.*?)")? *$'
)
# A block of HTML whose Markdown md_in_html renders: its first line opens a tag marked `markdown`.
_MARKDOWN_IN_HTML = re.compile(r"[ \t]*<[A-Za-z][\w-]*(?:\s[^>]*)?\smarkdown\b[^>]*>[ \t]*$")
_CLOSING_TAG = re.compile(r"[ \t]*</[A-Za-z][\w-]*>[ \t]*$")


def _ended(state: StateCore) -> None:
    """The text ended by a line break. A last line that is a quote mark alone (`>`, as a notebook
    makes a blank line of an admonition) otherwise starts at the text's very end, where
    markdown-it-py's block rules (html_block, mdit-py-plugins' admonition), asked whether a table
    above ends there, index past it: IndexError. The break adds no line."""
    if not state.src.endswith("\n"):
        state.src += "\n"


def _opening(state: StateBlock, line: int) -> str:
    """Line `line` past its indent, or "" where it is code (indented four spaces past the block
    it is in)."""
    if is_code_block(state, line):
        return ""
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def _body_end(state: StateBlock, start: int, end: int) -> int:
    """The line after the body of the block opened at `start` (blank lines after it included):
    every line after it indented four spaces past its marker, as Python-Markdown reads an
    admonition's, a details block's or a tab's. Blank lines never end it, however many: only a
    line indented less does."""
    for line in range(start + 1, end):
        if not state.isEmpty(line) and state.sCount[line] < state.sCount[start] + 4:
            return line
    return end


def _contained(state: StateBlock, start: int, end: int, kind: str, markup: str, title: str) -> Token:
    """A block and its body as blocks: `kind`_open (returned), its
    title as an inline token (an admonition's in a paragraph, as mdit-py-plugins made it; none
    for ""), the body, `kind`_close."""
    kept = state.parentType, state.lineMax, state.blkIndent
    last = _body_end(state, start, end)
    state.parentType, state.lineMax, state.blkIndent = kind, last, state.sCount[start] + 4
    opened = state.push(f"{kind}_open", "div", 1)
    opened.markup, opened.map, opened.block, opened.content = markup, [start, last], True, title
    if title:
        wrapped = kind == "admonition"
        if wrapped:
            state.push("admonition_title_open", "p", 1).map = [start, start + 1]
        named = state.push("inline", "", 0)
        named.content, named.map, named.children = title, [start, start + 1], []
        if wrapped:
            state.push("admonition_title_close", "p", -1)
    state.md.block.tokenize(state, start + 1, last)
    state.push(f"{kind}_close", "div", -1).block = True
    state.parentType, state.lineMax, state.blkIndent = kept
    state.line = last
    return opened


def _tab(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A content tab: its title, then the lines indented four spaces past its marker, as blocks."""
    found = _TAB.match(_opening(state, start))
    if found is None or silent:
        return found is not None
    _contained(state, start, end, "tab", "===", found["title"])
    return True


def _admonition(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """An admonition (`!!! note "Title"`) or a collapsible block (`??? note`, `???+ note`, or
    `??? "Title"`), as Python-Markdown's admonition and pymdownx.details read one: its title (a
    quoted one, or its first kind capitalized; `""`: none), then its body as blocks."""
    found = _ADMONITION.match(_opening(state, start))
    if found is None or not (found["kinds"] or (found["title"] is not None and found["marker"] != "!!!")):
        return False
    if silent:
        return True
    kinds = " ".join(found["kinds"].lower().split()) if found["kinds"] else ""
    title = kinds.split(" ")[0].capitalize() if found["title"] is None else found["title"]
    opened = _contained(state, start, end, "admonition", found["marker"], title)
    opened.meta = {"tag": kinds.split(" ")[0]}  # its kind, as mdit-py-plugins' admonitions had it
    return True


PARSER = (
    MarkdownIt("commonmark", {"html": True})
    .enable("table")
    .use(dollarmath_plugin, allow_space=False)
    .use(footnote_plugin, inline=False, move_to_end=False)
)
PARSER.core.ruler.after("normalize", "ended", _ended)
for _name, _rule in (("admonition", _admonition), ("tab", _tab)):
    PARSER.block.ruler.before(
        "fence", _name, _rule, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )


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
