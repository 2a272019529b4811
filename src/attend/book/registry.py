"""Every mode of `attend`, each declared once: what the command, its `--help`, the README and the
tests read.

A mode is one module of `attend.book.modes`, named as the command's word for it, that holds
`MODE = Mode(...)` (`attend.book.modes.Mode` says what is declared). Nothing else names a mode,
so adding one is adding that one module; `docs/contributing.md` says how.
"""

from __future__ import annotations

import pkgutil
from functools import cache
from importlib import import_module
from typing import Any

from attend.book import modes as package
from attend.book.modes import Mode
from attend.core.checks import WORK_LIMIT

__all__ = ["bound", "listing", "modes"]


@cache
def modes() -> dict[str, Mode[Any]]:
    """Every mode, found in the modules of `attend.book.modes`, in their order."""
    found: dict[str, Mode[Any]] = {}
    for module in pkgutil.iter_modules(package.__path__):
        declared = getattr(import_module(f"{package.__name__}.{module.name}"), "MODE", None)
        if not isinstance(declared, Mode):
            raise TypeError(f"attend.book.modes.{module.name} declares no MODE = Mode(...)")
        if declared.name != module.name:
            raise ValueError(
                f"attend.book.modes.{module.name} declares the mode {declared.name!r}, not its own"
            )
        found[declared.name] = declared
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


def bound(mode: Mode[Any] | None = None) -> str:
    """What keeps a run small, in words: one mode's (its `--help`), or every mode's (`attend --help`)."""
    chosen = list(modes().values()) if mode is None else [mode]
    reckoned = [m.bound for m in chosen if m.work is not None and m.bound]
    capped = [m.bound for m in chosen if m.work is None and m.bound]
    said = []
    if reckoned:
        said.append(
            f"One run handles at most {WORK_LIMIT:,} numbers, reckoned before it starts: "
            + "; ".join(reckoned)
            + ". That keeps a run under 1 GiB of memory and a few seconds."
        )
    said += [f"{words}." for words in capped]
    return " ".join(said)


def listing() -> str:
    """The modes as the README lists them: one line each, its flags and its help."""
    lines = []
    for mode in modes().values():
        flags = "".join(f" `{flag.name}{f' {flag.metavar}' if flag.metavar else ''}`" for flag in mode.flags)
        lines.append(f"- `attend {mode.name}`{flags}: {mode.help}")
    return "\n".join(lines)
