"""The chronicle: the shipped text, its shape, and the script that wrote it."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

from attend.book.chapter import CHAPTER_ENTRY
from attend.core.chronicle import chronicle_text, entries

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "make_chronicle.py"
ENTRY = re.compile(
    r"year (?P<year>\d+): (?P<standing>\d+) (?P<kind>[a-z]+) standing in "
    r"(?P<place>[A-Z][A-Za-z ]*), (?P<born>\d+) born and (?P<gone>\d+) gone"
)


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_chronicle", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_chapter_entry_is_a_line_of_the_chronicle() -> None:
    assert CHAPTER_ENTRY in entries()


def test_the_chapter_entry_is_66_bytes() -> None:
    assert len(CHAPTER_ENTRY.encode("utf-8")) == 66


def test_every_entry_has_the_one_shape() -> None:
    for entry in entries():
        assert ENTRY.fullmatch(entry), entry


def test_every_place_keeps_standing_equal_to_founders_plus_born_minus_gone() -> None:
    founders: dict[str, int] = {}
    last: dict[str, tuple[int, int, int]] = {}
    for entry in entries():
        found = ENTRY.fullmatch(entry)
        assert found is not None
        year, standing, born, gone = (int(found[k]) for k in ("year", "standing", "born", "gone"))
        place = found["place"]
        founders.setdefault(place, standing - born + gone)
        assert standing == founders[place] + born - gone, entry
        if place in last:
            before_year, before_born, before_gone = last[place]
            assert year == before_year + 1, entry
            assert born >= before_born and gone >= before_gone, entry
        last[place] = (year, born, gone)
    assert founders["The Hollow"] == 29


def test_each_place_has_one_entry_a_year() -> None:
    seen = [(m["year"], m["place"]) for m in map(ENTRY.fullmatch, entries()) if m]
    assert len(seen) == len(set(seen))


def test_the_chronicle_is_one_entry_a_line_and_not_enormous() -> None:
    text = chronicle_text()
    assert text.endswith("\n")
    assert text.count("\n") == len(entries())
    assert len(text.encode("utf-8")) < 200_000


def test_the_script_writes_the_shipped_chronicle_byte_for_byte() -> None:
    assert _script().chronicle() == chronicle_text()


def test_importing_the_script_writes_nothing() -> None:
    data = SCRIPT.parent.parent / "src" / "attend" / "core" / "data"
    before = {p: p.stat().st_mtime_ns for p in data.iterdir()}
    _script()
    after = {p: p.stat().st_mtime_ns for p in before}
    assert before == after
