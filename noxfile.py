"""Contributor sessions: `nox -s tests` runs everything that checks the code and the book."""

from __future__ import annotations

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True

PYTHON = "3.11"


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """The package's tests, lint and types."""
    session.install("-e", ".[test]")
    session.run("ruff", "check", "src", "tests", "scripts", "noxfile.py")
    session.run("mypy")
    session.run("pytest", *session.posargs)
