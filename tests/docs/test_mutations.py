"""The mutation suite: every bound number of the book, and every weight of the head, changed one at a time.

Prose mutants: each bound number is written with one digit changed, and again as another value
the same page binds (the nearest one, at the same precision); each bound number word as the
next word; each worked sum's result as a wrong value. The check of that page must fail at
that number each time (for a sum, also on its arithmetic).

Code mutants: each of the 48 weights of Wq, Wk and Wv is changed in the running package, the
pages are run again, and each binding's value before and after is compared. The check must
then fail on exactly the numbers whose value moved at the precision they are written to, and
name each of them. Which values moved is worked out here from the two runs, never from the
check's own verdict.

Everything runs in this process: the pages are run once each, and again for each weight only if
changing every weight at once changes what they print.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import attend
from attend_book import binding, numerals, reading
from attend_book.numerals import Numeral
from attend_book.reading import Reading
from attend_book.run import FenceError, Value
from attend_book.worker import run_here

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# The pages written with bindings; a page still without any is not the suite's yet.
PAGES = sorted(p for p in DOCS.glob("*.md") if reading.read(p.read_text(encoding="utf-8")).bindings)
MATRICES = ("WQ", "WK", "WV")


@dataclass(frozen=True)
class Page:
    name: str
    markdown: str
    reading: Reading
    values: dict[str, Value]

    def problems(self, markdown: str | None = None, values: dict[str, Value] | None = None) -> list[str]:
        found = self.reading if markdown is None else reading.read(markdown)
        return [p.render(self.name) for p in binding.check(found, self.values if values is None else values)]

    def bound(self) -> Iterator[tuple[Numeral, float]]:
        """Each number the page binds to an expression, with its value now."""
        for bound in self.reading.bindings:
            if bound.expression is not None:
                quoted = binding.values_of(bound, self.values[bound.expression])
                assert not isinstance(quoted, str), quoted
                yield from zip(bound.numerals, quoted, strict=True)


def run(path: Path) -> dict[str, Value]:
    # In this process, not a page's own: the weights the mutants change are changed here.
    markdown = path.read_text(encoding="utf-8")
    return run_here(path.relative_to(ROOT).as_posix(), markdown, reading.read(markdown).expressions).values


@pytest.fixture(scope="module")
def book() -> dict[str, Page]:
    pages = {}
    for path in PAGES:
        name = path.relative_to(ROOT).as_posix()
        markdown = path.read_text(encoding="utf-8")
        pages[name] = Page(name, markdown, reading.read(markdown), run(path))
    # A mutant is only a mutant of a book that passes (tests/docs/test_pages.py holds that).
    assert [problem for page in pages.values() for problem in page.problems()] == []
    return pages


# Prose mutants ---------------------------------------------------------------------------------


def digit_mutant(text: str, place: int = 1) -> str:
    """The number with its last digit (or the `place`-th from the end) changed: "3.125" → "3.126"."""
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    at = digits[-min(place, len(digits))]
    return text[:at] + str((int(text[at]) + 1) % 10) + text[at + 1 :]


def word_mutant(numeral: Numeral, value: float) -> str:
    """The word for the next whole number ("sixteen" → "seventeen"), or the other multiple."""
    if numeral.text.lower() in ("half", "twice"):
        return "twice" if numeral.text.lower() == "half" else "half"
    word = numerals.restate(value + 1, numeral)
    assert word is not None, numeral
    return word


def swap_mutant(numeral: Numeral, page: Page) -> str | None:
    """The nearest other value the page binds, at the numeral's precision; None if it binds none."""
    places = numeral.places or 0
    written = {f"{value:.{places}f}" for _, value in page.bound()}
    others = sorted(
        (abs(float(text) - numeral.value), text)
        for text in written
        if not numerals.holds(numeral, float(text))
    )
    return others[0][1] if others else None


def mutated(page: Page, numeral: Numeral, new: str) -> list[str]:
    """The check's problems on the page with one number rewritten as `new`."""
    assert numeral.column is not None, numeral
    lines = page.markdown.split("\n")
    line = lines[numeral.line - 1]
    assert line[numeral.column : numeral.column + len(numeral.text)] == numeral.text
    lines[numeral.line - 1] = line[: numeral.column] + new + line[numeral.column + len(numeral.text) :]
    return page.problems(markdown="\n".join(lines))


def prose_mutants(book: dict[str, Page]) -> Iterator[tuple[Page, Numeral, str, str]]:
    for page in book.values():
        for numeral, value in page.bound():
            if numeral.word:
                yield page, numeral, "word", word_mutant(numeral, value)
                continue
            yield page, numeral, "digit", digit_mutant(numeral.text)
            if (swapped := swap_mutant(numeral, page)) is not None:
                yield page, numeral, "swap", swapped
        for worked in page.reading.sums:  # off by ten in the last place: more than `≈` allows
            yield page, worked.result, "sum", digit_mutant(worked.result.text, 2)


def test_every_mutant_of_every_bound_number_fails_the_check_at_its_place(book: dict[str, Page]) -> None:
    survivors, killed = [], {"digit": 0, "swap": 0, "word": 0, "sum": 0}
    for page, numeral, kind, new in prose_mutants(book):
        where = f"{page.name}:{numeral.line}:{(numeral.column or 0) + 1}: "
        named = [p for p in mutated(page, numeral, new) if p.startswith(where)]
        if kind == "sum":
            named = [p for p in named if "does not hold" in p]
        if any(new in p for p in named):
            killed[kind] += 1
        else:
            survivors.append(f"{where}{numeral.text} → {new} ({kind})")
    print(f"\nprose mutants killed: {killed}, survivors: {len(survivors)}")
    assert survivors == []
    assert killed["digit"] >= 2 * len(book)  # every page binds numbers; a reader that found none would pass


# Code mutants ----------------------------------------------------------------------------------


def _changed(weights: tuple[float, ...], index: int) -> tuple[float, ...]:
    return tuple(w + 1.0 if i == index else w for i, w in enumerate(weights))


@functools.cache
def _holders(name: str, module: str = "attend") -> tuple[object, ...]:
    """Every loaded module that holds `module.name` under that name, the very object."""
    original = getattr(sys.modules[module], name)
    return tuple(m for m in list(sys.modules.values()) if getattr(m, name, None) is original)


def _plain(value: object) -> bool:
    return isinstance(value, int | float | str | None) or (
        isinstance(value, tuple | list | range) and all(_plain(v) for v in value)
    )


def _same(one: object, other: object) -> bool:
    """Whether two answers are equal, arrays inside them (a dataclass's fields too) compared
    element by element, where `==` on an array gives no single answer."""
    if dataclasses.is_dataclass(one) and dataclasses.is_dataclass(other):
        one, other = dataclasses.astuple(one), dataclasses.astuple(other)  # type: ignore[arg-type]
    try:
        np.testing.assert_equal(one, other)
    except AssertionError:
        return False
    return True


class Remembered:
    """The package's experiments (seeded draws, counted sweeps) answered from memory for the
    single-weight mutants, call by call, where the probe has shown the answer does not move:
    while probing, each call runs under the probe's weights and again under the book's own,
    and only a call whose two answers agree is remembered."""

    MODULE = "attend.experiments"

    def __init__(self, own: dict[str, tuple[float, ...]]) -> None:
        module = sys.modules[self.MODULE]
        self.own = own
        self.functions = {
            name: f
            for name, f in vars(module).items()
            if inspect.isfunction(f) and f.__module__ == self.MODULE and not name.startswith("_")
        }
        self.answers: dict[str, object] = {}
        self.probing = False

    def _wrapped(self, name: str, function: Callable[..., object]) -> Callable[..., object]:
        def answer(*args: object, **kwargs: object) -> object:
            if not (_plain(args) and _plain(tuple(kwargs.values()))):
                return function(*args, **kwargs)
            key = repr((name, args, sorted(kwargs.items())))
            if not self.probing:
                return self.answers[key] if key in self.answers else function(*args, **kwargs)
            result = function(*args, **kwargs)
            with weights(self.own, frozenset()):
                if _same(function(*args, **kwargs), result):
                    self.answers[key] = result
            return result

        return answer

    @contextlib.contextmanager
    def installed(self) -> Iterator[Remembered]:
        holders = {name: _holders(name, self.MODULE) for name in self.functions}
        try:
            for name, function in self.functions.items():
                for module in holders[name]:
                    setattr(module, name, self._wrapped(name, function))
            yield self
        finally:
            for name, function in self.functions.items():
                for module in holders[name]:
                    setattr(module, name, function)


@contextlib.contextmanager
def weights(
    replacement: dict[str, tuple[float, ...]], figures: frozenset[str] | None = None
) -> Iterator[None]:
    """The matrices replaced in every module that holds them, the cached figures named in
    `figures` (all of them if None) forgotten on the way in and out."""
    originals = {name: getattr(attend, name) for name in replacement}
    holders = {name: _holders(name) for name in replacement}
    try:
        for name, value in replacement.items():
            for module in holders[name]:
                setattr(module, name, value)
        _forget(figures)
        yield
    finally:
        for name, value in originals.items():
            for module in holders[name]:
                setattr(module, name, value)
        _forget(figures)


def with_weights(
    replacement: dict[str, tuple[float, ...]], pages: list[str], figures: frozenset[str] | None = None
) -> dict[str, dict[str, Value]]:
    """The pages run again with the matrices replaced. A page whose own assertion breaks (the
    added half in Wv is one word's worth, say) fails the build there: every number it binds
    counts as named, each then given the failure as its value."""
    with weights(replacement, figures):
        return {name: _failing_or_run(ROOT / name) for name in pages}


def _failing_or_run(path: Path) -> dict[str, Value]:
    try:
        return run(path)
    except FenceError as failure:
        reason = str(failure).splitlines()[0]
        return dict.fromkeys(reading.read(path.read_text(encoding="utf-8")).expressions, reason)


def _figures() -> dict[str, Callable[[], object]]:
    """The book's cached figure functions that a page has drawn, by name."""
    module = sys.modules.get("attend_figures.pictures")
    return {
        name: value
        for name, value in (vars(module).items() if module else ())
        if callable(getattr(value, "cache_clear", None)) and value.cache_info().currsize
    }


def _forget(names: frozenset[str] | None) -> None:
    for name, function in _figures().items():
        if names is None or name in names:
            function.cache_clear()  # type: ignore[attr-defined]


def _fixed(value: float, places: int | None) -> str:
    """A value as written to `places` decimals, or in full where the number must be exact."""
    return repr(round(value, 9) + 0.0) if places is None else f"{value:.{places}f}".replace("-0.", "0.")


def expected_failures(page: Page, after: dict[str, Value]) -> set[str]:
    """The bound numbers whose value, at the precision written, is not what it was."""
    moved = set()
    for bound in page.reading.bindings:
        if bound.expression is None:
            continue
        now = binding.values_of(bound, after[bound.expression])
        before = binding.values_of(bound, page.values[bound.expression])
        assert not isinstance(before, str)
        if isinstance(now, str):  # no value now: one problem, at the binding's first number
            first = bound.numerals[0]
            moved.add(f"{page.name}:{first.line}:{(first.column or 0) + 1}")
            continue
        for i, numeral in enumerate(bound.numerals):
            if _fixed(now[i], numeral.places) != _fixed(before[i], numeral.places):
                moved.add(f"{page.name}:{numeral.line}:{(numeral.column or 0) + 1}")
    return moved


def reported(page: Page, after: dict[str, Value]) -> set[str]:
    """The numbers the check names, as `page:line:column`."""
    return {problem.split(": ", 1)[0] for problem in page.problems(values=after)}


def test_each_weight_mutant_fails_the_check_exactly_where_a_quoted_output_moved(
    book: dict[str, Page],
) -> None:
    # One probe with every weight changed at once finds the pages and the cached figures the
    # weights reach; each single weight is then run over those pages, redrawing those figures.
    # The package's experiments that the probe shows do not move are answered from memory.
    drawn = {name: function() for name, function in _figures().items()}
    own = {name: getattr(attend, name) for name in MATRICES}
    everything = {name: tuple(w + 0.37 * (i + 1) for i, w in enumerate(own[name])) for name in MATRICES}
    with Remembered(own).installed() as remembered:
        remembered.probing = True
        probe = with_weights(everything, list(book))
        remembered.probing = False
        reached = [name for name, page in book.items() if probe[name] != page.values]
        assert reached, "changing every weight changed no page: the mutants are not reaching the package"
        with weights(everything):
            figures = vars(sys.modules["attend_figures.pictures"])
            moving = frozenset(name for name, before in drawn.items() if figures[name]() != before)
        runs = {
            (name, index): with_weights({name: _changed(own[name], index)}, reached, moving)
            for name in MATRICES
            for index in range(len(own[name]))
        }
    mismatches, unmoved, failing = [], [], 0
    for name in MATRICES:
        for index in range(len(own[name])):
            expected: set[str] = set()
            named: set[str] = set()
            for page_name in reached:
                page = book[page_name]
                expected |= expected_failures(page, runs[name, index][page_name])
                named |= reported(page, runs[name, index][page_name])
            if expected != named:
                mismatches.append(f"{name}[{index}]: expected {sorted(expected)}, named {sorted(named)}")
            if expected:
                failing += 1
            else:
                unmoved.append(f"{name}[{index}]")
    print(f"\nweight mutants: {failing} of 48 move a bound number; none moved by {', '.join(unmoved)}")
    print("\n".join(mismatches))
    assert mismatches == []
