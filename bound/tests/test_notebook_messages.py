"""What the check says about a notebook names its cells, and what a notebook's code gives is said
plainly: found by trying bound-numbers on a chapter of a notebook-based physics book (a penny
dropped from the Empire State Building, its heights and speeds in pint quantities). Each notebook
here is a small one of this file's own.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bound_numbers import Unavailable
from bound_numbers.evaluation import Stages, plain
from bound_numbers.fences import FenceValues
from bound_numbers.notebooks import page_of
from bound_numbers.page import Page, placed
from bound_numbers.plugin import BoundNumbersPlugin
from bound_numbers.reading import read


def notebook(*cells: tuple[str, str]) -> str:
    """A notebook of `cells` (kind, source), as Jupyter writes one."""
    made: list[dict[str, object]] = [
        {"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True)}
        | ({"execution_count": None, "outputs": []} if kind == "code" else {})
        for kind, source in cells
    ]
    document = {"cells": made, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def page(tmp_path: Path, *cells: tuple[str, str]) -> Page:
    (tmp_path / "docs").mkdir(exist_ok=True)
    path = tmp_path / "docs" / "penny.ipynb"
    path.write_text(notebook(*cells), encoding="utf-8")
    return page_of(path, tmp_path, path.read_text(encoding="utf-8"))


def plugin(root: Path) -> BoundNumbersPlugin:
    made = BoundNumbersPlugin()
    made.config = made.config_class()
    made.config.load_dict({"values": "fences"})
    made.config.validate()
    made.root = root
    return made


def test_a_code_cell_that_fails_is_named_by_its_notebook_cell_and_line(tmp_path: Path) -> None:
    falling = page(
        tmp_path,
        ("markdown", "# Falling\n\nThe penny falls for 3.4{= t} seconds."),
        ("code", "t = 3.4\nv = 9.8 * t / 0"),
    )
    with pytest.raises(Unavailable) as raised:
        FenceValues(folder=tmp_path).bound_values(falling, read(falling).asked)
    assert placed(falling, str(raised.value)).startswith(
        "docs/penny.ipynb:cell 2:2: a code cell failed at `v = 9.8 * t / 0`: ZeroDivisionError"
    )


def test_a_message_about_a_markdown_page_or_another_page_is_left_as_it_is() -> None:
    markdown = Page("docs/p.md", "# P\n")
    said = "docs/p.md:12: a python fence failed at `1 / 0`: ZeroDivisionError: division by zero"
    assert placed(markdown, said) == said
    assert placed(markdown, "docs/other.md:3: this fence") == "docs/other.md:3: this fence"


def test_bindings_that_share_a_cause_in_a_notebook_are_named_by_cell(tmp_path: Path) -> None:
    """Both sentences announce the `t` that the first cell sets and an exercise sets again."""
    announced = page(
        tmp_path,
        ("markdown", "Drop it for 3.4{= t} seconds."),
        ("markdown", "# Units\n\nThen again for 3.4{= t} seconds."),
        ("code", "t = 3.4"),
        ("code", "t = 4.0"),
    )
    [problem] = plugin(tmp_path).check(announced)
    assert problem.message.endswith("nor, for that reason, can 1 more: {= t} (cell 2, line 3)")


def test_bindings_that_share_a_cause_on_a_markdown_page_are_named_by_line() -> None:
    text = 'Drop it for 3.4{= t} seconds.\n\nThen for 3.4{= t}.\n\n```python exec="on"\nt = 3.4\n```\n\n'
    text += '```python exec="on"\nt = 4.0\n```\n'
    [problem] = plugin(Path.cwd()).check(Page("docs/p.md", text))
    assert problem.message.endswith("nor, for that reason, can 1 more: {= t} (line 3)")


class Quantity:
    """What pint's Quantity does with `tolist`: hands it on to its magnitude, which an int lacks."""

    def __init__(self, magnitude: object) -> None:
        self.magnitude = magnitude

    def tolist(self) -> list[object]:
        raise AttributeError(f"Magnitude {type(self.magnitude).__name__!r} does not support tolist.")


def test_a_value_whose_tolist_fails_is_not_a_number_rather_than_an_error() -> None:
    assert plain(Quantity(381)) == "is a Quantity, not a number"


def test_a_name_announced_then_given_no_number_says_so_in_words_not_a_cut_error() -> None:
    """`a` is 9.8 where a cell first sets it, and a quantity with units at the page's end."""
    stages = Stages([(0, "a", "docs/p.md:1:5: the binding {= a}")])
    namespace: dict[str, object] = {}
    assert stages.at(0, namespace, last=False, step=lambda where: None) == []
    namespace["a"] = 9.8
    assert stages.at(1, namespace, last=False, step=lambda where: None) == [(0, 9.8)]
    namespace["a"] = Quantity(9.8)
    [(index, said)] = stages.at(2, namespace, last=True, step=lambda where: None)
    assert index == 0
    assert said == (
        "names what only the fences below it define, and they give it 9.8 first and no number at the "
        "page's end (it is a Quantity, not a number): say where it is quoted from, as in `{= a; after the "
        "next fence}`, or bind it to what the code above it computes"
    )


FALLING = (
    ("markdown", "# Falling\n\nIt falls for 8.8{= t; after cell 5} s from 381{= h; after the next cell} m."),
    ("code", "h = 381\nt = 3.4"),
    ("markdown", "After 3.4{= t} s it is still falling."),
    ("code", "g = 9.8"),
    ("code", "t = (2 * h / g) ** 0.5"),
    ("markdown", "A quantity of 3.4{= t; after the next cell} s."),
    ("code", "t = 3.4"),
)


def test_a_notebooks_binding_may_quote_the_next_cell_or_a_cell_counted_as_messages_count_them(
    tmp_path: Path,
) -> None:
    """The opening summary quotes cells further down; the quantity announced quotes the cell
    below it, though a cell above set `t` to 8.8."""
    assert plugin(tmp_path).check(page(tmp_path, *FALLING)) == []


@pytest.mark.parametrize(
    ("place", "said"),
    [
        ("after cell 4", "cell 4 neither assigns nor changes t, which it reads: name the cell that sets it"),
        ("after cell 3", "cell 3 is no code cell of this notebook: name one, as messages count cells"),
        ("after fence 3", "a notebook's code is in cells: write `; after cell N`, N as messages count cells"),
    ],
)
def test_a_cell_that_is_not_code_or_sets_nothing_the_binding_reads_is_one_line(
    tmp_path: Path, place: str, said: str
) -> None:
    """A cell added above the one a binding names would make it quote another cell's value in
    silence: the cell it names must be code that assigns or changes what the binding reads."""
    cells = (FALLING[0][0], FALLING[0][1].replace("after cell 5", place)), *FALLING[1:]
    [problem] = plugin(tmp_path).check(page(tmp_path, *cells))
    assert problem.render("docs/penny.ipynb").startswith("docs/penny.ipynb:3:14: 8.8{= t; ")
    assert f"cannot be worked out: {said}" in problem.message
