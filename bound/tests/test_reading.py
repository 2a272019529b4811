"""The reader: which numbers a reader of a page meets, and what the page binds each one to."""

from __future__ import annotations

import markdown  # the renderer a site's pages go through: what it makes of a stripped page
import pytest

from bound_numbers import Asked
from bound_numbers.declared import DeclarationError, Declared, Given, of_config
from bound_numbers.numerals import Numeral, holds, restate, value_of, work_out
from bound_numbers.reading import read, strip

F = "```"
# What a book might declare for every page: label words with their ranges, and a given.
BOOK = Declared(
    labels={"token": "n", "slot": "dk", "row": "n", "column": "n", "step": None},
    givens={"matrices": Given(3, "a query, a key and a value matrix")},
)
UNBOUND = "is not bound: bind it {= …} (a given by its name) or make it a label"


def problems(markdown: str, book: Declared = BOOK) -> list[str]:
    return [p.render("p.md") for p in read(markdown, book).problems]


def bound(markdown: str) -> list[tuple[str, str | None]]:
    return [(b.written, b.expression) for b in read(markdown, BOOK).bindings]


def test_a_bound_number_is_read_with_its_line_its_column_and_its_expression() -> None:
    reading = read("# T\n\nThe products total 3.125{= run.raw[1, 0]}.\n")
    assert reading.problems == []
    [binding] = reading.bindings
    assert binding.numerals == (Numeral(3, 19, "3.125"),)
    assert binding.expression == "run.raw[1, 0]"
    assert reading.asked == [Asked("run.raw[1, 0]", 3, 19)]


def test_a_number_with_no_binding_is_one_problem_at_its_line_and_column() -> None:
    assert problems("Text.\n\nIt is 3.126 now.\n") == [f"p.md:3:7: 3.126 {UNBOUND}"]


def test_a_group_takes_one_binding_element_by_element() -> None:
    [binding] = read("The query is (0, 3, 0.5, −1){= q2}.\n").bindings
    assert binding.group and binding.expression == "q2"
    assert [n.text for n in binding.numerals] == ["0", "3", "0.5", "−1"]


def test_number_words_bind_like_digits_and_small_ordinary_words_are_left_alone() -> None:
    text = (
        "All four{= n} tokens make sixteen{= n * n} scores, twenty-five{= r} times, "
        "a thousand{= m} rows; compare two rows, each one.\n"
    )
    assert bound(text) == [("four", "n"), ("sixteen", "n * n"), ("twenty-five", "r"), ("a thousand", "m")]
    assert problems(text) == []
    assert problems("Three rows, half of them, twice over.\n") == [
        f"p.md:1:1: Three {UNBOUND}",
        f"p.md:1:13: half {UNBOUND}",
        f"p.md:1:27: twice {UNBOUND}",
    ]
    assert bound("It takes one{= k} slot.\n") == [("one", "k")]


def test_a_given_is_a_name_declared_with_its_value_for_the_book_or_the_page() -> None:
    front = '---\ngivens:\n  squared: [2, "the power of n in n²"]\n---\n\n'
    page = front + "Slope 2{= squared}, three{= matrices}.\n"
    assert bound(page) == [("2", "2"), ("three", "3")]  # what the page's namespace evaluates
    assert read(page, BOOK).bindings[0].brace == "{= squared}"  # what the check names


def test_an_old_given_an_empty_binding_or_a_constant_is_one_problem() -> None:
    assert problems("Slope 2{given: the power of n in n²}.\n") == [
        "p.md:1:7: {given: the power of n in n²} has no value to hold it to: "
        "declare it under `givens:` (name: [value, reason]) and write {= name}"
    ]
    assert problems("It is 3{= }.\n") == ["p.md:1:7: {= } binds 3 to nothing: write an expression"]
    assert problems("At 1.5{= 3 / 2} times.\n") == [
        "p.md:1:4: {= 3 / 2} names nothing, so it can never fail: "
        "bind it to what computes it, or declare a given"
    ]


@pytest.mark.parametrize(
    ("front", "problem"),
    [
        (
            "givens: {two: 2}",
            "p.md:1: front matter givens: two must be [value, reason], a number and why it holds",
        ),
        ("givens: {2x: [2, why]}", "p.md:1: front matter givens: '2x' is not a name an expression can use"),
        (
            "labels: [token]",
            "p.md:1: front matter labels: write a mapping, word: an expression for the last one",
        ),
        ("givens: {a: [1, why]", "p.md:1: the front matter is not YAML: while parsing a flow mapping"),
    ],
)
def test_a_declaration_that_cannot_be_read_is_one_line(front: str, problem: str) -> None:
    assert problems(f"---\n{front}\n---\n\nText.\n") == [problem]


@pytest.mark.parametrize(
    "text",
    [
        "Token 2 and tokens 1, 3 or 4; row 2, column 1; rows 2 and 4.\n",
        "## Row 2 by hand\n",
        "| slot | value |\n|---|---|\n| 3 | 0.5{= v} |\n",
    ],
)
def test_a_position_after_a_label_word_needs_no_binding(text: str) -> None:
    assert problems(text) == []


def test_a_label_that_is_not_a_position_counted_from_one_is_a_problem() -> None:
    assert problems("Token 0 and slot 2.5.\n") == [
        "p.md:1:7: 0 follows a label, but a label is a position counted from 1",
        f"p.md:1:18: 2.5 {UNBOUND}",
    ]
    assert problems("4 tokens.\n") != []  # a count before the word is a quantity, not a label


def test_a_label_takes_the_range_its_page_or_book_declares_or_is_a_problem() -> None:
    [label] = read("Token 2.\n", BOOK).labels
    assert (label.numeral.text, label.word, label.limit) == ("2", "token", "n")
    page = '---\nlabels: {token: "len(run.x)", step: "len(work)"}\n---\n\nToken 2, step 3.\n'
    assert [(label.word, label.limit) for label in read(page, BOOK).labels] == [
        ("token", "len(run.x)"),
        ("step", "len(work)"),
    ]
    assert problems("Step 3.\n") == [
        "p.md:1:6: step 3: no range is declared for step: declare `labels: {step: …}` in the front matter"
    ]
    assert problems("Token 2.\n", Declared()) == [f"p.md:1:7: 2 {UNBOUND}"]  # no label words, no labels


def test_code_is_not_read_and_every_place_a_reader_sees_is() -> None:
    page = (
        "---\ntitle: Four{= n} rows\ndescription: Of 7\n---\n\n"
        f"{F}python\nx = 3\n{F}\n\nSee `x = 4` and [5 links](u7.md) ![6 alt](a.svg).\n\n"
        '!!! note "N"\n    8 here.\n\n| 9 |\n|---|\n\n$e^{10}$ and\n\n$$\n11 x\n$$\n'
    )
    written = [p.split(" ", 2)[1] for p in problems(page)]
    assert written == ["7", "5", "6", "8", "9", "10", "11"]
    assert bound(page) == [("Four", "n")]


def test_list_and_quote_markers_are_not_numbers_and_each_column_is_the_files() -> None:
    page = "1. First 3{= a} rows.\n2. Then\n   7 more.\n\n> 1. quoted 8\n"
    assert problems(page) == [f"p.md:3:4: 7 {UNBOUND}", f"p.md:5:13: 8 {UNBOUND}"]
    assert read(page).bindings[0].numerals == (Numeral(1, 9, "3"),)


def test_superscripts_and_fractions_are_read_and_raw_html_is_reported_unreadable() -> None:
    reading = read("10⁴{= n} and n²{= matrices}, ½{= s}.\n", BOOK)
    assert [n.text for b in reading.bindings for n in b.numerals] == ["10⁴", "²", "½"]
    assert value_of("10⁴") == 10_000 and value_of("½") == 0.5
    assert problems('<div class="x" width="7">8 rows, one page</div>\n') == [
        "p.md:1:26: 8 is in raw HTML, which the check cannot read: write it in Markdown"
    ]


def test_fraction_words_are_one_number_each_held_to_their_value_exactly() -> None:
    """The words the README names: a third to a tenth (with "a", "an" or "one"), and their
    multiples, spaced or hyphenated ("three quarters", "two-thirds"), each one number."""
    text = (
        "A third{= a} of them, one fifth{= b}, three quarters{= c}, two-thirds{= d}, an eighth{= e}, "
        "nine tenths{= f}, one-quarter{= h} and one half{= g}.\n"
    )
    assert [(n.text, n.value) for b in read(text).bindings for n in b.numerals] == [
        *[("A third", pytest.approx(1 / 3)), ("one fifth", 0.2), ("three quarters", 0.75)],
        *[("two-thirds", pytest.approx(2 / 3)), ("an eighth", 0.125), ("nine tenths", 0.9)],
        *[("one-quarter", 0.25), ("one half", 0.5)],
    ]
    assert holds(Numeral(1, 0, "two thirds"), 2 / 3) and not holds(Numeral(1, 0, "two thirds"), 0.67)
    assert holds(Numeral(1, 0, "a third"), 1 / 3) and restate(0.4, Numeral(1, 0, "a third")) is None
    assert problems("Three quarters of them, one third, two thirds.\n") == [
        f"p.md:1:1: Three quarters {UNBOUND}",
        f"p.md:1:25: one third {UNBOUND}",
        f"p.md:1:36: two thirds {UNBOUND}",
    ]


def test_a_third_to_a_tenth_count_positions_too_so_unbound_they_are_left_alone() -> None:
    """ "A third try", "a fifth column": ordinary sentences use them as positions, as they use
    "one" and "two"; bound, they are fractions and checked."""
    assert problems("A third try, a fifth column, an eighth note, a tenth attempt.\n") == []


def test_numbers_joined_to_units_and_in_every_digit_form_a_reader_knows_are_read() -> None:
    text = (
        "2.5x faster over 12k rows and 1e3 steps, .5 of the time, 10ms each; 0x1F, 1_000, a dozen, "
        "58%, the 3rd, a hundredth, a 4x4 grid.\n"
    )
    written = [p.split(" is not bound")[0].split(": ", 1)[1] for p in problems(text)]
    assert written == [
        *("2.5x", "12k", "1e3", ".5", "10ms", "0x1F", "1_000", "a dozen", "58%", "3rd", "a hundredth"),
        *("4", "4"),
    ]


def test_a_unit_form_unbound_says_what_its_binding_holds() -> None:
    assert problems("Over 12k rows.\n") == [
        "p.md:1:6: 12k is not bound: bind it {= …} to 12, the number as written before k "
        "(a given by its name), or make it a label"
    ]


def test_names_with_numbers_in_them_are_not_quantities() -> None:
    assert problems("GPT-2, Llama-2-7B, Llama-3.1-8B, Qwen2.5-7B, H100, float16, x86, v1.2.3.\n") == []


@pytest.mark.parametrize(
    ("written", "value"),
    [
        *[("12k", 12), ("58%", 58), ("3rd", 3), ("1e3", 1000), ("2.5e−4", 0.00025), ("0x1F", 31)],
        *[("1_000", 1000), (".5", 0.5), ("−.5", -0.5), ("10ms", 10), ("a dozen", 12), ("a hundredth", 0.01)],
    ],
)
def test_a_unit_form_is_bound_whole_and_quotes_the_number_as_written(written: str, value: float) -> None:
    [binding] = read(f"It is {written}{{= x}} here.\n").bindings
    assert binding.written == written and binding.expression == "x"
    assert value_of(written) == pytest.approx(value)
    assert strip(f"It is {written}{{= x}} here.\n") == f"It is {written} here.\n"


def test_a_bold_number_is_bound_after_the_bold_closes() -> None:
    page = "Its share is **0.5800**{= s}, and *3*{= n} rows.\n"
    assert bound(page) == [("0.5800", "s"), ("3", "n")] and problems(page) == []
    assert strip(page) == "Its share is **0.5800**, and *3* rows.\n"


def test_a_space_before_a_binding_is_one_problem_saying_remove_it() -> None:
    assert problems("It is 3.125 {= x} now.\n") == [
        "p.md:1:7: 3.125 {= x} has a space before its binding: remove the space"
    ]


def test_a_binding_that_follows_nothing_or_never_closes_is_a_problem() -> None:
    assert problems("A word{= x} here.\n") == [
        "p.md:1:7: {= x} follows no number: a binding goes right after what it binds"
    ]
    assert "no closing }" in problems("It is 3{= run.x\n")[-1]


def test_worked_sums_are_found_in_prose_tables_and_math_with_their_bindings_out() -> None:
    reading = read("| 0.5{= a}×0.25{= b} = 0.125{= a * b} |\n|---|\n\nSo $1{= p} + 2{= q} ≈ 3{= p + q}$.\n")
    assert [(s.text, s.result.text, s.approximate) for s in reading.sums] == [
        ("0.5×0.25 = 0.125", "0.125", False),
        ("1 + 2 ≈ 3", "3", True),
    ]


def test_one_binding_after_a_worked_sum_pairs_the_expressions_operands_with_the_written_ones() -> None:
    assert bound("So 0.5×0.25 = 0.125{= q2[2] * k1[2]}.\n") == [
        ("0.5", "q2[2]"),
        ("0.25", "k1[2]"),
        ("0.125", "q2[2] * k1[2]"),
    ]
    assert bound(
        "4 × 8 × 4 = 128{= 4 * n8 * matrices}; 512 + 512 = 1,024{= 4*n*d + 2*n*n == work[-1]}.\n"
    ) == [
        ("4", "4"),  # a literal holds its written number to itself
        ("8", "n8"),
        ("4", "3"),  # a given, by its value
        ("128", "4 * n8 * 3"),
        ("512", "4 * n * d"),
        ("512", "2 * n * n"),
        ("1,024", "work[-1]"),  # the right of `==`: a value of its own for the result
    ]


def test_a_sum_binding_not_in_the_sums_shape_is_one_line_naming_the_shape() -> None:
    assert problems("So 4 × 4 + 1 = 17{= a * b}.\n") == [
        "p.md:1:4: {= a * b} is not in the sum's shape: "
        "write a * b + c, or a * b + c == the result (4 × 4 + 1 = 17)"
    ]


def test_a_binding_after_a_math_span_binds_its_numbers_in_order_and_one_inside_is_a_problem() -> None:
    assert bound("So $e^{1.5625}${= s[0]} and $x_2 + y^3${= [a, b]}, $1 + 2 ≈ 3${= p + q}.\n") == [
        ("1.5625", "s[0]"),
        ("$x_2 + y^3$", "[a, b]"),
        ("1", "p"),
        ("2", "q"),
        ("3", "p + q"),
    ]
    assert problems("So $e^{1.5{= s}}$.\n") == [
        "p.md:1:11: {= s} is inside math: bind the span's numbers after it, in order"
    ]
    block = "Then\n\n$$\n3 n + 2 n^2\n$$\n{= [a, b, c]}\n\nand 4{= d}.\n"
    assert bound(block) == [("(3, 2, 2)", "[a, b, c]"), ("4", "d")]
    assert strip(block) == "Then\n\n$$\n3 n + 2 n^2\n$$\n\n\nand 4.\n"


def test_numbers_written_as_a_list_take_one_binding_after_the_last() -> None:
    assert bound("Its scores are 1.5625, 0, 0.375 and 0{= s2}; tokens 2 and 4{= x}.\n") == [
        ("1.5625, 0, 0.375 and 0", "s2"),
        ("4", "x"),  # after a label, a list is labels and one number
    ]


def test_a_binding_may_wrap_onto_the_next_line_and_is_read_and_stripped_whole() -> None:
    page = "The products total 3.125{= run.raw[1,\n0]} in all.\n"
    assert bound(page) == [("3.125", "run.raw[1, 0]")]
    assert strip(page) == "The products total 3.125 in all.\n"


@pytest.mark.parametrize(
    "expression",
    [
        "to_each[0][0]",
        'idea.data["place"]["back"]',
        "d['key']",
        "rows[1](2)",
        "table[1][0] if n<m and m>k else 0",
        "{'first': weight}['first']",
    ],
    ids=[
        "two subscripts",
        "two quoted keys",
        "a quoted key",
        "a call on a subscript",
        "comparisons",
        "a dict",
    ],
)
def test_a_bindings_expression_is_python_whatever_brackets_quotes_or_signs_it_holds(expression: str) -> None:
    """Inside a binding, `][` is a second subscript and `](` a call, not a reference label or a
    link's target, and `<b … >` no tag: the reader blanked them, and bound the number to
    `to_each[0]`, a value the page never meant; a dict's braces ended the binding."""
    page = (
        f"The first weight is 0.5{{= {expression}}} here, beside [the docs][2].\n\n[2]: https://example.org\n"
    )
    assert (bound(page), read(page, BOOK).problems) == ([("0.5", expression)], [])
    assert strip(page) == page.replace(f"{{= {expression}}}", "")


def test_stripping_leaves_fences_code_spans_and_everything_else_byte_for_byte() -> None:
    code = f"`3{{= x}}`\n{F}\ny = 1{{= z}}\n{F}\n"
    page = f"Total 3.125{{= run.raw[1, 0]}} of (0, 1){{= v}}, $e^{{1.5{{= s}}}}$, 2{{given: two}}.\n{code}"
    assert strip(page) == f"Total 3.125 of (0, 1), $e^{{1.5}}$, 2.\n{code}"


@pytest.mark.parametrize(
    ("expression", "value"),
    [("3 x 32 x 4", 384), ("0.5×0.25", 0.125), ("√4 · 3", 6), ("1,024 ÷ 2", 512), ("4²", 16), ("2 − 3", -1)],
)
def test_worked_arithmetic_is_evaluated_as_written(expression: str, value: float) -> None:
    assert work_out(expression) == value


def test_evaluation_refuses_anything_but_arithmetic() -> None:
    with pytest.raises(ValueError, match="not arithmetic"):
        work_out("__import__('os')")


def test_a_written_number_holds_a_value_at_its_own_precision_only() -> None:
    assert holds(Numeral(1, 0, "0.58"), 0.5800) and holds(Numeral(1, 0, "1.6"), 1.5625)
    assert not holds(Numeral(1, 0, "1.5"), 1.5625)
    assert not holds(Numeral(1, 0, "3"), 3.125) and holds(Numeral(1, 0, "3"), 3.0)
    assert holds(Numeral(1, 0, "0.0000"), -0.00001)
    assert holds(Numeral(1, 0, "sixteen"), 16) and not holds(Numeral(1, 0, "half"), 0.58)


@pytest.mark.parametrize(
    ("written", "value", "restated"),
    [
        ("3.125", 3.15, "3.150"),
        ("0.5800", 0.6, "0.6000"),
        ("3", 2.0, "2"),
        ("2,048", 4096, "4,096"),
        ("−0.5", -1.5, "−1.5"),
        ("sixteen", 25, "twenty-five"),
        ("Four", 7, "Seven"),
        ("a thousand", 2000, "two thousand"),
        ("3", 3.125, None),
        ("sixteen", 16.5, None),
        ("half", 0.6, None),
        ("½", 0.6, None),
        ("12k", 13, "13k"),
        ("58%", 61, "61%"),
        ("58.0%", 61.25, "61.2%"),
        ("3rd", 1, "1st"),
        ("2nd", 11, "11th"),
        ("3rd", 2.5, None),
        ("1e3", 2500, "2e3"),
        ("2.5e−4", 0.000312, "3.1e−4"),
        ("0x1F", 255, "0xFF"),
        ("1_000", 20000, "20_000"),
        (".5", 0.61, ".6"),
        ("10ms", 12.25, None),
        ("a dozen", 13, None),
        ("a hundredth", 0.02, None),
    ],
)
def test_a_new_value_is_written_the_way_the_old_one_was_or_not_at_all(
    written: str, value: float, restated: str | None
) -> None:
    assert restate(value, Numeral(1, 0, written)) == restated


def test_the_books_declarations_are_read_from_the_plugins_config_and_a_bad_one_is_one_line() -> None:
    book = of_config({"labels": {"Token": "n"}, "givens": {"qkv": [3, "a query, a key and a value"]}})
    assert book == Declared({"token": "n"}, {"qkv": Given(3, "a query, a key and a value")})
    with pytest.raises(DeclarationError, match=r"^mkdocs.yml givens: qkv must be \[value, reason\]"):
        of_config({"givens": {"qkv": [3]}})


def test_a_coefficient_in_math_is_read_though_a_letter_follows_it() -> None:
    assert problems("So $2n + 3$.\n") == [f"p.md:1:5: 2 {UNBOUND}", f"p.md:1:10: 3 {UNBOUND}"]
    assert bound("So $2n + 3${= [a, b]}.\n") == [("$2n + 3$", "[a, b]")]


LISTED = (
    "opens its paragraph and a full stop follows it, so Markdown reads it as a numbered list's "
    "marker and the number leaves the page: reword so the paragraph does not open with it"
)


@pytest.mark.parametrize(
    "page",
    [
        "768{= d}. The model is that wide.\n",
        "Before.\n\n768{= d}. The model is that wide.\n",
        "- 768{= d}. The model is that wide.\n",
        '!!! note "Wide"\n    768{= d}. The model is that wide.\n',
    ],
)
def test_a_bound_number_that_opens_a_paragraph_before_a_full_stop_is_refused_where_it_would_vanish(
    page: str,
) -> None:
    assert "<ol>" in markdown.markdown(strip(page), extensions=["admonition"])  # the number is gone
    line = page.count("\n", 0, page.index("768")) + 1
    column = page.index("768") - page.rfind("\n", 0, page.index("768"))
    assert problems(page) == [f"p.md:{line}:{column}: 768 {LISTED}"]


@pytest.mark.parametrize(
    "page",
    [
        "The model is\n768{= d}. The rest is wider.\n",  # inside a paragraph: no list starts there
        "# 768{= d}. A heading\n",
        "768{= d}.\nThe model is that wide.\n",  # no space after the full stop: no marker
        "768{= d}, the width.\n",
        "**768**{= d}. In bold it stays.\n",
        "Seven{= d}. In words it stays.\n",
    ],
)
def test_a_bound_number_that_markdown_keeps_is_not_refused(page: str) -> None:
    assert problems(page) == []
