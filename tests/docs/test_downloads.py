"""Every notebook the built site offers for download runs where a reader takes it.

`nox -s notebooks` runs this (it sets ATTEND_DOWNLOADS=1 and BOOK_SITE). The package is built
into a wheel and an sdist as the release workflow builds them, put with its dependencies in a
package index of its own (PEP 503, served on 127.0.0.1), and each downloaded notebook is run
top to bottom by nbclient in a kernel of a fresh virtual environment that has nothing but the
kernel: its first cell installs the package, and pip reads no configuration and no index but
that one. The kernel starts in an empty folder with no PYTHONPATH, so no checkout is on its path;
once the notebook has run, that same kernel is asked where it imported the package from.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import nbclient
import nbformat
import pytest
from packaging.utils import canonicalize_name

# Not from tree.py: this test runs where nothing of the book is installed (`nox -s notebooks`).
ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SITE = Path(os.environ.get("BOOK_SITE", "site"))
pytestmark = pytest.mark.skipif(
    os.environ.get("ATTEND_DOWNLOADS") != "1",
    reason="runs in `nox -s notebooks`, which sets ATTEND_DOWNLOADS=1",
)
OFFERED = sorted((ROOT / SITE).glob("**/*.ipynb")) if os.environ.get("ATTEND_DOWNLOADS") == "1" else []


def _run(*command: str | Path) -> None:
    done = subprocess.run(list(map(str, command)), capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def _sha256(file: Path) -> str:
    return hashlib.sha256(file.read_bytes()).hexdigest()


def _simple_index(files: Path, root: Path) -> None:
    """A PEP 503 index under `root/simple/` of every distribution file in `files`."""
    projects: dict[str, list[Path]] = {}
    for file in sorted(files.iterdir()):
        projects.setdefault(canonicalize_name(file.name.split("-")[0]), []).append(file)
    for name, found in projects.items():
        links = "".join(
            f'<a href="../../{files.name}/{html.escape(f.name)}#sha256={_sha256(f)}">'
            f"{html.escape(f.name)}</a><br>\n"
            for f in found
        )
        (root / "simple" / name).mkdir(parents=True)
        (root / "simple" / name / "index.html").write_text(
            f"<!DOCTYPE html>\n<html><body>\n{links}</body></html>\n"
        )


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not the test's output."""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a package index holding the release built from this checkout (wheel and
    sdist) and the wheels of everything its `figures` extra needs, at the versions CI pins."""
    root = tmp_path_factory.mktemp("index")
    files = root / "files"
    _run("uv", "build", "--out-dir", files, ROOT)
    [wheel] = files.glob("attend_head-*.whl")
    dependencies = tmp_path_factory.mktemp("dependencies")
    _run("uv", "venv", "--seed", "--quiet", "--python", sys.executable, dependencies / "venv")
    pip = (dependencies / "venv" / "bin" / "python", "-m", "pip")
    _run(*pip, "download", "--quiet", "--dest", files, "-c", ROOT / "constraints.txt", f"{wheel}[figures]")
    _simple_index(files, root)
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/simple/"
    finally:
        server.shutdown()
        server.server_close()


def _fresh_kernel(where: Path) -> tuple[str, Path]:
    """A virtual environment with only a Jupyter kernel (ipykernel, at CI's version) and pip,
    and a kernel spec that starts it; returns the spec's name and the environment's python."""
    venv = where / "venv"
    _run("uv", "venv", "--seed", "--quiet", "--python", sys.executable, venv)
    python = venv / "bin" / "python"
    _run("uv", "pip", "install", "--quiet", "--python", python, "-c", ROOT / "constraints.txt", "ipykernel")
    spec = where / "jupyter" / "kernels" / "fresh"
    spec.mkdir(parents=True)
    argv = [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "fresh", "language": "python"})
    )
    return "fresh", python


class _KernelBytecode:
    """The bytecode Python compiled for the kernel's own files, lent from one fresh environment
    to the next, so that ipykernel, IPython and pip are compiled once per run and not once per
    notebook (a CPU-second each time, a fifth of a notebook's).

    uv installs a file into an environment as a hard link to its cache, so the kernel's files
    and pip in every fresh environment are one and the same file on disk. A .pyc is checked
    against its source's modification time and size, and its code is given the path it is
    loaded from, so a .pyc compiled from that file in one environment is the very .pyc the next
    would compile. It is lent only where the source is that same file (`samefile`): whatever the
    notebook's pip installs (the package, numpy, matplotlib) pip writes afresh into each
    environment, is never the same file, and compiles in its kernel as on a reader's machine.
    A reader whose pip installed ipykernel has its bytecode too: pip compiles at install.
    """

    def __init__(self) -> None:
        self.compiled: Path | None = None  # the environment the last kernel ran in

    def lend(self, venv: Path) -> None:
        """Link into `venv` the .pyc of every file it shares with the last environment."""
        if self.compiled is not None:
            for cache in self.compiled.rglob("__pycache__"):
                folder = venv / cache.parent.relative_to(self.compiled)
                for pyc in cache.glob("*.pyc"):
                    source = folder / f"{pyc.name.partition('.')[0]}.py"
                    if source.exists() and source.samefile(cache.parent / source.name):
                        (folder / "__pycache__").mkdir(exist_ok=True)
                        os.link(pyc, folder / "__pycache__" / pyc.name)
        self.compiled = venv


@pytest.fixture(scope="module")
def kernel_bytecode() -> _KernelBytecode:
    return _KernelBytecode()


def _reader_environment(python: Path, index: str) -> dict[str, str]:
    """The kernel's whole environment: its own bin/ first, pip told to read no configuration
    file and to ask `index` alone, and nothing else (no PYTHONPATH, no PIP_* of this machine)."""
    return {
        "PATH": f"{python.parent}:/usr/bin:/bin",
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_INDEX_URL": index,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        # No bytecode compiled at install: half of `%pip install`'s seconds, for modules a reader's
        # first import compiles anyway. pip reads a `--no-...` switch from the environment as the
        # value of the option it turns off, so "0" is what says "do not compile".
        "PIP_NO_COMPILE": "0",
    }


def _outputs(cell: dict[str, Any]) -> str:
    return "".join(
        "".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/html", ""))
        for output in cell.get("outputs", [])
    )


def test_the_site_offers_every_chapters_notebook_and_the_workbench() -> None:
    names = {path.name for path in OFFERED}
    assert "workbench.ipynb" in names and len(names) >= 8, sorted(names)
    assert "contributing.ipynb" not in names


@pytest.mark.parametrize("downloaded", OFFERED, ids=lambda p: p.name)
def test_a_downloaded_notebook_runs_top_to_bottom_in_a_fresh_environment(
    downloaded: Path,
    index: str,
    kernel_bytecode: _KernelBytecode,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kernel, python = _fresh_kernel(tmp_path)
    kernel_bytecode.lend(python.parent.parent)
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    reader = tmp_path / "reader"  # an empty folder: the notebook's working directory
    reader.mkdir()
    notebook = nbformat.read(downloaded, as_version=4)  # type: ignore[no-untyped-call]
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    install = code[0]
    # Asked of the notebook's own kernel once its cells have run: where `attend` came from and,
    # installed without the figures extra, what importing the pictures says.
    where = nbformat.v4.new_code_cell("import attend\nprint(attend.__file__)")  # type: ignore[no-untyped-call]
    refused = nbformat.v4.new_code_cell(  # type: ignore[no-untyped-call]
        "import attend_figures", metadata={"tags": ["raises-exception"]}
    )
    figures_installed = "[figures]" in install.source
    notebook.cells += [where] if figures_installed else [where, refused]
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name=kernel,
        resources={"metadata": {"path": str(reader)}},
        skip_cells_with_tag="run-by-the-build-only",  # a reader's Jupyter runs the install cell too
    )
    client.execute(env=_reader_environment(python, index))

    assert install.source.startswith("%pip install"), install.source
    assert f"Looking in indexes: {index}" in _outputs(install), _outputs(install)
    figures = [cell for cell in code if "HTML(" in cell.source]
    assert all("<svg" in _outputs(cell) for cell in figures), "a figure cell drew nothing"
    assert any(_outputs(cell).strip() for cell in code[1:]), "the notebook printed nothing"
    imported = _outputs(where).strip()
    assert Path(imported).is_relative_to(python.parent.parent), f"attend imported from {imported}"
    if not figures_installed:  # installed without matplotlib, the pictures say so
        [error] = refused.outputs
        assert 'pip install "attend-head[figures]"' in error.get("evalue", ""), error
