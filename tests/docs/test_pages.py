"""Every page, held to the book's rules without building the site."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.utils.meta import get_data
from tree import DOCS, pages

from attend_book.markdown import fences
from attend_book.plugin import BookPlugin
from attend_book.reading import read
from attend_book.run import run_page

PAGES = pages()


def name(page: Path) -> str:
    return page.relative_to(DOCS.parent).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_page_passes_the_builds_own_check_of_its_front_matter_numbers_and_includes(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    reading = read(text)
    values = run_page(name(page), text, reading.expressions).values
    plugin = BookPlugin()
    plugin.root = DOCS.parent
    assert plugin.check_numbers(name(page), text, reading, values, get_data(text)[1]) == []


def test_every_python_block_imports_from_attend_or_continues_a_page_that_did() -> None:
    for page in PAGES:
        blocks = [
            f for f in fences(page.read_text(encoding="utf-8")) if f.executed and f.language == "python"
        ]
        if blocks:
            assert "from attend" in blocks[0].body or "import attend" in blocks[0].body, name(page)
