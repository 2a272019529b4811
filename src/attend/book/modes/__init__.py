"""The modes of `attend`, one module each: its table as data, that table as text, and its `MODE`.

Each module declares `MODE = Mode(...)`, named as the command's word for it (`mask.py` is
`attend mask`). `attend.book.registry` finds every module here and reads its `MODE`; the
command, its `--help`, the README's list and the tests all take the modes from there. The
figures and the pages read a mode's table directly (`from attend import modes`, then
`modes.mask.table()`), so nothing parses a printout back into numbers, and a change of layout
cannot change a number. Every array in a table is read-only and every record frozen: a table is
a result, not a workspace.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Generic, TypeVar

from attend.book.flags import Flag

__all__ = ["Mode"]

Table = TypeVar("Table")


@dataclass(frozen=True)
class Mode(Generic[Table]):
    """One mode of the command.

    `table` is called with each flag's value as a keyword (the flag's `dest`) and computes;
    `text` lays what it returned out, and computes nothing. `work`, given the same keywords,
    reckons the numbers a run will handle before any of it starts, held to `WORK_LIMIT`;
    `instead` says what to ask for when it is over. `bound` says in words what keeps a run
    small, for `--help`. `order` places the mode in `--help` and the README's list.
    """

    name: str
    help: str
    order: int
    table: Callable[..., Table]
    text: Callable[[Table], str]
    flags: tuple[Flag, ...] = ()
    work: Callable[..., int] | None = None
    instead: str = ""
    bound: str = ""

    def handled(self, values: Mapping[str, Any]) -> int:
        """The numbers a run with these flag values handles: 0 for a mode of a fixed, small run."""
        return 0 if self.work is None else self.work(**values)

    def printout(self, values: Mapping[str, Any]) -> str:
        """The mode's text for these flag values: its table computed, then laid out."""
        return self.text(self.table(**values))


def __getattr__(name: str) -> Any:
    """`modes.mask` is the mask mode's module, imported when first asked for (PEP 562)."""
    module = f"{__name__}.{name}"
    try:
        return import_module(module)
    except ModuleNotFoundError as missing:
        if missing.name != module:
            raise  # the mode's module is there, and something it imports is not
        raise AttributeError(f"attend.book.modes has no mode module {name!r}") from None
