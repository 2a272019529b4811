"""Each trap of this toolchain that once let a broken build pass in silence, guarded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import markdown
import pytest
from mkdocs.utils.yaml import yaml_load
from tree import DOCS

from attend_book import snippets
from attend_book.plugin import UnreadFenceError
from attend_book.run import run_page

ROOT = DOCS.parent


def config() -> dict[str, Any]:
    loaded = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))  # knows !ENV
    assert isinstance(loaded, dict)
    return loaded


def extension(name: str) -> dict[str, Any]:
    for entry in config()["markdown_extensions"]:
        if isinstance(entry, dict) and name in entry:
            return entry[name] or {}
        if entry == name:
            return {}
    raise AssertionError(f"{name} is not configured")


def book_markdown() -> markdown.Markdown:
    """A Markdown converter with the extensions and settings mkdocs.yml gives the book."""
    names = [e if isinstance(e, str) else next(iter(e)) for e in config()["markdown_extensions"]]
    wanted = ("pymdownx.superfences", "pymdownx.snippets")
    return markdown.Markdown(
        extensions=[n for n in names if n in wanted],
        extension_configs={n: extension(n) for n in names if n in wanted},
    )


def test_a_fence_with_an_unknown_word_neither_vanishes_nor_swallows_the_next() -> None:
    page = "```python notest\nfirst = 1\n```\n\n```python\nsecond = 2\n```\n"
    html = book_markdown().convert(page)
    assert html.count("<code>") == 2 and "```" not in html


def test_a_snippet_naming_a_missing_file_fails_instead_of_vanishing() -> None:
    """With the book's settings (its `check_paths` off, so that nothing ends the build with a
    traceback), pymdownx.snippets drops such a line without a word; the book's include check
    names it, one line that fails the strict build (test_build shows the build)."""
    page = '```python notest\n--8<-- "src/attend/no-such-file.py"\n```\n'
    assert "no-such-file" not in book_markdown().convert(page)
    assert [p.message for p in snippets.check(page, ROOT)] == [
        "the include names src/attend/no-such-file.py, which is not there"
    ]


def test_a_fence_error_gets_through_superfences_instead_of_rendering_as_text() -> None:
    """SuperFences renders a fence whose formatter raises as plain text, unless the error is its own."""
    from pymdownx.superfences import SuperFencesException  # type: ignore[import-untyped]

    def failing(*args: Any, **kwargs: Any) -> str:
        raise UnreadFenceError("docs/p.md:1: a fence failed")

    fences_config = [{"name": "python", "class": "python", "format": failing}]
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": fences_config}},
    )
    assert issubclass(UnreadFenceError, SuperFencesException)
    with pytest.raises(UnreadFenceError, match="a fence failed"):
        md.convert("```python\n1 / 0\n```\n")


def test_python_files_under_docs_are_not_imported_by_pytest() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "docs"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    collected = [line for line in done.stdout.splitlines() if "::" in line]
    assert collected, done.stdout + done.stderr
    assert all(line.split("::")[0].endswith(".md") for line in collected), collected


def test_no_python_file_lives_under_docs_but_the_workbench() -> None:
    strays = [p.name for p in DOCS.rglob("*.py") if p.name != "workbench.py"]
    assert strays == [], f"{strays}: build helpers belong in book/, not docs/"


def test_pytest_markdown_docs_never_so_much_as_opens_the_workbench(tmp_path: Path) -> None:
    """Stronger than counting collected items: a .py file that yields no test is still imported.

    pytest-markdown-docs imports every .py file pytest offers it, and docs/workbench.py is a
    notebook whose cells would all run at collection. A probe plugin records every file pytest
    offers to any collector; the workbench must not be among them.
    """
    seen = tmp_path / "seen.txt"
    (tmp_path / "offered_files.py").write_text(
        "import os\n\n\ndef pytest_collect_file(file_path, parent):\n"
        "    with open(os.environ['OFFERED'], 'a', encoding='utf-8') as out:\n"
        "        out.write(f'{file_path}\\n')\n",
        encoding="utf-8",
    )
    env = {
        **os.environ,
        "OFFERED": str(seen),
        "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--markdown-docs",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "offered_files",
            "docs",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    offered = seen.read_text(encoding="utf-8").splitlines() if seen.exists() else []
    assert any(path.endswith(".md") for path in offered), done.stdout + done.stderr
    docs = str(ROOT / "docs") + os.sep
    assert not [path for path in offered if path.startswith(docs) and path.endswith(".py")], offered


def test_a_rebuild_under_serve_runs_the_package_as_it_is_now(tmp_path: Path) -> None:
    """`mkdocs serve` rebuilds in one process, but each page runs in a process of its own, which
    imports the package as it is on disk when the page runs, not as the server first saw it."""
    module = tmp_path / "package_now.py"
    page = '```python exec="1"\nimport package_now\nprint(package_now.WEIGHT)\n```\n'
    environment = {**os.environ, "PYTHONPATH": str(tmp_path)}
    texts = []
    # Sources of different sizes: Python's bytecode cache tells an edit by size and mtime in whole
    # seconds, so two same-sized writes within one second would read as one (its rule, not ours).
    for weight in ("0.5", "0.625"):
        module.write_text(f"WEIGHT = {weight}\n", encoding="utf-8")
        [block] = run_page("docs/p.md", page, environment=environment).blocks
        texts.append(block.text)
    assert texts == ["0.5\n", "0.625\n"]
