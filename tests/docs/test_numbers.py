"""The prose-number check, rule by rule, on small pages written for each rule."""

from __future__ import annotations

import pytest

from attend_book.numerals import (
    check_page,
    equations,
    evaluate,
    output_numerals,
    prose_lines,
    prose_numerals,
)


def written(page: str) -> list[str]:
    return [n.text for n in prose_numerals(page)]


def messages(page: str, outputs: list[str], givens: dict[str, str] | None = None) -> list[str]:
    return [p.render("docs/p.md") for p in check_page(page, outputs, givens)]


def test_a_numeral_in_prose_is_found_with_its_source_line() -> None:
    page = "---\ntitle: t\n---\n\n# Heading\n\nThe score is 3.125 here.\n"
    [numeral] = prose_numerals(page)
    assert (numeral.line, numeral.text, numeral.value, numeral.decimals) == (7, "3.125", 3.125, 3)


def test_front_matter_fences_and_code_spans_are_not_prose() -> None:
    page = (
        "---\ntitle: volume 5\n---\n"
        "Text with `assert x == 3.126` in a span.\n"
        "```python\nprint(9999)\n```\n"
        "~~~\n42\n~~~\n"
        "    ```python\n    7\n    ```\n"
        "after 12\n"
    )
    assert written(page) == ["12"]


def test_numerals_glued_to_words_are_names_not_numbers() -> None:
    assert written("A float64, the d_k width, h2 and Wq2 are names; 4 is a number.") == ["4"]


def test_link_targets_tags_and_attribute_lists_are_not_prose() -> None:
    page = '[the 2nd page](page-2.md#s3) <img src="a1.png" width="300"> text { #id-9 } and 5\n'
    assert written(page) == ["5"]


def test_a_numbered_list_marker_is_not_a_number_but_its_text_is() -> None:
    assert written("1. first item with 64\n2. second item\n") == ["64"]


def test_an_admonition_title_is_prose_and_its_keyword_is_not() -> None:
    assert written('!!! note "Typed by hand, 4 numbers"\n    Body with 16 in it.\n') == ["4", "16"]


def test_math_is_prose_but_its_exponents_and_subscripts_are_not() -> None:
    page = "Cost $3 \\cdot n \\cdot D \\cdot d_k + 2 \\cdot n^2 \\cdot d_k$ counted.\n"
    assert written(page) == ["3", "2"]


def test_display_math_numerals_are_found_on_their_own_lines() -> None:
    page = "Before.\n\n$$\n\\sqrt{4} = 2\n$$\n"
    assert [(n.line, n.text) for n in prose_numerals(page)] == [(4, "4"), (4, "2")]


def test_an_html_comment_hides_what_is_inside_it() -> None:
    assert written("shown 1 <!-- hidden 2\nhidden 3 --> shown 4\n") == ["1", "4"]


def test_a_snippet_line_is_not_prose() -> None:
    assert written('--8<-- "src/attend/head.py:attend"\n') == []


def test_prose_lines_keep_line_numbers_of_the_file() -> None:
    page = "---\na: 1\n---\nline four\n```\ncode\n```\nline eight\n"
    assert [n for n, _ in prose_lines(page)] == [4, 8]


def test_printed_numbers_are_read_with_the_digits_they_were_printed_with() -> None:
    found = output_numerals('"0"     0.5800   0.1216\n  3 x 32 x 4 x 4, the projections   1536\n')
    assert [c.text for c in found] == ["0", "0.5800", "0.1216", "3", "32", "4", "1536"]


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("0.5×1.5", 0.75),
        ("2 x 32 x 32 x 4", 8192.0),
        ("1×0 + 0.5×0.5", 0.25),
        ("3.125 ÷ 2", 1.5625),
        ("√4", 2.0),
        ("2·3 − 1", 5.0),
        ("3²", 9.0),
    ],
)
def test_worked_arithmetic_is_evaluated_as_written(expression: str, value: float) -> None:
    assert evaluate(expression) == value


def test_evaluation_refuses_anything_but_arithmetic() -> None:
    with pytest.raises(ValueError, match="not arithmetic"):
        evaluate("__import__('os')")


def test_equations_in_prose_are_found_with_both_sides() -> None:
    page = (
        "so 3×1 = 3, then 0.5×0.25 = 0.125, and 2 x 32 x 32 x 4 = 8192; key slot 3 is 1×0 + 0.5×0.5 = 0.25.\n"
    )
    found = [(e.left, e.right.text, e.value) for e in equations(page)]
    assert found == [
        ("3×1", "3", 3.0),
        ("0.5×0.25", "0.125", 0.125),
        ("2 x 32 x 32 x 4", "8192", 8192.0),
        ("1×0 + 0.5×0.5", "0.25", 0.25),
    ]


def test_a_page_whose_numerals_are_all_printed_has_no_problems() -> None:
    page = "The score is 3.125 and the share 0.58, out of 9728.\n"
    assert messages(page, ["3.1250 0.5800\n", "all of it 9728\n"]) == []


def test_a_numeral_nothing_prints_is_reported_with_page_line_and_nearest() -> None:
    page = "---\ntitle: t\n---\nThe score is 3.126.\n"
    assert messages(page, ["3.1250\n"]) == [
        "docs/p.md:4: 3.126 is written here but nothing on the page computes it (nearest computed: 3.1250)"
    ]


def test_a_numeral_far_from_anything_printed_names_no_nearest() -> None:
    assert messages("We read 1773 of them.\n", ["0.5800\n"]) == [
        "docs/p.md:1: 1773 is written here but nothing on the page computes it"
    ]


def test_a_written_numeral_matches_at_its_own_precision_only() -> None:
    assert messages("about 0.58, or 0.6, or 0.580\n", ["0.5800"]) == []
    assert messages("exactly 0.581\n", ["0.5800"]) != []


def test_a_whole_number_needs_a_computed_value_that_is_exactly_it() -> None:
    assert messages("it is 3\n", ["3.1250"]) != []
    assert messages("it is 3\n", ["3.0000"]) == []


def test_an_equation_that_does_not_hold_is_reported_with_its_true_value() -> None:
    assert messages("so 0.5×1.5 = 0.76 there\n", ["0.5 1.5"]) == [
        "docs/p.md:1: 0.5×1.5 = 0.76 does not hold (0.5×1.5 is 0.75)"
    ]


def test_the_result_of_a_holding_equation_needs_no_printout_but_its_operands_do() -> None:
    assert messages("so 0.5×1.5 = 0.75\n", ["0.5 1.5"]) == []
    assert messages("so 0.5×1.5 = 0.75\n", ["0.5"]) == [
        "docs/p.md:1: 1.5 is written here but nothing on the page computes it (nearest computed: 0.5)"
    ]


def test_a_given_excuses_its_numeral_and_must_carry_a_reason() -> None:
    assert messages("the 404 page\n", [], {"404": "the HTTP status of a missing page"}) == []
    assert messages("the 404 page\n", [], {"404": " "}) == [
        "docs/p.md:1: the given 404 is declared without a reason"
    ]


def test_a_given_nothing_needs_is_reported_so_the_list_stays_short() -> None:
    assert messages("the 7 tokens\n", ["7"], {"7": "a count"}) == [
        "docs/p.md:1: the given 7 is declared but no prose numeral needs it"
    ]


def test_source_of_a_fence_is_not_output_so_its_typed_numbers_excuse_nothing() -> None:
    page = "```python\nassert share == 0.5801\n```\nThe share is 0.5801.\n"
    assert messages(page, ["0.5800"]) == [
        "docs/p.md:4: 0.5801 is written here but nothing on the page computes it (nearest computed: 0.5800)"
    ]
