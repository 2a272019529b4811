"""A page as the number check, its provider and every tool see it: read once, parsed once.

The plugin makes one `Page` for each page it checks and hands that same object to the provider
(`values.Provider.bound_values`), so a provider that shows the page too (its fences, its
notebook) reads what the check read, and nothing parses the text again. What a `Page` knows is
worked out the first time it is asked for and kept: the text a reader sees as Markdown, its
block tokens (markdown-it-py, imported only then), its fences, and the text without bindings.

A `Fence` is plain data that JSON carries (`as_dict`, `of_dict`): a page's process gets the
fences it runs that way, and imports nothing of the Markdown reader to run them.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markdown_it.token import Token

    from bound_numbers.reading import Problem

FRONT = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)  # a page's front matter, as mkdocs reads it
FALSE = frozenset({"", "0", "no", "off", "false"})  # the option values markdown-exec reads as false


@dataclass(frozen=True)
class Fence:
    """One fenced block: where it opens and closes (1-based), its info words, its body."""

    line: int = field(compare=False)
    end: int = field(compare=False)
    mark: str
    language: str
    words: frozenset[str]
    options: Mapping[str, str]  # `key="value"` words
    body: str
    unread: str = field(default="", compare=False)  # why its info string cannot be read; "": it can

    def switched_on(self, key: str) -> bool:
        """Whether an option such as `exec="1"` is set, read as markdown-exec reads it."""
        return self.options.get(key, "").lower() not in FALSE

    @property
    def executed(self) -> bool:
        return self.switched_on("exec")

    def as_dict(self) -> dict[str, Any]:
        """The fence as JSON carries it (`of_dict` makes it again)."""
        return {**dataclasses.asdict(self), "words": sorted(self.words), "options": dict(self.options)}

    @classmethod
    def of_dict(cls, data: Mapping[str, Any]) -> Fence:
        return cls(**{**data, "words": frozenset(data["words"])})


def as_written(path: str, text: str, line: int) -> tuple[str, int]:
    return path, line


@dataclass(frozen=True, eq=False)
class Page:
    """One page: its path as messages name it (from mkdocs.yml's folder), its text as the file has
    it (front matter and all, lines ending in `\\n`), `prose`, what of that text a reader sees as
    Markdown (the text itself, for a Markdown page; for a notebook, its cells), and `named`, how
    messages name a line of that Markdown (`path:line`; for a notebook, its cell and the line in it)."""

    path: str
    text: str
    prose: Callable[[str], str] = str
    named: Callable[[str, str, int], tuple[str, int]] = as_written

    def place(self, line: int) -> tuple[str, int]:
        """What messages name line `line` of the page's Markdown by: the page (or cell), the line."""
        return self.named(self.path, self.text, line)

    @functools.cached_property
    def markdown(self) -> str:
        """What the check reads: the text as a reader sees it as Markdown."""
        return self.prose(self.text)

    @functools.cached_property
    def tokens(self) -> tuple[Token, ...]:
        """The Markdown's block tokens; each `token.map` is `[first line, line after]`, 0-based."""
        from bound_numbers.markdown import parse  # here: a page's process never needs the parser

        return parse(self.markdown)

    @functools.cached_property
    def fences(self) -> tuple[Fence, ...]:
        """Every fenced block, outermost only (a fence shown inside a fence is its body)."""
        from bound_numbers.markdown import fences_in

        return fences_in(self.tokens)

    def line_of(self, code: str) -> int:
        """Where the fence is written whose code another reader of the page (SuperFences, which
        shows it) gives as `code`, for a message where the two disagree: the first of the
        page's fences that opens on the same line of code; else the line above the first line
        of the Markdown written as that line of code (its opening, unless it is read as no
        fence at all); else 1."""
        first = next((line.strip() for line in code.split("\n") if line.strip()), "")
        if not first:
            return 1
        for fence in self.fences:
            if next((line.strip() for line in fence.body.split("\n") if line.strip()), "") == first:
                return fence.line
        lines = self.markdown.split("\n")
        return next((n for n, line in enumerate(lines) if n and line.strip() == first), 1)

    @functools.cached_property
    def front(self) -> int:
        """How many lines the front matter takes (0: the page has none)."""
        found = FRONT.match(self.markdown)
        return found.group(0).count("\n") if found else 0

    @functools.cached_property
    def meta(self) -> Mapping[str, Any]:
        """The front matter as a mapping: {} for none, or for one that is not YAML (which the
        check says at line 1)."""
        from bound_numbers.declared import DeclarationError, front_matter

        try:
            return front_matter(self.markdown)
        except DeclarationError:
            return {}

    @functools.cached_property
    def stripped(self) -> str:
        """The text as a reader gets it: every binding taken out, fences and code untouched."""
        from bound_numbers.reading import strip

        return strip(self)


def rendered(page: Page, problem: Problem) -> str:
    """The problem's line as messages say it: `page:line:column: message`, for a notebook
    `page:cell N:line:column: message`."""
    label, line = page.place(problem.line)
    return dataclasses.replace(problem, line=line).render(label)


def placed(page: Page, said: str) -> str:
    """What a page's run said (`Unavailable`), which names a line of the page's Markdown as
    `path:line: …` (the page's process knows no cells), with that line named as every other
    message names it: for a notebook, `path:cell N:line: …`."""
    found = re.match(rf"{re.escape(page.path)}:(\d+)(?=:)", said)
    if found is None:
        return said
    label, line = page.place(int(found[1]))
    return f"{label}:{line}{said[found.end() :]}"


def line_named(page: Page, line: int) -> str:
    """Line `line` of the page's Markdown in the words of a message that names the page already:
    `line 12`, or for a notebook `cell 4, line 2`."""
    label, within = page.place(line)
    cell = label.removeprefix(page.path).removeprefix(":")
    return f"{cell}, line {within}" if cell else f"line {within}"
