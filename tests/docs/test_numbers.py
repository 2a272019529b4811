"""Reading the numerals a reader sees, rule by rule, on small pages written for each rule."""

from __future__ import annotations

import pytest

from attend_book.numerals import (
    decimals,
    evaluate,
    figure_lines,
    figure_prose,
    printed_numbers,
    read,
    rounds_to,
    value_of,
)


def written(page: str) -> list[str]:
    return [n.text for n in read(page)]


def test_a_numeral_is_read_with_its_line_its_column_and_the_words_around_it() -> None:
    page = "---\ntitle: t\n---\n\n# Heading\n\nThe score is 3.125 here.\n"
    [numeral] = read(page)
    assert (numeral.line, numeral.column, numeral.text, value_of(numeral.text), decimals(numeral.text)) == (
        7,
        13,
        "3.125",
        3.125,
        3,
    )
    assert numeral.context == "The score is [3.125] here."


def test_front_matter_fences_code_spans_and_html_are_not_prose() -> None:
    page = (
        "---\ntitle: volume 5\n---\n"
        "Text with `assert x == 3.126` in a span.\n\n"
        "```python\nprint(9999)\n```\n\n"
        "~~~\n42\n~~~\n\n"
        '<div class="x7">hidden 8</div>\n\n'
        "after 12\n"
    )
    assert written(page) == ["12"]


def test_numerals_glued_to_words_are_names_not_numbers() -> None:
    assert written("A float64, the d_k width, h2 and Wq2 are names; 4 is a number.\n") == ["4"]


def test_link_text_is_prose_and_link_targets_and_attribute_lists_are_not() -> None:
    page = "[the 2nd page](page-3.md#s4) and 5\n\n## Heading 6 { #id-9 }\n"
    assert written(page) == ["2", "5", "6"]


def test_headings_table_cells_list_items_admonitions_and_alt_text_are_prose() -> None:
    page = (
        "# Part 1\n\n"
        "| a | b |\n|---|---|\n| 2 | 3 |\n\n"
        "1. item with 64\n\n"
        '!!! note "Typed by hand, 4 numbers"\n    Body with 16 in it.\n\n'
        "![a chart of 32 rows](chart.svg)\n"
    )
    assert written(page) == ["1", "2", "3", "64", "4", "16", "32"]


def test_math_is_prose_and_so_are_its_exponents() -> None:
    page = "Cost $3 \\cdot n \\cdot d_k + 2 \\cdot n^2$, and $e^{1.5625}$.\n\n$$\n\\sqrt{4} = 2\n$$\n"
    assert [(n.line, n.column, n.text) for n in read(page)] == [
        (1, 6, "3"),
        (1, 28, "2"),
        (1, 38, "2"),
        (1, 50, "1.5625"),
        (4, 6, "4"),
        (4, 11, "2"),
    ]


def test_an_ordinal_grouped_thousands_and_a_minus_sign_belong_to_the_numeral() -> None:
    assert written("e to the 800th, all 4,096 tokens, a score of −1.5\n") == ["800", "4,096", "−1.5"]


def test_each_numeral_is_named_by_the_fewest_words_around_it_that_no_other_shares() -> None:
    found = read("Rows 2 and 4 agree. Rows 2 and 4 differ.\n")
    assert [n.context for n in found] == [
        "Rows [2] and 4 agree.",
        "Rows 2 and [4] agree. Rows 2",
        "4 agree. Rows [2] and 4 differ.",
        "Rows 2 and [4] differ.",
    ]


def test_a_tuple_is_read_as_one_run_and_an_equations_operands_as_another() -> None:
    [*tuple_, left, right, result] = read("query (0, 3, 0.5, 0) and 0.5×0.25 = 0.125\n")
    assert (tuple_[2].run, tuple_[2].place) == (("0", "3", "0.5", "0"), 2)
    assert (left.run, right.run) == (("0.5", "0.25"), ("0.5", "0.25"))
    assert result.equation is not None and result.equation.left == "0.5×0.25"
    assert left.equation is None


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
        ("1,024 ÷ 4", 256.0),
    ],
)
def test_worked_arithmetic_is_evaluated_as_written(expression: str, value: float) -> None:
    assert evaluate(expression) == value


def test_evaluation_refuses_anything_but_arithmetic() -> None:
    with pytest.raises(ValueError, match="not arithmetic"):
        evaluate("__import__('os')")


def test_a_written_numeral_matches_a_value_at_its_own_precision_only() -> None:
    assert rounds_to(0.58, "0.58") and rounds_to(0.5800, "0.5800") and rounds_to(0.5672, "0.57")
    assert not rounds_to(1.5625, "1.5")  # 1.5625 is 1.6 to one place
    assert not rounds_to(0.5800, "0.581")


def test_a_whole_number_needs_a_value_that_is_exactly_it() -> None:
    assert rounds_to(3.0, "3") and rounds_to(4096.0, "4,096")
    assert not rounds_to(3.125, "3")


def test_the_fields_of_a_printed_line_are_its_numbers_in_order() -> None:
    line = '    row 2  sums to 1.0000   its largest share, 0.5800, goes to token 1   "year 4" -0.5'
    assert printed_numbers(line) == ["2", "1.0000", "0.5800", "1", "4", "-0.5"]


FIGURE = (
    '<figure class="attend-figure"><svg role="img" aria-label="x"><title>Two maps, 4 by 4 cells</title>'
    "<text x='1'>3.1250</text><text>token 2</text></svg>"
    "<figcaption>Divided by 2, rows 2 &amp; 4 match</figcaption></figure>"
)


def test_a_figures_alt_text_and_caption_are_prose_at_its_fences_line() -> None:
    found = figure_prose(FIGURE, 40)
    assert [(n.line, n.column, n.text, n.passage) for n in found] == [
        (40, None, "4", "alt text"),
        (40, None, "4", "alt text"),
        (40, None, "2", "caption"),
        (40, None, "2", "caption"),
        (40, None, "4", "caption"),
    ]


def test_the_text_drawn_inside_a_figure_is_output_a_numeral_can_quote() -> None:
    assert figure_lines(FIGURE) == ["3.1250", "token 2"]
