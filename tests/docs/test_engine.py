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
