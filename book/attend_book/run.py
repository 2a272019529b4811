"""A page of the book run as the build runs it, by bound-numbers' runner: `run_page`.

One runner serves the build (the plugin hands its blocks to markdown-exec to show), the number
check, the tests and any tool that needs a page's outputs without mkdocs: bound-numbers' `run`,
which starts the page in a fresh process of its own with the build's environment and working
directory, holds each fence and each binding to the time limit and the page to its output
limit, and ends whatever the page started. What it runs there that is the book's own (a
transcript, an exercise's answer, the record of the files the page read) is `execution`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from attend_book.execution import BookExecutor
from attend_book.inputs import Read
from attend_book.page import OUTPUT_LIMIT, TIME_LIMIT, PageRun, blocks_of, executed
from bound_numbers import Asked, Page, Plan, Ran, run, run_here

EXECUTOR = "attend_book.execution:BookExecutor"


def plan_of(page: Page, asked: Iterable[Asked] = ()) -> Plan:
    """The page's executed fences, and each asked value at its stage among them."""
    return Plan.of(page, asked, filter(executed, page.fences))


def run_plan(
    plan: Plan,
    *,
    limit: float = TIME_LIMIT,
    most: int = OUTPUT_LIMIT,
    environment: Mapping[str, str] | None = None,
    folder: str | None = None,
) -> PageRun:
    """The plan run in a process of its own (`bound_numbers.run`): its blocks, the value of each
    of its points, and the files its code read. A fence that fails, runs past `limit` seconds,
    prints past `most` characters, ends the process or leaves a process running is
    `bound_numbers.Unavailable`, naming its line, with the values of the bindings above it."""
    ran = run(
        plan,
        executor=EXECUTOR,
        limit=limit,
        most=most,
        environment=environment,
        folder=folder,
        setting="`time_limit` under attend-book in mkdocs.yml",
    )
    return _page_run(plan, ran, Read.of(ran.kept["read"]))


def _page_run(plan: Plan, ran: Ran, read: Read) -> PageRun:
    """The plan's run as the book keeps it: each fence's block, each asked value, what it read."""
    return PageRun(blocks_of(plan.fences, ran.printed), plan.values_of(ran.values), read)


def run_page(
    path: str,
    markdown: str,
    asked: Iterable[Asked] = (),
    *,
    here: bool = False,
    limit: float = TIME_LIMIT,
    most: int = OUTPUT_LIMIT,
    environment: Mapping[str, str] | None = None,
    folder: str | None = None,
) -> PageRun:
    """The page `markdown` (`path` names it in errors) run as the build runs it: its blocks, the
    values asked, and what it read. With `here`, in this process by the same executor
    (`bound_numbers.run_here`: no time limit, nothing recorded of what it read, nothing guarded),
    for a page that runs a small page of its own: the process a run of its own starts and the
    imports it makes again were most of the contributors' page's run."""
    plan = plan_of(Page(path, markdown), asked)
    if here:
        return _page_run(plan, run_here(plan, BookExecutor(path)), Read((), {}, ()))
    return run_plan(plan, limit=limit, most=most, environment=environment, folder=folder)
