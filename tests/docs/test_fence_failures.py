"""A fence that fails is named by page and line, and a failed assertion shows what it compared."""

from __future__ import annotations

import pytest

from attend_book.run import run_page
from bound_numbers import Unavailable


def failure(body: str) -> str:
    page = f'# t\n\n```python exec="1"\nvalue = 2\n{body}\n```\n'
    with pytest.raises(Unavailable) as raised:
        run_page("docs/p.md", page)
    return str(raised.value)


def test_a_failing_fence_names_the_page_the_line_that_failed_and_the_error() -> None:
    assert failure("print(1 / (value - 2))") == (
        "docs/p.md:5: a python fence failed at `print(1 / (value - 2))`: ZeroDivisionError: division by zero"
    )


def test_a_failed_assertion_shows_each_value_it_compared() -> None:
    assert failure("assert value * 2 == 5 and value > 0  # markdown-exec: hide") == (
        "docs/p.md:5: a python fence failed at "
        "`assert value * 2 == 5 and value > 0  # markdown-exec: hide`: "
        "AssertionError\n  value * 2 == 5 = False\n  value > 0 = True"
    )
    assert failure("assert value + 1 == 4").endswith("AssertionError\n  value + 1 = 3")
