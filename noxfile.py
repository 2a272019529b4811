"""Contributor sessions: `nox -s tests` runs everything that checks the code and the book."""

from __future__ import annotations

import os
import subprocess
import tempfile

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True

PYTHON = "3.11"


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """The package's tests, lint and types."""
    # the docs' tests and every page's code blocks run here too
    session.install("-e", ".[test,docs]", "-e", "./book")
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
    session.install("-e", ".[test,docs,browser]", "-e", "./book")
    session.run("pytest", "tests/browser", "-p", "no:cacheprovider", *session.posargs,
                env={"ATTEND_BROWSER": "1", "NO_MKDOCS_2_WARNING": "1"})


BOOK_ENV = {"NO_MKDOCS_2_WARNING": "1"}


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Rebuild the book strict into site/ and run every page's code again as tests.

    The build runs each fence, checks each number in the prose and fails on any warning;
    pytest runs each fence again with its assertions. Neither needs the other, so they run
    side by side on the machine's two cores; then the built site itself is checked.
    """
    session.install("-e", ".[test,docs]", "-e", "./book")
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
    session.install("-e", ".[test,docs]", "-e", "./book")
    session.run(
        "mkdocs", "serve", "--strict", "--watch", "src/attend", "--watch", "book", *session.posargs,
        env=BOOK_ENV,
    )


@nox.session(python=PYTHON, default=False)  # it rewrites docs/: only when asked for by name
def renumber(session: nox.Session) -> None:
    """Bring every page's numerals back to what the code prints (docs/contributing.md).

    Rewrites each bound numeral whose value moved, at its written precision, binds new numerals
    whose source is unambiguous, and lists the ones it could not. `-- docs/p.md` for one page.
    """
    session.install("-e", ".[test,docs]", "-e", "./book")
    session.run("python", "-m", "attend_book.renumber", *session.posargs, env=BOOK_ENV)
