"""A site of Jupyter notebooks, `notebook_site/`: a cup of tea cooling, shown by mkdocs-jupyter,
no Markdown page in it. The numbers of its Markdown cells are bound to its own code cells, each
after the cells above it; messages name the notebook and the cell; `bound-numbers renumber`
rewrites the Markdown cells and leaves every other byte of the file as it was.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SITE = Path(__file__).parent / "notebook_site"
NOTEBOOK = "docs/tea.ipynb"
BIN = Path(sys.executable).parent
PLUGIN = "bound_numbers: "


def run(folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """A command in the site's folder, its module importable as an installed one is."""
    path = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    environment = {**os.environ, "PYTHONPATH": path, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        argv, cwd=folder, env=environment, capture_output=True, text=True, timeout=300, check=False
    )


def build(folder: Path) -> tuple[int, list[str]]:
    """How a strict build of the site ended, and each warning or error it logged."""
    done = run(folder, str(BIN / "properdocs"), "build", "--strict", "-f", "mkdocs.yml", "-d", "built")
    said = [
        line.partition("-  ")[2] for line in done.stderr.splitlines() if line.startswith(("WARNING", "ERROR"))
    ]
    return done.returncode, said


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return Path(
        shutil.copytree(
            SITE, tmp_path / "site", ignore=shutil.ignore_patterns("built", "__pycache__", ".cache")
        )
    )


def test_the_notebooks_numbers_hold_each_after_the_cells_above_it_and_the_reader_sees_no_binding(
    site: Path,
) -> None:
    """`ten{= len(first)}` quotes the ten minutes worked out above it: a later cell gives `first`
    sixty, which, were bindings evaluated after the last cell, would fail it."""
    assert build(site) == (0, [])
    shown = (site / "built" / "tea" / "index.html").read_text(encoding="utf-8")
    assert "after ten at 44.4 °C" in shown and "{=" not in shown
    assert "{=" in (site / NOTEBOOK).read_text(encoding="utf-8")  # the notebook itself keeps them


def test_a_wrong_number_in_a_markdown_cell_is_named_by_notebook_cell_and_line(site: Path) -> None:
    notebook = site / NOTEBOOK
    notebook.write_text(notebook.read_text(encoding="utf-8").replace("76.7{= first[1]}", "76.8{= first[1]}"))
    said = f"{NOTEBOOK}:cell 5:6:7: 76.8 is written, 76.7 is computed now, bound to {{= first[1]}}"
    status, lines = build(site)
    assert status == 1 and lines[0].startswith(f"{PLUGIN}{said}")


def test_renumber_rewrites_the_markdown_cells_and_not_another_byte(site: Path) -> None:
    module, notebook = site / "cooling.py", site / NOTEBOOK
    module.write_text(
        module.read_text(encoding="utf-8").replace("RATE = 0.1 ", "RATE = 0.12 "), encoding="utf-8"
    )
    before = notebook.read_text(encoding="utf-8")
    done = run(site, str(BIN / "bound-numbers"), "renumber")
    moved = {"83.0{": "81.6{", "44.4{": "39.5{", "0.35{": "0.28{", "6{= drinkable": "5{= drinkable"}
    moved |= {"76.7{": "74.2{", "20.13{": "20.03{"}
    expected = before
    for old, new in moved.items():
        expected = expected.replace(old, new)
    assert notebook.read_text(encoding="utf-8") == expected  # outputs, metadata, layout: as they were
    assert done.stdout.splitlines()[0] == f"{NOTEBOOK}:cell 3:1:33 83.0 → 81.6"
    assert f"{NOTEBOOK}:cell 1:3:65: a tenth is written, 0.12 is computed now" in done.stdout
    assert done.returncode == 1  # "a tenth" is a word of one value: a person writes the new one
    again = run(site, str(BIN / "bound-numbers"), "renumber")
    assert notebook.read_text(encoding="utf-8") == expected and "0 numbers rewritten" in again.stdout
    notebook.write_text(expected.replace("a tenth{= RATE}", "0.12{= RATE}"), encoding="utf-8")
    assert build(site) == (0, [])
