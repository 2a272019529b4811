"""mkdocs hook: every page's code as a notebook to download and run, made at build.

For each Markdown page with at least one executed Python fence (` ```python exec="on"`), the
page is cut into cells: its prose (with any display-only code in it) as Markdown cells, each
executed fence as a code cell, in page order. The notebook is written beside the page in the
built site as `<page>.ipynb` and a download button is put at the top of the page. The
workbench (a jupytext `.py` that mkdocs-jupyter renders) gets the same button for its own
`.ipynb`. No notebook is committed: they are all made from the sources on every build.

A figure fence (one that imports `attend_book.figures`) is replaced by a line saying a figure sits
there on the page: it is drawn by the book's build code, which a downloaded notebook lacks.
Snippet lines (`--8<-- "file:section"`) inside display-only fences are resolved against the
repository root, so a reader sees the code the page shows.

Fences are read by `attend_book.pages.fences`, the same reader the book's tests use.
"""

from __future__ import annotations

import html
import json
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "book") not in sys.path:  # mkdocs loads this file by path
    sys.path.insert(0, str(ROOT / "book"))

from attend_book.execute import commands  # noqa: E402
from attend_book.pages import fences  # noqa: E402

__all__ = ["Cell", "cells_of", "notebook_of"]

WORKBENCH = "workbench.py"
WORKBENCH_DESCRIPTION = (
    "The chapter's head as a notebook: change the typed table or the three matrices and rerun "
    "the head, the square, the shares and the cost."
)
KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}

SNIPPET = re.compile(r"""^(?P<indent>[ \t]*)-{1,}8<-{1,}[ \t]+["'](?P<target>[^"']+)["'][ \t]*$""")

_DOWNLOAD_ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true">'
    '<path d="M5 20h14v-2H5m14-9h-4V3H9v6H5l7 7 7-7Z"/></svg>'
)

_made: dict[str, tuple[str, dict[str, Any]]] = {}  # page src_uri -> (notebook file name, notebook)


@dataclass(frozen=True)
class Cell:
    kind: str  # "markdown" or "code"
    source: str


def cells_of(markdown: str) -> list[Cell]:
    """A page's Markdown cut into cells: executed Python fences become code, the rest prose."""
    front = re.match(r"^---\n.*?\n---\n", markdown, re.DOTALL)  # YAML front matter, if still there
    text = markdown[front.end() if front else 0 :]
    lines = text.splitlines()
    cells: list[Cell] = []
    prose: list[str] = []

    def flush() -> None:
        shown = _admonitions("\n".join(prose)).strip("\n")
        if shown.strip():
            cells.append(Cell("markdown", shown))
        prose.clear()

    after = 0  # the index of the first line not yet placed in a cell
    for fence in fences(text):
        prose.extend(lines[after : fence.line - 1])
        after = fence.end
        language = fence.language.lstrip("{.").lower()
        code = fence.body.replace("  # markdown-exec: hide", "")
        if fence.executed and language == "console":
            flush()
            cells.append(Cell("code", _commands(code)))
        elif fence.executed and language in ("python", "py"):
            flush()
            if re.search(r"^\s*(from|import)\s+attend_book\b", code, re.MULTILINE):
                cells.append(Cell("markdown", "*The page draws a figure here, from the numbers "
                                  "the cells above print; `book/attend_book/figures.py` in the repository "
                                  "holds the code that draws it.*"))
            else:
                cells.append(Cell("code", code.strip("\n")))
        else:
            shown = "\n".join(_resolve(line) for line in fence.body.splitlines())
            prose.append(f"{fence.mark}{language}\n{shown}\n{fence.mark}")
    prose.extend(lines[after:])
    flush()
    return cells


def _commands(transcript: str) -> str:
    """A console fence's `$ attend ...` lines as calls to the function the command calls."""
    calls = ["from attend.cli import main", ""]
    for command in commands(transcript):
        argv = shlex.split(command)
        if argv and argv[0] == "attend":
            calls.append(f"_ = main({argv[1:]!r})  # $ {shlex.join(argv)}")
    return "\n".join(calls)


def _admonitions(text: str) -> str:
    """`!!! kind "Title"` blocks as block quotes, which a notebook renders."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        opening = re.match(r"^(!!!|\?\?\?\+?)\s+(\w+)(?:\s+\"([^\"]*)\")?\s*$", line)
        if opening:
            out.append(f"> **{opening[3] or opening[2].capitalize()}**")
            out.append(">")
            inside = True
        elif inside and (line.startswith("    ") or not line.strip()):
            out.append(f"> {line[4:]}" if line.strip() else ">")
        else:
            inside = False
            out.append(line)
    return "\n".join(out)


def notebook_of(cells: list[Cell], title: str, source: str) -> dict[str, Any]:
    """An nbformat 4 notebook of `cells`, opened by a cell that says where it came from."""
    intro = (
        f"# {title}\n\n"
        f"The code of the page `{source}` of *attend*, made into a notebook when the book was "
        "built. Run it top to bottom with the `attend` package installed (`pip install -e .` "
        "in the repository): every number it prints is one the page prints."
    )
    out = [_cell(Cell("markdown", intro), 0)]
    out += [_cell(cell, n) for n, cell in enumerate(cells, start=1)]
    return {
        "cells": out,
        "metadata": {"kernelspec": KERNEL, "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _cell(cell: Cell, n: int) -> dict[str, Any]:
    made: dict[str, Any] = {
        "cell_type": cell.kind,
        "id": f"cell-{n}",
        "metadata": {},
        "source": cell.source.splitlines(keepends=True),
    }
    if cell.kind == "code":
        made |= {"execution_count": None, "outputs": []}
    return made


def _resolve(line: str) -> str:
    """A snippet line as the code it names, or the line itself if it names nothing here."""
    found = SNIPPET.match(line)
    if not found:
        return line
    target = found["target"]
    path, _, section = target.partition(":")
    file = ROOT / path
    if not file.is_file():
        return line
    text = file.read_text(encoding="utf-8")
    if section:
        name = re.escape(section)
        part = re.search(rf"^[^\n]*--8<-- \[start:{name}\][^\n]*\n(?P<body>.*?)^[^\n]*--8<-- \[end:{name}\]",
                         text, re.MULTILINE | re.DOTALL)
        if not part:
            return line
        text = part["body"]
    return "\n".join(found["indent"] + t for t in text.rstrip("\n").splitlines())


# --- mkdocs events ---------------------------------------------------------------------------

def on_config(config: Any) -> Any:
    _made.clear()
    return config


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    src = page.file.src_uri
    if src.endswith(WORKBENCH):
        page.meta.setdefault("title", "The workbench")
        page.meta.setdefault("description", WORKBENCH_DESCRIPTION)
        page.meta.setdefault("hide", ["toc"])  # the cells want the width more than a contents list
    if src.endswith(".md"):
        cells = cells_of(markdown)
        if any(c.kind == "code" for c in cells):
            name = PurePosixPath(src).stem + ".ipynb"
            title = page.title or PurePosixPath(src).stem
            _made[src] = (name, notebook_of(cells, str(title), f"docs/{src}"))
    return markdown


def on_page_content(content: str, page: Any, config: Any, files: Any) -> str:
    src = page.file.src_uri
    if src.endswith(WORKBENCH):
        import jupytext  # type: ignore[import-untyped]

        notebook = jupytext.reads(Path(page.file.abs_src_path).read_text(encoding="utf-8"),
                                  fmt="py:percent")
        notebook.metadata.pop("jupytext", None)
        _made[src] = (PurePosixPath(src).stem + ".ipynb", json.loads(jupytext.writes(notebook, "ipynb")))
        content = _without_remote_scripts(content)
    if src not in _made:
        return content
    name, _ = _made[src]
    label = f"Download this page's code as a notebook ({name})"
    button = (
        f'<a href="{html.escape(name)}" download class="md-content__button md-icon attend-notebook" '
        f'title="{html.escape(label)}" aria-label="{html.escape(label)}">{_DOWNLOAD_ICON}</a>'
    )
    return button + content


def on_post_build(config: Any) -> None:
    site = Path(config["site_dir"])
    for src, (name, notebook) in _made.items():
        page_dir = _page_dir(src, bool(config["use_directory_urls"]))
        target = site / page_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _page_dir(src: str, directory_urls: bool) -> str:
    """The folder of the built site a page's index.html lands in."""
    path = PurePosixPath(src)
    if not directory_urls or path.stem in ("index", "README"):
        return str(path.parent)
    return str(path.parent / path.stem)


def _without_remote_scripts(content: str) -> str:
    """nbconvert's page loads MathJax from a CDN; the book renders no TeX on this page, and
    the site must not ask anything of the network, so that block goes."""
    return re.sub(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", "",
                  content, flags=re.DOTALL)
