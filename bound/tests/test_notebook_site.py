"""A site of Jupyter notebooks, `notebook_site/`: a cup of tea cooling, shown by mkdocs-jupyter
with `execute: true`, no Markdown page in it. The notebook imports a module that sits beside it
(`docs/cooling.py`) and sets IPython's float display with a magic (`%precision 2`). The check runs
it once, in a Jupyter kernel in its folder, and the page shows that run: mkdocs-jupyter executes
nothing again. The numbers of its Markdown cells are bound to its own code cells, each after the
cells above it or where its binding says; messages name the notebook and the cell;
`bound-numbers renumber` rewrites the Markdown cells and leaves every other byte of the file as
it was. A second build takes the run from the cache while nothing it reached changed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mkdocs.config import load_config
from mkdocs.structure.files import get_files

from bound_numbers import kernel
from bound_numbers.declared import Declared
from bound_numbers.fences import FenceValues
from bound_numbers.notebook_cache import FOLDER, NotebookCache
from bound_numbers.notebooks import Shown, page_of, stripped
from bound_numbers.reading import read

SITE = Path(__file__).parent / "notebook_site"
NOTEBOOK = "docs/tea.ipynb"
BIN = Path(sys.executable).parent
PLUGIN = "bound_numbers: "


def run(folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """A command in the site's folder, nothing of the site on PYTHONPATH: the notebook's module
    imports because it sits beside the notebook, as in Jupyter."""
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        argv, cwd=folder, env=environment, capture_output=True, text=True, timeout=300, check=False
    )


def build(folder: Path) -> tuple[int, list[str], str]:
    """How a strict build of the site ended, each warning or error it logged, and all it said."""
    done = run(folder, str(BIN / "properdocs"), "build", "--strict", "-f", "mkdocs.yml", "-d", "built")
    said = [
        line.partition("-  ")[2]
        for line in done.stderr.splitlines()
        if line.startswith(("WARNING", "ERROR")) and "Multiple 'on_page_read_source'" not in line
    ]
    return done.returncode, said, done.stderr


Edit = Callable[[dict[str, Any]], None]


def edit_cell(site: Path, cell: int, edit: Edit) -> None:
    """Cell `cell` (from 1) of the site's notebook as `edit` makes it, saved as Jupyter saves."""
    path = site / NOTEBOOK
    notebook = json.loads(path.read_text(encoding="utf-8"))
    edit(notebook["cells"][cell - 1])
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def code(source: str) -> Edit:
    """An edit that gives a code cell `source`."""

    def made(cell: dict[str, Any]) -> None:
        cell["source"] = source.splitlines(keepends=True)

    return made


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
    sixty, which, were bindings evaluated after the last cell, would fail it; `60{= len(first);
    after the next cell}` announces that cell."""
    assert build(site)[:2] == (0, [])
    shown = (site / "built" / "tea" / "index.html").read_text(encoding="utf-8")
    assert "after ten at 44.4 °C" in shown and "Left for an hour, 60 minutes" in shown and "{=" not in shown
    assert "{=" in (site / NOTEBOOK).read_text(encoding="utf-8")  # the notebook itself keeps them


def test_the_notebook_runs_once_in_its_folder_and_its_page_shows_that_run(site: Path) -> None:
    """With mkdocs-jupyter's `execute: true`, the page shows the outputs of the check's one run
    (not those saved with the notebook), the magic's float display among them, and a cell that
    appends to a file beside the notebook has run once."""

    def stale(cell: dict[str, Any]) -> None:
        cell["outputs"] = [{"name": "stdout", "output_type": "stream", "text": ["saved long ago\n"]}]

    edit_cell(site, 2, stale)
    counted = 'with open("runs.txt", "a") as runs:\n    runs.write("ran\\n")\n\ndrinkable = minutes_until(60)'
    edit_cell(site, 4, code(counted))
    assert build(site)[:2] == (0, [])
    assert (site / "docs" / "runs.txt").read_text(encoding="utf-8") == "ran\n"
    shown = (site / "built" / "tea" / "index.html").read_text(encoding="utf-8")
    assert "saved long ago" not in shown and "[83.0, 76.7, 71.0]" in shown
    assert "20.13" in shown and "20.129" not in shown  # `%precision 2` ran, in the kernel the page shows


def test_a_cell_that_fails_fails_the_build_in_one_line_naming_the_notebook_and_the_cell(site: Path) -> None:
    edit_cell(site, 4, code("drinkable = minutes_until(60)\ndrinkable / 0"))
    status, said, everything = build(site)
    assert status == 1
    assert said == [
        f"{PLUGIN}{NOTEBOOK}:cell 4:2: a code cell failed at `drinkable / 0`: "
        "ZeroDivisionError: division by zero"
    ]
    assert "Traceback" not in everything


def test_a_cell_past_the_time_limit_is_one_line_and_the_build_goes_on_to_its_end(site: Path) -> None:
    config = site / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("time_limit: 20", "time_limit: 3"), encoding="utf-8"
    )
    edit_cell(site, 4, code("import time\n\ntime.sleep(120)\ndrinkable = 6"))
    started = time.monotonic()
    status, said, everything = build(site)
    assert time.monotonic() - started < 60
    assert status == 1
    assert said == [
        f"{PLUGIN}{NOTEBOOK}:cell 4:1: this cell ran past the time limit of 3 seconds "
        "(`time_limit` under bound-numbers)"
    ]
    assert "Traceback" not in everything


def test_a_wrong_number_in_a_markdown_cell_is_named_by_notebook_cell_and_line(site: Path) -> None:
    notebook = site / NOTEBOOK
    notebook.write_text(notebook.read_text(encoding="utf-8").replace("76.7{= first[1]}", "76.8{= first[1]}"))
    said = f"{NOTEBOOK}:cell 5:6:7: 76.8 is written, 76.7 is computed now, bound to {{= first[1]}}"
    status, lines, _ = build(site)
    assert status == 1 and lines[0].startswith(f"{PLUGIN}{said}")


def test_a_sentence_announcing_the_next_cell_is_said_when_its_binding_does_not_say_so(site: Path) -> None:
    """Without `; after the next cell`, the 60 would be held to the ten minutes above it, and
    renumber would write 10 into the sentence: the check says what the cell below gives instead."""
    notebook = site / NOTEBOOK
    text = notebook.read_text(encoding="utf-8")
    notebook.write_text(
        text.replace("{= len(first); after the next cell}", "{= len(first)}"), encoding="utf-8"
    )
    status, said, _ = build(site)
    assert status == 1
    assert said == [
        f"{PLUGIN}{NOTEBOOK}:cell 5:8:19: 60 is written, 10 is computed now, bound to {{= len(first)}}: "
        "the cell below gives 60: if the sentence announces it, write {= len(first); after the next cell}"
    ]
    done = run(site, str(BIN / "bound-numbers"), "renumber")
    assert done.returncode == 1 and "0 numbers rewritten" in done.stdout
    assert notebook.read_text(encoding="utf-8") == text.replace(
        "{= len(first); after the next cell}", "{= len(first)}"
    )


def test_renumber_rewrites_the_markdown_cells_and_not_another_byte(site: Path) -> None:
    module, notebook = site / "docs" / "cooling.py", site / NOTEBOOK
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
    assert build(site)[:2] == (0, [])


def test_a_second_build_hands_mkdocs_jupyter_the_same_bytes_and_its_cache_finds_them(site: Path) -> None:
    """The notebook shown is written only when the run's outputs change (cells given fixed ids,
    no timings recorded): mkdocs-jupyter's cache, which knows a notebook by its path and bytes,
    converts it once."""
    assert build(site)[:2] == (0, [])
    shown = site / ".cache" / "bound-numbers" / "shown" / "tea.ipynb"
    first = shown.read_bytes(), shown.stat().st_mtime_ns
    status, said, everything = build(site)
    assert (status, said) == (0, [])
    assert (shown.read_bytes(), shown.stat().st_mtime_ns) == first
    assert "Cache hit: .cache/bound-numbers/shown/tea.ipynb" in everything


def test_the_kernel_mkdocs_jupyter_names_is_the_one_the_notebook_runs_in(site: Path) -> None:
    config = site / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("execute: true", "execute: true\n      kernel_name: nope"),
        encoding="utf-8",
    )
    status, said, _ = build(site)
    assert status == 1
    assert said == [
        f"{PLUGIN}{NOTEBOOK}: the notebook's kernel cannot start: "
        "jupyter_client.kernelspec.NoSuchKernel: No such kernel named nope"
    ]


def test_mkdocs_jupyter_is_told_not_to_execute_the_copy_for_this_build_only(site: Path) -> None:
    """The copy handed to mkdocs-jupyter joins its `execute_ignore` while the build lasts; after
    it, the setting is as the configuration wrote it, so a second build on the same config is told afresh."""
    config = load_config(str(site / "mkdocs.yml"))
    settings = config.plugins["mkdocs-jupyter"].config
    shown = Shown()
    shown.check(get_files(config), config, lambda page: stripped(page.text))
    assert settings["execute_ignore"] == [str(site / ".cache" / "bound-numbers" / "shown" / "tea.ipynb")]
    shown.done(config)
    assert settings["execute_ignore"] == []


# Cell 4 as a counter: each run of the notebook adds a line to runs.txt beside it.
COUNTED = 'with open("runs.txt", "a") as runs:\n    runs.write("ran\\n")\n\ndrinkable = minutes_until(60)'


def runs(site: Path) -> int:
    """How many times the notebook ran since `COUNTED` went into it."""
    counted = site / "docs" / "runs.txt"
    return len(counted.read_text(encoding="utf-8").splitlines()) if counted.exists() else 0


def test_a_second_run_of_an_unchanged_notebook_starts_no_kernel(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = NotebookCache(site / FOLDER)
    provider = FenceValues(time_limit=20, folder=site, cache=cache)
    page = page_of(site / NOTEBOOK, site, (site / NOTEBOOK).read_text(encoding="utf-8"))
    asked = read(page, Declared()).asked
    first = provider.notebook(page, asked)
    monkeypatch.setattr(kernel, "_client", lambda *given: pytest.fail("a kernel was started"))
    again = provider.notebook(page, asked)
    assert (again.values, again.shown) == (first.values, first.shown) and cache.runs == 1


def test_a_second_build_takes_the_notebooks_run_from_the_cache_and_shows_the_same_page(site: Path) -> None:
    edit_cell(site, 4, code(COUNTED))
    assert build(site)[:2] == (0, [])
    page = site / "built" / "tea" / "index.html"
    shown = page.read_text(encoding="utf-8")
    assert build(site)[:2] == (0, [])
    assert runs(site) == 1 and page.read_text(encoding="utf-8") == shown


def test_a_change_to_the_module_a_cell_imports_runs_the_notebook_again(site: Path) -> None:
    edit_cell(site, 4, code(COUNTED))
    assert build(site)[:2] == build(site)[:2] == (0, []) and runs(site) == 1
    module = site / "docs" / "cooling.py"
    module.write_text(
        module.read_text(encoding="utf-8").replace("RATE = 0.1 ", "RATE = 0.12 "), encoding="utf-8"
    )
    status, said, _ = build(site)
    assert status == 1 and runs(site) == 2
    assert said[1].startswith(f"{PLUGIN}{NOTEBOOK}:cell 3:1:33: 83.0 is written, 81.6 is computed now")


@pytest.mark.parametrize(
    "reading",
    [
        'import numpy\nmeasured = numpy.loadtxt("measured.csv", ndmin=1)',
        'measured = [float(open("measured.csv").read())]',
    ],
    ids=["numpy", "open"],
)
def test_a_change_to_a_data_file_a_cell_reads_runs_the_notebook_again(site: Path, reading: str) -> None:
    (site / "docs" / "measured.csv").write_text("81.5\n", encoding="utf-8")
    edit_cell(site, 4, code(f"{COUNTED}\n{reading}"))
    edit_cell(
        site, 7, lambda cell: cell["source"].append(" A thermometer first read 81.5{= measured[0]} °C.")
    )
    assert build(site)[:2] == build(site)[:2] == (0, []) and runs(site) == 1
    (site / "docs" / "measured.csv").write_text("79.0\n", encoding="utf-8")
    status, said, _ = build(site)
    assert status == 1 and runs(site) == 2
    assert said[0].startswith(f"{PLUGIN}{NOTEBOOK}:cell 7:1:89: 81.5 is written, 79.0 is computed now")


def test_a_changed_binding_is_evaluated_afresh_never_answered_from_the_cache(site: Path) -> None:
    edit_cell(site, 4, code(COUNTED))
    assert build(site)[:2] == build(site)[:2] == (0, []) and runs(site) == 1
    notebook = site / NOTEBOOK
    notebook.write_text(notebook.read_text(encoding="utf-8").replace("76.7{= first[1]}", "76.7{= first[2]}"))
    status, said, _ = build(site)
    assert status == 1 and said[0].startswith(
        f"{PLUGIN}{NOTEBOOK}:cell 5:6:7: 76.7 is written, 71.0 is computed now"
    )


@pytest.mark.parametrize(
    ("reaching", "why"),
    [
        (
            'import subprocess\nsubprocess.run(["true"], check=True)',
            "its code started a process (`subprocess.Popen`)",
        ),
        ('import os\nos.environ.get("HOME")', "its code read the environment variable HOME"),
    ],
    ids=["process", "environment"],
)
def test_a_notebook_that_starts_a_process_or_reads_the_environment_runs_on_every_build(
    site: Path, reaching: str, why: str
) -> None:
    edit_cell(site, 4, code(f"{COUNTED}\n{reaching}"))
    first, second = build(site), build(site)
    assert first[:2] == second[:2] == (0, []) and runs(site) == 2
    assert f"{NOTEBOOK}: not kept between builds, so it runs on every build: {why}" in second[2]


def test_cache_false_runs_the_notebook_on_every_build(site: Path) -> None:
    config = site / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("time_limit: 20", "time_limit: 20\n      cache: false"),
        encoding="utf-8",
    )
    edit_cell(site, 4, code(COUNTED))
    assert build(site)[:2] == build(site)[:2] == (0, [])
    assert runs(site) == 2 and not (site / FOLDER).exists()


def test_a_cache_entry_that_cannot_be_read_is_run_again_in_one_line_and_written_anew(site: Path) -> None:
    edit_cell(site, 4, code(COUNTED))
    assert build(site)[:2] == (0, [])
    [entry] = (site / FOLDER).glob("*.json")
    entry.write_text('{"format": 1, "values": [', encoding="utf-8")
    status, said, everything = build(site)
    assert (status, said, runs(site)) == (0, [], 2) and "Traceback" not in everything
    assert (
        f"{NOTEBOOK}: its cache entry {entry.relative_to(site)} cannot be read (JSONDecodeError: "
        in everything
    )
    assert build(site)[:2] == (0, []) and runs(site) == 2
