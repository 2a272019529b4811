"""pytest settings for the whole checkout: the one hook pytest-markdown-docs asks of it.

pytest-markdown-docs runs every page's fences as tests, reading the pages with a CommonMark
parser of its own, which sees a fence indented inside an admonition (an exercise's answer,
`??? success "Answer"`) as an indented code block and never runs it. Handing it the book's own
reader (book/attend_book/markdown.py) makes it find exactly the fences the build runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


@pytest.hookimpl(optionalhook=True)  # the hook exists only where pytest-markdown-docs is installed
def pytest_markdown_docs_markdown_it() -> MarkdownIt:
    from bound_numbers.markdown import PARSER

    return PARSER
