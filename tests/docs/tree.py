"""Where the book's sources are, for the tests that read them."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:  # imported where they are used: `nox -s docs` runs test_site.py, which needs none
    from attend_book.plugin import BookPlugin
    from bound_numbers.declared import Declared
    from bound_numbers.plugin import BoundNumbersPlugin

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """Every Markdown page of the book, in file-name order."""
    return sorted(DOCS.rglob("*.md"))


def nav_pages() -> list[str]:
    """Every page the book's nav lists, by the name of its folder in the site ("index" for the
    home page), in the nav's order."""
    # YAML's base loader (libyaml's, where installed) reads the `!ENV` tags as plain values, which
    # the nav holds none of; mkdocs' own loader, pure Python, costs `nox -s docs` a tenth of a second.
    loader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    listed = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=loader)["nav"]

    def walked(items: list[Any]) -> list[str]:
        found = []
        for item in items:
            for entry in item.values() if isinstance(item, dict) else [item]:
                found += walked(entry) if isinstance(entry, list) else [str(entry)]
        return found

    return [Path(page).with_suffix("").as_posix() for page in walked(listed)]


def options(name: str) -> dict[str, Any]:
    """What the book's mkdocs.yml sets for the plugin `name` (its `!ENV` values resolved)."""
    from mkdocs.utils.yaml import yaml_load

    listed = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["plugins"]
    [mine] = [p[name] for p in listed if isinstance(p, dict) and name in p]
    return dict(mine)


@functools.cache
def book() -> Declared:
    """What the book's mkdocs.yml declares for every page's numbers."""
    from bound_numbers.declared import of_config

    return of_config(options("bound-numbers"))


def plugin() -> BookPlugin:
    """The book's plugin configured as mkdocs.yml configures it, without a build."""
    from attend_book.plugin import BookPlugin

    made = BookPlugin()
    errors, _ = made.load_config(options("attend-book"), str(ROOT / "mkdocs.yml"))
    assert errors == [], errors
    made.root = ROOT
    return made


def number_check() -> BoundNumbersPlugin:
    """The number check configured as mkdocs.yml configures it, without a build (and so without
    its provider: hand `problems` the values)."""
    from bound_numbers.plugin import BoundNumbersPlugin

    made = BoundNumbersPlugin()
    errors, _ = made.load_config(options("bound-numbers"), str(ROOT / "mkdocs.yml"))
    assert errors == [], errors
    made.root, made.declared = ROOT, book()
    return made
