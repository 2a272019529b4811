"""Every container a site's Markdown extensions render is prose the check reads; every code block,
wherever it is and however it is written, is left exactly as written, bindings and all."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from bound_numbers import Page, check
from bound_numbers.reading import Problem, Reading, read, strip
from bound_numbers.values import Value


def checked(found: Reading, values: Mapping[str, Value]) -> list[Problem]:
    """The check's problems on the reading, each expression's value given wherever it is asked."""
    return check.check(found, {a: values[a.expression] for a in found.asked if a.expression in values})


F = "```"


def bound(markdown: str) -> list[tuple[int, int, str, str]]:
    found = read(markdown)
    assert found.problems == [], found.problems
    return [(n.line, n.column, n.text, b.expression) for b in found.bindings for n in b.numerals]


@pytest.mark.parametrize(
    ("page", "where"),
    [
        ('=== "First"\n\n    The first tab shows 7{= x}.\n\n=== "Second"\n\n    More.\n', (3, 24)),
        ('===+ "Chosen"\n    Shows 7{= x} at once.\n', (2, 10)),
        ("!!! note\n\n    A note of 7{= x}.\n", (3, 14)),
        ('??? success "Answer"\n\n    Folded 7{= x}.\n', (3, 11)),
        ('???+ tip "Open"\n    Open 7{= x}.\n', (2, 9)),
        ("<div markdown>\nInside 7{= x} here.\n</div>\n", (2, 7)),
        ('<div class="grid" markdown>\n\nInside 7{= x} here.\n\n</div>\n', (3, 7)),
        ("1. First\n\n    Then 7{= x} more.\n", (3, 9)),
        ('!!! note\n\n    === "Tab"\n\n        Nested 7{= x}.\n', (5, 15)),
        ("A footnote.[^n]\n\n[^n]: Its text, 7{= x}.\n", (3, 16)),
    ],
    ids=[
        "tab",
        "selected tab",
        "admonition",
        "details",
        "open details",
        "md_in_html",
        "md_in_html spaced",
        "list",
        "tab in admonition",
        "footnote",
    ],
)
def test_a_number_in_a_container_the_site_renders_is_read_bound_and_stripped(
    page: str, where: tuple[int, int]
) -> None:
    assert bound(page) == [(*where, "7", "x")]
    assert "{=" not in strip(page)
    assert [p.message for p in checked(read(page), {"x": 5})] == [
        "7 is written, 5 is computed now, bound to {= x}"
    ]


def test_an_unbound_number_in_a_tab_is_reported_where_it_is() -> None:
    page = '=== "First"\n\n    The first tab shows 7.\n'
    assert [p.render("p.md") for p in read(page).problems] == [
        "p.md:3:25: 7 is not bound: bind it {= …} (a given by its name) or make it a label"
    ]


@pytest.mark.parametrize(
    "page",
    [
        "Code:\n\n    total = 7{= x}\n\nafter.\n",
        "1. First\n\n        total = 7{= x}\n",
        f"{F}text\ntotal = 7{{= x}}\n{F}\n",
        "~~~\ntotal = 7{= x}\n~~~\n",
        f'=== "Tab"\n\n    {F}python\n    total = 7{{= x}}\n    {F}\n',
        f"!!! note\n\n    {F}\n    total = 7{{= x}}\n    {F}\n",
        f"> {F}\n> total = 7{{= x}}\n> {F}\n",
        "Some `7{= x}` code.\n",
    ],
    ids=[
        "indented",
        "indented in a list",
        "fenced",
        "tildes",
        "in a tab",
        "in an admonition",
        "in a blockquote",
        "span",
    ],
)
def test_a_code_block_of_every_kind_is_left_exactly_as_written_and_not_read(page: str) -> None:
    assert strip(page) == page
    found = read(page)
    assert (found.bindings, found.problems) == ([], [])


def test_a_fence_inside_a_tab_is_a_fence_the_provider_runs() -> None:
    page = f'=== "Tab"\n\n    {F}python exec="on"\n    total = 7\n    {F}\n'
    [fence] = Page("p.md", page).fences
    assert (fence.line, fence.body, fence.executed) == (3, "total = 7", True)


def shown_by_superfences(page: str) -> list[str]:
    """The code of each python fence as Python-Markdown, with the containers' extensions and
    SuperFences, hands it to a fence's formatter: what a reader is shown and markdown-exec runs."""
    import markdown  # here: Python-Markdown comes with the site's packages, not with the check

    sources: list[str] = []

    def formatter(source: str, *_: object, **__: object) -> str:
        sources.append(source)
        return ""

    def validator(language: str, inputs: dict[str, str], options: dict[str, str], *_: object) -> bool:
        options.update(inputs)  # `exec="on"` and any other option, as markdown-exec takes them
        return True

    python = {"name": "python", "class": "python", "format": formatter, "validator": validator}
    extensions = ["admonition", "pymdownx.details", "pymdownx.tabbed", "pymdownx.superfences"]
    configs = {"pymdownx.superfences": {"custom_fences": [python]}}
    markdown.Markdown(extensions=extensions, extension_configs=configs).convert(page)
    return sources


TWO_FUNCTIONS = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\nprint(b())"


def inside(code: str, by: int = 4) -> str:
    """`code` as an executed python fence indented `by` spaces, into a container's body."""
    fence = f'{F}python exec="on"\n{code}\n{F}'
    return "\n".join(" " * by + line if line else "" for line in fence.split("\n"))


@pytest.mark.parametrize(
    "page",
    [
        f'??? note "In depth: two functions"\n\n{inside(TWO_FUNCTIONS)}\n',
        f"!!! note\n    Before.\n\n{inside(TWO_FUNCTIONS)}\n\n    After.\n",
        f'???+ tip "Open"\n\n\n\n{inside(TWO_FUNCTIONS)}\n',
        f'=== "Tab"\n\n{inside(TWO_FUNCTIONS)}\n',
        f'!!! note\n\n    === "Tab"\n\n{inside(TWO_FUNCTIONS, 8)}\n',
        f'??? note "A"\n\n{inside("x = 1")}\n\n\n??? note "B"\n\n{inside(TWO_FUNCTIONS)}\n',
    ],
    ids=["details", "admonition", "details after blank lines", "tab", "tab in admonition", "two details"],
)
def test_a_fence_in_a_folded_block_holds_all_its_code_past_a_double_blank_line_as_the_reader_is_shown(
    page: str,
) -> None:
    """Python style puts two blank lines between functions; markdown-it's admonition plugin
    ended the block there, so the check ran the fence cut short, called it unclosed, and ran
    none of the code below while the reader was shown all of it."""
    fences = Page("p.md", page).fences
    assert [fence.body for fence in fences] == shown_by_superfences(page)
    assert fences[-1].body == TWO_FUNCTIONS
    assert read(page).problems == []


def test_prose_after_a_double_blank_line_in_a_folded_block_is_read_as_the_reader_sees_it() -> None:
    page = '??? note "In depth"\n    First.\n\n\n    Then 7{= x}.\n\n\n\n    And 8{= y}.\n\nOut 9{= z}.\n'
    assert bound(page) == [(5, 9, "7", "x"), (9, 8, "8", "y"), (11, 4, "9", "z")]
    assert "{=" not in strip(page)


@pytest.mark.parametrize(
    "page",
    [
        "> | a | b |\n> |---|---|\n> | x | y |\n>",
        "> | a | b |\n> |---|---|\n> | x | y |\n> ",
        "> **In depth**\n>\n> | a | b |\n> |---|---|\n> | x | y |\n>\n"
        '> ```python exec="on"\n> x = 1\n> ```\n',
        "> text\n>",
    ],
    ids=["table then an empty quote line", "table then a quote mark and a space", "a quoted fence", "text"],
)
def test_a_quoted_table_that_ends_the_text_is_parsed_without_an_error(page: str) -> None:
    """A quoted line with nothing after its `>` starts at the text's end: mdit-py-plugins'
    admonition rule, asked whether a table ends there, indexed past it (IndexError). A notebook
    makes such text of a table in an admonition followed by a fence."""
    tokens = Page("p.md", page).tokens
    assert [t.type for t in tokens if t.type.startswith("table_")][:1] in ([], ["table_open"])
