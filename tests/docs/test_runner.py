"""The in-process page runner: what each fence shows, and a failing fence named where it failed."""

from __future__ import annotations

import pytest

from book.runner import FenceRunError, blocks, run_page

PAGE = """---
title: t
---

```python exec="1" session="p"
x = 3.125
print("x is", x)
```

Some prose.

```console exec="1"
$ attend weights
```

```python exec="1" session="p"
print(x * 2)
```

```python
print("not run: no exec")
```
"""


def test_each_executed_fence_is_one_block_with_the_line_of_its_opening_mark() -> None:
    found = run_page("docs/p.md", PAGE)
    assert [(b.kind, b.line) for b in found] == [("python", 5), ("console", 12), ("python", 16)]
    assert found[0].text == "x is 3.125\n"
    assert found[2].text == "6.25\n"  # the page's fences share one namespace


def test_a_transcript_shows_the_prompt_then_what_the_command_printed() -> None:
    console = run_page("docs/p.md", PAGE)[1].text
    assert console.startswith("$ attend weights\nattend: the three stored matrices")


def test_blocks_recorded_by_a_build_are_the_same_blocks_the_runner_makes() -> None:
    found = run_page("docs/p.md", PAGE)
    recorded = [found[0].text, found[1].text.split("\n", 1)[1], found[2].text]
    assert blocks(PAGE, recorded) == found


def failure(body: str) -> str:
    page = f'# t\n\n```python exec="1"\nvalue = 2\n{body}\n```\n'
    with pytest.raises(FenceRunError) as raised:
        run_page("docs/p.md", page)
    return str(raised.value)


def test_a_failing_fence_names_the_page_the_line_that_failed_and_the_error() -> None:
    assert failure("print(1 / (value - 2))") == (
        "docs/p.md:5: the fence at line 3 failed at `print(1 / (value - 2))`: "
        "ZeroDivisionError: division by zero"
    )


def test_a_failed_assertion_shows_the_expression_and_the_values_it_compared() -> None:
    assert failure("assert value * 2 == 5 and value > 0  # markdown-exec: hide") == (
        "docs/p.md:5: the fence at line 3 failed at "
        "`assert value * 2 == 5 and value > 0  # markdown-exec: hide`: "
        "assertion failed: value * 2 == 5 = False, value > 0 = True"
    )
    assert failure("assert value + 1 == 4") == (
        "docs/p.md:5: the fence at line 3 failed at `assert value + 1 == 4`: assertion failed: value + 1 = 3"
    )
