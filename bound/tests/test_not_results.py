"""Numbers that quote no value: marked `{-}` where written, or declared once for a site or a page
(`not_results`), and never read as a quantity where a reader sees none."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from bound_numbers import check, declared
from bound_numbers.declared import Declared, Exempt, Given
from bound_numbers.reading import Problem, Reading, read, strip
from bound_numbers.values import Value


def checked(found: Reading, values: Mapping[str, Value]) -> list[Problem]:
    """The check's problems on the reading, each expression's value given wherever it is asked."""
    return check.check(found, {a: values[a.expression] for a in found.asked if a.expression in values})


UNBOUND = "is not bound: bind it {= …} (a given by its name) or make it a label"
# What a site might declare in mkdocs.yml, as the plugin reads it.
SITE = declared.of_config(
    {
        "not_results": {
            "after": ["chapter", "version", "CC BY"],
            "years": [1900, 2030],
            "dates": True,
            "quotes": True,
            "patterns": [r"prob_le\(\d+\)"],
        }
    }
)


def problems(markdown: str, book: Declared | None = None) -> list[str]:
    return [p.render("p.md") for p in read(markdown, book).problems]


def bound(markdown: str, book: Declared | None = None) -> list[tuple[str, str]]:
    return [(b.written, b.expression) for b in read(markdown, book).bindings]


def test_a_number_marked_as_no_result_needs_no_binding_and_the_mark_is_stripped() -> None:
    page = "In 1947{-} the survey, (1, 2){-} in brackets, $2^{10}${-} in math, a value 3{= x}.\n"
    assert problems(page) == [] and bound(page) == [("3", "x")]
    assert strip(page) == "In 1947 the survey, (1, 2) in brackets, $2^{10}$ in math, a value 3.\n"


SENTENCE = (
    "In 1947 and 2014, chapter 5, version 4.0 and chapters 6 and 7, “Fifty Years of Data”, "
    "on May 23, under CC BY 4.0, prob_le(100).\n"
)


def test_numbers_a_site_declares_no_results_need_no_binding_there_and_only_there() -> None:
    assert problems(SENTENCE, SITE) == []
    unbound = [p.split(": ")[1].split(" ")[0] for p in problems(SENTENCE)]
    assert unbound == [
        *("1947", "2014", "5", "4.0", "6", "7", "Fifty", "23", "4.0", "100"),
    ]


def test_a_year_is_four_digits_in_the_declared_range_and_nothing_else() -> None:
    assert [p.split(": ")[1].split(" ")[0] for p in problems("In 1899, 2031, 2,014 and 20140.\n", SITE)] == [
        *("1899", "2031", "2,014", "20140"),
    ]


def test_a_decade_is_a_year_with_an_s_and_the_years_rule_covers_it() -> None:
    years = declared.of_config({"not_results": {"years": [1900, 2030]}})
    assert problems("Saved on a floppy disk from the 1990s, or the 1990’s.\n", years) == []
    assert problems("A disk from the 1880s.\n", years)[0].startswith("p.md:1:17: 1880s is not bound")


def test_a_decade_with_an_apostrophe_is_a_decade_of_a_century_the_years_rule_covers() -> None:
    """ "The '90s" is the 1990s (or the 1890s, 2090s): a decade like them where one is in range."""
    years = declared.of_config({"not_results": {"years": [1900, 2030]}})
    assert problems("Music of the '90s and the ’60s.\n", years) == []
    said = problems("Music of the '90s, 90s and '95s.\n", years)
    assert [p.split(": ")[1] for p in said] == ["90s is not bound", "95s is not bound"]
    assert problems("Music of the '90s.\n")[0].startswith("p.md:1:15: 90s is not bound")


@pytest.mark.parametrize(
    ("text", "unbound"),
    [
        ("Moving at $v = 9.8${= g}, it has $m v^2 / 2$ joules, $v^2 / 2$ a mass.\n", 4),  # inline math
        ("$$x = a t^2 / 2$$\n", 2),  # a math block
        ("| pull | energy |\n|---|---|\n| 9.8{= g} | $m v^2 / 2$ |\n", 2),  # a table row
    ],
)
def test_a_pattern_covers_the_numbers_of_math_as_it_is_written(text: str, unbound: int) -> None:
    """A physics book writes its formulas' constants in math (`$m v^2 / 2$`); a pattern names them once."""
    units = declared.of_config({"not_results": {"patterns": [r"v\^2 / 2", r"t\^2 / 2"]}})
    assert problems(text, units) == []
    assert [p.split(": ")[1].split(" ")[0] for p in problems(text)] == ["2"] * unbound


def test_a_page_declares_its_own_no_results_over_the_sites() -> None:
    page = '---\nnot_results:\n  after: [figure]\n  quotes: false\n---\n\nFigure 3, chapter 5, "4 rows".\n'
    assert problems(page, SITE) == [f"p.md:7:23: 4 {UNBOUND}"]


def test_a_bound_number_is_held_though_it_is_declared_no_result() -> None:
    found = read("In 2014{= year} and chapter 5{= n}.\n", SITE)
    assert [(b.written, b.expression) for b in found.bindings] == [("2014", "year"), ("5", "n")]
    assert [p.message for p in checked(found, {"year": 2015, "n": 5})] == [
        "2014 is written, 2015 is computed now, bound to {= year}"
    ]


def test_a_date_before_a_number_is_no_part_of_a_list_and_says_how_to_declare_dates() -> None:
    assert bound("On May 23 and 1{= hands}.\n") == [("1", "hands")]
    assert problems("On May 23 and 1{= hands}.\n") == [
        "p.md:1:8: 23 is part of a date (May 23): bind it {= …}, or declare `not_results: {dates: true}`"
    ]
    assert bound("On May 23 and 1{= hands}.\n", SITE) == [("1", "hands")]


def test_numbers_listed_with_or_take_one_binding_after_the_last() -> None:
    assert bound("Pick 1, 2, or 3{= xs}; 4 or 5{= ys}.\n") == [("1, 2, or 3", "xs"), ("4 or 5", "ys")]


def test_a_written_list_is_quoted_as_the_page_writes_it_so_a_search_finds_it() -> None:
    page = "Pick 1, 2, or\n3{= xs}, (4, 5){= ys} or 44:52{= t}.\n"
    said = [p.render("p.md") for p in checked(read(page), {"xs": [1, 2], "ys": [4], "t": [44]})]
    assert said == [
        "p.md:1:6: 1, 2, or 3{= xs} gives 2 numbers for the 3 written",
        "p.md:2:11: (4, 5){= ys} gives 1 number for the 2 written",
        "p.md:2:26: 44:52{= t} gives 1 number for the 2 written",
    ]


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("after: chapter", "not_results: after must be a list of words"),
        (
            "years: [2030, 1900]",
            "not_results: years must be [first, last], the years a four-digit number may be",
        ),
        ("dates: sometimes", "not_results: dates must be true or false"),
        (
            "patterns: ['(']",
            "not_results: patterns '(' is not a regular expression: missing ), unterminated subpattern at "
            "position 0",
        ),
        ("colours: true", "not_results: 'colours' is not one of after, years, dates, quotes, patterns"),
    ],
)
def test_a_not_results_entry_that_cannot_be_read_is_one_line_and_the_others_hold(
    entry: str, message: str
) -> None:
    page = f"---\nnot_results:\n  quotes: true\n  {entry}\n---\n\n“Chapter 5”.\n"
    assert problems(page) == [f"p.md:1: front matter {message}"]


def test_one_bad_front_matter_entry_is_one_line_and_every_other_given_and_label_still_holds() -> None:
    page = (
        '---\ngivens:\n  a: [1, "the first"]\n  b: [[1, 2], "a list"]\n  c: [3, "the third"]\n'
        "labels: {May: 31, row: [1]}\n---\n\nIt is 1{= a}, 2{= b} and 3{= c}; May 3, row 2.\n"
    )
    found = read(page, Declared(labels={"row": "n"}))
    assert [p.render("p.md") for p in found.problems] == [
        "p.md:1: front matter labels: row: write a word, then an expression for the last one",
        "p.md:1: front matter givens: b must be [value, reason], a number and why it holds",
        "p.md:9:15: {= b} uses the given b, whose declaration in the front matter cannot be read (line 1)",
    ]
    assert [(b.written, b.expression) for b in found.bindings] == [("1", "1"), ("3", "3")]
    assert [(label.word, label.limit) for label in found.labels] == [("may", "31"), ("row", "n")]


def test_the_sites_declarations_are_read_whole_or_refused_in_one_line() -> None:
    assert SITE.exempt == Exempt(
        frozenset({"chapter", "version", "cc by"}), (1900, 2030), True, True, (r"prob_le\(\d+\)",)
    )
    with pytest.raises(
        declared.DeclarationError, match=r"^mkdocs.yml not_results: dates must be true or false$"
    ):
        declared.of_config({"not_results": {"dates": "yes"}})
    with pytest.raises(declared.DeclarationError, match=r'^mkdocs.yml decimal_mark: must be "." or ","$'):
        declared.of_config({"decimal_mark": ";"})
    assert declared.of_config({"givens": {"n": [2, "two"]}}).givens == {"n": Given(2, "two")}


@pytest.mark.parametrize(
    "text",
    [
        "Prices of $5{= a} and $6{= b} each.\n",
        "A footnote[^1] and a reference label [the docs][2].\n\n[^1]: Its note.\n\n[2]: https://example.org\n",
        "Served at http://localhost:8000/docs, localhost:8000 and 127.0.0.1:8000.\n",
    ],
    ids=["prices", "footnote and reference label", "addresses"],
)
def test_prices_footnote_markers_reference_labels_and_addresses_are_no_false_errors(text: str) -> None:
    assert problems(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "A dash &#8212; a hex one &#x2014; and a sign &#169; in a sentence.\n",
        "| Cell |\n|---|\n| a &#8212; b |\n",
        "![A figure](f.png){ width=300 }\n",
        "See www.example.org/page/3, or www.example.org:8080.\n",
        "Write to user+7@example.org or ops2@mail3.example.org.\n",
    ],
    ids=["character references", "a reference in a table", "attributes without a colon", "www", "e-mail"],
)
def test_character_references_attributes_and_addresses_the_reader_never_sees_as_numbers_are_no_errors(
    text: str,
) -> None:
    assert problems(text) == []


def test_a_character_reference_that_shows_a_digit_or_one_written_literally_is_still_read() -> None:
    assert problems("Shown as &#51; here.\n") == [f"p.md:1:12: 51 {UNBOUND}"]
    assert problems("Write \\&#8212; for a dash.\n") == [f"p.md:1:10: 8212 {UNBOUND}"]
    values: dict[str, Value] = {"x": 8}
    said = [p.message for p in checked(read("A dash&#8212;7{= x} here.\n"), values)]
    assert said == ["7 is written, 8 is computed now, bound to {= x}"]


def test_two_prices_are_two_bound_numbers_and_a_footnotes_text_is_read() -> None:
    values: dict[str, Value] = {"a": 5, "b": 7}
    said = [p.message for p in checked(read("Prices of $5{= a} and $6{= b} each.\n"), values)]
    assert said == ["6 is written, 7 is computed now, bound to {= b}"]
    assert problems("See this.[^1]\n\n[^1]: A note of 12 rows.\n") == [f"p.md:3:17: 12 {UNBOUND}"]
