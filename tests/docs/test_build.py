"""The build on small projects of its own: what stops it, what it reports, what it reruns."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from book_build import MINIMAL
from markdown_exec import base_format
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort
from mkdocs.utils.yaml import yaml_load

from attend_book import notebooks, searched
from attend_book.plugin import BookPlugin
from bound_numbers import Page

ROOT = Path(__file__).resolve().parents[2]


def build_site(config_file: Path, site: Path) -> None:
    """`mkdocs build` in this process, from the project's folder."""
    here = Path.cwd()
    os.chdir(config_file.parent)
    try:
        build(load_config(str(config_file), site_dir=str(site)))
    finally:
        os.chdir(here)


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(MINIMAL, encoding="utf-8")
    yield tmp_path


def test_a_block_that_raises_fails_the_build_after_every_other_page_is_checked(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (project / "docs" / "index.md").write_text(
        "---\ntitle: t\ndescription: d\n---\n\n"
        '```python exec="1" session="index"\nraise ValueError("no")\n```\n',
        encoding="utf-8",
    )
    (project / "docs" / "other.md").write_text(
        '---\ntitle: t\ndescription: d\n---\n\n```python exec="1"\nx = 3.125\n```\n\nIt is 3.126{= x}.\n',
        encoding="utf-8",
    )
    with caplog.at_level(logging.WARNING), pytest.raises(Abort, match="1 errors, 1 warnings"):
        build_site(project / "mkdocs.yml", project / "site")
    assert 'docs/index.md:7: a python fence failed at `raise ValueError("no")`' in caplog.text
    assert "ValueError: no" in caplog.text
    assert "docs/other.md:10:7: 3.126 is written, 3.125 is computed now, bound to {= x}" in caplog.text
    assert "ValueError" not in (project / "site" / "index.html").read_text(encoding="utf-8")


def test_every_problem_of_every_page_is_one_line_and_the_first_names_renumber(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    page = '---\ntitle: Of 4{= x}\ndescription: d\n---\n\n```python exec="1"\nx = 3.125\n```\n\n'
    (project / "docs" / "index.md").write_text(page + "The score is 3.126{= x}, sixteen{= y} in all.\n")
    # other.md has a byte that is not UTF-8 (an error of its own): its problems still name it
    (project / "docs" / "other.md").write_bytes((page + "\xe9 7 here, and (1, 2){= x}.\n").encode("latin-1"))
    with caplog.at_level(logging.WARNING), pytest.raises(Abort, match="6 warnings"):
        build_site(project / "mkdocs.yml", project / "site")
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    whole = "a whole number quotes its value exactly: write ≈ or “about” before it to quote the value rounded"
    assert lines == [  # a whole number renumber cannot rewrite says why; the first it can, how
        f"bound_numbers: docs/index.md:2:11: 4 is written, 3.125 is computed now, bound to {{= x}}: {whole}"
        ", or show its decimals",
        "bound_numbers: docs/index.md:10:14: 3.126 is written, 3.125 is computed now, bound to {= x}"
        "  (`nox -s renumber` rewrites moved numbers)",
        "bound_numbers: docs/index.md:10:26: sixteen{= y} cannot be worked out: "
        "NameError: name 'y' is not defined",
        f"bound_numbers: docs/other.md:2:11: 4 is written, 3.125 is computed now, bound to {{= x}}: {whole}"
        ", or show its decimals",
        f"bound_numbers: docs/other.md:10:3: 7 is not bound: {UNBOUND}",
        "bound_numbers: docs/other.md:10:16: (1, 2){= x} gives 3.125, not a flat list of 2 numbers",
    ]
    assert "{=" not in (project / "site" / "index.html").read_text(encoding="utf-8")


def test_an_include_that_is_not_there_is_one_line_under_the_books_own_settings(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with (ROOT / "mkdocs.yml").open(encoding="utf-8") as config:
        extensions = yaml_load(config)["markdown_extensions"]
    [snippets] = [e for e in extensions if isinstance(e, dict) and "pymdownx.snippets" in e]
    (project / "mkdocs.yml").write_text(MINIMAL + "  " + yaml.safe_dump([snippets]).replace("\n", "\n  "))
    listing = '```python notest\n--8<-- "src/gone.py:part"\n```\n'
    (project / "docs" / "index.md").write_text(f"---\ntitle: t\ndescription: d\n---\n\n{listing}")
    with caplog.at_level(logging.WARNING), pytest.raises(Abort, match="1 warnings"):
        build_site(project / "mkdocs.yml", project / "site")
    [line] = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert line.startswith("attend_book: docs/index.md:7: the include names src/gone.py, which is not there")


def _undated(html: str) -> str:
    """The page without the comment at its end that says when it was built."""
    return html.rsplit("<!--", 1)[0]


UNBOUND = "bind it {= …} (a given by its name) or make it a label"


def runs_of_a_build(project: Path) -> int:
    """Build the project; how many pages the plugin really ran (the rest came from its cache)."""
    config = load_config(str(project / "mkdocs.yml"), site_dir=str(project / "site"))
    build(config)
    plugin = config.plugins["attend-book"]
    assert isinstance(plugin, BookPlugin) and plugin.cache is not None
    return plugin.cache.runs


def test_a_rebuild_runs_only_the_pages_whose_code_changed(project: Path) -> None:
    page = '---\ntitle: t\ndescription: d\n---\n\n```python exec="1"\nx = 3.125\n```\n\nIt is 3.125{= x}.\n'
    (project / "docs" / "index.md").write_text(page, encoding="utf-8")
    (project / "docs" / "other.md").write_text(page.replace("3.125", "0.75"), encoding="utf-8")
    assert runs_of_a_build(project) == 2
    assert runs_of_a_build(project) == 0
    (project / "docs" / "index.md").write_text(
        page.replace("It is", "Printed once.\n\nIt is"), encoding="utf-8"
    )
    assert runs_of_a_build(project) == 0
    (project / "docs" / "index.md").write_text(page.replace("3.125", "3.25"), encoding="utf-8")
    assert runs_of_a_build(project) == 1
    assert "3.25" in (project / "site" / "index.html").read_text(encoding="utf-8")


def test_an_output_shown_as_a_code_block_is_converted_once_and_kept_while_its_text_and_settings_stand(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """markdown-exec's conversion of an output is kept where a code block shows it; an output
    shown as Markdown, which may hold a heading or a link, is converted every build."""
    converted: list[str] = []

    def counting(**given: Any) -> Any:
        converted.append(given["code"])
        return base_format(**given)

    monkeypatch.setattr("attend_book.plugin.base_format", counting)
    as_text = '```python exec="1" result="text"\nprint(6 * 7)\n```\n'
    as_markdown = '```python exec="1" continuation\nprint("**bold**")\n```\n'
    page = project / "docs" / "index.md"
    page.write_text(f"---\ntitle: t\ndescription: d\n---\n\n{as_text}\n{as_markdown}", encoding="utf-8")
    html = project / "site" / "index.html"
    runs_of_a_build(project)
    first = _undated(html.read_text(encoding="utf-8"))
    assert len(converted) == 2 and "<strong>bold</strong>" in first
    runs_of_a_build(project)
    assert converted[2:] == ['print("**bold**")'] and _undated(html.read_text(encoding="utf-8")) == first
    page.write_text(page.read_text(encoding="utf-8").replace("6 * 7", "6 * 8"), encoding="utf-8")
    runs_of_a_build(project)
    assert len(converted) == 5 and "48" in html.read_text(encoding="utf-8")
    settings = "  - pymdownx.highlight:\n      line_spans: __line\n"
    (project / "mkdocs.yml").write_text(MINIMAL + settings, encoding="utf-8")
    runs_of_a_build(project)
    assert len(converted) == 7 and "__line" in html.read_text(encoding="utf-8")


@pytest.mark.parametrize("search", [True, False])
def test_figures_and_listings_are_set_aside_only_for_a_search_that_runs(
    project: Path, monkeypatch: pytest.MonkeyPatch, search: bool
) -> None:
    """`nox -s serve` switches search off: nothing is then set aside for it, in every rebuild."""
    asked: list[str] = []
    set_aside = searched.SetAside.set_aside

    def noted(self: searched.SetAside, html: str) -> str:
        asked.append(html)
        return set_aside(self, html)

    monkeypatch.setattr(searched.SetAside, "set_aside", noted)
    plugins = "plugins:\n  - search:\n      enabled: " + str(search).lower() + "\n"
    (project / "mkdocs.yml").write_text(MINIMAL.replace("plugins:\n", plugins), encoding="utf-8")
    page = '---\ntitle: t\ndescription: d\n---\n\n```python exec="1" result="text"\nprint(6 * 7)\n```\n'
    (project / "docs" / "index.md").write_text(page, encoding="utf-8")
    runs_of_a_build(project)
    assert len(asked) == int(search) and "42" in (project / "site" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(("directory_urls", "folder"), [(True, "other/"), (False, "")])
def test_a_pages_notebook_lands_beside_the_page(project: Path, directory_urls: bool, folder: str) -> None:
    page = '---\ntitle: t\ndescription: d\n---\n\n```python exec="1"\nx = 3.125\n```\n\nIt is 3.125{= x}.\n'
    (project / "docs" / "other.md").write_text(page, encoding="utf-8")
    config = project / "mkdocs.yml"
    config.write_text(f"{MINIMAL}use_directory_urls: {str(directory_urls).lower()}\n", encoding="utf-8")
    build_site(config, project / "site")
    assert (project / "site" / f"{folder}other.ipynb").is_file()
    shown = "other/index.html" if directory_urls else "other.html"
    assert 'href="other.ipynb"' in (project / "site" / shown).read_text(encoding="utf-8")


def test_the_renumber_hint_stands_beside_a_moved_number_and_never_beside_another_problem(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    page = (
        '---\ndescription: d\n---\n\n```python exec="1"\nx = 3.125\n```\n\nIt is 7 here, then 3.126{= x}.\n'
    )
    (project / "docs" / "index.md").write_text(page, encoding="utf-8")
    with caplog.at_level(logging.WARNING), pytest.raises(Abort, match="3 warnings"):
        build_site(project / "mkdocs.yml", project / "site")
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert lines == [
        "bound_numbers: docs/index.md:1: the front matter has no title; "
        'see "Add a page" in docs/contributing.md',
        f"bound_numbers: docs/index.md:9:7: 7 is not bound: {UNBOUND}",
        "bound_numbers: docs/index.md:9:20: 3.126 is written, 3.125 is computed now, bound to {= x}"
        "  (`nox -s renumber` rewrites moved numbers)",
    ]


def test_without_the_number_check_the_book_plugin_runs_and_shows_each_page_itself(project: Path) -> None:
    alone = MINIMAL[: MINIMAL.index("  - bound-numbers:")] + MINIMAL[MINIMAL.index("  - attend-book") :]
    (project / "mkdocs.yml").write_text(alone, encoding="utf-8")
    page = '---\ntitle: t\ndescription: d\n---\n\n```python exec="1"\nprint(6 * 7)\n```\n'
    (project / "docs" / "index.md").write_text(page, encoding="utf-8")
    assert runs_of_a_build(project) == 1
    assert "<p>42</p>" in (project / "site" / "index.html").read_text(encoding="utf-8")


def test_a_pages_notebook_follows_the_file_its_listing_includes_from_one_build_to_the_next(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A notebook is made once and kept while its page, includes and release stand (under `nox
    -s serve`, rebuild after rebuild): an edit to an included file must reach it."""
    monkeypatch.chdir(project)
    (project / "mkdocs.yml").write_text(MINIMAL + "  - pymdownx.snippets:\n      base_path: [.]\n")
    (project / "src").mkdir()
    listed = project / "src" / "m.py"
    listed.write_text("# --8<-- [start:part]\nWEIGHT = 0.5\n# --8<-- [end:part]\n", encoding="utf-8")
    listing = '```python notest\n--8<-- "src/m.py:part"\n```\n'
    fence = '```python exec="1" continuation\nprint(1)\n```\n'
    (project / "docs" / "index.md").write_text(
        f'---\ntitle: t\ndescription: d\n---\n\n```python exec="1"\nx = 1\n```\n\n{listing}\n{fence}'
    )
    build_site(project / "mkdocs.yml", project / "site")
    assert "WEIGHT = 0.5" in (project / "site" / "index.ipynb").read_text(encoding="utf-8")
    listed.write_text(listed.read_text(encoding="utf-8").replace("0.5", "0.6"), encoding="utf-8")
    build_site(project / "mkdocs.yml", project / "site")
    assert "WEIGHT = 0.6" in (project / "site" / "index.ipynb").read_text(encoding="utf-8")


def test_a_pages_notebook_is_made_once_whether_mkdocs_yml_is_named_from_its_folder_or_in_full(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`nox -s docs` names it `mkdocs.yml`, `nox -s serve`'s rebuilds by its full path: each kept
    its notebooks under keys of its own, so every rebuild under serve made them again and the next
    `nox -s docs` after it too (its cache having dropped the others')."""
    monkeypatch.chdir(project)
    (project / "docs" / "index.md").write_text(
        '---\ntitle: t\ndescription: d\n---\n\n```python exec="1"\nprint(1)\n```\n', encoding="utf-8"
    )
    made: list[str] = []
    cells_of = notebooks.cells_of

    def counted(page: Page, *args: Any) -> list[notebooks.Cell]:
        made.append(page.path)
        return cells_of(page, *args)

    monkeypatch.setattr(notebooks, "cells_of", counted)
    # the command line opens `-f mkdocs.yml` and hands mkdocs the file, named as it was given
    for named in ("mkdocs.yml", project / "mkdocs.yml", "mkdocs.yml"):
        with open(named, "rb") as config:
            build(load_config(config, site_dir=str(project / "site")))
        assert (project / "site" / "index.ipynb").is_file()
    assert made == ["docs/index.md"]
