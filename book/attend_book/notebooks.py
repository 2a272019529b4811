"""Every page's code as a notebook a reader can download and run, made at build.

Prose (listings with their snippets resolved) becomes Markdown cells, executed fences code
cells; a transcript becomes calls to `attend.cli.main`, and a figure fence a cell whose value is
the figure, which Jupyter draws. Each notebook opens by installing what it needs from PyPI, so it
runs wherever a reader takes it. `execute` runs the workbench.
"""

from __future__ import annotations

import ast
import html
import json
import os
import re
import shlex
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import nbformat
from markdown import Markdown
from mkdocs.exceptions import PluginError
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from attend.cli import DISTRIBUTION
from attend_book.markdown import FRONT, fences, parse
from attend_book.reading import read, strip
from attend_book.run import Value, commands, executed

RELEASE = f"https://pypi.org/project/{DISTRIBUTION}/"
DRAWS = re.compile(r"^\s*(?:from|import)\s+(?:matplotlib|attend_figures)\b", re.MULTILINE)
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
    lines = _admonitions(markdown)
    front = FRONT.match(markdown)
    after = front.group(0).count("\n") if front else 0  # the first line not yet in a cell
    cells: list[Cell] = []
    prose: list[str] = []
    for fence in fences(markdown):
        prose += lines[after : fence.line - 1]
        after = fence.end
        if not executed(fence):  # a listing, shown with its include lines resolved
            shown = "\n".join(include.preprocessors["snippet"].run(fence.body.splitlines())).rstrip("\n")
            prose.append(f"{fence.mark}{fence.language}\n{shown}\n{fence.mark}")
            continue
        cells += _markdown(prose)
        prose = []
        code = fence.body.replace("  # markdown-exec: hide", "")
        if fence.language == "console":
            code = _calls(code)
        elif fence.switched_on("html"):  # a figure, printed as HTML for the page
            code = _shown(code)
        cells.append(Cell("code", code.strip("\n")))
    return cells + _markdown(prose + lines[after:])


def _markdown(prose: list[str]) -> list[Cell]:
    """Prose lines as a Markdown cell, if they hold more than blanks; without the bindings,
    which are the build's, not the reader's."""
    shown = strip("\n".join(prose)).strip("\n")
    return [Cell("markdown", shown)] if shown.strip() else []


def _calls(transcript: str) -> str:
    """A transcript's `$ attend ...` lines as calls to the function the command calls."""
    calls = [
        f"_ = main({argv[1:]!r})  # $ {shlex.join(argv)}" for argv in map(shlex.split, commands(transcript))
    ]
    return "\n".join(["from attend.cli import main", "", *calls])


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
    return new_code_cell(source, id="install", metadata={"tags": ["skip-execution"]})  # type: ignore[no-any-return]


def _admonitions(markdown: str) -> list[str]:
    """The page's lines, each admonition (`!!! kind "Title"` and its indented body) turned into
    a block quote, which a notebook renders; one line stays one item, so line numbers hold."""
    lines = markdown.splitlines()
    tokens = parse(markdown)
    for opening, title in zip(tokens, tokens[2:], strict=False):  # the title's inline token
        if opening.type == "admonition_open" and opening.level == 0 and opening.map:
            first, end = opening.map
            body = [f"> {line[4:]}" if line.strip() else ">" for line in lines[first + 1 : end]]
            lines[first:end] = [f"> **{title.content}**\n>", *body]
    return lines


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
    new = {"code": new_code_cell, "markdown": new_markdown_cell}
    made = [
        new[c.kind](c.source.splitlines(keepends=True), id=f"cell-{n}") for n, c in enumerate([intro, *cells])
    ]
    made.insert(1, install_cell(cells))
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    metadata = {"kernelspec": kernel, "language_info": {"name": "python"}}
    return new_notebook(cells=made, metadata=metadata)  # type: ignore[no-any-return]


def prose_of(script: str) -> str:
    """A jupytext percent script's Markdown cells as Markdown, every line where the script has it
    and `# ` turned to two spaces so columns agree; code blank. What the number check reads."""
    out, markdown = [], False
    for line in script.split("\n"):
        if line.startswith("# %%"):
            markdown, line = "[markdown]" in line, ""
        out.append("  " + line[2:] if markdown and line.startswith("# ") else "")
    return "\n".join(out)


def execute(source: Path, target: Path) -> list[str]:
    """Run a jupytext notebook top to bottom in a fresh kernel and write it, outputs and all, its
    Markdown without bindings and their values in its metadata (`attend_book.values`); answer
    the files its kernel read (`inputs`), for the cache."""
    import jupytext  # type: ignore[import-untyped]
    import nbclient
    from traitlets.config import Config

    notebook = jupytext.read(source)
    notebook.metadata.pop("jupytext", None)
    expressions = read(prose_of(source.read_text(encoding="utf-8"))).expressions
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = strip(cell.source)
    # Run last, in the kernel: each binding's value in the namespace the cells left, as a page's,
    # and what the kernel read since the first cell, which starts recording it.
    evaluate = "import json\nfrom attend_book import inputs\nfrom attend_book.run import evaluate\n"
    evaluate += f"print(json.dumps([evaluate({expressions!r}, globals()), inputs.read()]))"
    notebook.cells.append(new_code_cell(evaluate))
    code = [Cell("code", cell.source) for cell in notebook.cells if cell.cell_type == "code"]
    notebook.cells.insert(1, install_cell(code))  # under the title, as on a page
    notebook.cells.insert(0, new_code_cell("from attend_book import inputs\n\ninputs.record()"))
    folder = {"metadata": {"path": str(source.parent)}}  # where the notebook's cells run
    # Over local sockets (IPC) in a folder of its own, not TCP: nothing is open to the network,
    # and the kernel says nothing about running over TCP without encryption into the build's output.
    with tempfile.TemporaryDirectory(prefix="attend-book-kernel-") as sockets:
        ipc = Config({"KernelManager": {"transport": "ipc", "ip": os.path.join(sockets, "kernel")}})
        client = nbclient.NotebookClient(
            notebook, timeout=300, kernel_name="python3", resources=folder, config=ipc
        )
        try:
            client.execute()
        except nbclient.exceptions.CellExecutionError as error:
            raise PluginError(f"{source.name}: a cell failed, so the book is not built:\n{error}") from error
    values, files = json.loads(notebook.cells.pop().outputs[0]["text"])
    notebook.cells.pop(0)
    for cell in notebook.cells:  # numbered as if the recording cell had never run
        if cell.get("execution_count"):
            cell.execution_count -= 1
    notebook.metadata["attend_book"] = {"values": values}
    nbformat.write(notebook, target)
    return list(files)


def values_of(executed: Path) -> dict[str, Value]:
    """The bindings' values `execute` kept in the notebook."""
    return dict(json.loads(executed.read_text(encoding="utf-8"))["metadata"]["attend_book"]["values"])


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
