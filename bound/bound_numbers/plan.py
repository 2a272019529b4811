"""A page's code as a provider runs it: its fences in page order, and between them the bindings.

Each asked value is evaluated at its *stage*: after the fences that open above its line, before
the rest. So a fence further down that reuses a name cannot change what an earlier sentence
quotes, and when a fence fails, every binding above it already has its value. A binding in the
front matter, or on a page whose front matter says `bindings: end-of-page`, is evaluated after the
last fence. Which fences run is the provider's (markdown-exec's python fences, the book's python
and console ones, a notebook's code cells); the plan is the same for every provider.

A binding may say where it is quoted from instead (`WHEN`), after a `;`: prose that announces
what the code below computes (`3.4{= t; after the next cell}`), or a summary that states results
before any code (`8.8{= t; after cell 35}`, `{= v; at the end}`). The fence or cell it names
must assign or change in place a name the binding reads (`sets`): a cell moved or added since
makes the binding refused in one line rather than quoting another cell's value in silence.

A plan is what a page's process is handed (`running.run`): the fences, and each `Point` (stage and
expression) once, however often the page asks for it between two fences.
"""

from __future__ import annotations

import ast
import builtins
import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bound_numbers.page import Fence, Page
from bound_numbers.values import Asked, Value

END_OF_PAGE = "end-of-page"  # `bindings:` in a page's front matter: every binding after the last fence
# Where a binding says it is quoted from, after a `;` in its braces: the fence (or cell) below
# it, a fence counted from 1 among those the page runs, a notebook's cell as messages count
# them, the page's end.
WHEN = re.compile(
    r"(?i)after\s+the\s+next\s+(?:cell|fence)|after\s+(?P<kind>cell|fence)\s+(?P<number>\d+)|at\s+the\s+end"
)
PLACES = (
    "`; after the next cell` (or fence), `; after cell N` (a notebook), `; after fence N` or `; at the end`"
)
_MAGIC = re.compile(r"^\s*(?:%|!|\?)|\?\s*$")  # a line IPython reads as its own: `%time`, `!pip`, `x?`
_SHELL_ASSIGNED = re.compile(r"^\s*(?P<names>[\w\s,]+?)\s*=\s*[%!]")  # `files = !ls`


class Point(NamedTuple):
    """An expression evaluated once after the first `stage` fences of the plan; `fixed`: at the
    stage the binding named, whether or not its names are defined there."""

    stage: int
    expression: str
    fixed: bool = False


def when_of(said: str) -> str | None:
    """The place a binding's `; …` names, as `Asked.when` keeps it (`next`, `cell 12`, `fence 3`,
    `end`), or None where the words name no place."""
    found = WHEN.fullmatch(" ".join(said.split()))
    if found is None:
        return None
    if found["kind"]:
        return f"{found['kind'].lower()} {int(found['number'])}"
    return "end" if found.group(0).lower().startswith("at") else "next"


@dataclass(frozen=True)
class Plan:
    """The fences a provider runs on `page` (its path), and the values asked, each at its stage;
    `refused`: the asked values whose `when` names no place the plan has, and why, in one line."""

    page: str
    fences: tuple[Fence, ...]
    asked: tuple[Asked, ...]
    stages: tuple[int, ...]  # each asked value's stage (-1 for one refused)
    refused: Mapping[Asked, str] = field(default_factory=dict)

    @classmethod
    def of(cls, page: Page, asked: Iterable[Asked], fences: Iterable[Fence]) -> Plan:
        """The plan of `page` for a provider that runs `fences` (of the page's, those it
        executes; of a notebook, its code cells), in page order."""
        fences = tuple(fences)
        asked = tuple(dict.fromkeys(asked))
        at_end = bindings_of(page) == END_OF_PAGE
        stages: list[int] = []
        refused: dict[Asked, str] = {}
        for a in asked:
            above = len(fences) if at_end or a.line <= page.front else sum(f.line < a.line for f in fences)
            stage = _stage(a, above, fences)
            if isinstance(stage, str):
                refused[a], stage = stage, -1
            stages.append(stage)
        return cls(page.path, fences, asked, tuple(stages), refused)

    def _points(self) -> Iterator[tuple[Asked, Point]]:
        """Each asked value that is not refused, and the point that evaluates it."""
        for a, s in zip(self.asked, self.stages, strict=True):
            if a not in self.refused:
                yield a, Point(s, a.expression, bool(a.when))

    @functools.cached_property
    def points(self) -> tuple[Point, ...]:
        """Each stage and expression once, in the order the page's process evaluates them."""
        return tuple(sorted({point for _, point in self._points()}))

    def where(self, point: Point) -> str:
        """`page:line:column: the binding {= …}` of the first asked value `point` evaluates."""
        first = next(a for a, p in self._points() if p == point)
        return f"{self.page}:{first.place}: the binding {{= {point.expression}}}"

    def values_of(self, values: Mapping[int, Value]) -> dict[Asked, Value]:
        """The asked values, from the value of each point evaluated, by its index in `points`
        (all of them, or those evaluated before a fence failed), and why each refused has none."""
        found = {self.points[index]: value for index, value in values.items()}
        return {**{a: found[p] for a, p in self._points() if p in found}, **self.refused}

    def point_values(self, values: Mapping[Asked, Value]) -> dict[int, Value]:
        """Each point's value by its index, from the asked values (`values_of` the other way round)."""
        found = {p: values[a] for a, p in self._points()}
        return {index: found[point] for index, point in enumerate(self.points)}

    def given(self) -> dict[str, Any]:
        """What the page's process is handed: the page, its fences and the points with where each
        is, and whether the page fixed its stage, and each fence as a binding names it (`Stages`)."""
        return {
            "page": self.page,
            "fences": [fence.as_dict() for fence in self.fences],
            "points": [[p.stage, p.expression, self.where(p), p.fixed] for p in self.points],
            "places": [_place(fence, n) for n, fence in enumerate(self.fences, 1)],
        }


def _place(fence: Fence, number: int) -> tuple[str, int]:
    """The fence as `; after …` names it: a notebook's code cell by its cell, a page's fence by
    its count among those the page runs."""
    cell = fence.options.get("cell")
    return ("cell", int(cell)) if cell else ("fence", number)


def _stage(asked: Asked, above: int, fences: tuple[Fence, ...]) -> int | str:
    """The stage `asked` is evaluated at: after the `above` fences, or where its `when` says, or
    why that names no place of the plan."""
    if not asked.when:
        return above
    if asked.when == "end":
        return len(fences)
    cells = any("cell" in fence.options for fence in fences)
    word = "cell" if cells else "fence"
    kind, _, number = asked.when.partition(" ")
    if kind == "next":
        if above == len(fences):
            return f"there is no {word} below it, so `; after the next {word}` names none"
        stage = above + 1
    elif kind == "cell":
        if not cells and fences:
            return (
                "this page is no notebook: count its fences, `; after fence N`, the first that runs being 1"
            )
        found = [n for n, fence in enumerate(fences, 1) if fence.options.get("cell") == number]
        if not found:
            return f"cell {number} is no code cell of this notebook: name one, as messages count cells"
        stage = found[0]
    else:
        if cells:
            return "a notebook's code is in cells: write `; after cell N`, N as messages count cells"
        if not 1 <= int(number) <= len(fences):
            return f"the page runs {len(fences)} fences: there is no fence {number}"
        stage = int(number)
    return _guarded(asked, stage, fences, word)


def _guarded(asked: Asked, stage: int, fences: tuple[Fence, ...], word: str) -> int | str:
    """`stage`, if the fence it follows assigns or changes in place a name the binding reads (or
    is code the check cannot read as Python); else why not: the fence or cell named is not the
    one that gives the value (one was added or moved above it since)."""
    fence = fences[stage - 1]
    changed = sets(fence.body)
    read = _read(asked.expression)
    if changed is None or not read or read & changed:
        return stage
    named = (
        f"cell {fence.options['cell']}" if "cell" in fence.options else f"fence {stage} (line {fence.line})"
    )
    names = ", ".join(sorted(read))
    return f"{named} neither assigns nor changes {names}, which it reads: name the {word} that sets it"


@functools.lru_cache(maxsize=1024)
def sets(code: str) -> frozenset[str] | None:
    """The names `code` assigns (`=`, `+=`, `for`, `with … as`, `import`, `def`, `class`) or may
    change in place (`xs.append(4)`, `xs[0] = 1`, `obj.size = 2`); None where it is not Python
    the check can read (a cell magic) or may set any name (a star import), IPython's own lines
    (`%time`, `!pip`) left out. Kept per
    code: a page asks it of the same fence for each binding placed after it."""
    lines, shell = [], set()
    for line in code.split("\n"):
        if assigned := _SHELL_ASSIGNED.match(line):
            shell |= {name.strip() for name in assigned["names"].split(",")}
        lines.append("" if _MAGIC.search(line) or assigned else line)
    if code.lstrip().startswith("%%"):
        return None
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return None
    found = set(shell)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            found.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            if any(alias.name == "*" for alias in node.names):
                return None  # `from modsim import *`: any name at all
            found |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.Attribute | ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
            found |= _base(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            found |= _base(node.func.value)
    return frozenset(found)


def _base(node: ast.expr) -> set[str]:
    """The name an attribute or item chain starts from (`xs` of `xs[0].size`), if it is one."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return {node.id} if isinstance(node, ast.Name) else set()


@functools.lru_cache(maxsize=4096)
def _read(expression: str) -> frozenset[str]:
    """The names `expression` reads, Python's builtins (`round`, `len`) left out."""
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return frozenset()
    return frozenset({node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} - _BUILTINS)


_BUILTINS = frozenset(dir(builtins))


def bindings_of(page: Page) -> str:
    """What the page's front matter says under `bindings:` ("" for nothing)."""
    said = page.meta.get("bindings", "")
    return said if isinstance(said, str) else repr(said)
