"""pytest settings for the whole checkout: the book's reader for pytest-markdown-docs, and what is
left uncollected where the book's two plugins are not installed.

pytest-markdown-docs runs every page's fences as tests, reading the pages with a CommonMark
parser of its own, which sees a fence indented inside an admonition (an exercise's answer,
`??? success "Answer"`) as an indented code block and never runs it. Handing it the book's own
reader (`bound_numbers.markdown.PARSER`) makes it find exactly the fences the build runs.

The pages, the book's tests (tests/docs) and the browser's (tests/browser) run on bound-numbers
and attend-book, which live in this checkout (`pip install -e ./bound -e ./book`, as every nox
session installs them), not on PyPI, so no extra of the package can install them. Where they are
missing, as after `pip install -e ".[test,docs]"` alone, those tests are not collected and the
run's header says which packages to install; the package's own tests run as ever.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

BOOK = ("bound_numbers", "attend_book")  # the book's two plugins: ./bound and ./book
MISSING = [name for name in BOOK if importlib.util.find_spec(name) is None]
collect_ignore_glob = ["docs/*.md", "tests/docs/*", "tests/browser/*"] if MISSING else []


def pytest_report_header() -> str | None:
    if not MISSING:
        return None
    return (
        f"the pages and the book's tests are not collected: {' and '.join(MISSING)} "
        "not installed (pip install -e ./bound -e ./book)"
    )


@pytest.hookimpl(optionalhook=True)  # the hook exists only where pytest-markdown-docs is installed
def pytest_markdown_docs_markdown_it() -> MarkdownIt | None:
    if MISSING:
        return None  # pytest-markdown-docs' own reader: only docstrings are left to read
    from bound_numbers.markdown import PARSER

    return PARSER
