"""The book's engine is ProperDocs: it finds the plugin by its own entry point and builds with it.

The other build tests drive MkDocs' API in this process; these run the `properdocs` command the
nox sessions and CI run, on a small project, as a separate process (ProperDocs redirects the
plugins' `mkdocs.*` imports to its own modules only when its command starts).
"""

from __future__ import annotations

import subprocess
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from book_build import MINIMAL, properdocs_build

from attend_book.plugin import BookPlugin
from bound_numbers.plugin import BoundNumbersPlugin

CONFIG = MINIMAL + "theme:\n  name: material\n"


@pytest.mark.parametrize("group", ["properdocs.plugins", "mkdocs.plugins"])
@pytest.mark.parametrize(
    ("name", "plugin"), [("attend-book", BookPlugin), ("bound-numbers", BoundNumbersPlugin)]
)
def test_each_plugin_is_declared_to_both_engines(group: str, name: str, plugin: type) -> None:
    [point] = entry_points(group=group, name=name)
    assert point.load() is plugin


def _properdocs(project: Path, page: str) -> subprocess.CompletedProcess[str]:
    (project / "docs").mkdir()
    (project / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    (project / "docs" / "index.md").write_text(
        f"---\ntitle: t\ndescription: d\n---\n\n{page}", encoding="utf-8"
    )
    return properdocs_build(project, project / "site")


def test_properdocs_builds_a_page_through_the_plugin(tmp_path: Path) -> None:
    done = _properdocs(tmp_path, '```python exec="1" session="index"\nprint(6 * 7)\n```\n')
    assert done.returncode == 0, done.stderr
    assert "<p>42</p>" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert (tmp_path / "site" / "index.ipynb").is_file()  # written by the plugin's post-build step


def test_a_failing_fence_stops_properdocs_with_the_plugins_one_line(tmp_path: Path) -> None:
    done = _properdocs(tmp_path, '```python exec="1" session="index"\nraise ValueError("no")\n```\n')
    assert done.returncode == 1
    assert 'docs/index.md:7: a python fence failed at `raise ValueError("no")`' in done.stderr
    assert "Traceback" not in done.stderr


# The book's two plugins listed the other way round: the order must not matter.
REVERSED = CONFIG.replace(
    "  - bound-numbers:\n      values: attend-book\n",
    "  - attend-book\n  - bound-numbers:\n      values: attend-book\n",
    1,
).replace("  - attend-book\n  - markdown-exec:", "  - markdown-exec:", 1)


@pytest.mark.parametrize("config", [CONFIG, REVERSED], ids=["as the book lists them", "the other way round"])
def test_a_page_runs_once_and_is_checked_whichever_plugin_is_listed_first(
    tmp_path: Path, config: str
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    counted = f"with open({str(tmp_path / 'runs.log')!r}, 'a') as log:\n    log.write('ran\\n')\nx = 6 * 7"
    page = f'```python exec="1"\n{counted}\n```\n\nIt is 42{{= x}}, and 43{{= x + 0}}.\n'
    (tmp_path / "docs" / "index.md").write_text(
        f"---\ntitle: t\ndescription: d\n---\n\n{page}", encoding="utf-8"
    )
    done = properdocs_build(tmp_path, tmp_path / "site")
    assert done.returncode == 1  # the number the check holds to its value
    assert "docs/index.md:12:20: 43 is written, 42 is computed now" in done.stderr
    assert (tmp_path / "runs.log").read_text(encoding="utf-8") == "ran\n"
