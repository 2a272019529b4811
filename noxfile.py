"""Contributor sessions: `nox -s tests` runs everything that checks the code and the book."""

from __future__ import annotations

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True

PYTHON = "3.11"


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """The package's tests, lint and types."""
    session.install("-e", ".[test,docs]")  # the docs' tests and every page's code blocks run here too
    session.run("ruff", "check", "src", "tests", "scripts", "noxfile.py")
    session.run("mypy")
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHON)
def browser(session: nox.Session) -> None:
    """Build the book, serve it on 127.0.0.1 and open every page in headless Chromium.

    Chromium is Debian's (scripts/install-browser.sh installs it once); Playwright's Python
    package drives it. Screenshots of every page land in artifacts/screenshots/.
    """
    session.run("bash", "scripts/install-browser.sh", external=True)
    session.install("-e", ".[test,docs,browser]")
    session.run("pytest", "tests/browser", "-p", "no:cacheprovider", *session.posargs,
                env={"ATTEND_BROWSER": "1", "NO_MKDOCS_2_WARNING": "1"})


BOOK_ENV = {"NO_MKDOCS_2_WARNING": "1"}


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """The book: a strict build (any warning, stale number or failing block fails it), then its tests."""
    session.install("-e", ".[test,docs]")
    session.run("ruff", "check", "book", "tests/docs")
    session.run("mypy", "book")
    session.run("mkdocs", "build", "--strict", "--site-dir", "site", env=BOOK_ENV)
    session.run("pytest", "tests/docs", "docs", *session.posargs, env={**BOOK_ENV, "BOOK_SITE": "site"})


@nox.session(python=PYTHON)
def serve(session: nox.Session) -> None:
    """A live preview of the book that also rebuilds when the package or the build helpers change."""
    session.install("-e", ".[test,docs]")
    session.run(
        "mkdocs", "serve", "--strict", "--watch", "src/attend", "--watch", "book", *session.posargs, env=BOOK_ENV
    )
