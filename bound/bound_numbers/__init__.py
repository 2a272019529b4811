"""bound-numbers: every number a page's prose writes, held to the expression that computes it.

A page writes the literal and, right after it, the expression it quotes (`3.125{= ratio}`); the
mkdocs / ProperDocs plugin (`plugin.BoundNumbersPlugin`) reads each page's numbers, has each
expression evaluated by a provider (`Provider`) where the page writes it, after the fences above
it, reports every number that no longer matches in one line, and strips the bindings before
anything renders. `bound-numbers renumber` (`cli.py`) rewrites the numbers whose values moved.

What a provider (another plugin that runs its pages its own way) and a tool may use is named
here, in `__all__`; every module is internal, and may change under them. A provider is handed a
`Page`, parsed once, and the values `Asked` of it; it plans its run of the page with `Plan`, runs
it in a process of the page's own with `run` (its own fences through an `Executor` of its
own), and answers each asked `Value`, or raises `Unavailable`. The names load as they are first
used, so that a page's process, which imports the runner, loads nothing it does not need.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as mypy reads them; at run time, `__getattr__` below
    from bound_numbers.evaluation import Stages as Stages
    from bound_numbers.executor import Executor as Executor
    from bound_numbers.markdown import INCLUDE as INCLUDE
    from bound_numbers.page import Fence as Fence
    from bound_numbers.page import Page as Page
    from bound_numbers.plan import Plan as Plan
    from bound_numbers.plan import Point as Point
    from bound_numbers.reading import Problem as Problem
    from bound_numbers.reading import strip as strip
    from bound_numbers.running import Ran as Ran
    from bound_numbers.running import run as run
    from bound_numbers.running import run_here as run_here
    from bound_numbers.strict import Log as Log
    from bound_numbers.text import beside as beside
    from bound_numbers.values import Asked as Asked
    from bound_numbers.values import Provider as Provider
    from bound_numbers.values import Sources as Sources
    from bound_numbers.values import Unavailable as Unavailable
    from bound_numbers.values import Value as Value

# Each public name, and the module that defines it.
_HOMES = {
    "Asked": "values",
    "Executor": "executor",
    "Fence": "page",
    "INCLUDE": "markdown",
    "Log": "strict",
    "Page": "page",
    "Plan": "plan",
    "Point": "plan",
    "Problem": "reading",
    "Provider": "values",
    "Ran": "running",
    "Sources": "values",
    "Stages": "evaluation",
    "Unavailable": "values",
    "Value": "values",
    "run": "running",
    "run_here": "running",
    "beside": "text",
    "strip": "reading",
}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """A public name, imported from its module as it is first asked for (PEP 562)."""
    if name not in _HOMES:
        raise AttributeError(f"module 'bound_numbers' has no attribute {name!r}")
    found = getattr(importlib.import_module(f"bound_numbers.{_HOMES[name]}"), name)
    globals()[name] = found
    return found


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
