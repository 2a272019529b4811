"""The valley's chronicle: the one real text this book's tokenizer learns from.

It is shipped as package data rather than generated on import, so that the
tokens printed in the book are tied to a file anyone can open and read;
``scripts/make_chronicle.py`` says how it was written.
"""

from __future__ import annotations

import functools
from pathlib import Path

DATA = Path(__file__).with_name("data")
"""The package's data files, found beside this module: reading them by path rather than
through importlib.resources spares every run that module's imports, a tenth of its start-up."""


@functools.cache
def chronicle_text() -> str:
    """The whole chronicle, read once; every caller slices the same text."""
    return (DATA / "chronicle.txt").read_text("utf-8")


def entries() -> list[str]:
    """One entry per line, because a line is one place in one year."""
    return chronicle_text().splitlines()
