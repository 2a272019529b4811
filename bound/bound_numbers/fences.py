"""The built-in provider, `values: fences`: a page's own python fences give its numbers' values.

A site that shows its code with markdown-exec has no runner of its own to ask. This provider
takes the python fences of a page that markdown-exec would execute (`exec="on"`, or any other
value markdown-exec reads as true; every fence of a language MARKDOWN_EXEC_AUTO names) and runs
them in page order in one namespace, each binding evaluated after the fences above it (`plan`).
Unlike markdown-exec, whose fences share names only through a `session`, the page's fences share
one namespace whatever their session: a number in the prose may quote any of them.

They run in a process of the page's own (`running.run`): a fence that changes a module, the working
directory or the environment changes nothing for the build or the next page, and a page that
hangs, exits or dies is stopped and named in one line (`Unavailable`) instead of stopping the
build. In a build that renders the page with markdown-exec, the plugin takes the values from
markdown-exec's own run of the page instead (`exec_values`), and this process is not started.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bound_numbers.page import Fence, Page
from bound_numbers.plan import Plan
from bound_numbers.running import TIME_LIMIT, run
from bound_numbers.values import Asked, Sources, Unavailable, Value

if TYPE_CHECKING:
    from bound_numbers.kernel import Executed
    from bound_numbers.notebook_cache import NotebookCache

NOTEBOOK = ".ipynb"  # a notebook page (`notebooks.page_of`): its code cells run in a Jupyter kernel

PYTHON = frozenset({"python", "py"})  # the languages markdown-exec runs as Python


def runs(fence: Fence, auto: Iterable[str] | None = None) -> bool:
    """Whether markdown-exec executes this fence as Python: its language is python or py, and
    `exec` is set to a value it reads as true, or the language is one it executes unasked
    (`auto`, default: the MARKDOWN_EXEC_AUTO environment variable, comma-separated)."""
    if auto is None:
        auto = os.environ.get("MARKDOWN_EXEC_AUTO", "").split(",")
    automatic = fence.language in {language.strip() for language in auto}
    return fence.language in PYTHON and (automatic or fence.switched_on("exec"))


class FenceValues:
    """The provider: each page's executed python fences run in a process of its own, each fence
    and each binding with at most `time_limit` seconds, in `folder` (default: the build's working
    directory, where markdown-exec runs them too); each notebook's code cells in a Jupyter
    kernel (`kernel`, default: the one the notebook names) started in the notebook's folder, its
    run kept between builds in `cache` (None: run on every build)."""

    def __init__(
        self,
        time_limit: float = TIME_LIMIT,
        folder: str | Path | None = None,
        kernel: str = "",
        cache: NotebookCache | None = None,
    ) -> None:
        self.time_limit = time_limit
        self.folder = folder
        self.kernel = kernel
        self.cache = cache

    def bound_values(self, page: Page, asked: Sequence[Asked]) -> Mapping[Asked, Value]:
        """Each asked value, or the one-line reason it has none; `Unavailable` if a fence failed,
        or the page ran past the time limit or died, with the values of the bindings above it."""
        if page.path.endswith(NOTEBOOK):
            values = self.notebook(page, asked).values
            if isinstance(values, Unavailable):
                raise values
            return values
        plan = Plan.of(page, asked, filter(runs, page.fences))
        if not plan.fences and not plan.asked:
            return {}
        return plan.values_of(run(plan, limit=self.time_limit, folder=self.folder).values)

    def notebook(self, page: Page, asked: Sequence[Asked]) -> Executed:
        """The notebook `page` run once in a Jupyter kernel, the asked values evaluated there,
        and the notebook as its page then shows it; or all of it as the cache kept it."""
        from bound_numbers import kernel

        root = Path(self.folder or ".")
        limit, name = self.time_limit, self.kernel

        def run(record: bool = False) -> Executed:
            return kernel.run(page, asked, root=root, limit=limit, kernel=name, record=record)

        if self.cache is None:
            return run()
        return self.cache.run(page, asked, run, root=root, limit=limit, kernel=name)

    def bound_sources(self) -> Sources:
        """No pages but the site's Markdown files."""
        return {}
