"""Where the book's sources are, for the tests that read them."""

from __future__ import annotations

from pathlib import Path

from mkdocs.utils.yaml import yaml_load

from attend_book.plugin import BookPlugin
from bound_numbers.declared import Declared, of_mkdocs

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """Every Markdown page of the book, in file-name order."""
    return sorted(DOCS.rglob("*.md"))


def book() -> Declared:
    """What the book's mkdocs.yml declares for every page's numbers."""
    return of_mkdocs(ROOT / "mkdocs.yml", "attend-book")


def plugin() -> BookPlugin:
    """The book's plugin configured as mkdocs.yml configures it, without a build."""
    made = BookPlugin()
    options = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    [mine] = [p["attend-book"] for p in options["plugins"] if isinstance(p, dict) and "attend-book" in p]
    errors, _ = made.load_config(mine, str(ROOT / "mkdocs.yml"))
    assert errors == [], errors
    made.root, made.declared = ROOT, book()
    return made
