"""Every page, held to the book's rules without building the site.

Each page's outputs come from the build's own execution cache (`.cache/attend-book`), as a build
takes them: a page whose code, package and versions did not change since a build or a test
ran it is not run again, and a page run here is not run again by the next build.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.utils.meta import get_data
from tree import DOCS, pages

from attend_book.cache import FOLDER, Cache, build_versions, fingerprint, source_roots
from attend_book.markdown import fences
from attend_book.plugin import BookPlugin
from attend_book.reading import read

PAGES = pages()
CACHE = Cache(DOCS.parent / FOLDER, fingerprint(source_roots(), build_versions()))


def name(page: Path) -> str:
    return page.relative_to(DOCS.parent).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_page_passes_the_builds_own_check_of_its_front_matter_numbers_and_includes(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    reading = read(text)
    values = CACHE.page(name(page), text, reading.expressions).values
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


def test_the_contributors_page_is_kept_only_while_the_tests_it_runs_and_the_files_it_quotes_stand() -> None:
    """A pinned test broken, score-square.md reworded or the browser tests' sizes changed: each
    is a file this page read, so its cached outputs are not used again (tests/docs/test_cache.py)."""
    page = DOCS / "contributing.md"
    text = page.read_text(encoding="utf-8")
    followed = {Path(p).resolve() for p in CACHE.page(name(page), text, read(text).expressions).read}
    tests = DOCS.parent / "tests"
    assert {tests / "test_chapter.py", tests / "browser" / "figures.py", DOCS / "score-square.md"} <= followed
