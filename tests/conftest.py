"""Shared fixtures: the chapter's head run once over its four typed tokens; the pages' fences,
run as tests, each once (tests/docs/fence_runner.py) and printing to nowhere; and the pinned
tests' report (`nox -s pins`): each failing `pins_chapter` test on its own lines, the value it
holds and the value the code gives now, taken from the failing comparison itself."""

from __future__ import annotations

import builtins
import io
from collections.abc import Generator
from typing import Any

import pytest

from attend import Workings, chapter_head

# The four typed rows of the chapter, written out so the tests do not lean on the tokenizer.
CHAPTER_ROW = [(0, 1, 0, 0.5), (1, 0, 0, 0), (0, 0, 1, 1), (1, 0, 0, 0)]
PIN = "pins_chapter"
SHOWN = 100  # characters of a value on a pin's line, at most


@pytest.fixture
def run() -> Workings:
    return chapter_head().attend(CHAPTER_ROW)


def _unprinted(*values: object, file: Any = None, **options: Any) -> None:
    """`print`, to nowhere unless told where: what a page shows is the build's to show."""
    builtins.print(*values, file=io.StringIO() if file is None else file, **options)


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("markdowndocs", default=False):  # the pages' fences are collected
        import fence_runner  # noqa: F401  # each fence's code run once: it registers itself


@pytest.hookimpl(optionalhook=True)  # pytest-markdown-docs' hook: a run without it has no fences
def pytest_markdown_docs_globals() -> dict[str, Any]:
    """pytest-markdown-docs turns pytest's capture off while a page's fence runs, so whatever it
    printed (every figure's SVG among it) filled `nox -s tests`' log: 13,456 lines of a passing
    run. A fence that fails still fails with its traceback and its code."""
    return {"print": _unprinted}


_compared: list[tuple[object, object]] = []  # the running pinned test's failing comparison, if any


def _plain(value: object) -> str:
    """A value as a short line: numpy's as lists, pytest.approx as what it expects."""
    value = getattr(value, "expected", value)  # pytest.approx(...)
    tolist = getattr(value, "tolist", None)
    shown = repr(tolist() if callable(tolist) else value)
    return shown if len(shown) <= SHOWN else f"{shown[: SHOWN - 1]}…"


def pytest_assertrepr_compare(config: pytest.Config, op: str, left: object, right: object) -> None:
    """Keep the two sides of a failing `==` (the code's value, then the one written by hand);
    pytest's own explanation is left as it is."""
    if op == "==":
        _compared[:] = [(right, left) if hasattr(left, "expected") else (left, right)]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report: pytest.TestReport = yield
    if call.when == "call" and report.failed and item.get_closest_marker(PIN):
        crash = getattr(report.longrepr, "reprcrash", None)
        where = f"{report.location[0]}:{crash.lineno}" if crash else report.location[0]
        lines = [f"{where}: {item.name}"]
        if _compared:
            obtained, expected = _compared[0]
            lines += [f"  expected {_plain(expected)}", f"  obtained {_plain(obtained)}"]
        elif crash:
            lines.append(f"  {crash.message.splitlines()[0][:SHOWN]}")
        item.user_properties.append((PIN, "\n".join(lines)))
        report.user_properties = list(item.user_properties)
    _compared.clear()
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Each failing pinned test, its place, what it holds and what the code gives now."""
    failed = terminalreporter.stats.get("failed", [])
    pins = [text for report in failed for name, text in report.user_properties if name == PIN]
    if pins:
        terminalreporter.section("pinned tests to edit by hand (docs/contributing.md)", sep="-")
        for text in pins:
            terminalreporter.line(text)
