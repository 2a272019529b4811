"""The values of a page that markdown-exec renders, taken from markdown-exec's own run of it.

With `values: fences`, a build that renders a page's python fences with markdown-exec would run
the page's code twice: once as markdown-exec shows it, once in the check's own process
(`fences.FenceValues`). Instead the plugin watches markdown-exec's run (`Watch.wrap`): each python
fence markdown-exec registered with SuperFences is formatted by markdown-exec's public
`formatter` as before, handed one more option of its public `base_format`, `transform_source`,
which runs the fence's code with one line added after it and shows the code as written. The
line hands the namespace the fence left to `seen`, which evaluates the bindings of the stage
that fence ends (`evaluation.Stages`) in the names the page's fences have made so far, whatever
their markdown-exec session. So each value comes from the run the reader sees, at the place its
binding is written.

A page whose every executed fence ran this way (`Watching.values`) is checked against those
values. A fence that did not (markdown-exec failed it, and said why, or did not render it) leaves
the page to the check's own run, which names the fence that fails: the bindings above it are
still checked.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping
from typing import Any

from bound_numbers.evaluation import Stages
from bound_numbers.page import Fence, Page
from bound_numbers.plan import Plan
from bound_numbers.reading import Problem
from bound_numbers.values import Asked, Value

PYTHON = ("python", "py")
SHOWN_UNREAD = (
    "SuperFences shows a fence here, which markdown-exec runs, with code the check does not read"
    " there (a fence indented past its block, or inside an HTML block?): the page is not checked"
    " until both read it alike"
)
UNSHOWN = (
    "the check reads a fence here that SuperFences never shows, so markdown-exec never ran it (a"
    " closing line longer or more indented than its opening?): the page is not checked until both"
    " read it alike"
)
_WATCHING: dict[int, Watching] = {}  # each page being watched, by a number its added lines name
_NUMBERS = itertools.count()


class Watching:
    """One page's plan, as markdown-exec runs its fences: the names they made, and the values."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.number = next(_NUMBERS)
        self.unseen: list[Fence] = list(plan.fences)  # in page order; each leaves once shown
        self.unread: list[str] = []  # the code of each fence shown that the plan does not run
        self.ran: set[int] = set()  # the stages whose fence ran to its end
        self.names: dict[str, Any] = {}
        given = plan.given()
        self.stages = Stages(given["points"], given["places"])
        self.values: dict[int, Value] = dict(self.stages_up_to(0))
        _WATCHING[self.number] = self

    def stages_up_to(self, stage: int) -> list[tuple[int, Value]]:
        last = len(self.plan.fences)
        return self.stages.at(stage, self.names, last=stage == last, step=_quiet)

    def source(self, code: str) -> tuple[str, str]:
        """What markdown-exec runs for the next fence with this code (it, then the line that
        hands `seen` its namespace) and what it shows (the code)."""
        index = next((n for n, f in enumerate(self.plan.fences) if f in self.unseen and _same(f, code)), None)
        if index is None:  # not one of the fences the plan runs: run as written, and said (`disagreement`)
            self.unread.append(code)
            return code, code
        self.unseen.remove(self.plan.fences[index])
        seen = (
            f'__import__("bound_numbers.watched", fromlist=["seen"]).seen({self.number}, {index}, globals())'
        )
        return f"{code}\n{seen}\n", code

    def done(self) -> Mapping[Asked, Value] | None:
        """The asked values, if every fence of the plan ran here; else None."""
        _WATCHING.pop(self.number, None)
        if len(self.ran) < len(self.plan.fences):
            return None
        return self.plan.values_of(self.values)

    def disagreement(self, page: Page) -> Problem | None:
        """Where SuperFences, which hands markdown-exec the fences it shows and runs, and the check
        read the page's fences differently (a fence shown that the check does not read, or read
        otherwise; one the check reads that is never shown): one line at the first such place, for
        the page cannot be checked against code its reader is not shown."""
        shown = [Problem(page.line_of(code), SHOWN_UNREAD) for code in self.unread]
        unshown = [Problem(fence.line, UNSHOWN) for fence in self.unseen]
        return min([*shown, *unshown], key=lambda problem: problem.line, default=None)


def seen(number: int, index: int, namespace: dict[str, Any]) -> None:
    """Called by the line added after the fence `index` of the page watched as `number`, in the
    namespace that fence left: the bindings up to that fence's stage end, evaluated."""
    watching = _WATCHING.get(number)
    if watching is None:
        return
    watching.ran.add(index)
    watching.names.update(namespace)
    watching.values.update(watching.stages_up_to(index + 1))


def _same(fence: Fence, code: str) -> bool:
    return fence.body.rstrip("\n") == code.rstrip("\n")


def _quiet(where: str) -> None:
    """A step is named only in a page's own process, where it may hang; here markdown-exec runs it."""


class Watch:
    """markdown-exec's python fences in one build, formatted so that `Watching` sees them run."""

    def __init__(self) -> None:
        self.page: Watching | None = None

    def wrap(self, mdx_configs: dict[str, Any]) -> bool:
        """Wrap the python fences markdown-exec registered with SuperFences (its public
        `formatter`); whether there were any."""
        try:
            from markdown_exec import formatter
        except ImportError:  # a site without markdown-exec: nothing renders its fences this way
            return False
        fences = mdx_configs.get("pymdownx.superfences", {}).get("custom_fences", [])
        mine = [f for f in fences if f.get("name") in PYTHON and f.get("format") is formatter]
        for fence in mine:
            fence["format"] = functools.partial(self.format, formatter)
        return bool(mine)

    def format(
        self,
        original: Callable[..., Any],
        source: str,
        language: str,
        css_class: str,
        options: dict[str, Any],
        md: Any,
        **kwargs: Any,
    ) -> Any:
        """markdown-exec's formatting of a fence (SuperFences' call), its code run through
        `Watching.source`."""
        if self.page is not None:
            options["transform_source"] = self.page.source
        return original(source, language, css_class, options, md, **kwargs)
