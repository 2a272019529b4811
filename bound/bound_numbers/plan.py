"""A page's code as a provider runs it: its fences in page order, and between them the bindings.

Each asked value is evaluated at its *stage*: after the fences that open above its line, before
the rest. So a fence further down that reuses a name cannot change what an earlier sentence
quotes, and when a fence fails, every binding above it already has its value. A binding in the
front matter, or on a page whose front matter says `bindings: end-of-page`, is evaluated after the
last fence. Which fences run is the provider's (markdown-exec's python fences, the book's python
and console ones); the plan is the same for every provider.

A plan is what a page's process is handed (`running.run`): the fences, and each `Point` (stage and
expression) once, however often the page asks for it between two fences.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from bound_numbers.page import Fence, Page
from bound_numbers.values import Asked, Value

END_OF_PAGE = "end-of-page"  # `bindings:` in a page's front matter: every binding after the last fence


class Point(NamedTuple):
    """An expression evaluated once after the first `stage` fences of the plan."""

    stage: int
    expression: str


@dataclass(frozen=True)
class Plan:
    """The fences a provider runs on `page` (its path), and the values asked, each at its stage."""

    page: str
    fences: tuple[Fence, ...]
    asked: tuple[Asked, ...]
    stages: tuple[int, ...]  # each asked value's stage

    @classmethod
    def of(cls, page: Page, asked: Iterable[Asked], fences: Iterable[Fence]) -> Plan:
        """The plan of `page` for a provider that runs `fences` (of the page's, those it
        executes; of a notebook, its code cells), in page order."""
        fences = tuple(fences)
        asked = tuple(dict.fromkeys(asked))
        last = len(fences)
        at_end = bindings_of(page) == END_OF_PAGE
        stages = tuple(
            last if at_end or a.line <= page.front else sum(f.line < a.line for f in fences) for a in asked
        )
        return cls(page.path, fences, asked, stages)

    @functools.cached_property
    def points(self) -> tuple[Point, ...]:
        """Each stage and expression once, in the order the page's process evaluates them."""
        return tuple(sorted({Point(s, a.expression) for a, s in zip(self.asked, self.stages, strict=True)}))

    def where(self, point: Point) -> str:
        """`page:line:column: the binding {= …}` of the first asked value `point` evaluates."""
        pairs = zip(self.asked, self.stages, strict=True)
        first = next(a for a, s in pairs if Point(s, a.expression) == point)
        return f"{self.page}:{first.place}: the binding {{= {point.expression}}}"

    def values_of(self, values: Mapping[int, Value]) -> dict[Asked, Value]:
        """The asked values, from the value of each point evaluated, by its index in `points`
        (all of them, or those evaluated before a fence failed)."""
        found = {self.points[index]: value for index, value in values.items()}
        return {
            a: found[Point(s, a.expression)]
            for a, s in zip(self.asked, self.stages, strict=True)
            if Point(s, a.expression) in found
        }

    def point_values(self, values: Mapping[Asked, Value]) -> dict[int, Value]:
        """Each point's value by its index, from the asked values (`values_of` the other way round)."""
        found = {Point(s, a.expression): values[a] for a, s in zip(self.asked, self.stages, strict=True)}
        return {index: found[point] for index, point in enumerate(self.points)}

    def given(self) -> dict[str, Any]:
        """What the page's process is handed: the page, its fences and the points with where each is."""
        return {
            "page": self.page,
            "fences": [fence.as_dict() for fence in self.fences],
            "points": [[p.stage, p.expression, self.where(p)] for p in self.points],
        }


def bindings_of(page: Page) -> str:
    """What the page's front matter says under `bindings:` ("" for nothing)."""
    said = page.meta.get("bindings", "")
    return said if isinstance(said, str) else repr(said)
