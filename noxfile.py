"""Contributor sessions: `nox -s tests` runs everything that checks the code and the book."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True

PYTHON = "3.11"


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """The package's tests, lint and types."""
    session.install("-e", ".[test,docs]")  # the docs' tests and every page's code blocks run here too
    session.run("ruff", "check", "src", "tests", "scripts", "book", "noxfile.py")
    session.run("mypy", "src/attend", "book")
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHON)
def browser(session: nox.Session) -> None:
    """Build the book, serve it on 127.0.0.1 and open every page in headless Chromium.

    Chromium is Debian's (scripts/install-browser.sh installs it once); Playwright's Python
    package drives it. Screenshots of every page land in artifacts/screenshots/.
    """
    session.run("bash", "scripts/install-browser.sh", external=True)
    session.install("-e", ".[test,docs,browser]")
    # BOOK_SITE (a site already built, as CI passes it) is read by tests/browser/conftest.py.
    session.run("pytest", "tests/browser", "-p", "no:cacheprovider", *session.posargs,
                env={"ATTEND_BROWSER": "1", "NO_MKDOCS_2_WARNING": "1"})


@nox.session(python=PYTHON)
def pdf(session: nox.Session) -> None:
    """The whole book as one PDF: print print_page/ to site/attend.pdf, then check the PDF.

    The site is the one BOOK_SITE names (CI builds it once, in `docs`), else `site/` is built
    here. scripts/print_book.py prints it with Debian's headless Chromium and fails if the
    page asked for anything outside 127.0.0.1; tests/browser/test_pdf.py reads the PDF back.
    """
    session.run("bash", "scripts/install-browser.sh", external=True)
    session.install("-e", ".[test,docs,browser]")
    site = os.environ.get("BOOK_SITE", "")
    if not site:
        site = "site"
        session.run("mkdocs", "build", "--strict", "--site-dir", site, env=BOOK_ENV)
    session.run("python", "scripts/print_book.py", site)
    session.run(
        "pytest", "tests/browser/test_pdf.py", "-p", "no:cacheprovider", *session.posargs,
        env={**BOOK_ENV, "ATTEND_BROWSER": "1", "BOOK_SITE": site,
             "ATTEND_PDF": str(Path(site) / "attend.pdf")},
    )


BOOK_ENV = {"NO_MKDOCS_2_WARNING": "1"}


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Rebuild the book strict into site/ and run every page's code again as tests.

    The build runs each fence, checks each number in the prose and fails on any warning;
    pytest runs each fence again with its assertions. Neither needs the other, so they run
    side by side on the machine's two cores; then the built site itself is checked.
    """
    session.install("-e", ".[test,docs]")
    env = {**os.environ, **BOOK_ENV, "PATH": f"{session.bin}{os.pathsep}{os.environ['PATH']}"}
    with tempfile.TemporaryFile("w+") as log:
        build = subprocess.Popen(
            ["mkdocs", "build", "--strict", "--site-dir", "site"],
            stdout=log, stderr=subprocess.STDOUT, env=env,
        )
        try:
            session.run("pytest", "docs", "-p", "no:cacheprovider", *session.posargs, env=BOOK_ENV)
        finally:
            built = build.wait()
            log.seek(0)
            session.log(log.read().rstrip())
    if built != 0:
        session.error("mkdocs build --strict failed: see its log above")
    # The built site's own checks need no pytest plugin; loading none saves two seconds here.
    session.run(
        "pytest", "tests/docs/test_build.py", "-p", "no:cacheprovider", "-o", "addopts=",
        env={**BOOK_ENV, "BOOK_SITE": "site", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
    )


@nox.session(python=PYTHON)
def serve(session: nox.Session) -> None:
    """A live preview of the book that also rebuilds when the package or the build helpers change."""
    session.install("-e", ".[test,docs]")
    session.run(
        "mkdocs", "serve", "--strict", "--watch", "src/attend", "--watch", "book", *session.posargs,
        env=BOOK_ENV,
    )
