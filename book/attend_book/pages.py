"""The book's pages read as data: their fences, and what their code prints when run.

mkdocs is not needed for any of this, so the tests can hold every page to the book's rules in
a fraction of a build: `fences(page)` lists a page's fenced blocks with their info words, and
`outputs(page)` runs the page's Python blocks (in one fresh markdown-exec session, as a build
does) and its `attend` transcripts, and returns what they printed, in page order.
"""

from __future__ import annotations

import functools
import itertools
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from markdown_exec._internal.formatters import python as _python

from attend_book.execute import commands, run_transcript

__all__ = ["DOCS", "Fence", "fences", "front_matter", "outputs", "pages"]

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<mark>`{3,}|~{3,})(?P<info>.*)$")
_counter = itertools.count()


@dataclass(frozen=True)
class Fence:
    """One fenced block: where it starts, its language, its info words and options, its body."""

    line: int = field(compare=False)
    end: int = field(compare=False)  # the line of its closing mark (one past the page if unclosed)
    mark: str
    language: str
    words: frozenset[str]
    options: tuple[tuple[str, str], ...]
    body: str

    def option(self, key: str) -> str:
        return dict(self.options).get(key, "")

    def switched_on(self, key: str) -> bool:
        """Whether an option such as `exec="1"` or `html="on"` is set, as markdown-exec reads it."""
        return self.option(key).lower() not in {"", "0", "no", "off", "false"}

    @property
    def executed(self) -> bool:
        return self.switched_on("exec")

    @property
    def session(self) -> str:
        return self.option("session")


def pages() -> list[Path]:
    """Every markdown page of the book, in file-name order."""
    return sorted(DOCS.rglob("*.md"))


def fences(page: str) -> list[Fence]:
    """Every fenced block of a page, outermost only (a fence shown inside a fence is its body)."""
    lines = page.splitlines()
    found: list[Fence] = []
    i = 0
    while i < len(lines):
        opened = _OPEN.match(lines[i])
        if opened is None:
            i += 1
            continue
        mark, info = opened.group("mark"), opened.group("info").strip()
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            stripped = lines[j].strip()
            if stripped.startswith(mark[0] * len(mark)) and set(stripped) == {mark[0]}:
                break
            body.append(lines[j][len(opened.group("indent")) :])
            j += 1
        tokens = shlex.split(info) if info else []
        language = tokens[0] if tokens else ""
        options = tuple(tuple(t.split("=", 1)) for t in tokens[1:] if "=" in t)
        words = frozenset(t for t in tokens[1:] if "=" not in t)
        found.append(Fence(i + 1, j + 1, mark, language, words, options, "\n".join(body)))  # type: ignore[arg-type]
        i = j + 1
    return found


def front_matter(page: str) -> dict[str, object]:
    """The YAML front matter of a page, or an empty mapping."""
    import yaml  # type: ignore[import-untyped]

    if not page.startswith("---\n"):
        return {}
    end = page.find("\n---\n", 4)
    loaded = yaml.safe_load(page[4:end]) if end > 0 else None
    return loaded if isinstance(loaded, dict) else {}


def outputs(page: str) -> list[str]:
    """What the page's Python blocks and transcripts print, run as a build runs them.

    HTML blocks (figures) are run too, since later blocks may rely on their state, but their
    output is drawing, not text, and is left out as the build leaves it out. Runs are
    remembered by the page's executed blocks, so changing only prose does not run them again.
    """
    return list(_outputs(tuple(f for f in fences(page) if f.executed)))


@functools.cache
def _outputs(executed: tuple[Fence, ...]) -> tuple[str, ...]:
    session = f"book-check-{next(_counter)}"
    printed: list[str] = []
    try:
        for fence in executed:
            if fence.language in {"python", "py"}:
                output = _python._run_python(fence.body, session=session if fence.session else None)
                if not fence.switched_on("html"):
                    printed.append(output)
            elif fence.language == "console":
                printed.append(run_transcript("\n".join(commands(fence.body))))
    finally:
        _python._sessions_globals.pop(session, None)
    return tuple(printed)
