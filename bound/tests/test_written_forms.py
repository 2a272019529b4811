"""Numbers as a reader's locale and script write them: read, held and renumbered in that form,
or refused in one line where the page cannot say what they are."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from bound_numbers import check, renumber
from bound_numbers.numerals import Numeral, holds, restate, value_of
from bound_numbers.reading import Problem, Reading, read, strip
from bound_numbers.values import Value


def checked(found: Reading, values: Mapping[str, Value]) -> list[Problem]:
    """The check's problems on the reading, each expression's value given wherever it is asked."""
    return check.check(found, {a: values[a.expression] for a in found.asked if a.expression in values})


def renumber_given(page: str, text: str, values: Mapping[str, Value]) -> tuple[str, list[str], list[str]]:
    """`renumber.renumber` of the page `text`, each expression's value given wherever it is asked."""
    asked = read(text).asked
    return renumber.renumber(page, text, {a: values[a.expression] for a in asked if a.expression in values})


NBSP, THIN, NARROW = "\u00a0", "\u2009", "\u202f"


def problems(markdown: str) -> list[str]:
    return [p.render("p.md") for p in read(markdown).problems]


def bound(markdown: str) -> list[tuple[str, float]]:
    return [(n.text, n.value) for b in read(markdown).bindings for n in b.numerals]


def renumbered(markdown: str, values: dict[str, Value]) -> str:
    new, _, left = renumber_given("p.md", markdown, values)
    assert left == []
    return new


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("3,14159", 3.14159),
        ("0,5", 0.5),
        ("1.234,5", 1234.5),
        (f"1{NBSP}000", 1000),
        (f"1{THIN}234{THIN}567", 1_234_567),
        (f"1{NARROW}234,5", 1234.5),
        ("٣", 3),
        ("３", 3),
        ("١٬٢٣٤٫٥", 1234.5),
    ],
)
def test_decimal_commas_space_grouping_and_other_scripts_digits_are_read_as_one_number(
    written: str, value: float
) -> None:
    assert bound(f"It is {written}{{= x}} here.\n") == [(written, value)]
    assert problems(f"It is {written}{{= x}} here.\n") == []


@pytest.mark.parametrize(
    ("written", "value", "rewritten"),
    [
        ("3,14159", 3.2, "3,20000"),
        ("1.234,5", 12345.25, "12.345,2"),
        (f"1{NBSP}000", 20000, f"20{NBSP}000"),
        (f"1{THIN}000,5", 2000.25, f"2{THIN}000,2"),
        ("٣", 4, "٤"),
        ("３.５", 3.25, "３.２"),
        ("١٬٢٣٤٫٥", 2345.5, "٢٬٣٤٥٫٥"),
    ],
)
def test_a_moved_number_is_rewritten_in_the_grouping_mark_and_script_it_was_written_in(
    written: str, value: float, rewritten: str
) -> None:
    assert renumbered(f"It is {written}{{= x}}.\n", {"x": value}) == f"It is {rewritten}{{= x}}.\n"


def test_a_form_either_convention_could_write_follows_the_pages_declared_mark() -> None:
    page = '---\ndecimal_mark: ","\n---\n\nIt is 1,234{= a} and 1.234{= b}.\n'
    assert bound(page) == [("1,234", 1.234), ("1.234", 1234)]
    assert bound("It is 1,234{= a} and 1.234{= b}.\n") == [("1,234", 1234), ("1.234", 1.234)]


def test_a_form_either_convention_could_write_is_refused_on_a_page_of_undeclared_decimal_commas() -> None:
    assert problems("Pi is 3,14159{= pi}; the rows number 1,234{= n}.\n") == [
        "p.md:1:38: 1,234 cannot be read as one number: it could be 1234 or 1.234, and this page "
        'writes decimal commas: declare its mark (`decimal_mark: ","` or ".") in the front matter or '
        "mkdocs.yml"
    ]


@pytest.mark.parametrize(
    ("written", "why"),
    [
        ("1,2,3", "groups its digits other than in threes"),
        ("1,23,456", "groups its digits other than in threes"),
        ("1٣", "mixes the digits of two scripts"),
        ("1,234.567,8", "has '.' where its decimal mark should be last"),
    ],
)
def test_digits_no_convention_reads_as_one_number_are_one_line_and_their_binding_with_them(
    written: str, why: str
) -> None:
    [problem] = problems(f"It is {written}{{= x}} here.\n")
    assert problem.startswith(f"p.md:1:7: {written} cannot be read as one number: it {why}")


def test_a_renumbered_form_the_page_could_not_read_back_is_left_for_a_person() -> None:
    page = "Pi is 3,14159{= pi} and 0,125{= x}.\n"
    new, changes, left = renumber_given("p.md", page, {"pi": 3.14159, "x": 1.125})
    assert new == page and changes == []
    assert left == [
        "p.md:1:25: 0,125 is written, 1.125 is computed now, bound to {= x}: renumber cannot write it "
        "in this form: edit it"
    ]


def test_an_escaped_percent_sign_is_the_percent_it_renders_as() -> None:
    page = "A share of 90\\%{= x}.\n"
    assert bound(page) == [("90\\%", 90)] and problems(page) == []
    assert renumbered(page, {"x": 91}) == "A share of 91\\%{= x}.\n"
    assert strip(page) == "A share of 90\\%.\n"
    said = [p.message for p in checked(read(page), {"x": 0.9})]
    assert said == [
        "90\\% is written, 0.9 is computed now, bound to {= x}: a percentage quotes its number as "
        "written, so bind it to 100 × the share"
    ]


def test_a_range_with_a_hyphen_or_an_en_dash_is_two_numbers_and_renumbers_as_two() -> None:
    for dash in "-–":
        page = f"Readers aged 40{{= a}}{dash}44{{= b}} took part.\n"
        assert bound(page) == [("40", 40), ("44", 44)]
        assert renumbered(page, {"a": 45, "b": 49}) == f"Readers aged 45{{= a}}{dash}49{{= b}} took part.\n"
    assert bound("It fell to −44{= b}, then (−3{= c}).\n") == [("−44", -44), ("−3", -3)]


def test_whole_numbers_written_with_about_or_approximately_hold_the_value_rounded() -> None:
    assert holds(Numeral(1, 0, "333", approximate=True), 333.4)
    assert not holds(Numeral(1, 0, "333"), 333.4)  # plain, a whole number is exact: 3 never quotes 3.125
    assert not holds(Numeral(1, 0, "3", approximate=True), 3.6)
    page = "About 333{= m}, ≈ 12{= n}, ~7{= k}, roughly twelve{= w}, and 3{= e}.\n"
    values: dict[str, Value] = {"m": 333.4, "n": 11.7, "k": 7.2, "w": 12.4, "e": 3.125}
    assert [p.message for p in checked(read(page), values)] == [
        "3 is written, 3.125 is computed now, bound to {= e}: a whole number quotes its value exactly: "
        "write ≈ or “about” before it to quote the value rounded, or show its decimals"
    ]
    new, _, left = renumber_given("p.md", page, {**values, "m": 401.6, "e": 3})
    assert new.startswith("About 402{= m}") and left == []


def test_a_nonzero_value_that_would_be_written_as_zero_is_left_for_a_person_never_written() -> None:
    page = "About 3%{= p} of readers, and 0.12{= q} of the rest.\n"
    new, changes, left = renumber_given("p.md", page, {"p": 0.4, "q": 0.004})
    assert new == page and changes == []
    assert left == [
        "p.md:1:7: 3% is written, 0.4 is computed now, bound to {= p}: at the precision written it "
        "would read 0%, which hides that it is not zero: show more digits",
        "p.md:1:31: 0.12 is written, 0.004 is computed now, bound to {= q}: at the precision written "
        "it would read 0.00, which hides that it is not zero: show more digits",
    ]
    assert restate(0.0, Numeral(1, 0, "0.12")) == "0.00"  # a value that is zero is written as zero


def test_a_percentage_bound_to_its_share_is_said_alike_by_the_build_and_by_renumber() -> None:
    page = "A share of 29%{= share} and of 29.0%{= share}.\n"
    values: dict[str, Value] = {"share": 0.29}
    built = [p.render("p.md") for p in checked(read(page), values)]
    new, changes, left = renumber_given("p.md", page, values)
    assert new == page and changes == []  # not "0%", nor "0.3%"
    assert (
        left
        == built
        == [
            f"p.md:1:{column}: {written} is written, 0.29 is computed now, bound to {{= share}}: "
            "a percentage quotes its number as written, so bind it to 100 × the share"
            for column, written in [(12, "29%"), (32, "29.0%")]
        ]
    )


def test_a_whole_percentage_bound_to_its_share_is_told_to_bind_100_times_the_share_first() -> None:
    """27% quotes 0.273747 neither exactly nor rounded: the binding is the fault, and the line
    says so first, not that a whole number is exact (whose advice, followed, leaves it failing)."""
    page = "A share of 27%{= share}, about 27%{= share} and 27.4%{= share}.\n"
    values: dict[str, Value] = {"share": 0.273747}
    built = [p.render("p.md") for p in checked(read(page), values)]
    new, changes, left = renumber_given("p.md", page, values)
    assert new == page and changes == []
    assert (
        left
        == built
        == [
            f"p.md:1:{column}: {written} is written, 0.273747 is computed now, bound to {{= share}}: "
            "a percentage quotes its number as written, so bind it to 100 × the share"
            for column, written in [(12, "27%"), (32, "27%"), (49, "27.4%")]
        ]
    )


def test_digits_keep_their_value_when_read_alone() -> None:
    assert value_of("1.234,5") == 1234.5 and value_of("1,234", ",") == 1.234 and value_of("٣") == 3


@pytest.mark.parametrize(
    "text",
    [
        "It falls at 9.8{= g} m/s².\n",
        "A field of 20{= area} m², a crate of 3{= size} ft³ and 2{= rate} kHz².\n",
        "Gravity pulls at 9.8{= g} m/s$^2$, or $9.8${= g} m/s$^{2}$.\n",
        "| pull | unit |\n|---|---|\n| 9.8{= g} | m/s² |\n",
    ],
)
def test_a_superscript_right_after_a_unit_is_the_units_power_not_a_number(text: str) -> None:
    assert problems(text) == []


def test_a_superscript_after_a_symbol_or_a_number_is_still_a_number() -> None:
    said = problems("The cost grows as n², as 2³ and as $n^2$; m/s ² is spaced.\n")
    assert [p.split(": ")[1].split(" is")[0] for p in said] == ["²", "2³", "2", "²"]


def test_a_time_is_one_number_marked_whole_or_bound_whole_and_renumbered_with_two_digit_parts() -> None:
    assert problems("A 10K{-} race in 44:52{-} (that is 44{-} minutes and 52{-} seconds).\n") == []
    assert problems("It took 1:05:30{-} in all.\n") == []
    assert problems("A race in 44:52 flat.\n") == [
        "p.md:1:11: 44:52 is not bound: a time's parts are bound together, {= [minutes, seconds]}, "
        "or marked {-}"
    ]
    assert bound("A race in 44:52{= divmod(pace, 60)}.\n") == [("44", 44), ("52", 52)]
    assert renumbered("A race in 44:52{= divmod(pace, 60)}.\n", {"divmod(pace, 60)": [45, 3]}) == (
        "A race in 45:03{= divmod(pace, 60)}.\n"
    )
