"""Everything the build checks on one page, in one call: its numbers and its include lines."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from attend_book import binding, snippets
from attend_book.binding import Problem
from attend_book.run import Block

__all__ = ["page"]


def page(source: Path, markdown: str, blocks: Sequence[Block], root: Path) -> list[str]:
    """Each problem of the page as one line, `path:line: message`, paths relative to `root`."""
    ledger = binding.ledger_path(source)
    shown = source.relative_to(root).as_posix() if source.is_relative_to(root) else source.as_posix()
    shown_ledger = ledger.relative_to(root).as_posix() if ledger.is_relative_to(root) else ledger.as_posix()
    problems: list[Problem] = [
        *snippets.check(markdown, root),
        *binding.check(markdown, blocks, binding.load_ledger(ledger), shown_ledger),
    ]
    return [p.render(shown) for p in problems]
