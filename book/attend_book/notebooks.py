"""Every page's code as a notebook a reader can download and run, made at build.

Prose (listings with their snippets resolved) becomes Markdown cells, executed fences code
cells; a transcript becomes calls to `attend.cli.main`, and a figure fence a note, since the
code that draws it is the book's, not the package's. `execute` runs the workbench.
"""

from __future__ import annotations

import html
import json
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown import Markdown
from mkdocs.exceptions import PluginError

from attend_book.markdown import FRONT, fences
from attend_book.reading import read, strip
from attend_book.run import Value, commands, executed, plain

WORKBENCH_DESCRIPTION = (
    "The chapter's head as a notebook: change the typed table or the three matrices and rerun "
    "the head, the square, the shares and the cost."
)
FIGURE_NOTE = (
    "*The page draws a figure here, from the numbers the cells above print; "
    "`figures/attend_figures/` in the repository holds the code that draws it.*"
)
ADMONITION = re.compile(r"^(!!!|\?\?\?\+?)\s+(\w+)(?:\s+\"([^\"]*)\")?\s*$")
ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true">'
    '<path d="M5 20h14v-2H5m14-9h-4V3H9v6H5l7 7 7-7Z"/></svg>'
)
_MATHJAX = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.DOTALL)


@dataclass(frozen=True)
class Cell:
    kind: str  # "markdown" or "code"
    source: str


def cells_of(
    markdown: str, root: Path | None = None, snippets: Mapping[str, Any] | None = None
) -> list[Cell]:
    """A page cut into cells. A listing's include lines are resolved by pymdownx.snippets itself,
    with the page's options for it (`snippets`), from `root` (default: here), as the page shows them."""
    options = {**(snippets or {}), "base_path": [str(root or Path.cwd())]}
    include = Markdown(extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": options})
    lines = markdown.splitlines()
    front = FRONT.match(markdown)
    after = front.group(0).count("\n") if front else 0  # the first line not yet in a cell
    cells: list[Cell] = []
    prose: list[str] = []

    def flush() -> None:
        shown = strip(_admonitions("\n".join(prose))).strip(
            "\n"
        )  # bindings are the build's, not the reader's
        if shown.strip():
            cells.append(Cell("markdown", shown))
        prose.clear()

    for fence in fences(markdown):
        prose.extend(lines[after : fence.line - 1])
        after = fence.end
        code = fence.body.replace("  # markdown-exec: hide", "")
        if executed(fence):
            flush()
            if fence.language == "console":
                cells.append(Cell("code", _calls(code)))
            elif fence.switched_on("html"):  # a figure, drawn by the book's code
                cells.append(Cell("markdown", FIGURE_NOTE))
            else:
                cells.append(Cell("code", code.strip("\n")))
        else:
            shown = "\n".join(include.preprocessors["snippet"].run(fence.body.splitlines())).rstrip("\n")
            prose.append(f"{fence.mark}{fence.language}\n{shown}\n{fence.mark}")
    prose.extend(lines[after:])
    flush()
    return cells


def _calls(transcript: str) -> str:
    """A transcript's `$ attend ...` lines as calls to the function the command calls."""
    calls = [
        f"_ = main({argv[1:]!r})  # $ {shlex.join(argv)}" for argv in map(shlex.split, commands(transcript))
    ]
    return "\n".join(["from attend.cli import main", "", *calls])


def _admonitions(text: str) -> str:
    """`!!! kind "Title"` blocks as block quotes, which a notebook renders."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if opening := ADMONITION.match(line):
            out += [f"> **{opening[3] or opening[2].capitalize()}**", ">"]
            inside = True
        elif inside and (line.startswith("    ") or not line.strip()):
            out.append(f"> {line[4:]}" if line.strip() else ">")
        else:
            inside = False
            out.append(line)
    return "\n".join(out)


def notebook_of(cells: list[Cell], title: str, source: str) -> dict[str, Any]:
    """An nbformat 4 notebook of `cells`, opened by a cell that says where it came from."""
    intro = Cell(
        "markdown",
        f"# {title}\n\nThe code of the page `{source}` of *attend*, made into a "
        "notebook when the book was built. Run it top to bottom with the `attend` package "
        "installed (`pip install -e .` in the repository): every number it prints is one the page prints.",
    )
    made: list[dict[str, Any]] = [
        {"cell_type": c.kind, "id": f"cell-{n}", "metadata": {}, "source": c.source.splitlines(keepends=True)}
        | ({"execution_count": None, "outputs": []} if c.kind == "code" else {})
        for n, c in enumerate([intro, *cells])
    ]
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    metadata = {"kernelspec": kernel, "language_info": {"name": "python"}}
    return {"cells": made, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def prose_of(script: str) -> str:
    """A jupytext percent script's Markdown cells as Markdown, every line where the script has it
    and `# ` turned to two spaces so columns agree; code blank. What the number check reads."""
    out, markdown = [], False
    for line in script.split("\n"):
        markdown = ("[markdown]" in line) if line.startswith("# %%") else markdown
        out.append(
            "  " + line[2:] if markdown and line.startswith("# ") and not line.startswith("# %%") else ""
        )
    return "\n".join(out)


# Run last in the workbench's kernel: each binding's value in the namespace the cells left.
_VALUES = """
def _attend_book_values(expressions):
    import json
    values = {}
    for expression in expressions:
        try:
            value = eval(expression, globals())
            values[expression] = {"value": value.tolist() if hasattr(value, "tolist") else value}
        except Exception as error:
            values[expression] = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps(values, default=lambda value: f"a {type(value).__name__}"))
"""


def execute(source: Path, target: Path) -> None:
    """Run a jupytext notebook top to bottom in a fresh kernel and write it, outputs and all, its
    Markdown without bindings and their values in its metadata (`attend_book.values`)."""
    import jupytext  # type: ignore[import-untyped]
    import nbclient
    import nbformat

    notebook = jupytext.read(source)
    notebook.metadata.pop("jupytext", None)
    expressions = read(prose_of(source.read_text(encoding="utf-8"))).expressions
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = strip(cell.source)
    notebook.cells.append(nbformat.v4.new_code_cell(f"{_VALUES}\n_attend_book_values({expressions!r})"))
    folder = {"metadata": {"path": str(source.parent)}}  # where the notebook's cells run
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3", resources=folder)
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        raise PluginError(f"{source.name}: a cell failed, so the book is not built:\n{error}") from error
    values = json.loads(notebook.cells.pop().outputs[0]["text"])
    notebook.metadata["attend_book"] = {"values": values}
    nbformat.write(notebook, target)


def values_of(executed: Path) -> dict[str, Value]:
    """The bindings' values `execute` kept in the notebook, each as the check takes it."""
    kept = json.loads(executed.read_text(encoding="utf-8"))["metadata"].get("attend_book", {})
    return {e: v["error"] if "error" in v else plain(v["value"]) for e, v in kept.get("values", {}).items()}


def download_button(name: str) -> str:
    label = html.escape(f"Download this page's code as a notebook ({name})")
    return (
        f'<a href="{html.escape(name)}" download class="md-content__button md-icon attend-notebook" '
        f'title="{label}" aria-label="{label}">{ICON}</a>'
    )


def without_remote_scripts(content: str) -> str:
    """nbconvert's page loads MathJax from a CDN; the book renders no TeX on that page, and the
    site asks nothing of the network, so that block goes."""
    return _MATHJAX.sub("", content)
