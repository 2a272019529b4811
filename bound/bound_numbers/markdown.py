"""The one Markdown reader of the number check: markdown-it-py, the parser pytest-markdown-docs
runs on.

A page is parsed here once (`page.Page.tokens`, `page.Page.fences`), so the check, a provider
that runs the page's fences and a site's tests agree on where a fence starts and what it holds.
Line numbers are the file's own (1-based): the front matter is blanked, not cut, before parsing.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin

from bound_numbers.page import FRONT, Fence

# An include line as pymdownx.snippets reads it: a file, and after a colon perhaps a section.
INCLUDE = re.compile(r"""^[ \t]*-+8<-+[ \t]+["'](?P<path>[^"':]+):?(?P<part>[^"']*)["'][ \t]*$""")
# Admonitions (`!!! note`) and math (`$…$`, `$$`) as mkdocs renders them, so that an indented
# admonition body is prose and not an indented code block, and TeX is read as math.
PARSER = MarkdownIt("commonmark", {"html": True}).enable("table").use(admon_plugin).use(dollarmath_plugin)


def parse(text: str) -> tuple[Token, ...]:
    """The text's block tokens; each `token.map` is `[first line, line after]`, 0-based."""
    return tuple(PARSER.parse(FRONT.sub(lambda m: "\n" * m.group(0).count("\n"), text, count=1)))


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
