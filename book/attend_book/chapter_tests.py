"""One of the repository's tests run where a page shows it, its real outcome printed at build.

The chapter's eight tests (tests/test_chapter.py) are the climax of its story, so each page
shows the ones its story has reached: the test's source, included by its section markers, and
under it a fence that runs that one test and prints how it ended:

    ```python exec="1" result="text" continuation book_only
    from attend_book.chapter_tests import run_test

    print(run_test("tests/test_chapter.py::test_name"))
    ```

pytest runs the test in the page's own process, with the repository's conftest and settings, so
what is printed is what `pytest -v tests/test_chapter.py::test_name` says of it. Anything but a pass
raises, which fails the build naming the page, the line and pytest's reason. The word
`book_only` keeps the fence out of the page's notebook, which runs far from the repository.
`ran` is pytest's run in the page's process itself, which the contributors' page also calls for
every pinned test at once.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Sequence
from pathlib import Path

import pytest

# Nothing from the command line's settings that would change what one test does or prints.
_QUIET = ("-q", "-p", "no:cacheprovider", "-o", "addopts=", "--no-header")


class _Outcomes:
    """A pytest plugin keeping each phase's report of the test it ran."""

    def __init__(self) -> None:
        self.reports: list[pytest.TestReport] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.reports.append(report)


class ChapterTestError(AssertionError):
    """The test failed, errored, was skipped or was not found: the page cannot show it passing."""

    __test__ = False  # a name pytest would otherwise collect


def run_test(node: str) -> str:
    """Run the test `node` (`file::name`, from the working directory) and say how it ended, as
    `pytest -v` does, by the test's name (the listing above it names the file): `name PASSED`.
    Anything but one test of a file that is there is refused before pytest collects anything."""
    path, _, name = str(node).partition("::")
    if not (name and path.endswith(".py") and str(node).isprintable() and Path(path).is_file()):
        raise ChapterTestError(
            f"{node!r} names no test: write `file.py::test_name`, the file from {Path.cwd()}"
        )
    status, reports, said = ran([f"{Path(path).absolute()}::{name}"])
    calls = [report for report in reports if report.when == "call"]
    failed = [report for report in reports if not report.passed]
    if status != 0 or len(calls) != 1 or failed:
        reason = (
            next((_said(r) for r in failed), None)
            or (said.strip().splitlines() or ["pytest said why on its error output"])[-1]
        )
        raise ChapterTestError(f"{node} did not pass (pytest exit status {int(status)}): {reason}")
    return f"{name} PASSED"


def ran(arguments: Sequence[str]) -> tuple[int, list[pytest.TestReport], str]:
    """pytest run in this process on `arguments`, with nothing from the command line's settings:
    its exit status, every report it made (each phase of each test) and what it printed."""
    outcomes = _Outcomes()
    with contextlib.redirect_stdout(io.StringIO()) as said:
        status = pytest.main([*_QUIET, *arguments], plugins=[outcomes])
    return int(status), outcomes.reports, said.getvalue()


def _said(report: pytest.TestReport) -> str:
    """pytest's own account of a failure in one line: where, and its first `E` line."""
    lines = report.longreprtext.strip().splitlines() or ["(no reason given)"]
    first = next((line[1:].strip() for line in lines if line.startswith("E ")), "")
    return f"{lines[-1]} {first}".strip()
