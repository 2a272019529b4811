"""`nox -s renumber`: moved values rewritten, new numerals bound, and nothing done twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from attend_book import renumber as tool
from attend_book.binding import Entry, check, dump_ledger, ledger_path, load_ledger
from attend_book.renumber import renumber, restate
from attend_book.run import Block

PAGE = """---
title: t
---

```python exec="1"
print("query", [0.0, 3.0, 0.5, 0.0])
print("key  ", [0.0, 1.0, 0.25, 0.5])
```

The query is (0, 3, 0.5, 0), and its third slot meets the key's: 0.5×0.25 = 0.125.
"""
OUTPUT = "query [0.0, 3.0, 0.5, 0.0]\nkey   [0.0, 1.0, 0.25, 0.5]\n"
MOVED = OUTPUT.replace("0.5, 0.0]", "0.6, 0.0]")


def blocks(output: str = OUTPUT) -> list[Block]:
    return [Block("python", 5, output)]


@pytest.fixture
def bound() -> tuple[str, list[Entry]]:
    markdown, entries, report = renumber("docs/p.md", PAGE, blocks(), [])
    assert report.unbound == [] and markdown == PAGE
    return markdown, entries


def test_a_numeral_whose_run_lines_up_with_one_printed_line_is_bound_to_it(
    bound: tuple[str, list[Entry]],
) -> None:
    _, entries = bound
    assert [(e.at, e.line, e.field) for e in entries] == [
        ("The query is ([0], 3, 0.5, 0),", 1, 1),
        ("query is (0, [3], 0.5, 0), and", 1, 2),
        ("is (0, 3, [0.5], 0), and its", 1, 3),
        ("(0, 3, 0.5, [0]), and its third", 1, 4),
        ("meets the key's: [0.5]×0.25 = 0.125.", 1, 3),
        ("meets the key's: 0.5×[0.25] = 0.125.", 2, 3),
    ]
    assert check(PAGE, blocks(), entries) == []


def test_a_moved_value_is_rewritten_at_its_precision_with_the_equations_it_feeds(
    bound: tuple[str, list[Entry]],
) -> None:
    _, entries = bound
    markdown, entries, report = renumber("docs/p.md", PAGE, blocks(MOVED), entries)
    assert report.changes == [
        "docs/p.md:10 0.5 → 0.6",
        "docs/p.md:10 0.5 → 0.6",
        "docs/p.md:10 0.125 → 0.15",
    ]
    assert "The query is (0, 3, 0.6, 0), and its third slot meets the key's: 0.6×0.25 = 0.15." in markdown
    assert check(markdown, blocks(MOVED), entries) == []


def test_renumbering_twice_changes_nothing_the_second_time(bound: tuple[str, list[Entry]]) -> None:
    _, entries = bound
    once, entries_once, _ = renumber("docs/p.md", PAGE, blocks(MOVED), entries)
    twice, entries_twice, report = renumber("docs/p.md", once, blocks(MOVED), entries_once)
    assert (twice, entries_twice, report.changes, report.unbound) == (once, entries_once, [], [])


def test_a_numeral_several_printed_values_fit_equally_is_listed_with_its_candidates() -> None:
    page = PAGE + "\nBoth rows start with 0.\n"
    _, entries, report = renumber("docs/p.md", page, blocks(), [])
    assert report.unbound == [
        'docs/p.md:12: 0 could not be bound (3 candidates: block 1 (print("query", [0.0, 3.0, 0.5, 0.0])), '
        'line 1 "query [0.0, 3.0, 0.5, 0.0]", field 1; block 1 (print("query", [0.0, 3.0, 0.5, 0.0])), '
        'line 1 "query [0.0, 3.0, 0.5, 0.0]", field 4; block 1 (print("query", [0.0, 3.0, 0.5, 0.0])), '
        'line 2 "key [0.0, 1.0, 0.25, 0.5]", field 1): rows start with [0].'
    ]
    assert len(entries) == 6


def test_the_binding_of_a_numeral_no_longer_written_is_dropped(bound: tuple[str, list[Entry]]) -> None:
    _, entries = bound
    shorter = PAGE.replace(", and its third slot meets the key's: 0.5×0.25 = 0.125", "")
    _, kept, report = renumber("docs/p.md", shorter, blocks(), entries)
    assert [e.at for e in kept] == [
        "The query is ([0], 3, 0.5, 0).",
        "query is (0, [3], 0.5, 0).",
        "is (0, 3, [0.5], 0).",
        "(0, 3, 0.5, [0]).",
    ]
    assert [e.field for e in kept] == [1, 2, 3, 4]
    assert len(report.dropped) == 2


@pytest.mark.parametrize(
    ("printed", "written", "restated"),
    [
        ("3.1500", "3.125", "3.15"),
        ("0.6000", "0.5800", "0.6000"),
        ("8.399", "8.2257", "8.3990"),
        ("2.0000", "3", "2"),
        ("4096", "2,048", "4,096"),
        ("-1.5000", "−0.5", "−1.5"),
        ("0.6000", "0.5", "0.6"),
    ],
)
def test_a_new_value_is_written_the_way_the_old_one_was(printed: str, written: str, restated: str) -> None:
    assert restate(printed, written) == restated


def test_the_command_rewrites_pages_and_ledgers_and_says_what_it_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    page = docs / "p.md"
    page.write_text(
        PAGE.replace('print("query", [0.0, 3.0, 0.5, 0.0])', 'print("query", [0.0, 3.0, 0.6, 0.0])')
    )
    _, entries, _ = renumber("docs/p.md", PAGE, blocks(), [])
    ledger_path(page).write_text(dump_ledger(entries, "p.md"), encoding="utf-8")
    assert tool.main(["--docs", str(docs)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed == [f"{page.as_posix()}:10 0.5 → 0.6"] * 2 + [f"{page.as_posix()}:10 0.125 → 0.15"]
    assert "0.6×0.25 = 0.15." in page.read_text(encoding="utf-8")
    assert load_ledger(ledger_path(page)) == entries  # a value that moved changes the page only
    assert tool.main(["--docs", str(docs)]) == 0
    assert capsys.readouterr().out == ""
