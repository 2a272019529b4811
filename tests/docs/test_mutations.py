"""The mutation suite: every numeral of the book, and every weight of the head, changed one at a time.

Prose mutants: each numeral a reader sees is replaced twice, once with one digit changed and
once with another value the same page prints at the same precision (the nearest one), and the
binding check of that page must fail at that numeral each time.

Code mutants: each of the 48 weights of Wq, Wk and Wv is changed in the running package, the
pages are run again, and the outputs before and after are compared position by position. The
check must then fail on exactly the numerals whose quoted output changed at the precision they
are written to, and name each of them. Which outputs moved is worked out here from the two runs,
never from the check's own verdict.

Everything runs in this process: the pages are run once each, and again for each weight only if
changing every weight at once changes what they print.
"""

from __future__ import annotations

import contextlib
import functools
import html as html_lib
import inspect
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

import attend
from attend_book import binding, numerals
from attend_book.binding import Entry
from attend_book.numerals import Numeral
from attend_book.run import Block
from attend_book.worker import run_here

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.glob("*.md") if binding.ledger_path(p).exists())
MATRICES = ("WQ", "WK", "WV")


@dataclass(frozen=True)
class Page:
    name: str
    markdown: str
    blocks: list[Block]
    ledger: list[Entry]

    def problems(self, markdown: str | None = None, blocks: list[Block] | None = None) -> list[str]:
        found = binding.check(markdown or self.markdown, blocks or self.blocks, self.ledger, "ledger")
        return [p.render(self.name) for p in found]


def run(path: Path) -> list[Block]:
    # In this process, not a page's own: the weights the mutants change are changed here.
    return run_here(path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")).blocks


@pytest.fixture(scope="module")
def book() -> dict[str, Page]:
    pages = {}
    for path in PAGES:
        name = path.relative_to(ROOT).as_posix()
        markdown = path.read_text(encoding="utf-8")
        pages[name] = Page(name, markdown, run(path), binding.load_ledger(binding.ledger_path(path)))
    # A mutant is only a mutant of a book that passes (tests/docs/test_pages.py holds that).
    assert [problem for page in pages.values() for problem in page.problems()] == []
    return pages


# Prose mutants ---------------------------------------------------------------------------------


def digit_mutant(text: str) -> str:
    """The numeral with its last digit changed: "3.125" → "3.126", "9" → "0", "½" → "¼"."""
    if not text[-1].isdigit():
        return "¼" if text == "½" else "½"
    last = max(i for i, c in enumerate(text) if c.isdigit())
    return text[:last] + str((int(text[last]) + 1) % 10) + text[last + 1 :]


def _at_precision(value: str, written: str) -> str | None:
    """A printed value written with as many decimals as `written`, or None if it has no such form."""
    number = numerals.value_of(value)
    places = numerals.decimals(written)
    if places == 0 and number != int(number):
        return None
    return f"{number:,.{places}f}" if "," in written else f"{number:.{places}f}"


def swap_mutant(numeral: Numeral, outputs: binding.Outputs) -> str:
    """The nearest other value the page prints, at the numeral's precision."""
    printed = {
        text
        for lines in outputs.lines
        for line in lines
        for value in numerals.printed_numbers(line)
        if (text := _at_precision(value, numeral.text)) is not None
    }
    others = sorted(
        (abs(numerals.value_of(t) - numerals.value_of(numeral.text)), t)
        for t in printed
        if not numerals.rounds_to(numerals.value_of(t), numeral.text)
    )
    return others[0][1]


def _figure_mutant(block: Block, numeral: Numeral, new: str) -> Block:
    """The figure's alt text or caption (drawn by code, not in the Markdown) with the numeral changed."""
    context = re.sub(r" \(#\d+\)$", "", numeral.context)
    start = context.index("[")
    before = context[:start].removeprefix(f"{numeral.passage}: ")
    after = context[context.index("]", start) + 1 :]

    def change(match: re.Match[str]) -> str:
        plain = html_lib.unescape(match.group(2))
        spaced = " ".join(plain.split())
        target = f"{before}{numeral.text}{after}"
        at = spaced.find(target)
        if at < 0:
            return match.group(0)
        mutated = spaced[: at + len(before)] + new + spaced[at + len(before) + len(numeral.text) :]
        return f"{match.group(1)}{html_lib.escape(mutated)}{match.group(3)}"

    tag = "title" if numeral.passage == "alt text" else "figcaption"
    text = re.sub(rf"(<{tag}>)(.*?)(</{tag}>)", change, block.text, flags=re.DOTALL)
    assert text != block.text, f"the mutant of {numeral.context} was not applied"
    return replace(block, text=text)


def mutated(page: Page, numeral: Numeral, new: str) -> list[str]:
    """The check's problems on the page with one numeral rewritten as `new`."""
    if numeral.column is not None:
        lines = page.markdown.split("\n")
        line = lines[numeral.line - 1]
        assert line[numeral.column : numeral.column + len(numeral.text)] == numeral.text
        lines[numeral.line - 1] = line[: numeral.column] + new + line[numeral.column + len(numeral.text) :]
        return page.problems(markdown="\n".join(lines))
    blocks = [_figure_mutant(b, numeral, new) if b.line == numeral.line else b for b in page.blocks]
    return page.problems(blocks=blocks)


def prose_mutants(book: dict[str, Page]) -> Iterator[tuple[Page, Numeral, str, str]]:
    for page in book.values():
        outputs = binding.sources(page.markdown, page.blocks)
        for numeral in binding.page_numerals(page.markdown, outputs):
            yield page, numeral, "digit", digit_mutant(numeral.text)
            yield page, numeral, "swap", swap_mutant(numeral, outputs)


def test_every_digit_and_swap_mutant_of_every_numeral_fails_the_check_at_its_line(
    book: dict[str, Page],
) -> None:
    survivors, killed = [], 0
    for page, numeral, kind, new in prose_mutants(book):
        problems = mutated(page, numeral, new)
        if any(p.startswith(f"{page.name}:{numeral.line}: ") and new in p for p in problems):
            killed += 1
        else:
            survivors.append(f"{page.name}:{numeral.line} {numeral.text} → {new} ({kind}): {numeral.context}")
    print(f"\nprose mutants: {killed} of {killed + len(survivors)} killed")
    assert survivors == []
    assert killed >= 2 * len(book)  # every page has numerals; a reader that found none would pass


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
                if function(*args, **kwargs) == result:
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
) -> dict[str, list[Block]]:
    """The pages run again with the matrices replaced."""
    with weights(replacement, figures):
        return {name: run(ROOT / name) for name in pages}


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


def printed_fields(blocks: list[Block], markdown: str) -> dict[tuple[int, int, int], str]:
    """Every printed number of a page's output, by (block, line, field)."""
    outputs = binding.sources(markdown, blocks)
    return {
        (b, n, f): value
        for b, lines in enumerate(outputs.lines, 1)
        for n, line in enumerate(lines, 1)
        for f, value in enumerate(numerals.printed_numbers(line), 1)
    }


def expected_failures(page: Page, after: list[Block]) -> set[str]:
    """The numerals whose quoted output now prints a different value at their precision."""
    before_fields = printed_fields(page.blocks, page.markdown)
    after_fields = printed_fields(after, page.markdown)
    moved = {key for key, value in before_fields.items() if after_fields.get(key) != value}
    # A figure's alt text and caption are written by code from the same run, so they are read
    # as they stand after the change; the Markdown's numerals stay as they were written.
    found = binding.page_numerals(page.markdown, binding.sources(page.markdown, after))
    pairs, _ = binding.match(found, page.ledger)
    expected = set()
    for i, entry in pairs.items():
        key = (entry.block, entry.line, entry.field)
        if entry.given is None and key in moved:
            value = after_fields.get(key)
            if value is None or not numerals.rounds_to(numerals.value_of(value), found[i].text):
                expected.add(f"{page.name}:{found[i].line}: {found[i].text}")
    return expected


def reported(page: Page, after: list[Block]) -> set[str]:
    """The numerals the check names, as `page:line: numeral`."""
    named = set()
    for problem in page.problems(blocks=after):
        where, _, message = problem.partition(": ")
        named.add(f"{where}: {message.split(' ', 1)[0]}")
    return named


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
        reached = [name for name, page in book.items() if probe[name] != page.blocks]
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
    print(f"\nweight mutants: {failing} of 48 move a quoted number; none moved by {', '.join(unmoved)}")
    print("\n".join(mismatches))
    assert mismatches == []
