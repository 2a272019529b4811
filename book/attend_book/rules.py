"""A page's fence rules, in one place (its numbers and front matter are bound-numbers'): the
build checks them, and `nox -s tests` refuses a page only through this same check
(tests/docs/test_pages.py), so a page that builds passes there too. Each problem is one line,
pointing to the checklist that lists every rule.

pytest-markdown-docs runs a page's Python fences as tests, each one after the page's earlier
fences only when it says `continuation`, and it would run an include line as Python unless the
listing says `notest`; the build runs them in one namespace, in order. So: the first executed
fence imports the book's package (`first_import` under attend-book in mkdocs.yml), every later
one says `continuation`, a fence that holds an include line is a listing marked `notest`
(never executed), and `notest` marks nothing else. A transcript (a `console` fence) is
executed and holds only `$ ` commands, whose output the build writes in.
"""

from __future__ import annotations

import re

from bound_numbers import Page, Problem

CHECKLIST = 'see "Add a page" in docs/contributing.md'
PYTHON = frozenset({"python", "py", "python3"})  # what pytest-markdown-docs runs


def check(page: Page, package: str = "") -> list[Problem]:
    """Every rule the page breaks, one `Problem` each, in the order of its lines; the first
    executed python fence must import from `package`, if one is named."""
    problems = []
    python = [fence for fence in page.fences if fence.language in PYTHON]
    executed = [fence for fence in python if fence.executed]
    for index, fence in enumerate(executed):
        if (
            index == 0
            and package
            and not re.search(rf"^\s*(from|import)\s+{re.escape(package)}\b", fence.body, re.M)
        ):
            said = f"the page's first python fence imports nothing from {package}"
            problems.append(Problem(fence.line, f"{said}; {CHECKLIST}"))
        if index == 0 and "continuation" in fence.words:
            problems.append(
                Problem(fence.line, f"the page's first python fence says continuation; {CHECKLIST}")
            )
        if index > 0 and "continuation" not in fence.words:
            said = "this python fence runs after the page's first but does not say continuation"
            problems.append(Problem(fence.line, f"{said}; {CHECKLIST}"))
    for fence in python:
        lines = [line for line in fence.body.splitlines() if line.strip()]
        includes = [line for line in lines if "--8<--" in line]
        if includes and (fence.executed or "notest" not in fence.words):
            said = "this fence holds an include line, so it must be a listing marked notest, not executed"
            problems.append(Problem(fence.line, f"{said}; {CHECKLIST}"))
        elif "notest" in fence.words and includes != lines:
            said = "notest hides this fence's code from the tests; it is for a listing of include lines only"
            problems.append(Problem(fence.line, f"{said}; {CHECKLIST}"))
    for fence in page.fences:
        if fence.language != "console":
            continue
        if not fence.executed:
            said = 'this transcript is not marked exec="1": typed by hand, nothing checks it'
            problems.append(Problem(fence.line, f"{said}; {CHECKLIST}"))
        if any(not line.startswith("$ ") for line in fence.body.splitlines() if line.strip()):
            said = "this transcript holds a line that is not a `$ ` command, which the build would not show"
            problems.append(Problem(fence.line, f"{said}; {CHECKLIST}"))
    return sorted(problems, key=lambda p: p.line)
