"""Each trap of this toolchain that once let a broken build pass in silence, guarded."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import markdown
import pytest
from mkdocs.utils.yaml import yaml_load

from book import execute
from book.pages import DOCS, fences, pages

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


def plugin(name: str) -> dict[str, Any] | None:
    for entry in config()["plugins"]:
        if isinstance(entry, dict) and name in entry:
            return entry[name] or {}
        if entry == name:
            return {}
    return None


def session_calls(name: str) -> list[list[str]]:
    """The literal arguments of every command one nox session runs.

    That is each `session.run("mkdocs", ...)` and each `subprocess.Popen(["mkdocs", ...])`
    (the docs session starts its build beside its tests).
    """
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    calls = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and function.name == name:
            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                called = getattr(node.func, "attr", "")
                if called == "Popen" and node.args and isinstance(node.args[0], ast.List):
                    words = node.args[0].elts
                elif called == "run":
                    words = node.args
                else:
                    continue
                literal = [a.value for a in words if isinstance(a, ast.Constant)]
                calls.append([word for word in literal if isinstance(word, str)])
    return calls


def test_the_docs_session_builds_strict_and_never_quiet() -> None:
    builds = [call for call in session_calls("docs") if call[:2] == ["mkdocs", "build"]]
    assert builds, "nox -s docs runs no mkdocs build"
    for call in builds:
        assert "--strict" in call
        assert not {"-q", "--quiet"} & set(call), "-q drops the warnings --strict counts"
    assert config().get("strict") is True


def test_a_fence_with_an_unknown_word_neither_vanishes_nor_swallows_the_next() -> None:
    assert extension("pymdownx.superfences").get("relaxed_headers") is True
    page = "```python notest\nfirst = 1\n```\n\n```python\nsecond = 2\n```\n"
    html = markdown.markdown(
        page,
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"relaxed_headers": True}},
    )
    assert html.count("<code>") == 2 and "```" not in html


def test_a_fence_that_raises_gets_through_superfences_instead_of_rendering_as_text() -> None:
    import markdown_exec
    from pymdownx.superfences import SuperFencesException

    assert issubclass(execute.FenceError, SuperFencesException)
    execute.install()
    fences_config = [
        {
            "name": "python",
            "class": "python",
            "validator": markdown_exec.validator,
            "format": markdown_exec.formatter,
        }
    ]
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": fences_config, "relaxed_headers": True}},
    )
    with pytest.raises(execute.FenceError, match="ZeroDivisionError"):
        md.convert('```python exec="1"\n1 / 0\n```\n')


def test_markdown_exec_internals_the_book_leans_on_are_still_there() -> None:
    from markdown_exec._internal.formatters import python

    assert callable(python._run_python)
    assert isinstance(python._sessions_globals, dict)


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


def test_notebooks_fail_on_errors_and_are_never_served_from_a_stale_cache() -> None:
    jupyter = plugin("mkdocs-jupyter")
    if jupyter is None:
        return
    assert jupyter.get("allow_errors") is False, "mkdocs-jupyter defaults to allow_errors: true"
    assert jupyter.get("execute") is True
    assert jupyter.get("cache") is False, "its cache is keyed on the notebook text, not on src/attend"
    assert not any(pattern.endswith(".md") for pattern in jupyter.get("include", ["*.md"])), (
        "mkdocs-jupyter's default include takes *.md pages for notebooks"
    )


def test_markdown_exec_registers_no_language_that_loads_from_a_cdn() -> None:
    languages = (plugin("markdown-exec") or {}).get("languages")
    assert languages is not None, "left unset, markdown-exec registers pyodide, which loads from a CDN"
    assert "pyodide" not in languages


def test_an_include_line_never_sits_in_a_block_pytest_would_run() -> None:
    for page in pages():
        for fence in fences(page.read_text(encoding="utf-8")):
            if fence.language not in {"python", "py", "python3"}:
                continue
            includes = [line for line in fence.body.splitlines() if "--8<--" in line]
            where = f"{page.name}:{fence.line}"
            if includes:
                assert "notest" in fence.words, (
                    f"{where}: pytest-markdown-docs would run the include as Python"
                )
                assert not fence.executed, f"{where}: an executed block holds an include"
            if "notest" in fence.words:
                assert includes == [line for line in fence.body.splitlines() if line.strip()], (
                    f"{where}: notest is for listings only; this block hides code from the tests"
                )


def test_snippets_fail_the_build_when_a_section_is_missing() -> None:
    snippets = extension("pymdownx.snippets")
    assert snippets.get("check_paths") is True


def test_sessions_and_continuations_agree_on_every_page() -> None:
    """markdown-exec shares state by `session`, pytest-markdown-docs by `continuation`.

    A block without `continuation` resets pytest-markdown-docs' chain, so a page whose blocks
    disagree would run one way at build and another under pytest.
    """
    for page in pages():
        blocks = [
            f for f in fences(page.read_text(encoding="utf-8")) if f.executed and f.language == "python"
        ]
        for index, fence in enumerate(blocks):
            where = f"{page.name}:{fence.line}"
            assert fence.session == page.stem, f"{where}: session should be {page.stem!r}"
            assert ("continuation" in fence.words) == (index > 0), (
                f"{where}: continuation is for every block but the first"
            )


def test_no_python_file_lives_under_docs_except_notebooks_for_mkdocs_jupyter() -> None:
    jupyter = plugin("mkdocs-jupyter") or {}
    notebooks = set(jupyter.get("include", []))
    strays = [p.name for p in Path(DOCS).rglob("*.py") if p.name not in notebooks]
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
    env = {**os.environ, "OFFERED": str(seen),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--markdown-docs", "--collect-only", "-q",
         "-p", "no:cacheprovider", "-p", "offered_files", "docs"],
        cwd=ROOT, capture_output=True, text=True, check=False, env=env,
    )
    offered = seen.read_text(encoding="utf-8").splitlines() if seen.exists() else []
    assert any(path.endswith(".md") for path in offered), done.stdout + done.stderr
    docs = str(ROOT / "docs") + os.sep
    assert not [path for path in offered if path.startswith(docs) and path.endswith(".py")], offered


def test_a_rebuild_under_serve_runs_the_package_as_it_is_now() -> None:
    """`mkdocs serve` rebuilds in one process: each build must import `attend` afresh."""
    probe = (
        "import sys, attend, book.figures\n"
        "from book.hooks import on_pre_build\n"
        "on_pre_build(None)\n"
        "left = sorted(n for n in sys.modules if n.split('.')[0] == 'attend' or n == 'book.figures')\n"
        "import attend as again\n"
        "print(left, again is not attend)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["[]", "True"]
