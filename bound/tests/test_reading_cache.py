"""Each page's reading kept between builds (`reading_cache.py`): a later build reads again only
a page that changed, or every page when what the site declares or bound-numbers changed; an
entry that cannot be read, or a folder that cannot be written, costs a reading, never a wrong
one or a failed build. A site's build keeping them: test_site.py."""

from __future__ import annotations

import logging
import pickle
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from bound_numbers import reading_cache
from bound_numbers.declared import Declared, of_config
from bound_numbers.page import Page
from bound_numbers.reading import read
from bound_numbers.reading_cache import ReadingCache

TEXT = "# Savings\n\nA year of 12{= months} months at 6%{= 100 * rate} and a stray 7.\n"
PAGE = Page("docs/index.md", TEXT)


def cache(folder: Path, config: Mapping[str, Any] | None = None) -> ReadingCache:
    said = config or {}
    return ReadingCache(folder, of_config(said), said)


def unread(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, a page actually read fails the test."""
    monkeypatch.setattr(reading_cache, "read", lambda *_: pytest.fail("the page was read again"))


def test_a_later_build_takes_an_unchanged_pages_reading_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = cache(tmp_path).read(PAGE)
    assert first == read(PAGE, Declared()) and first.problems  # the stray 7 among them
    unread(monkeypatch)
    later = cache(tmp_path)
    assert later.read(Page(PAGE.path, TEXT)) == first and later.reads == 0


def test_a_page_found_in_the_cache_is_not_parsed_and_has_its_stripped_text_and_fences(tmp_path: Path) -> None:
    text = "---\ntitle: Savings\n---\n" + TEXT + "\n```python\nmonths, rate = 12, 0.06\n```\n"
    cache(tmp_path).read(Page(PAGE.path, text))
    found, parsed = Page(PAGE.path, text), Page(PAGE.path, text)
    cache(tmp_path).read(found)
    assert (found.stripped, found.fences) == (parsed.stripped, parsed.fences) and len(found.fences) == 1
    assert found.meta == parsed.meta == {"title": "Savings"}
    assert "tokens" not in vars(found)  # no Markdown parsed


def test_an_edited_page_is_read_again_and_its_new_reading_kept(tmp_path: Path) -> None:
    cache(tmp_path).read(PAGE)
    edited = Page(PAGE.path, TEXT.replace("a stray 7", "no stray number"))
    later = cache(tmp_path)
    assert later.read(edited) == read(edited, Declared()) and later.reads == 1
    assert not later.read(edited).problems and later.reads == 1


def test_a_page_is_read_again_when_the_site_declares_something_new(tmp_path: Path) -> None:
    cache(tmp_path).read(PAGE)
    declaring = {"not_results": {"patterns": [r"stray \d"]}}
    later = cache(tmp_path, declaring)
    assert later.read(PAGE) == read(PAGE, of_config(declaring)) and later.reads == 1


@pytest.mark.parametrize("changed", ["own", "parsers"])
def test_a_page_is_read_again_by_another_bound_numbers_or_another_markdown_parser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changed: str
) -> None:
    cache(tmp_path).read(PAGE)
    before = getattr(reading_cache, changed)()
    monkeypatch.setattr(reading_cache, changed, lambda: [before, "another version"])
    later = cache(tmp_path)
    assert later.read(PAGE) == read(PAGE, Declared()) and later.reads == 1


def test_a_damaged_entry_is_said_in_one_info_line_and_the_page_read_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache(tmp_path).read(PAGE)
    (entry,) = tmp_path.glob("*.pickle")
    for damaged in (b"not a pickle", pickle.dumps({"a": "dict"})):
        entry.write_bytes(damaged)
        later = cache(tmp_path)
        with caplog.at_level(logging.INFO):
            caplog.clear()
            assert later.read(PAGE) == read(PAGE, Declared()) and later.reads == 1
        said = [r for r in caplog.records if "cannot be read" in r.getMessage()]
        assert len(said) == 1 and said[0].levelno == logging.INFO and "\n" not in said[0].getMessage()
        assert pickle.loads(entry.read_bytes()).reading == read(PAGE, Declared())  # written anew


def test_a_folder_that_cannot_be_written_leaves_the_reading_whole(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache's folder would be", encoding="utf-8")
    with caplog.at_level(logging.INFO):
        assert cache(blocked / "readings").read(PAGE) == read(PAGE, Declared())
    assert any("cannot be written" in r.getMessage() and r.levelno == logging.INFO for r in caplog.records)


def test_prune_drops_the_entries_of_pages_a_build_did_not_read(tmp_path: Path) -> None:
    first = cache(tmp_path)
    first.read(PAGE)
    first.read(Page("docs/other.md", "Nothing but words.\n"))
    later = cache(tmp_path)
    later.read(PAGE)
    later.prune()
    assert len(list(tmp_path.glob("*.pickle"))) == 1 and later.read(PAGE) == read(PAGE, Declared())
