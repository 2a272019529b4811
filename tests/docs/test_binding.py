"""Binding: each numeral held to the one printed value its ledger says it quotes."""

from __future__ import annotations

from pathlib import Path

from attend_book.binding import Entry, check, dump_ledger, excerpt, ledger_path, load_ledger
from attend_book.plugin import BookPlugin
from attend_book.run import Block

PAGE = """---
title: t
---

```python exec="1"
print("score 3.1250 and share 0.5800")
print("row 2 sums to 1.0000, largest 0.5800 at token 1")
```

The score is 3.125, and 0.58 of it goes to token 1.
"""

OUTPUT = "score 3.1250 and share 0.5800\nrow 2 sums to 1.0000, largest 0.5800 at token 1\n"
HEAD = 'print("score 3.1250 and share 0.5800")'
LEDGER = [
    Entry("The score is [3.125], and", 1, HEAD, 1, "score [3.1250] and share", 1),
    Entry("3.125, and [0.58] of it", 1, HEAD, 1, "and share [0.5800]", 2),
    Entry("goes to token [1].", 1, HEAD, 2, "at token [1]", 4),
]


def problems(page: str = PAGE, output: str = OUTPUT, ledger: list[Entry] = LEDGER) -> list[str]:
    return [
        p.render("docs/p.md") for p in check(page, [Block("python", 5, output)], ledger, "docs/p.numbers.yml")
    ]


def test_numerals_that_read_as_their_quotes_at_their_precision_have_no_problem() -> None:
    assert problems() == []


def test_a_moved_value_is_reported_with_page_line_numeral_value_now_and_what_it_quotes() -> None:
    assert problems(output=OUTPUT.replace("3.1250", "3.1500")) == [
        'docs/p.md:10: 3.125 is written, 3.1500 is computed now, at block 1 (print("score 3.1250 and share '
        '0.5800")), line 1 "score 3.1500 and share 0.5800", field 1'
    ]


def test_a_value_another_line_prints_does_not_excuse_a_swapped_numeral() -> None:
    swapped = PAGE.replace("goes to token 1", "goes to token 2")  # the page prints a 2 elsewhere
    assert problems(swapped) == [
        'docs/p.md:10: 2 is written, 1 is computed now, at block 1 (print("score 3.1250 and share '
        '0.5800")), line 2 "row 2 sums to 1.0000, largest 0.5800 at token 1", field 4'
    ]


def test_fewer_decimals_are_held_to_the_quote_rounded_not_to_anything_near_it() -> None:
    assert problems(PAGE.replace("0.58 of", "0.6 of")) == [] == problems(PAGE.replace("0.58 of", "0.58 of"))
    assert len(problems(PAGE.replace("0.58 of", "0.5 of"))) == 1


def test_a_new_numeral_is_reported_unbound_with_the_words_around_it() -> None:
    assert problems(PAGE + "\nIt took 16 steps.\n") == [
        "docs/p.md:12: 16 is new and unbound: It took [16] steps."
    ]


def test_an_edit_above_a_numeral_does_not_unbind_it() -> None:
    moved = PAGE.replace("The score", "A new paragraph, with 4 words.\n\nThe score")
    assert problems(moved) == ["docs/p.md:10: 4 is new and unbound: new paragraph, with [4] words."]


def test_a_quoted_line_that_moved_is_found_again_by_its_text() -> None:
    assert problems(output="a line printed first\n" + OUTPUT) == []


def test_a_binding_whose_line_or_block_is_gone_is_reported() -> None:
    assert problems(output="score 3.1250 and share 0.5800\n")[-1] == (
        'docs/p.md:10: 1 quotes nothing now: block 1 (print("score 3.1250 and share 0.5800")) prints '
        'no line like "at token [1]" any more'
    )
    gone = [Entry(e.at, 2, "print(1)", e.line, e.text, e.field) for e in LEDGER]
    assert (
        problems(ledger=gone)[0]
        == "docs/p.md:10: 3.125 quotes nothing now: no block begins `print(1)` any more"
    )


def test_a_given_is_held_to_its_declared_value_and_needs_a_reason() -> None:
    given = [Entry("goes to token [1].", given="the first token", value="1"), *LEDGER[:2]]
    assert problems(ledger=given) == []
    assert problems(PAGE.replace("token 1.", "token 2."), ledger=given) == [
        "docs/p.md:10: 2 is written, the ledger gives it as 1 (the first token)"
    ]
    assert problems(ledger=[Entry("goes to token [1].", given=" ", value="1"), *LEDGER[:2]]) == [
        "docs/p.md:10: 1 is declared a given without a reason"
    ]


def test_a_ledger_entry_no_numeral_matches_is_reported_against_the_ledger() -> None:
    assert problems(ledger=[*LEDGER, Entry("a sentence since [deleted]", 1, HEAD, 1, "", 1)]) == [
        "docs/p.numbers.yml:1: the ledger binds a numeral the page no longer writes: "
        "a sentence since [deleted]"
    ]


def test_an_equation_is_evaluated_and_one_that_does_not_hold_is_reported_with_its_value() -> None:
    page = PAGE + "\nHalf of it: 3.125 ÷ 2 = 1.5625, or 3.125 ÷ 2 = 1.6 at one place, not 3.125 ÷ 2 = 1.5.\n"
    assert [p for p in problems(page) if "hold" in p] == [
        "docs/p.md:12: 3.125 ÷ 2 = 1.5 does not hold (3.125 ÷ 2 is 1.5625)"
    ]


def test_an_equation_that_cannot_be_worked_out_is_one_problem_line() -> None:
    page = PAGE + "\nSo 1 ÷ 0 = 2.\n"
    assert [p for p in problems(page) if "worked out" in p] == [
        "docs/p.md:12: 1 ÷ 0 = 2 cannot be worked out: float division by zero"
    ]


def test_a_ledger_reads_back_as_it_was_written(tmp_path: Path) -> None:
    path = ledger_path(tmp_path / "p.md")
    entries = [*LEDGER, Entry("a [404] page", given="the status of a missing page: it is #1", value="404")]
    path.write_text(dump_ledger(entries, "p.md"), encoding="utf-8")
    assert path.name == "p.numbers.yml"
    assert load_ledger(path) == entries


def test_a_hand_written_binding_of_bare_numbers_is_read(tmp_path: Path) -> None:
    path = tmp_path / "p.numbers.yml"
    path.write_text("- at: goes to token [1].\n  block: 1\n  line: 2\n  field: 4\n", encoding="utf-8")
    [entry] = load_ledger(path)
    assert (entry.block, entry.head, entry.line, entry.text, entry.field) == (1, "", 2, "", 4)


def test_the_builds_check_reports_each_problem_of_a_page_once(tmp_path: Path) -> None:
    """The same check through the plugin, as the build runs it on a page and its ledger."""
    page_path = tmp_path / "docs" / "p.md"
    page_path.parent.mkdir()
    source = PAGE.replace("3.125,", "3.126,")
    page_path.write_text(source, encoding="utf-8")
    ledger_path(page_path).write_text(dump_ledger(LEDGER, "p.md"), encoding="utf-8")
    found = BookPlugin().check_numbers(
        "docs/p.md", source, [Block("python", 5, OUTPUT)], {"title": "t"}, tmp_path
    )
    assert found == [
        "docs/p.md:1: the front matter has no description",
        'docs/p.md:10: 3.126 is written, 3.1250 is computed now, at block 1 (print("score 3.1250 and share '
        '0.5800")), line 1 "score 3.1250 and share 0.5800", field 1',
    ]


def test_a_quoted_line_is_kept_as_its_number_with_two_words_either_side() -> None:
    line = "    row 2  sums to 1.0000   its largest share, 0.5800, goes to token 1"
    assert excerpt(line, 3) == "largest share, [0.5800], goes to"
    assert excerpt(line, 1) == "row [2] sums to"
    assert excerpt(line, 9) is None
