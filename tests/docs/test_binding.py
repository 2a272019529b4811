"""The check: each bound number held against its expression's value now, and each worked sum."""

from __future__ import annotations

from collections.abc import Mapping

from attend_book.run import run_page
from bound_numbers import Value
from bound_numbers.check import check, one_per_cause
from bound_numbers.declared import Declared, Given
from bound_numbers.reading import read

BOOK = Declared(
    labels={"slot": "len(q)", "token": None}, givens={"matrices": Given(3, "a query, a key and a value")}
)

F = "```"
PAGE = f"""---
title: t
---

{F}python exec="1"
q = [0.0, 3.0, 0.5, 0.0]
k = [0.0, 1.0, 0.25, 0.5]
{F}

The query is (0, 3, 0.5, 0){{= q}}; slot 3: 0.5{{= q[2]}}×0.25{{= k[2]}} = 0.125{{= q[2] * k[2]}}.
Sixteen{{= len(q) ** 2}} scores in all.
"""


def problems(markdown: str, given: Mapping[str, Value] | None = None) -> list[str]:
    """The page's problems, from its own run, or from `given`: each expression's value wherever asked."""
    reading = read(markdown, BOOK)
    if given is None:
        values = run_page("docs/p.md", markdown, reading.asked).values
    else:
        values = {asked: given[asked.expression] for asked in reading.asked if asked.expression in given}
    return [p.render("docs/p.md") for p in check(reading, values)]


def test_numbers_that_read_as_their_values_at_their_precision_have_no_problem() -> None:
    assert problems(PAGE) == []


def test_a_moved_value_is_one_line_with_page_line_column_the_number_its_value_now_and_its_binding() -> None:
    moved = PAGE.replace("q = [0.0, 3.0, 0.5, 0.0]", "q = [0.0, 3.0, 0.6, 0.0]")
    assert problems(moved) == [
        "docs/p.md:10:21: 0.5 is written, 0.6 is computed now, bound to {= q}",
        "docs/p.md:10:43: 0.5 is written, 0.6 is computed now, bound to {= q[2]}",
        "docs/p.md:10:70: 0.125 is written, 0.150 is computed now, bound to {= q[2] * k[2]}",
    ]


def test_a_number_word_is_held_to_its_value_and_shown_as_the_word_it_should_be() -> None:
    assert problems(PAGE.replace("Sixteen{", "Fifteen{")) == [
        "docs/p.md:11:1: Fifteen is written, Sixteen is computed now, bound to {= len(q) ** 2}"
    ]


def test_a_worked_result_is_held_to_the_code_and_to_its_written_operands() -> None:
    wrong = PAGE.replace("0.125{", "0.13{")
    assert problems(wrong) == [
        "docs/p.md:10:70: 0.13 is written, 0.12 is computed now, bound to {= q[2] * k[2]}",
        "docs/p.md:10:70: 0.5×0.25 = 0.13 does not hold: the written operands give 0.1250; "
        "show more digits, or write ≈",
    ]


def test_rounded_operands_that_miss_the_codes_rounded_result_fail_unless_written_approximate() -> None:
    page = "Total 4.7707{= a} + 1.4550{= b} = 6.2258{= a + b}.\n"
    values: dict[str, Value] = {"a": 4.77074, "b": 1.45504, "a + b": 6.22578}
    assert [p.split(": ", 1)[1] for p in problems(page, values)] == [
        "4.7707 + 1.4550 = 6.2258 does not hold: the written operands give 6.225700; "
        "show more digits, or write ≈"
    ]
    assert problems(page.replace(" = ", " ≈ "), values) == []


def test_a_binding_that_cannot_be_worked_out_or_does_not_fit_is_one_line_never_a_traceback() -> None:
    values: dict[str, Value] = {"x": "NameError: name 'x' is not defined", "v": [1.0, 2.0], "w": 3.0}
    assert problems("It is 3{= x}, 1{= v}, (3, 4){= w}, (1, 2, 3){= v}.\n", values) == [
        "docs/p.md:1:7: 3{= x} cannot be worked out: NameError: name 'x' is not defined",
        "docs/p.md:1:15: 1{= v} is a list of 2 values, not one number: bind a group, or index it",
        "docs/p.md:1:24: (3, 4){= w} gives 3.0, not a flat list of 2 numbers",
        "docs/p.md:1:37: (1, 2, 3){= v} gives 2 numbers for the 3 written",
    ]


def test_a_given_is_held_to_its_declared_value_like_any_number() -> None:
    page = (
        '---\ngivens:\n  most: [1, "the most a share can be"]\n---\n\nAt most 1{= most}, three{= matrices}.\n'
    )
    assert problems(page) == []
    assert problems(page.replace("most 1{", "most 13{")) == [
        "docs/p.md:6:9: 13 is written, 1 is computed now, bound to {= most}"
    ]
    assert problems(page.replace("three{", "four{")) == [
        "docs/p.md:6:20: four is written, three is computed now, bound to {= matrices}"
    ]


def test_a_label_is_held_to_the_range_declared_for_its_word() -> None:
    assert problems(PAGE + "Nothing in slot 4.\n") == []
    assert problems(PAGE + "Nothing in slot 43.\n") == [
        "docs/p.md:12:17: slot 43 is out of range: slot counts from 1 to 4 (len(q))"
    ]
    page = PAGE.replace("title: t\n", 'title: t\nlabels: {slot: "len(k) - 1"}\n')  # the page's own range
    assert problems(page + "Slot 4.\n") == [
        "docs/p.md:13:6: slot 4 is out of range: slot counts from 1 to 3 (len(k) - 1)"
    ]


def test_a_range_that_cannot_be_worked_out_is_said_once() -> None:
    values: dict[str, Value] = {"len(q)": "NameError: name 'q' is not defined"}
    assert problems("Slot 1 and slot 2.\n", values) == [
        "docs/p.md:1:6: slot 1: the range of slot, len(q), cannot be worked out: "
        "NameError: name 'q' is not defined"
    ]


def test_one_binding_for_a_sum_holds_each_operand_and_the_result_where_it_is_written() -> None:
    page = PAGE + "One sum: 0.5×0.25 = 0.125{= q[2] * k[2]}; 3 + 0.5 = 3.5{= q[1] + q[2] == sum(q)}.\n"
    assert problems(page) == []
    assert problems(page.replace("0.5×0.25", "0.6×0.25")) == [
        "docs/p.md:12:10: 0.6 is written, 0.5 is computed now, bound to {= q[2]}",
        "docs/p.md:12:21: 0.6×0.25 = 0.125 does not hold: the written operands give 0.15000; "
        "show more digits, or write ≈",
    ]
    assert problems(page.replace("= 3.5{", "= 3.6{")) == [
        "docs/p.md:12:53: 3.6 is written, 3.5 is computed now, bound to {= q[1] + q[2] == sum(q)}",
        "docs/p.md:12:53: 3 + 0.5 = 3.6 does not hold: the written operands give 3.500; "
        "show more digits, or write ≈",
    ]


def test_a_percentage_quotes_its_number_as_written_and_a_share_bound_to_it_is_one_clear_line() -> None:
    assert problems("Its share is 58%{= p} and 58.0%{= 100 * s}.\n", {"p": 58, "100 * s": 58.04}) == []
    assert problems("Its share is 58%{= s}.\n", {"s": 0.58}) == [
        "docs/p.md:1:14: 58% is written, 0.58 is computed now, bound to {= s}: a percentage quotes its "
        "number as written, so bind it to 100 × the share"
    ]


def test_an_integer_past_a_floats_range_is_one_line_as_a_number_a_group_or_a_word() -> None:
    huge = 10**400
    values: dict[str, Value] = {"n": huge, "v": [1, huge], "w": -huge}
    assert problems("It is 5{= n}, (1, 2){= v} and sixteen{= w}.\n", values) == [
        f"docs/p.md:1:{column}: {written} gives an integer past a float's range, which no written number "
        "here can quote"
        for column, written in [(7, "5{= n}"), (16, "(1, 2){= v}"), (31, "sixteen{= w}")]
    ]


def test_bindings_stopped_by_one_missing_name_are_one_line_naming_them_in_the_builds_report() -> None:
    gone = PAGE.replace("q = [0.0, 3.0, 0.5, 0.0]\n", "")
    assert len(problems(gone)) == 5  # one each (the label's range too), for the tools that count them
    reading = read(gone, BOOK)
    values = run_page("docs/p.md", gone, reading.asked).values
    assert [p.render("docs/p.md") for p in one_per_cause(check(reading, values))] == [
        "docs/p.md:9:15: (0, 3, 0.5, 0){= q} cannot be worked out: NameError: name 'q' is not defined; "
        "nor, for that reason, can 4 more: the range of slot (line 9), {= q[2]} (line 9), "
        "{= q[2] * k[2]} (line 9), {= len(q) ** 2} (line 10)"
    ]


def test_a_misspelt_name_in_a_binding_is_told_the_nearest_name_the_page_defines() -> None:
    [said] = problems(PAGE.replace("0.25{= k[2]}", "0.25{= kk[2]}"))
    assert said == (
        "docs/p.md:10:55: 0.25{= kk[2]} cannot be worked out: "
        "NameError: name 'kk' is not defined; did you mean 'k'?"
    )
