"""Every chapter page's code, as the notebook a reader downloads, runs top to bottom.

`book/attend_book/notebooks.py` cuts a page into cells at build. These tests hold the cutting to its
rules on small pages, then cut every real page and run the code cells in order, in one
namespace, as a kernel would: a page whose notebook would fail for the reader fails here.
The workbench is run in a real kernel, as the build runs it.
"""

from __future__ import annotations

import contextlib
import io
import json
from importlib.metadata import version
from pathlib import Path

import pytest
import tree
import yaml
from mkdocs.exceptions import PluginError

from attend.book.cli import DISTRIBUTION
from attend_book import notebooks, workbench
from attend_book.cache import FOLDER, Cache, build_versions, fingerprint, source_roots
from attend_book.notebooks import Cell, cells_of, notebook_of, offered, requirement
from attend_book.workbench import execute, executed, prose_of, without_remote_scripts
from bound_numbers import Page, Unavailable
from bound_numbers.check import check
from bound_numbers.page import FRONT
from bound_numbers.reading import read

DOCS = Path(__file__).resolve().parents[2] / "docs"
F = "```"


def cells(text: str, **options: object) -> list[Cell]:
    """The cells of the page `text`."""
    return cells_of(Page("docs/p.md", text), **options)  # type: ignore[arg-type]


def test_prose_and_executed_fences_become_cells_in_page_order() -> None:
    page = (
        "# A page\n\nSome prose.\n\n"
        f'{F}python exec="1" session="p"\nx = 2\nprint(x)\n{F}\n\n'
        "More prose.\n\n"
        f'{F}python exec="1" session="p" continuation\nprint(x + 1)\n{F}\n'
    )
    assert cells(page) == [
        Cell("markdown", "# A page\n\nSome prose."),
        Cell("code", "x = 2\nprint(x)"),
        Cell("markdown", "More prose."),
        Cell("code", "print(x + 1)"),
    ]


def test_a_transcript_becomes_a_call_to_the_function_the_command_calls() -> None:
    made = cells(f'{F}console exec="1"\n$ attend scores --no-scale\n{F}\n')
    assert made == [
        Cell(
            "code",
            "from attend.book.cli import main\n\n"
            "_ = main(['scores', '--no-scale'])  # $ attend scores --no-scale",
        )
    ]


def test_a_figure_fence_becomes_a_cell_whose_value_is_the_figure() -> None:
    page = (
        f'{F}python exec="1" html="1"\n'
        f"from attend_figures import cost_figure\n\nprint(cost_figure().html())\n{F}\n"
    )
    [cell] = cells(page)
    shown = (
        "from IPython.display import HTML\n\nfrom attend_figures import cost_figure\n\n"
        + "HTML(cost_figure().html())"
    )
    assert cell == Cell("code", shown)


def test_a_figure_fence_that_does_not_end_by_printing_its_html_stops_the_build() -> None:
    with pytest.raises(PluginError, match="must end by printing"):
        cells(f'{F}python exec="1" html="1"\nfigure = "<svg/>"\n{F}\n')


def test_a_notebook_installs_the_release_it_was_built_with_and_matplotlib_only_if_it_draws() -> None:
    plain = [Cell("code", "from attend import softmax")]
    drawn = [*plain, Cell("code", "from attend_figures import cost_figure")]
    release = version("attend-head")
    assert requirement(plain) == f"attend-head=={release}"
    assert requirement(drawn) == f"attend-head[figures]=={release}"
    assert requirement([Cell("code", "import matplotlib.pyplot as plt")]).startswith("attend-head[figures]==")


def test_a_listing_stays_prose_with_its_snippet_resolved_to_the_code() -> None:
    page = f'{F}python notest title="src/attend/core/cost.py"\n--8<-- "src/attend/core/cost.py:cost"\n{F}\n'
    [cell] = cells(page)
    assert cell.kind == "markdown"
    assert "class Cost:" in cell.source and "--8<--" not in cell.source


def test_an_escaped_include_line_reads_in_the_notebook_as_the_page_shows_it() -> None:
    shown = f'{F}python\n--8<-- "src/attend/core/head.py:attend"\n{F}'
    page = f"````markdown\n{shown.replace('--8<--', ';--8<--')}\n````\n"
    [cell] = cells(page)
    assert cell.source == f"````markdown\n{shown}\n````"


def test_a_listing_cut_from_inside_a_class_is_dedented_as_the_page_has_it() -> None:
    page = f'{F}python\n--8<-- "src/attend/core/head.py:attend"\n{F}\n'
    dedented = cells(page, snippets={"dedent_subsections": True})[0].source
    assert "\ndef attend(" in dedented and "\n    def attend(" in cells(page)[0].source


def test_hidden_lines_lose_their_marker_and_front_matter_is_dropped() -> None:
    page = f'---\ntitle: T\n---\n\n{F}python exec="1"\nassert 1 + 1 == 2  # markdown-exec: hide\n{F}\n'
    assert cells(page) == [Cell("code", "assert 1 + 1 == 2")]


def test_an_admonition_becomes_a_block_quote_a_notebook_can_render() -> None:
    page = '!!! warning "Not built here"\n    The repair has a name.\n\nAfter.\n'
    [cell] = cells(page)
    assert cell.source == "> **Not built here**\n>\n> The repair has a name.\n>\nAfter."


@pytest.mark.parametrize("indent", ["", "    "], ids=["on the page", "in an admonition"])
def test_a_table_just_before_a_fence_makes_its_notebook(indent: str) -> None:
    """In an admonition, the table's cell ended on the block quote's `>` alone, where
    markdown-it-py's block rules indexed past the text's end: an IndexError, not a notebook."""
    table = ["| token | weight |", "|---|---|", "| year | high |"]
    fence = [f'{F}python exec="1"', "x = 1", F]
    lines = [*table, "", *fence] if indent else [*table, *fence]
    body = "\n".join(indent + line if line else "" for line in lines)
    page = f'!!! note "In depth"\n\n{body}\n' if indent else f"{body}\n"
    made = cells(page)
    assert [cell.kind for cell in made] == ["markdown", "code"]
    assert "| year | high |" in made[0].source and made[1].source == "x = 1"


def test_a_notebook_is_nbformat_4_with_a_python_kernel_an_opening_note_and_an_install_cell() -> None:
    notebook = notebook_of([Cell("code", "print(1)")], "A page", "docs/a.md")
    assert notebook["nbformat"] == 4
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    first, install, code = notebook["cells"]
    assert first["cell_type"] == "markdown" and "docs/a.md" in "".join(first["source"])
    assert install["source"] == f'%pip install "attend-head=={version("attend-head")}"'
    assert (code["cell_type"], code["source"], code["outputs"]) == ("code", ["print(1)"], [])
    assert len({cell["id"] for cell in notebook["cells"]}) == 3
    json.dumps(notebook)  # writable as it stands


def _offers_a_notebook(page: Path) -> bool:
    text = page.read_text("utf-8")
    front = FRONT.match(text)
    return offered(yaml.safe_load(front.group(0).strip("-\n")) if front else {}, cells(text))


CHAPTERS = sorted(filter(_offers_a_notebook, DOCS.glob("*.md")))


def test_every_chapter_page_offers_a_notebook() -> None:
    assert len(CHAPTERS) >= 5, [p.name for p in CHAPTERS]
    assert DOCS / "contributing.md" not in CHAPTERS  # it runs the repository's tests


@pytest.mark.parametrize("page", CHAPTERS, ids=lambda p: p.name)
def test_a_chapter_page_notebook_runs_top_to_bottom(page: Path) -> None:
    namespace: dict[str, object] = {"__name__": "__main__"}
    printed = io.StringIO()
    for n, cell in enumerate(cells(page.read_text("utf-8")), start=1):
        if cell.kind != "code":
            continue
        with contextlib.redirect_stdout(printed):
            try:
                exec(compile(cell.source, f"{page.name}, cell {n}", "exec"), namespace)
            except Exception as problem:  # pragma: no cover - the message is the point
                pytest.fail(f"{page.name}, cell {n} raised {problem!r}:\n{cell.source}")
    assert printed.getvalue().strip(), f"{page.name}'s notebook prints nothing"


def test_the_workbench_runs_top_to_bottom_in_a_kernel() -> None:
    # executed as the build executes it, its prose's bindings and all, through the build's cache:
    # again only when the workbench, the plugin or a file its kernel read changed
    cache = Cache(DOCS.parent / FOLDER, fingerprint(source_roots(), build_versions()))
    book = tree.book()  # what the build's number check declares
    source = Page("docs/workbench.py", (DOCS / "workbench.py").read_text(encoding="utf-8"), prose_of)
    made, _ = executed(DOCS / "workbench.py", read(source, book).asked, cache, shown=source.path)
    notebook = json.loads(made.read_text(encoding="utf-8"))
    counts = [c["execution_count"] for c in notebook["cells"] if c.get("execution_count")]
    assert counts == list(range(1, len(counts) + 1))  # the cell that recorded its reads is gone
    outputs = [o for c in notebook["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    text = "".join("".join(o.get("text", "")) for o in outputs)
    assert "tokens with identical attention weights: [(2, 4)]" in text
    assert "the query-key pairs overtake the projections at n = 7" in text
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 3  # scores, attention weights, cost
    install = notebook["cells"][1]
    assert "".join(install["source"]).startswith('%pip install "attend-head[figures]==')
    assert install["outputs"] == []  # not run at build, where the package is installed already


def test_the_workbench_kernel_says_nothing_into_the_builds_output(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """Over TCP it warns of running without encryption on every build; over IPC, nothing."""
    source = tmp_path / "quiet.py"
    source.write_text("# %%\nprint('fine')\n", encoding="utf-8")
    execute(source, tmp_path / "quiet.ipynb")
    said = capfd.readouterr()
    assert "encryption" not in said.err + said.out and "fine" not in said.out


def test_a_workbench_cell_that_raises_stops_the_build(tmp_path: Path) -> None:
    source = tmp_path / "broken.py"
    source.write_text("# %%\nprint('fine')\n\n# %%\n1 / 0\n", encoding="utf-8")
    with pytest.raises(Unavailable, match="ZeroDivisionError"):
        execute(source, tmp_path / "broken.ipynb")
    assert not (tmp_path / "broken.ipynb").exists()


def test_the_workbench_binds_its_prose_to_its_kernels_values_and_shows_no_binding(tmp_path: Path) -> None:
    source = tmp_path / "bench.py"
    source.write_text(
        "# %% [markdown]\n# Of four{= n} rows, 2.5{= y}.\n\n# %%\nn = 4\nprint(n)\n\n"
        "# %% [markdown]\n# And 3{= n + 2}, 1{= z}.\n\n# %%\nn = 100\n\n# %% [markdown]\n# Now 100{= n}.\n",
        encoding="utf-8",
    )
    page = Page("bench.py", source.read_text(encoding="utf-8"), prose_of)
    reading = read(page)
    plan = workbench.plan_of(page, reading.asked)
    execute(source, tmp_path / "bench.ipynb", plan=plan)
    notebook = json.loads((tmp_path / "bench.ipynb").read_text(encoding="utf-8"))
    assert ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown"] == [
        "Of four rows, 2.5.",
        "And 3, 1.",
        "Now 100.",
    ]
    # the page's five cells under the install cell; the cells that evaluated the bindings are not kept
    assert len(notebook["cells"]) == 6
    values = plan.values_of(dict(enumerate(workbench.values_of(tmp_path / "bench.ipynb"))))
    problems = [p.render("bench.py") for p in check(reading, values)]
    # each binding after the cells above it (`n + 2` is 6, not 102); `four{= n}`, above every
    # cell that sets n, is not guessed to mean the 4 rather than the 100
    below = "names what only the fences below it define, and they give it 4 first and 100 at the page's end"
    assert problems == [
        f"bench.py:2:6: four{{= n}} cannot be worked out: {below}: say where it is quoted from, as in "
        "`{= n; after fence 1}`, or bind it to what the code above it computes",
        "bench.py:2:22: 2.5{= y} cannot be worked out: NameError: name 'y' is not defined",
        "bench.py:9:7: 3 is written, 6 is computed now, bound to {= n + 2}",
        "bench.py:9:19: 1{= z} cannot be worked out: NameError: name 'z' is not defined",
    ]


def test_a_pages_notebook_shows_no_binding() -> None:
    page = f'It is 3.125{{= x}}.\n\n{F}python exec="1"\nx = 3.125\n{F}\n'
    assert cells(page)[0] == Cell("markdown", "It is 3.125.")


def test_the_workbench_page_loses_nbconverts_mathjax_from_a_cdn() -> None:
    page = (
        '<p>a</p><!-- Load mathjax -->\n<script src="https://cdn.example/mathjax.js"> </script>'
        "\n<script>init()</script>\n<!-- End of mathjax configuration --><p>b</p>"
    )
    assert without_remote_scripts(page) == "<p>a</p><p>b</p>"


EXERCISE = (
    "Intro.\n\n"
    f'{F}python exec="1" session="p"\nx = 2\n{F}\n\n'
    '!!! question "Exercise 1: a sum"\n    Predict x + 1.\n    *Hint:* x is 2.\n\n'
    '??? success "Answer"\n    It is 3{= x + 1}, one more than x.\n\n'
    f'    {F}python exec="1" session="p" continuation answer="y"\n    y = x + 1\n    print(y)\n    {F}\n\n'
    "    That is all.\n\n"
    "After.\n"
)


def test_an_exercise_becomes_its_question_a_prediction_the_answers_code_a_check_and_the_folded_answer() -> (
    None
):
    made = cells(EXERCISE)
    assert [c.kind for c in made] == [
        "markdown",
        "code",
        "markdown",
        "code",
        "code",
        "code",
        "markdown",
        "markdown",
    ]
    _, _, question, prediction, code, check, answer, after = made
    assert question.source.startswith("> **Exercise 1: a sum**") and "Predict x + 1." in question.source
    assert prediction.source.startswith("answer = ...")
    assert code.source == "y = x + 1\nprint(y)"
    assert "np.asarray(y)" in check.source
    assert (
        answer.source
        == "<details>\n<summary>Answer</summary>\n\nIt is 3, one more than x.\n\nThat is all.\n\n</details>"
    )
    assert after.source == "After."


WRITTEN = (
    '!!! question "Write it"\n    Write `double(x)`.\n\n'
    '??? success "Answer"\n    One way:\n\n'
    f'    {F}python exec="1" source="above" write="double"\n'
    '    def double(x):\n        """Twice x."""\n        return 2 * x\n'
    f"    {F}\n\n"
    "    Held against the sum:\n\n"
    f'    {F}python exec="1" continuation answer="held"\n'
    "    try:\n        held = all(double(x) == x + x for x in range(5))\n"
    "    except Exception:\n        held = False\n"
    f"    {F}\n"
)


def _written(body: str) -> str:
    """What the notebook of WRITTEN prints last, the reader's function given `body`."""
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    for cell in cells(WRITTEN):
        if cell.kind == "code":
            source = cell.source.replace("    ...  # ", f"    {body}  # ")
            with contextlib.redirect_stdout(printed):
                exec(source, namespace)
    return printed.getvalue().splitlines()[-1]


def test_an_exercise_that_has_the_reader_write_a_function_opens_on_its_signature_and_holds_it() -> None:
    made = cells(WRITTEN)
    assert [c.kind for c in made] == ["markdown", "code", "code", "code", "markdown"]
    stub = next(c for c in made if c.kind == "code")
    assert stub.source.startswith('def double(x):\n    """Twice x."""\n    ...  # your code')
    assert "return 2 * x" not in "".join(c.source for c in made if c.kind == "code"), (
        "the answer's own is prose"
    )
    assert "return 2 * x" in made[-1].source and made[-1].source.startswith("<details>")
    assert _written("return 2 * x").startswith("Right:")
    assert _written("return x").startswith("Not yet:")
    assert _written("...").startswith("Not yet:"), "the cell as the reader finds it"


def test_a_write_exercise_naming_no_function_of_its_fence_stops_the_build() -> None:
    with pytest.raises(PluginError, match='write="triple" names no function'):
        cells(WRITTEN.replace('write="double"', 'write="triple"'))


def _verdict(page: str, prediction: str) -> str:
    """What the check cell of the page's one exercise prints for `prediction`, cells run in order."""
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    for cell in cells(page):
        if cell.kind == "code":
            source = f"answer = {prediction}" if cell.source.startswith("answer = ...") else cell.source
            with contextlib.redirect_stdout(printed):
                exec(source, namespace)
    return printed.getvalue().splitlines()[-1]


def _page_answering(code: str, expression: str, *options: str) -> str:
    header = " ".join([f'{F}python exec="1" answer="{expression}"', *options])
    question = '!!! question "Exercise 1: q"\n    Predict.\n\n'
    return f'{question}??? success "Answer"\n    A.\n\n    {header}\n    {code}\n    {F}\n'


@pytest.mark.parametrize(
    ("prediction", "verdict"),
    [
        ("...", "Write your prediction in place of the ... above, run that cell, then this one."),
        ("0.58", "Right: the code gives 0.58002"),
        ("0.5800", "Right: the code gives 0.58002"),
        ("0.6", "Not quite: the code gives 0.58002"),
        ("[0.58]", "Not quite: the answer's shape is (), your prediction's (1,)."),
    ],
)
def test_the_check_cell_holds_a_number_to_one_percent(prediction: str, verdict: str) -> None:
    assert _verdict(_page_answering("v = 0.58002", "v"), prediction) == verdict


def test_the_check_cell_holds_whole_numbers_and_bools_exactly_and_arrays_element_by_element() -> None:
    assert _verdict(_page_answering("n = 192", "n"), "191.9").startswith("Not quite")
    assert _verdict(_page_answering("n = 192", "n"), "192").startswith("Right")
    assert _verdict(_page_answering("b = 1 < 2", "b"), "True").startswith("Right")
    assert _verdict(_page_answering("b = 1 < 2", "b"), "False").startswith("Not quite")
    pair = _page_answering("import numpy as np; w = np.array([0.7311, 0.2689])", "w")
    assert _verdict(pair, "[0.73, 0.27]").startswith("Right")
    assert _verdict(pair, "[0.27, 0.73]").startswith("Not quite")


def test_an_exercise_may_set_a_looser_tolerance_where_a_fair_prediction_is_rough() -> None:
    loose = _page_answering("r = 1.7126", "r", 'rtol="0.05"')
    assert _verdict(loose, "1.732").startswith("Right")
    assert _verdict(_page_answering("r = 1.7126", "r"), "1.732").startswith("Not quite")


def test_an_answers_code_may_not_overwrite_the_readers_prediction() -> None:
    with pytest.raises(PluginError, match="may not set `answer`"):
        cells(_page_answering("answer = 3", "answer"))


def test_a_book_only_fence_stays_out_of_the_notebook() -> None:
    kept_out = f'{F}python exec="1" continuation book_only\nprint("repository")\n{F}\n'
    page = f'{F}python exec="1"\nx = 1\n{F}\n\n{kept_out}'
    assert cells(page) == [Cell("code", "x = 1")]


def _exercises(page: Path) -> list[tuple[str, str, int]]:
    """A page's `## Exercises` section as (kind, title, fences with `answer=`) per admonition."""
    source = Page(page.name, page.read_text("utf-8"))
    tokens = source.tokens
    found, inside = [], False
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h2":
            inside = tokens[i + 1].content == "Exercises"
        if inside and token.type == "admonition_open" and token.level == 0 and token.map:
            first, end = token.map
            checked = [f for f in source.fences if first < f.line <= end and "answer" in f.options]
            found.append((token.markup + token.meta["tag"], tokens[i + 2].content, len(checked)))
    return found


EXERCISED = [p for p in sorted(DOCS.glob("*.md")) if "\n## Exercises\n" in p.read_text("utf-8")]


@pytest.mark.parametrize("page", EXERCISED, ids=lambda p: p.name)
def test_a_pages_exercises_are_two_or_three_questions_each_with_one_checked_answer(page: Path) -> None:
    found = _exercises(page)
    assert 4 <= len(found) <= 6 and len(found) % 2 == 0, found
    for n, (question, answer) in enumerate(zip(found[::2], found[1::2], strict=True), start=1):
        kind, title, _ = question
        assert kind == "!!!question" and title.startswith(f"Exercise {n}: ") and title[12:].strip(), question
        assert answer == ("???success", "Answer", 1), answer
    assert page.read_text("utf-8").rstrip().endswith("```"), "the exercises end the page"


def test_the_opening_pages_each_end_with_exercises() -> None:
    names = {p.stem for p in EXERCISED}
    assert {"bare-digit", "three-matrices", "score-square", "square-root-divide"} <= names


def test_the_notebooks_install_the_package_under_the_name_it_is_published_as() -> None:
    """The plugin names it itself, so that the build does not import the package."""
    assert notebooks.DISTRIBUTION == DISTRIBUTION
