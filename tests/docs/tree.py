"""Where the book's sources are, for the tests that read them."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """Every Markdown page of the book, in file-name order."""
    return sorted(DOCS.rglob("*.md"))
