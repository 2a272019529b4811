"""Pages run ahead of a rebuild under `nox -s serve`, while it renders the pages before them.

A build takes the pages one after another, and a page whose code must run again holds up every
page after it while its process runs, the machine's other cores idle. Under `serve` that is most
rebuilds after a prose edit to a page another page reads: the contributors' page quotes
score-square.md's source and runs the pinned tests, so an edit to that page's prose waited on
them. mkdocs keeps the plugin from one rebuild to the next, and with it each page's last plan
(its fences, and the bindings asked at each stage): at the start of a rebuild, every page whose
source is as it was and whose kept run no longer holds is started at once, in a thread of its
own and at most one a core, and the build takes its run when it reaches the page, which it does
last (mkdocs goes through the pages in the order of their files, `later`). A page whose source
changed is left to the build, as its plan may have changed with it; so is one whose thread has
not started when the build reaches it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

from mkdocs.structure.files import File, Files

from attend_book.page import PageRun
from bound_numbers import Plan

Runner = Callable[[Plan], PageRun]


def cores() -> int:
    """How many cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class Ahead:
    """The pages' last plans, and the runs started ahead of this rebuild, by cache entry."""

    def __init__(self, threads: int | None = None) -> None:
        self._plans: dict[str, tuple[str, Plan]] = {}  # by page: its source and its plan, as last run
        self._started: dict[Path, Future[PageRun]] = {}
        self._pages: set[str] = set()  # the pages started, by path
        self._slots = threading.Semaphore(threads or cores())

    def remember(self, source: str, plan: Plan) -> None:
        """The plan the page with `source` was last run (or looked up) with."""
        self._plans[plan.page] = (source, plan)

    def start(
        self, root: Path, entry_of: Callable[[Plan], Path], holds: Callable[[Plan], bool], run: Runner
    ) -> None:
        """Start, each in a thread, the remembered plans whose page (under `root`) reads as it did
        and whose run the cache no longer holds; what the last rebuild left untaken is let go."""
        self._started, self._pages = {}, set()
        for source, plan in self._plans.values():
            if _text(root / plan.page) == source and not holds(plan):
                self._started[entry_of(plan)] = self._thread(run, plan)
                self._pages.add(plan.page)

    def later(self, files: Files, root: Path) -> Files:
        """The site's files, the pages started ahead moved after every other: the build reaches
        them once it rendered the rest, while they ran."""
        first: list[File] = []
        last: list[File] = []
        for file in files:
            page = file.abs_src_path and os.path.relpath(file.abs_src_path, root)
            (last if page in self._pages else first).append(file)
        return Files([*first, *last]) if last else files

    def taken(self, entry: Path) -> Runner | None:
        """A runner that answers the run started ahead for the plan kept at `entry`, if one
        started; None if none did, or its thread was still waiting for a core (it will not now)."""
        future = self._started.pop(entry, None)
        if future is None or future.cancel():
            return None
        return lambda plan: future.result()

    def _thread(self, run: Runner, plan: Plan) -> Future[PageRun]:
        """The plan run in a thread of its own once a core is free. A daemon: a command ended
        meanwhile does not wait on it, and the page's process ends when it sees its holder gone."""
        future: Future[PageRun] = Future()

        def work() -> None:
            with self._slots:
                if not future.set_running_or_notify_cancel():
                    return
                try:
                    future.set_result(run(plan))
                except BaseException as error:  # handed to the build, which takes the run
                    future.set_exception(error)

        threading.Thread(target=work, name=f"ahead {plan.page}", daemon=True).start()
        return future


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
