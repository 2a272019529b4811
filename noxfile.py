"""Contributor sessions. Each installs with `-c constraints.txt`, the exact versions CI runs.

`nox` alone runs lint, the package's tests on every Python, bound-numbers' own tests (`bound`)
and the book; `nox -s lock`
rewrites constraints.txt from the newest versions the ranges in the pyproject files allow.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nox

# Let Python keep the bytecode it compiles. A session starts many processes (pytest, mkdocs,
# notebook kernels, the command run as a process), and where PYTHONDONTWRITEBYTECODE is set,
# as on CI's machines, each one compiled numpy, matplotlib and mkdocs afresh: a third of the CPU.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
nox.options.default_venv_backend = "uv|venv"  # uv when installed (CI installs it): much faster installs
nox.options.reuse_existing_virtualenvs = True
nox.options.sessions = ["lint", "tests", "bound", "docs"]

PYTHONS = ["3.11", "3.12", "3.13"]
BOOK_PYTHON = "3.11"  # the book is built and checked on one Python; the package is tested on all
LOCK = ("-c", "constraints.txt")
# The package and its figures, the two plugins that build the book, the fence tests.
BOOK = ("-e", ".[test,docs,figures]", "-e", "./bound", "-e", "./book")
# Every session's environment. mkdocs-jupyter imports nbconvert, whose command-line class asks
# every exporter installed whether Jupyter's configuration enables it (a fifth of a second at each
# build's start); the book only ever uses the HTML exporter, so nbconvert's own switch skips that.
QUIET = {"NO_MKDOCS_2_WARNING": "1", "NBCONVERT_DISABLE_CONFIG_EXPORTERS": "1"}
LINTED = ("src", "bound", "book", "figures", "tests", "scripts", "noxfile.py")
# pytest-xdist: one worker per CPU the machine has; each test file runs whole on one worker, as a
# page's fences share one namespace and a file's tests their module's fixtures. `-- -n 0` runs
# them in this one process instead (a debugger, -x, a test chosen alone).
EVERY_CORE = ("-n", "logical", "--dist", "loadfile")


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """Every test. The package's on each Python; on the book's Python also every page's fences
    (pytest-markdown-docs) and the book's own tests, but not the built site's: `docs` has those.
    On every core (EVERY_CORE); `nox -s tests -- -n 0 ...` runs them in one process."""
    if session.python != BOOK_PYTHON:
        session.install(*LOCK, "-e", ".[test]")
        session.run(
            "pytest",
            "tests",
            *EVERY_CORE,
            "--ignore=tests/docs",
            "--ignore=tests/browser",
            "--ignore=tests/publish",
            "--ignore=tests/crosscheck",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=-ra",
            *session.posargs,
        )
        return
    session.install(*LOCK, *BOOK)
    session.run(
        "pytest",
        *EVERY_CORE,
        "--ignore=tests/docs/test_site.py",
        "-p",
        "no:cacheprovider",
        *session.posargs,
        env=QUIET,
    )


@nox.session(python=BOOK_PYTHON)
def bound(session: nox.Session) -> None:
    """bound-numbers on its own (bound/): its tests, among them its second site (bound/tests/site)
    built by ProperDocs with markdown-exec, a site of notebooks (bound/tests/notebook_site) shown
    by mkdocs-jupyter, README's quick start and its release workflow (check-jsonschema). Nothing
    of the book is installed, so nothing of it can make them pass; numpy only for the provider's
    test of numpy's values."""
    site = ("properdocs", "mkdocs-material", "markdown-exec", "mkdocs-jupyter", "pymdown-extensions")
    session.install(*LOCK, "-e", "./bound", *site, "numpy", "pytest", "check-jsonschema")
    named = any(
        arg.startswith("bound/") for arg in session.posargs
    )  # `-- bound/tests/test_x.py`: that file only
    tests = [] if named else ["bound/tests"]
    session.run("pytest", *tests, "-p", "no:cacheprovider", "-o", "addopts=-ra", *session.posargs, env=QUIET)


def _pip_find_links() -> list[str]:
    """The folders this machine's pip looks in for wheels: PIP_FIND_LINKS, else pip's setting."""
    said = (
        os.environ.get("PIP_FIND_LINKS")
        or subprocess.run(
            [sys.executable, "-m", "pip", "config", "get", "global.find-links"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    )
    return said.split()


@nox.session(python=BOOK_PYTHON)
def crosscheck(session: nox.Session) -> None:
    """Our attention against PyTorch's, in float64: the tests in tests/crosscheck/.

    torch is needed here and nowhere else, so it is no extra of the package. Its CPU build
    (`torch==2.13.0+cpu`, named in full so that no CUDA build can be chosen) is a wheel these
    machines keep in the folder their pip is pointed to (PIP_FIND_LINKS); uv reads no pip
    setting, so that folder is handed to it (a third of the CPU pip took to install it).
    """
    session.install(*LOCK, "-e", ".", "pytest")  # these tests use neither hypothesis nor the schema check
    links = [arg for folder in _pip_find_links() for arg in ("--find-links", folder)]
    session.install(*links, "torch==2.13.0+cpu")
    session.run("pytest", "tests/crosscheck", "-p", "no:cacheprovider", "-o", "addopts=-ra", *session.posargs)


@nox.session(python=BOOK_PYTHON)
def lint(session: nox.Session) -> None:
    """ruff's lint and format check, and mypy (strict) over the package, the book and the tests."""
    session.install(*LOCK, "-e", ".[test,docs,figures,lint,browser]", "-e", "./bound", "-e", "./book")
    session.run("ruff", "check", *LINTED)
    session.run("ruff", "format", "--check", *LINTED)
    session.run("mypy")


@nox.session(python=BOOK_PYTHON)
def docs(session: nox.Session) -> None:
    """Build the book strict into site/, then check the built site.

    The build runs each page's code (or takes its output from .cache/attend-book while nothing
    it depends on changed), checks every number in the prose and fails on any warning. The
    site checks load no pytest plugin; `nox -s browser` may then open the same site/.
    """
    session.install(*LOCK, *BOOK)
    session.run("properdocs", "build", "-f", "mkdocs.yml", "--strict", "--site-dir", "site", env=QUIET)
    session.run(
        "pytest",
        "tests/docs/test_site.py",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        env={**QUIET, "BOOK_SITE": "site", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
    )


@nox.session(python=BOOK_PYTHON)
def notebooks(session: nox.Session) -> None:
    """Run every notebook the built site offers for download as a reader would: the package built
    as the release builds it, served from a package index on 127.0.0.1, each notebook run in a
    fresh virtual environment whose first cell installs it from there.

    The site is the one BOOK_SITE names (CI builds it once, in `docs`), else site/ is built here.
    The test itself needs no package of this checkout (it builds the release it serves), so it
    runs with only its own tools installed, no conftest.py and no pytest plugin.
    """
    site = os.environ.get("BOOK_SITE", "")
    if not site:
        site = "site"
        session.install(*LOCK, *BOOK)
        session.run("properdocs", "build", "-f", "mkdocs.yml", "--strict", "--site-dir", site, env=QUIET)
    session.install(*LOCK, "pytest", "nbclient", "nbformat", "packaging", "uv")
    session.run(
        "pytest",
        "tests/docs/test_downloads.py",
        "-p",
        "no:cacheprovider",
        "--noconftest",
        "-o",
        "addopts=-ra",
        "--durations=0",
        *session.posargs,
        env={**QUIET, "ATTEND_DOWNLOADS": "1", "BOOK_SITE": site, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
    )


@nox.session(python=BOOK_PYTHON)
def browser(session: nox.Session) -> None:
    """Open every page of the built book in headless Chromium (Debian's, installed if missing).

    With BOOK_SITE set (CI sets it to the site/ that `nox -s docs` built) that site is
    opened; otherwise the test builds one. Screenshots land in artifacts/screenshots/. The
    printed book is checked by `nox -s pdf`, not again here.
    """
    session.run("bash", "scripts/install-browser.sh", external=True)
    session.install(*LOCK, *BOOK, "-e", ".[browser]")
    session.run(
        "pytest",
        "tests/browser",
        "--ignore=tests/browser/test_pdf.py",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=-ra",
        *session.posargs,
        env={**QUIET, "ATTEND_BROWSER": "1"},
    )


@nox.session(python=BOOK_PYTHON)
def serve(session: nox.Session) -> None:
    """A live preview that rebuilds on any change to docs/, src/attend, the plugin or the figures.

    The whole-book page (print_page/, what `nox -s pdf` prints) and the search index are left
    out: gathering every page into the one was half of each save's rebuild, indexing them for
    the other a fifth, and `nox -s docs` still makes both.
    """
    session.install(*LOCK, *BOOK)
    watched = [arg for folder in ("src/attend", "book", "figures") for arg in ("--watch", folder)]
    env = {**QUIET, "BOOK_PRINT_PAGE": "false", "BOOK_SEARCH": "false"}
    session.run("properdocs", "serve", "-f", "mkdocs.yml", "--strict", *watched, *session.posargs, env=env)


@nox.session(python=BOOK_PYTHON, default=False, reuse_venv=False, venv_backend="venv")  # pip freeze
def lock(session: nox.Session) -> None:
    """Rewrite constraints.txt: resolve every range afresh and freeze what got installed."""
    session.install(
        "--upgrade",
        "--upgrade-strategy",
        "eager",
        "-e",
        ".[test,docs,figures,lint,browser]",
        "-e",
        "./bound",
        "-e",
        "./book",
        "nox",
        "uv",
    )
    frozen = session.run("pip", "freeze", "--exclude-editable", silent=True)
    header = (
        "# Exact versions for every nox session and CI. Made by `nox -s lock`; edit the ranges, not this.\n"
    )
    Path("constraints.txt").write_text(header + str(frozen), encoding="utf-8")


@nox.session(python=BOOK_PYTHON)
def pdf(session: nox.Session) -> None:
    """The whole book as one PDF: print print_page/ to site/attend.pdf, then check the PDF.

    The site is the one BOOK_SITE names (CI builds it once, in `docs`), else site/ is built
    here. tests/browser/test_pdf.py prints it with Debian's headless Chromium (through
    scripts/print_book.py), fails if the page asked for anything outside 127.0.0.1, and reads
    the PDF back: in one process and one browser, where running the script first started two.
    """
    session.run("bash", "scripts/install-browser.sh", external=True)
    session.install(*LOCK, *BOOK, "-e", ".[browser]")
    site = os.environ.get("BOOK_SITE", "")
    if not site:
        site = "site"
        session.run("properdocs", "build", "-f", "mkdocs.yml", "--strict", "--site-dir", site, env=QUIET)
    session.run(
        "pytest",
        "tests/browser/test_pdf.py",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=-ra",
        *session.posargs,
        env={**QUIET, "ATTEND_BROWSER": "1", "BOOK_SITE": site},
    )


@nox.session(python=BOOK_PYTHON, default=False)  # it rewrites docs/: only when asked for by name
def renumber(session: nox.Session) -> None:
    """Bring every bound number of the pages back to what its binding gives (docs/contributing.md).

    Rewrites each number whose value moved, at its written precision, words as words, then ends
    with a summary: what it rewrote, what to edit by hand (page:line) and which pinned tests
    (`-m pins_chapter`) fail now. `-- docs/p.md` for one page; `-- --check docs/p.md` writes
    nothing and prints the page's problems, as the build would.
    """
    session.install(*LOCK, *BOOK)
    pins = ("--pins", "pins_chapter", "--pins-command", "nox -s pins")  # the tests a person edits
    # 1: done, with work left for a person, which its summary lists; 2: a page or folder absent
    session.run("bound-numbers", "renumber", *pins, *session.posargs, env=QUIET, success_codes=[0, 1])


@nox.session(python=BOOK_PYTHON)
def pins(session: nox.Session) -> None:
    """The tests that hold the chapter's numbers by hand (`pins_chapter`, docs/contributing.md):
    for each one that fails, its place and name, then the value it holds and the value the code
    gives now, each on a line of its own (tests/conftest.py). The ones to edit after a weight
    changed on purpose and `nox -s renumber` ran."""
    session.install(*LOCK, *BOOK)
    session.run(
        "pytest",
        "tests",
        "-m",
        "pins_chapter",
        "--ignore=tests/crosscheck",  # torch's, and it pins nothing
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "-q",
        "--tb=no",
        "-rN",
        *session.posargs,
        env=QUIET,
    )
