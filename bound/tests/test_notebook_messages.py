"""What the check says about a notebook names its cells, and what a notebook's code gives is said
plainly: found by trying bound-numbers on a chapter of a notebook-based physics book (a penny
dropped from the Empire State Building, its heights and speeds in pint quantities). Then the
notebook's one run in a Jupyter kernel (`kernel.py`): what the page shows of it, how a run that
cannot go on ends in one line, and which names a cell sets, which a binding that names the cell
it is quoted from is held to. Each notebook here is a small one of this file's own.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bound_numbers import Unavailable
from bound_numbers.evaluation import Stages, plain
from bound_numbers.fences import FenceValues
from bound_numbers.kernel import NEEDED
from bound_numbers.notebooks import page_of
from bound_numbers.page import Page, placed
from bound_numbers.plan import sets
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
    stages = Stages([(0, "a", "docs/p.md:1:5: the binding {= a}")], [("cell", 2), ("cell", 4)])
    namespace: dict[str, object] = {}
    assert stages.at(0, namespace, last=False, step=lambda where: None) == []
    namespace["a"] = 9.8
    assert stages.at(1, namespace, last=False, step=lambda where: None) == [(0, 9.8)]
    namespace["a"] = Quantity(9.8)
    [(index, said)] = stages.at(2, namespace, last=True, step=lambda where: None)
    assert index == 0
    assert said == (
        "names what only the cells below it define, and they give it 9.8 first and no number at the "
        "page's end (it is a Quantity, not a number): say where it is quoted from, as in `{= a; after "
        "cell 2}`, or bind it to what the code above it computes"
    )


SELECTED = (
    ("markdown", "# Selected\n\nThe share is 0.52{= share}."),
    ("code", "x = 1"),
    ("code", "share = 0.52"),
    ("markdown", "More of them:"),
    ("code", "share = 0.77"),
)


def test_a_name_announced_and_set_again_below_is_told_in_cells_the_cell_that_first_sets_it(
    tmp_path: Path,
) -> None:
    """A notebook's line speaks of cells, and names the cell whose value the sentence quotes (not
    the next one, which sets nothing it reads), so that following its advice makes the page hold."""
    [problem] = plugin(tmp_path).check(page(tmp_path, *SELECTED))
    assert problem.render("docs/p.ipynb") == (
        "docs/p.ipynb:3:14: 0.52{= share} cannot be worked out: names what only the cells below it "
        "define, and they give it 0.52 first and 0.77 at the page's end: say where it is quoted from, "
        "as in `{= share; after cell 3}`, or bind it to what the code above it computes"
    )
    followed = (SELECTED[0][0], SELECTED[0][1].replace("{= share}", "{= share; after cell 3}")), *SELECTED[1:]
    assert plugin(tmp_path).check(page(tmp_path, *followed)) == []


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


DROP = (
    ("markdown", "The penny falls for 3.4{= t} s."),
    ("code", "t = 3.4\nt"),
    ("markdown", "It lands at 33{= v} m/s."),
    ("code", "v = round(9.8 * t)\nprint(v)"),
)


def shown_cells(shown: str) -> list[tuple[int | None, list[str]]]:
    """Each code cell of the notebook a page shows: its execution count and its outputs' texts."""
    cells = json.loads(shown)["cells"]
    texts = [
        [
            "".join(output.get("text") or output.get("data", {}).get("text/plain", ""))
            for output in cell["outputs"]
        ]
        for cell in cells
        if cell["cell_type"] == "code"
    ]
    counts = [cell["execution_count"] for cell in cells if cell["cell_type"] == "code"]
    return list(zip(counts, texts, strict=True))


def test_the_bindings_evaluated_between_cells_leave_no_trace_in_the_notebook_shown(tmp_path: Path) -> None:
    """Each stage's bindings are a silent request to the kernel: the cells are counted 1 and 2, as
    in Jupyter, their outputs are their own, and the Markdown shows the numbers alone."""
    falling = page(tmp_path, *DROP)
    ran = FenceValues(folder=tmp_path).notebook(falling, read(falling).asked)
    assert not isinstance(ran.values, Unavailable)
    assert {a.expression: v for a, v in ran.values.items()} == {"t": 3.4, "v": 33}
    assert shown_cells(ran.shown) == [(1, ["3.4"]), (2, ["33\n"])]
    prose = ["".join(c["source"]) for c in json.loads(ran.shown)["cells"] if c["cell_type"] == "markdown"]
    assert prose == ["The penny falls for 3.4 s.", "It lands at 33 m/s."]


def test_a_cell_that_ends_the_kernel_is_one_line_and_stops_the_run_with_the_values_above_it(
    tmp_path: Path,
) -> None:
    dying = page(tmp_path, *DROP[:3], ("code", "import os\n\nos._exit(3)"), *DROP[3:])
    ran = FenceValues(folder=tmp_path).notebook(dying, read(dying).asked)
    assert isinstance(ran.values, Unavailable)
    assert (
        placed(dying, str(ran.values)) == "docs/penny.ipynb:cell 4:1: this cell ended the notebook's kernel"
    )
    assert {a.expression: v for a, v in ran.values.values.items() if not a.when} == {"t": 3.4}
    assert [texts for _, texts in shown_cells(ran.shown)] == [["3.4"], [], []], "nothing below it ran"


def test_a_cell_that_fails_is_one_line_and_the_run_goes_on_to_the_end_as_a_pages_fences_do(
    tmp_path: Path,
) -> None:
    """The values above the cell that failed are checked; those below it, kept apart, are what
    renumber would write; the cells below it run, and the page shows their outputs."""
    failing = page(tmp_path, *DROP[:3], ("code", "t = 3.4\n1 / 0"), *DROP[3:])
    ran = FenceValues(folder=tmp_path).notebook(failing, read(failing).asked)
    assert isinstance(ran.values, Unavailable)
    said = placed(failing, str(ran.values))
    assert (
        said
        == "docs/penny.ipynb:cell 4:2: a code cell failed at `1 / 0`: ZeroDivisionError: division by zero"
    )
    assert {a.expression: v for a, v in ran.values.values.items() if not a.when} == {"t": 3.4}
    assert {a.expression: v for a, v in ran.values.after.items() if not a.when} == {"v": 33}
    assert [texts for _, texts in shown_cells(ran.shown)][2] == ["33\n"]


def test_a_kernel_that_is_not_installed_is_one_line_naming_it(tmp_path: Path) -> None:
    falling = page(tmp_path, *DROP)
    ran = FenceValues(folder=tmp_path, kernel="no-such-kernel").notebook(falling, read(falling).asked)
    assert isinstance(ran.values, Unavailable)
    said = placed(falling, str(ran.values))
    assert said.startswith("docs/penny.ipynb: the notebook's kernel cannot start: ")
    assert said.endswith("No such kernel named no-such-kernel") and "\n" not in said


def test_without_nbclient_a_notebook_is_one_line_saying_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "nbclient", None)  # `import nbclient` raises ImportError
    falling = page(tmp_path, *DROP)
    with pytest.raises(Unavailable) as raised:
        FenceValues(folder=tmp_path).bound_values(falling, read(falling).asked)
    assert str(raised.value) == f"docs/penny.ipynb:1: {NEEDED}"


def test_a_notebook_with_no_code_and_no_binding_starts_no_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bound_numbers.kernel._client", lambda *args: pytest.fail("a kernel was started"))
    words = page(tmp_path, ("markdown", "# Notes\n\nNothing is computed here."))
    ran = FenceValues(folder=tmp_path).notebook(words, [])
    assert ran.values == {}
    assert "".join(json.loads(ran.shown)["cells"][0]["source"]) == "# Notes\n\nNothing is computed here."


@pytest.mark.parametrize(
    ("code", "names"),
    [
        ("t = 3.4\nv, w = 1, 2", {"t", "v", "w"}),
        ("t += 1\nfor n in range(3): pass\nwith open('f') as f: pass", {"t", "n", "f"}),
        ("import numpy as np\nfrom pint import UnitRegistry\nimport os.path", {"np", "UnitRegistry", "os"}),
        ("def drop(): pass\nclass Penny: pass", {"drop", "Penny"}),
        ("xs.append(4)\nys[0] = 1\npenny.mass = 2\ndel zs[1]", {"xs", "ys", "penny", "zs"}),
        ("%precision 2\n!pip install pint\nt = 3.4\nt?", {"t"}),  # IPython's own lines left out
        ("files = !ls\nt = 1", {"files", "t"}),  # a shell command's output assigned
        ("print(t)", set()),  # reads, sets nothing
    ],
)
def test_the_names_a_cell_sets_are_those_it_assigns_or_may_change_in_place(
    code: str, names: set[str]
) -> None:
    assert sets(code) == frozenset(names)


@pytest.mark.parametrize("code", ["%%time\nt = 3.4", "t = = 3", "from modsim import *\nx = 1"])
def test_a_cell_the_check_cannot_read_as_python_is_taken_at_its_word(code: str) -> None:
    """A cell magic, code that does not parse, or a star import may set anything: `sets` says it
    cannot tell (so the line naming the cell that first sets a name, a star import's, holds)."""
    assert sets(code) is None


def test_a_binding_that_names_a_cell_magic_cell_is_taken_at_its_word(tmp_path: Path) -> None:
    timed = page(
        tmp_path,
        ("markdown", "The penny falls for 3.4{= t; after cell 2} s."),
        ("code", "%%time\nt = 3.4"),
    )
    found = FenceValues(folder=tmp_path).bound_values(timed, read(timed).asked)
    assert [v for a, v in found.items() if a.when] == [3.4]


def test_a_markdown_page_names_the_fence_its_binding_is_quoted_from_by_count_not_cell() -> None:
    """A fence's number counts the fences the page runs, so a plain code block between them is not counted."""
    fence = "```"
    text = (
        f'It ends at 5{{= n; after fence 2}}.\n\n{fence}python exec="on"\nn = 1\n{fence}\n\n'
        f'{fence}python\nn = 9  # shown, not run\n{fence}\n\n{fence}python exec="on"\nn = 5\n{fence}\n'
    )
    markdown = Page("docs/p.md", text)
    found = FenceValues().bound_values(markdown, read(markdown).asked)
    assert [v for a, v in found.items() if a.when == "fence 2"] == [5]
