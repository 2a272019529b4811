"""Every page's code as a notebook a reader can download and run, made at build.

Prose (listings with their snippets resolved) becomes Markdown cells, executed fences code
cells; a transcript becomes calls to `attend.book.cli.main`, and a figure fence a cell whose value is
the figure, which Jupyter draws. Each notebook opens by installing what it needs from PyPI, so it
runs wherever a reader takes it. The workbench, a notebook of its own, is `workbench`'s.
"""

from __future__ import annotations

import ast
import hashlib
import html
import json
import re
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path, PurePosixPath
from typing import Any

import nbformat
from markdown import Markdown
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page as MkDocsPage

from attend_book import snippets
from attend_book.page import commands, executed, words
from bound_numbers import Fence, Page, Unavailable, strip

# The package the notebooks install, by its name on PyPI: `attend.book.cli.DISTRIBUTION`, named
# here too (a test holds them equal) so that the build never imports the package a page's own
# process imports anyway (a tenth of a warm build).
DISTRIBUTION = "attend-head"
RELEASE = f"https://pypi.org/project/{DISTRIBUTION}/"
DRAWS = re.compile(r"^\s*(?:from|import)\s+(?:matplotlib|attend_figures)\b", re.MULTILINE)
ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true">'
    '<path d="M5 20h14v-2H5m14-9h-4V3H9v6H5l7 7 7-7Z"/></svg>'
)
# An exercise in a notebook: the reader's prediction, then (after the code that works the
# answer out) the check of it. Whole numbers and bools must match exactly; other numbers to
# within 1% (or 1e-4 near zero), element by element for an array, or within the fence's own
# `rtol="…"` where a fair prediction can only be rough.
PREDICTION = "answer = ...  # your prediction: replace the ... and run this cell"
CHECK = """import numpy as np

_expected = np.asarray({expected})
if answer is ...:
    print("Write your prediction in place of the ... above, run that cell, then this one.")
elif np.shape(answer) != _expected.shape:
    print(f"Not quite: the answer's shape is {{_expected.shape}}, your prediction's {{np.shape(answer)}}.")
else:
    _exact = _expected.dtype.kind in "biu"  # whole numbers and bools: exactly
    _right = (np.array_equal if _exact else lambda a, b: np.allclose(a, b, rtol={rtol}, atol=1e-4))(
        np.asarray(answer), _expected
    )
    print("Right:" if _right else "Not quite:", "the code gives", _expected.tolist())"""

# An exercise that has the reader write a function: the cell to write it in, and the verdict
# after the answer's checks ran on it.
WRITE = "your code: replace the ... with the body, run this cell, then the cells after it"
HELD = """if {expected}:
    print("Right: your function gives what the package gives, on every case above.")
else:
    print("Not yet: your function and the package differ, or it has no body yet; the answer has one way.")"""


@dataclass(frozen=True)
class Cell:
    kind: str  # "markdown" or "code"
    source: str


def cells_of(page: Page, root: Path | None = None, snippets: Mapping[str, Any] | None = None) -> list[Cell]:
    """A page cut into cells. A listing's include lines are resolved by pymdownx.snippets itself,
    with the page's options for it (`snippets`), from `root` (default: here), as the page shows them.
    A fence marked `book_only` (it needs the repository, as the chapter's tests do) is left out;
    an exercise's answer becomes the cells `_exercise` makes. A transcript line that cannot be
    made a call is said at its line of the page, as the build says it."""
    options = {**(snippets or {}), "base_path": [str(root or Path.cwd())]}
    include = Markdown(extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": options})
    path = page.path
    answers = _answers(page)
    lines = _admonitions(page, skip=[(a.first, a.end) for a in answers])
    after = page.front  # the first line not yet in a cell
    cells: list[Cell] = []
    prose: list[str] = []
    for fence in page.fences:
        if fence.line <= after:  # in an answer already made into cells
            continue
        if answer := next((a for a in answers if a.first < fence.line <= a.end), None):
            cells += _markdown([*prose, *lines[after : answer.first]])
            cells += _exercise(answer, lines, path)
            prose, after = [], answer.end
            continue
        prose += lines[after : fence.line - 1]
        after = fence.end
        if not executed(fence):  # a listing, shown with its include lines resolved
            shown = "\n".join(include.preprocessors["snippet"].run(fence.body.splitlines())).rstrip("\n")
            prose.append(f"{fence.mark}{fence.language}\n{shown}\n{fence.mark}")
        elif "book_only" not in fence.words:
            cells += [*_markdown(prose), Cell("code", _code(fence, path))]
            prose = []
    return cells + _markdown(prose + lines[after:])


def _code(fence: Fence, path: str) -> str:
    """An executed fence of the page `path` as a code cell's source."""
    code = fence.body.replace("  # markdown-exec: hide", "")
    if fence.language == "console":
        code = _calls(code, path, first=fence.line + 1)
    elif fence.switched_on("html"):  # a figure, printed as HTML for the page
        code = _shown(code)
    return code.strip("\n")


@dataclass(frozen=True)
class Answer:
    """An exercise's collapsible answer (`??? success "Answer"`): its first line and the line
    after it (0-based), the fences in it, and the one whose `answer="EXPRESSION"` a reader's
    prediction is checked against."""

    first: int
    end: int
    inside: tuple[Fence, ...]
    checked: Fence


def _answers(page: Page) -> list[Answer]:
    """Each collapsible answer that holds a fence with `answer=`: one such fence, which runs."""
    found = []
    blocks = [t.map for t in page.tokens if t.type == "admonition_open" and t.markup == "???" and t.map]
    for first, end in blocks:
        inside = tuple(f for f in page.fences if first < f.line <= end)
        marked = [f for f in inside if "answer" in f.options]
        if len(marked) > 1 or (marked and not executed(marked[0])):
            raise PluginError(f"line {first + 1}: an answer holds one fence with `answer=`, and it runs")
        if marked:
            found.append(Answer(first, end, inside, marked[0]))
    return found


def _exercise(answer: Answer, lines: list[str], path: str) -> list[Cell]:
    """An exercise's answer as a notebook asks it, the question being the prose before it: a
    cell for the reader's prediction, the code of each of its fences that runs, a
    cell after the checked fence that holds the prediction against its `answer=` expression,
    and the answer's prose folded away at the end.

    An exercise that has the reader write a function instead (a fence of its answer marked
    `write="NAME"`, which defines NAME) opens on that function's signature and docstring with
    `...` for its body, for the reader to fill; the answer's own NAME is shown only in the folded
    prose, and the cell after the checked fence says whether its `answer=` (true when NAME
    passed the fence's checks) holds."""
    written = next((f for f in answer.inside if "write" in f.options), None)
    cells, said, at = [Cell("code", _stub(written) if written else PREDICTION)], [], answer.first + 1
    for fence in answer.inside:
        said += lines[at : fence.line - 1]
        at = fence.end
        if fence is written:
            said += [f"    {fence.mark}python", *lines[fence.line : fence.end - 1], f"    {fence.mark}"]
            continue
        if not executed(fence) or "book_only" in fence.words:
            said += lines[fence.line - 1 : fence.end]
            continue
        source = _code(fence, path)
        names = ast.walk(ast.parse(source))
        if any(isinstance(n, ast.Name) and n.id == "answer" and isinstance(n.ctx, ast.Store) for n in names):
            raise PluginError(
                f"line {fence.line}: an answer's code may not set `answer`, the reader's prediction"
            )
        cells.append(Cell("code", source))
        if fence == answer.checked:
            cells.append(
                Cell("code", HELD.format(expected=fence.options["answer"]) if written else _check(fence))
            )
    said += lines[at : answer.end]
    prose = re.sub(r"\n{3,}", "\n\n", strip("\n".join(line[4:] for line in said))).strip("\n")  # fences gone
    return [*cells, Cell("markdown", f"<details>\n<summary>Answer</summary>\n\n{prose}\n\n</details>")]


def _stub(fence: Fence) -> str:
    """The cell a reader writes `write="NAME"`'s function in: its signature and docstring as the
    fence has them, and `...` for the body."""
    name = fence.options["write"]
    code = fence.body.replace("  # markdown-exec: hide", "")
    found = [n for n in ast.parse(code).body if isinstance(n, ast.FunctionDef) and n.name == name]
    if not found or not ast.get_docstring(found[0]):
        raise PluginError(
            f'line {fence.line}: write="{name}" names no function with a docstring in this fence'
        )
    head = code.splitlines()[found[0].lineno - 1 : found[0].body[0].end_lineno]
    return "\n".join([*head, "    ...  # " + WRITE])


def _check(fence: Fence) -> str:
    """The cell that checks a prediction against the fence's `answer=` expression."""
    try:
        rtol = float(fence.options.get("rtol", "0.01"))
    except ValueError:
        raise PluginError(f"line {fence.line}: rtol={fence.options['rtol']!r} is not a number") from None
    return CHECK.format(expected=fence.options["answer"], rtol=rtol)


def _markdown(prose: list[str]) -> list[Cell]:
    """Prose lines as a Markdown cell, if they hold more than blanks; without the bindings,
    which are the build's, not the reader's."""
    shown = strip("\n".join(prose)).strip("\n")
    return [Cell("markdown", shown)] if shown.strip() else []


def _calls(transcript: str, path: str, first: int) -> str:
    """A transcript's `$ attend ...` lines as calls to the function the command calls (its first
    line being line `first` of `path`)."""
    try:
        argvs = [words(command, path) for command in commands(transcript, first)]
    except Unavailable as error:  # mkdocs' own error: one line, no traceback
        raise PluginError(str(error)) from None
    calls = [f"_ = main({argv[1:]!r})  # $ {shlex.join(argv)}" for argv in argvs]
    return "\n".join(["from attend.book.cli import main", "", *calls])


def _shown(figure: str) -> str:
    """A figure fence as a cell whose value is the figure: the `print(...)` it ends with, of the
    figure's HTML, becomes `HTML(...)`, which the notebook draws."""
    match ast.parse(figure).body:
        case [*_, ast.Expr(value=ast.Call(func=ast.Name(id="print"), args=[html])) as last]:
            before = "\n".join(figure.splitlines()[: last.lineno - 1]).strip("\n")
            shown = ast.get_source_segment(figure, html)
            return f"from IPython.display import HTML\n\n{before}\n\nHTML({shown})"
    raise PluginError(f"a figure fence must end by printing the figure's HTML:\n{figure}")


def requirement(cells: Iterable[Cell]) -> str:
    """What a notebook of `cells` installs: this build's release of the package, with the
    `figures` extra (matplotlib) when a cell draws."""
    draws = any(cell.kind == "code" and DRAWS.search(cell.source) for cell in cells)
    return f"{DISTRIBUTION}{'[figures]' if draws else ''}=={version(DISTRIBUTION)}"


def install_cell(cells: Iterable[Cell]) -> dict[str, Any]:
    """The notebook's first code cell: `%pip install` of `requirement(cells)`. Tagged so that the
    build, which runs the workbench where the package is already installed, skips it (nbclient
    skips `skip-execution`); Jupyter runs it like any other cell."""
    source = f'%pip install "{requirement(cells)}"'
    return _cell("code", source, "install", {"tags": ["skip-execution"]})


def _admonitions(page: Page, skip: Iterable[tuple[int, int]] = ()) -> list[str]:
    """The page's lines, each admonition (`!!! kind "Title"` and its indented body) turned into
    a block quote, which a notebook renders; one line stays one item, so line numbers hold.
    Those `skip` lists (first line, line after) stay as they are."""
    lines = page.text.splitlines()
    tokens = page.tokens
    kept = {first for first, _ in skip}
    for opening, title in zip(tokens, tokens[2:], strict=False):  # the title's inline token
        if opening.type == "admonition_open" and opening.level == 0 and opening.map:
            if opening.map[0] in kept:
                continue
            first, end = opening.map
            body = [f"> {line[4:]}" if line.strip() else ">" for line in lines[first + 1 : end]]
            lines[first:end] = [f"> **{title.content}**\n>", *body]
    return lines


Kept = Callable[[Sequence[str], Callable[[], str]], str]  # what keeps a notebook made: `Cache.kept`


def written(
    shown: MkDocsPage, page: Page, root: Path, config: MkDocsConfig, release: str, kept: Kept | None = None
) -> str:
    """The notebook of the page mkdocs `shown` (its source `page`) written beside it in the site,
    if it offers one (`offered`): its name, else "". It is made once and `kept` (by the build's
    cache) while the page, the files it includes, the options and the `release` (the package's
    version, which the build knows) stand."""
    stem = PurePosixPath(shown.file.src_uri).stem
    options = json.dumps(config.mdx_configs.get("pymdownx.snippets"), sort_keys=True, default=str)
    title, offers = str(shown.title or stem), bool(shown.meta.get("notebook", True))
    parts = [page.path, page.text, str(root), *_included(page.text, root), options, title, shown.file.src_uri]
    parts += [str(offers), release]

    def made() -> str:  # "" for a page that offers none
        cells = cells_of(page, root, json.loads(options))
        if not offered({"notebook": offers}, cells):
            return ""
        text = str(nbformat.writes(notebook_of(cells, title, f"docs/{shown.file.src_uri}")))
        return text if text.endswith("\n") else f"{text}\n"  # as nbformat.write ends it

    if not (notebook := (kept or (lambda parts, make: make()))(parts, made)):
        return ""
    where = Path(config.site_dir, shown.file.dest_uri).parent / f"{stem}.ipynb"
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_text(notebook, encoding="utf-8")
    return where.name


def _included(source: str, root: Path) -> list[str]:
    """Each file the page includes, and a hash of what it holds now ("" if it is not there)."""
    found = []
    for _, name, _ in snippets.includes(source):
        try:
            found += [name, hashlib.sha256((root / name).read_bytes()).hexdigest()]
        except OSError:
            found += [name, ""]
    return found


def offered(meta: Mapping[str, Any], cells: Iterable[Cell]) -> bool:
    """Whether a page offers its code as a notebook: it has code, and its front matter does not
    say `notebook: false`, as a page says whose code needs the repository itself (contributing.md
    runs the tests), which out of a checkout could not run."""
    return bool(meta.get("notebook", True)) and any(cell.kind == "code" for cell in cells)


def notebook_of(cells: list[Cell], title: str, source: str) -> dict[str, Any]:
    """An nbformat 4 notebook of `cells`, opened by a cell that says where it came from and one
    that installs what the rest needs."""
    intro = Cell(
        "markdown",
        f"# {title}\n\nThe code of the page `{source}` of *attend*, made into a "
        "notebook when the book was built. Run it top to bottom: the first cell installs the "
        f"`attend` package ([{DISTRIBUTION}]({RELEASE}) on PyPI) at the version the book was built "
        "with, and every number the notebook prints is one the page prints.",
    )
    made = [
        _cell(c.kind, c.source.splitlines(keepends=True), f"cell-{n}") for n, c in enumerate([intro, *cells])
    ]
    made.insert(1, install_cell(cells))
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    metadata = {"kernelspec": kernel, "language_info": {"name": "python"}}
    made_notebook: dict[str, Any] = nbformat.from_dict(  # as nbformat.v4's new_notebook, unchecked (`_cell`)
        {"nbformat": 4, "nbformat_minor": nbformat.v4.nbformat_minor, "metadata": metadata, "cells": made}
    )
    return made_notebook


def _cell(
    kind: str, source: str | list[str], name: str, metadata: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An nbformat 4 cell, as nbformat.v4's `new_code_cell` and `new_markdown_cell` make it but
    not checked alone: `nbformat.write` checks the whole notebook, and checking each cell and
    each notebook as it was made took a tenth of a warm build."""
    outputs: dict[str, Any] = {"execution_count": None, "outputs": []} if kind == "code" else {}
    made: dict[str, Any] = nbformat.from_dict(
        {"id": name, "cell_type": kind, "metadata": metadata or {}, "source": source, **outputs}
    )
    return made


def download_button(name: str) -> str:
    label = html.escape(f"Download this page's code as a notebook ({name})")
    return (
        f'<a href="{html.escape(name)}" download class="md-content__button md-icon attend-notebook" '
        f'title="{label}" aria-label="{label}">{ICON}</a>'
    )
