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
changing every weight at once changes what they print; a page whose run never used the weights
(`Watched`) is not run again at all. A call a page makes for its heavy work
(an experiment, a table, a figure, a transcript) is made again for a weight only where `Calls`
cannot show that its answer leaves the page's values as they are.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import importlib
import inspect
import math
import pkgutil
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import attend
import attend_figures
from attend_book import binding, numerals, reading
from attend_book.numerals import Numeral
from attend_book.reading import Reading
from attend_book.run import FenceError, Value, run_here

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
    weighed: bool = True  # whether its run used Wq, Wk or Wv at all (`Watched`)

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


@pytest.fixture(scope="module")
def calls() -> Iterator[Calls]:
    with Calls().installed() as heard:
        yield heard
    _forget(("attend.", "attend_figures."))  # nothing worked out under another weight outlives the suite


@pytest.fixture(scope="module")
def book(calls: Calls) -> dict[str, Page]:
    """Every page run once in this process, with the book's own weights (the calls it makes heard),
    each run from caches emptied: what it used of the weights, it used itself (`Watched`)."""
    pages = {}
    watched = {name: Watched(getattr(attend, name)) for name in MATRICES}
    with calls.heard_as("own"), weights(watched):
        for path in PAGES:
            name = path.relative_to(ROOT).as_posix()
            markdown = path.read_text(encoding="utf-8")
            page = Page(name, markdown, reading.read(markdown), {})
            _forget(("attend.", "attend_figures."))
            Watched.uses = 0
            values = calls.run(page)
            pages[name] = dataclasses.replace(page, values=values, weighed=Watched.uses > 0)
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
    """The word for the next whole number ("sixteen" → "seventeen"); for a word of one value,
    which renumber never rewrites ("half", "twice", "a hundredth"), another such word."""
    return numerals.restate(value + 1, numeral) or ("twice" if numeral.text.lower() == "half" else "half")


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


# Code mutants ---------------------------------------------------------------------------------

# Where a call was made and the call as written: the page whose own code made it, or "" for a
# call made inside another heard call (`Calls`).
Call = tuple[str, str]
# The functions a page calls for its heavy work, by module (every public function of the module
# where none are named): the experiments, the tables `attend` prints, the figures, and the run
# of a transcript's commands.
CALLED: dict[str, tuple[str, ...]] = {
    "attend.experiments": (),
    "attend.tables": (),
    "attend_figures.pictures": (),
    "attend_figures.lacking": (),
    "attend_figures.controls": (),
    "attend_book.run": ("run_transcript",),
}


# Every module of the package and of its figures loaded now, so that each module that holds a
# weight matrix or a called function is found before anything is replaced.
for _module in [
    *pkgutil.walk_packages(attend.__path__, "attend."),
    *pkgutil.walk_packages(attend_figures.__path__, "attend_figures."),
]:
    if not _module.name.endswith("__main__"):  # `python -m attend` runs the command
        importlib.import_module(_module.name)


class Watched(tuple[float, ...]):
    """A weight matrix equal to the package's in every use, that counts each use made of it:
    iterating, indexing, its length, comparing, hashing, printing, copying, numpy's reading.
    A page whose run, from empty caches, used none of the three matrices cannot depend on
    them, whatever they are: the probe need not run it, nor any mutant. (Only `%`-formatting
    with the matrix as its tuple of arguments reads it past these methods.)"""

    uses = 0

    def __array__(
        self, dtype: npt.DTypeLike | None = None, copy: bool | None = None
    ) -> npt.NDArray[np.float64]:
        Watched.uses += 1
        return np.array(list(tuple.__iter__(self)), dtype=dtype)


def _counted(method: Callable[..., object]) -> Callable[..., object]:
    def counted(self: Watched, *args: object, **kwargs: object) -> object:
        Watched.uses += 1
        return method(self, *args, **kwargs)

    return counted


for _use in (
    *("__iter__", "__getitem__", "__len__", "__contains__", "count", "index", "__hash__"),
    *("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__"),
    *("__repr__", "__format__", "__reduce_ex__", "__getnewargs__"),
):
    setattr(Watched, _use, _counted(getattr(tuple, _use)))


class Calls:
    """The calls the pages make to the functions of `CALLED`, heard while the book runs with its
    own weights and with the probe's, and answered from memory where the answer cannot matter:

    * an answer of which no value of the page reads anything: the values stay as they are with
      it changed in every part (`_scrambled`). Not asked again even by the probe: a figure the
      page only prints, a transcript's text.
    * an answer that is the same under both weights (seeded draws, counted sweeps), wherever it
      is asked for;
    * an answer that moves, of which no value of the page reads what moved: the values stay as
      they are with the probe's answer in its place, and with the book's own with every number
      that moved made NaN (`_poisoned`). The counts of a long generation whose outputs the page
      never quotes, say.

    Every other call is made again under each mutant's weights."""

    def __init__(self) -> None:
        self.heard: dict[str, dict[Call, list[object]]] = {"own": {}, "probe": {}}
        self.hearing: str | None = None  # "own" or "probe" while the book runs under those weights
        self.memory: dict[Call, object] = {}
        self.page = ""
        self.depth = 0  # how many remembered calls the call now made is inside

    def _wrapped(self, name: str, function: Callable[..., object]) -> Callable[..., object]:
        def answer(*args: object, **kwargs: object) -> object:
            if not (_plain(args) and _plain(tuple(kwargs.values()))):
                return function(*args, **kwargs)
            call = repr((name, args, sorted(kwargs.items())))
            where = "" if self.depth else self.page
            for known in ((where, call), ("", call)):
                if known in self.memory:
                    return copy.deepcopy(self.memory[known])  # what a fence changes stays in its run
            self.depth += 1
            try:
                result = function(*args, **kwargs)
            finally:
                self.depth -= 1
            if self.hearing is not None:
                self.heard[self.hearing].setdefault((where, call), []).append(copy.deepcopy(result))
            return result

        if callable(clear := getattr(function, "cache_clear", None)):
            answer.cache_clear = clear  # type: ignore[attr-defined]  # `_forget` reaches the figure's cache
        return answer

    @contextlib.contextmanager
    def installed(self) -> Iterator[Calls]:
        """Each function of `CALLED` replaced, in every module that holds it, by one that hears
        and answers its calls; every one put back on the way out."""
        replaced = {
            id(f): (f, self._wrapped(name, f))
            for module, named in CALLED.items()
            for name, f in vars(importlib.import_module(module)).items()
            if name in named or (not named and _public(f, module, name))
        }
        try:
            _swap(replaced)
            yield self
        finally:  # a module imported meanwhile may hold a replacement too
            _swap({id(wrapper): (wrapper, f) for f, wrapper in replaced.values()})

    @contextlib.contextmanager
    def heard_as(self, hearing: str) -> Iterator[None]:
        self.hearing = hearing
        try:
            yield
        finally:
            self.hearing = None

    def run(self, page: Page) -> dict[str, Value]:
        """The page's values, its fences run again in this process. A page whose own assertion
        breaks (the added half in Wv is one word's worth, say) fails the build there: every
        number it binds counts as named, each then given the failure as its value."""
        self.page = page.name
        try:
            return run_here(page.name, page.markdown, page.reading.expressions).values
        except FenceError as failure:
            return dict.fromkeys(page.reading.expressions, str(failure).splitlines()[0])

    def _answers(self, hearing: str, call: str) -> list[object]:
        return [answer for (_, c), answers in self.heard[hearing].items() if c == call for answer in answers]

    def unmoved(self) -> dict[Call, object]:
        """Each call whose every answer, under the book's weights and under the probe's, is one answer."""
        found: dict[Call, object] = {}
        for call in {call for _, call in self.heard["own"]}:
            own, probe = self._answers("own", call), self._answers("probe", call)
            if probe and all(_same(answer, own[0]) for answer in own[1:] + probe):
                found["", call] = own[0]
        return found

    def own(self) -> dict[Call, object]:
        """The book's own answer to each call that gave one answer every time it was made."""
        return {key: heard[0] for key, heard in self.heard["own"].items() if _one(heard)}

    def unread(
        self, page: Page, known: dict[Call, object], stand_ins: Callable[[Call, object], tuple[object, ...]]
    ) -> dict[Call, object]:
        """Each call the page's own code made, not `known` yet, whose every stand-in in place of
        the book's own answer leaves each value of the page as it is: that answer, for the page."""
        own = self.own()
        found: dict[Call, object] = {}
        for key, mine in own.items():
            if key[0] != page.name or key in known or ("", key[1]) in known:
                continue
            others = stand_ins(key, mine)
            if others and all(self._run_with(page, {**own, key: other}) == page.values for other in others):
                found[key] = mine
        return found

    def moved(self, key: Call, mine: object) -> tuple[object, ...]:
        """The stand-ins for an answer the probe moved: the probe's, and the own with what moved
        poisoned; none where the probe did not give one answer."""
        theirs = self.heard["probe"].get(key, [])
        return (theirs[0], _poisoned(mine, theirs[0])) if _one(theirs) else ()

    def _run_with(self, page: Page, memory: dict[Call, object]) -> dict[str, Value]:
        """The page's values with calls answered from `memory`, the figures' caches emptied on
        the way in and out: nothing drawn from a stand-in outlives the run."""
        self.memory = memory
        try:
            with weights({}):
                return self.run(page)
        finally:
            self.memory = {}


def _public(value: object, module: str, name: str) -> bool:
    """Whether `value` is a function (cached or not) that `module` defines under a public name."""
    function = inspect.isfunction(value) or callable(getattr(value, "cache_clear", None))
    return function and getattr(value, "__module__", None) == module and not name.startswith("_")


def _swap(replaced: Mapping[int, tuple[object, object]]) -> None:
    """In every loaded module, each object keyed here by its `id` set to its replacement."""
    for module in list(sys.modules.values()):
        for name, value in list(getattr(module, "__dict__", {}).items()):
            if id(value) in replaced and replaced[id(value)][0] is value:
                setattr(module, name, replaced[id(value)][1])


def _one(answers: list[object]) -> bool:
    """Whether a call was heard and gave the same answer every time."""
    return bool(answers) and all(_same(answer, answers[0]) for answer in answers[1:])


def _scrambled(own: object) -> object:
    """`own` with every part changed: each number (a float to NaN), string and key, one more
    item in each sequence, anything else an object no code can use. A page whose values stay
    as they are with this in place of `own` reads nothing of it, whatever the weights."""
    if dataclasses.is_dataclass(own) and not isinstance(own, type):
        made = copy.copy(own)
        for name in (field.name for field in dataclasses.fields(own)):
            object.__setattr__(made, name, _scrambled(getattr(own, name)))
        return made
    if isinstance(own, np.ndarray) and own.dtype.kind in "fiu":
        return np.full(own.shape, np.nan) if own.dtype.kind == "f" else own + 1
    if isinstance(own, bool):
        return not own
    if isinstance(own, int):
        return own + 1
    if isinstance(own, float):
        return math.nan
    if isinstance(own, str):
        return own + "\N{REPLACEMENT CHARACTER}"
    if isinstance(own, list | tuple):
        items = [_scrambled(item) for item in own]
        items += items[-1:]
        return items if isinstance(own, list) else tuple(items)
    if isinstance(own, dict):
        return {_scrambled(key): _scrambled(value) for key, value in own.items()}
    return object()


def _poisoned(own: object, probe: object) -> object:
    """`own`, with each number the probe moved made NaN and each other part it moved taken from
    the probe: no reading of what moved can pass through it unchanged."""
    if dataclasses.is_dataclass(own) and not isinstance(own, type) and type(probe) is type(own):
        made = copy.copy(own)
        for name in (field.name for field in dataclasses.fields(own)):
            object.__setattr__(made, name, _poisoned(getattr(own, name), getattr(probe, name)))
        return made
    if isinstance(own, np.ndarray) and isinstance(probe, np.ndarray) and own.shape == probe.shape:
        return np.where(own == probe, own, np.nan) if own.dtype.kind == "f" else probe
    if isinstance(own, float) and isinstance(probe, float):
        return own if own == probe else math.nan
    if isinstance(own, list | tuple) and isinstance(probe, list | tuple) and len(own) == len(probe):
        items = [_poisoned(one, other) for one, other in zip(own, probe, strict=True)]
        return items if isinstance(own, list) else tuple(items)
    if isinstance(own, dict) and isinstance(probe, dict) and own.keys() == probe.keys():
        return {key: _poisoned(value, probe[key]) for key, value in own.items()}
    return probe


def _changed(weights: tuple[float, ...], index: int) -> tuple[float, ...]:
    return tuple(w + 1.0 if i == index else w for i, w in enumerate(weights))


@functools.cache
def _holders(name: str) -> tuple[object, ...]:
    """Every loaded module that holds `attend.name` under that name, the very object."""
    original = getattr(attend, name)
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


@contextlib.contextmanager
def weights(replacement: Mapping[str, tuple[float, ...]]) -> Iterator[None]:
    """The matrices replaced in every module that holds them, every figure's cache forgotten on
    the way in and out: what is drawn inside is drawn under these weights."""
    originals = {name: getattr(attend, name) for name in replacement}
    try:
        for name, value in replacement.items():
            for module in _holders(name):
                setattr(module, name, value)
        _forget()
        yield
    finally:
        for name, value in originals.items():
            for module in _holders(name):
                setattr(module, name, value)
        _forget()


def with_weights(
    calls: Calls, replacement: dict[str, tuple[float, ...]], pages: list[Page]
) -> dict[str, dict[str, Value]]:
    """The pages run again with the matrices replaced."""
    with weights(replacement):
        return {page.name: calls.run(page) for page in pages}


def _forget(modules: tuple[str, ...] = ("attend_figures.",)) -> None:
    """Every cache in the modules named so (by default the figures') emptied."""
    for module in [m for name, m in list(sys.modules.items()) if name.startswith(modules)]:
        for value in vars(module).values():
            if callable(clear := getattr(value, "cache_clear", None)):
                clear()


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
    book: dict[str, Page], calls: Calls
) -> None:
    # One probe with every weight changed at once, over the pages whose run used the weights at
    # all, finds the pages the weights reach and each call to the package whose answer `Calls`
    # can remember; each single weight is then run over those pages.
    own = {name: getattr(attend, name) for name in MATRICES}
    everything = {name: tuple(w + 0.37 * (i + 1) for i, w in enumerate(own[name])) for name in MATRICES}
    weighed = [page for page in book.values() if page.weighed]
    remembered: dict[Call, object] = {}
    for page in weighed:  # what no value of a page reads, whatever it is, the probe need not ask
        remembered |= calls.unread(page, remembered, lambda key, mine: (_scrambled(mine),))
    calls.memory = remembered
    with calls.heard_as("probe"):
        probe = with_weights(calls, everything, weighed)
    reached = [book[name] for name, values in probe.items() if values != book[name].values]
    assert reached, "changing every weight changed no page: the mutants are not reaching the package"
    remembered |= calls.unmoved()
    for page in reached:
        remembered |= calls.unread(page, remembered, calls.moved)
    calls.memory = remembered
    try:
        runs = {
            (name, index): with_weights(calls, {name: _changed(own[name], index)}, reached)
            for name in MATRICES
            for index in range(len(own[name]))
        }
    finally:
        calls.memory = {}
    mismatches, unmoved, failing = [], [], 0
    for name in MATRICES:
        for index in range(len(own[name])):
            expected: set[str] = set()
            named: set[str] = set()
            for page in reached:
                expected |= expected_failures(page, runs[name, index][page.name])
                named |= reported(page, runs[name, index][page.name])
            if expected != named:
                mismatches.append(f"{name}[{index}]: expected {sorted(expected)}, named {sorted(named)}")
            if expected:
                failing += 1
            else:
                unmoved.append(f"{name}[{index}]")
    print(f"\nweight mutants: {failing} of 48 move a bound number; none moved by {', '.join(unmoved)}")
    print(f"pages: {len(probe)} of {len(book)} use the weights, {len(reached)} moved by the probe")
    print(f"calls answered from memory: {len(remembered)} of {len(calls.heard['own'])}")
    print("\n".join(mismatches))
    assert mismatches == []
