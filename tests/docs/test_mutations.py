"""The mutation suite: every bound number, given and label of the book changed, and a weight.

Prose mutants: each bound number is written with one digit changed, and again as another value
the same page binds (the nearest one, at the same precision); each bound number word as the
next word; each worked sum's result as a wrong value; each number bound to a given, and each
given's declared value; each label, past the range declared for its word and as 0. The check
of that page must fail at that number each time (for a sum, also on its arithmetic). A prose
mutant changes no code, so the page's values from one run serve all of its mutants; and the
check reads a block of prose with nothing of the page but its declarations (givens, labels),
so each mutant is read in its own block (`Page.alone`), not in the whole page again: a small
part of the reading, for the same verdict (the first test holds that every block read alone
reads as it does in its page).

Code mutant: one weight of Wq changed in the running package and every page run again. The
check must name numbers that moved, renumber must rewrite them so that the check passes again,
and a page whose code fails under the change fails this test, as it fails the build.
"""

from __future__ import annotations

import contextlib
import functools
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from tree import book as declared

import attend
from attend_book import chapter_tests
from attend_book.cache import FOLDER, Cache, build_versions, fingerprint, source_roots
from attend_book.execution import BookExecutor
from attend_book.run import plan_of
from bound_numbers import Asked, Unavailable, Value, numerals, reading, renumber, run_here
from bound_numbers import Page as Source
from bound_numbers import check as binding
from bound_numbers.declared import Declared, front_matter
from bound_numbers.declared import for_page as declared_for_page
from bound_numbers.numerals import Numeral
from bound_numbers.reading import Binding, Label, Problem, Reading, Sum

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# The pages written with bindings; a page still without any is not the suite's yet.
BOOK = declared()
PAGES = sorted(p for p in DOCS.glob("*.md") if reading.read(p.read_text(encoding="utf-8"), BOOK).bindings)


def blocks(markdown: str) -> list[range]:
    """The page's blocks as ranges of its lines (0-based): the front matter, then each block at
    the top of the Markdown (a paragraph, heading, list, table, admonition, math block), a math
    block together with the block whose first line holds its binding."""
    page = Source("", markdown)
    found = [range(page.front)] if page.front else []
    math_ends = -1  # the line after the last math block
    for token in page.tokens:
        if token.level or token.nesting < 0 or token.map is None:
            continue
        first, end = token.map
        if first == math_ends:
            first = found.pop().start
        found.append(range(first, end))
        math_ends = end if token.type == "math_block" else -1
    return found


@dataclass(frozen=True)
class Page:
    name: str
    markdown: str
    reading: Reading
    values: dict[Asked, Value]

    def problems(
        self,
        markdown: str | None = None,
        values: dict[Asked, Value] | None = None,
        found: Reading | None = None,
    ) -> list[str]:
        """The check's problems on the page, or on `markdown` (or its reading `found`) in its place."""
        if found is None:
            found = self.reading if markdown is None else reading.read(markdown, BOOK)
        return [p.render(self.name) for p in binding.check(found, self.values if values is None else values)]

    @functools.cached_property
    def blocks(self) -> list[range]:
        return blocks(self.markdown)

    @functools.cached_property
    def declared(self) -> Declared:
        """The book's givens and labels with the page's front matter's laid over them."""
        return declared_for_page(self.markdown, BOOK)

    def alone(self, block: range, markdown: str | None = None) -> Reading:
        """The reading of `block` of the page (or of `markdown`, the page changed in that block),
        the lines before it and the one after it blank and none further, with the page's
        declarations: what the check reads of the block in the page (its lines, columns,
        givens and labels all kept) for a fraction of the reading."""
        lines = (self.markdown if markdown is None else markdown).split("\n")[: block.stop + 1]
        kept = "\n".join(line if n in block else "" for n, line in enumerate(lines))
        return reading.read(kept, self.declared)

    def block_of(self, line: int) -> range:
        """The block holding the page's `line` (1-based)."""
        return next(block for block in self.blocks if line - 1 in block)

    def bound(self) -> Iterator[tuple[Numeral, float]]:
        """Each number the page binds to an expression, with its value now."""
        for numeral, value, _ in self.quoted():
            yield numeral, value

    def quoted(self) -> Iterator[tuple[Numeral, float, Binding]]:
        """Each bound number, its value now and its binding."""
        for bound in self.reading.bindings:
            quoted = binding.values_of(bound, self.values[bound.asked])
            assert not isinstance(quoted, str), quoted
            for numeral, value in zip(bound.numerals, quoted, strict=True):
                yield numeral, value, bound


CACHE = Cache(ROOT / FOLDER, fingerprint(source_roots(), build_versions()))


def run(name: str, markdown: str, found: Reading) -> dict[Asked, Value]:
    """The page's values, its fences run in this process from emptied caches."""
    _forget()
    plan = plan_of(Source(name, markdown), found.asked)
    return plan.values_of(run_here(plan, BookExecutor(name)).values)


@pytest.fixture(scope="module")
def book() -> dict[str, Page]:
    """Every page's values with the book's own weights."""
    pages = {}
    for path in PAGES:
        name = path.relative_to(ROOT).as_posix()
        markdown = path.read_text(encoding="utf-8")
        found = reading.read(markdown, BOOK)  # its values as the build has them, from its cache
        pages[name] = Page(
            name, markdown, found, CACHE.page(plan_of(Source(name, markdown), found.asked)).values
        )
    # A mutant is only a mutant of a book that passes (tests/docs/test_pages.py holds that).
    assert [problem for page in pages.values() for problem in page.problems()] == []
    return pages


# Prose mutants ---------------------------------------------------------------------------------


def on(block: range, found: Reading) -> tuple[list[Binding], list[Label], list[Sum], list[Problem]]:
    """What a reading found on the lines of `block`: bindings, labels, worked sums, problems."""
    return (
        [b for b in found.bindings if b.numerals[0].line - 1 in block],
        [label for label in found.labels if label.numeral.line - 1 in block],
        [s for s in found.sums if s.result.line - 1 in block],
        [p for p in found.problems if p.line - 1 in block],
    )


def test_each_block_of_a_page_read_alone_reads_as_it_does_in_the_page(book: dict[str, Page]) -> None:
    """What lets each prose mutant be read in its block alone: every block that holds a binding,
    a label or a worked sum reads, with only the front matter around it, exactly as in the page."""
    held, differing = 0, []
    for page in book.values():
        for block in page.blocks:
            whole = on(block, page.reading)
            if not any(whole):
                continue
            held += 1
            if on(block, page.alone(block)) != whole:
                differing.append(f"{page.name}:{block.start + 1}-{block.stop}")
    assert differing == []
    assert held > len(book)  # the blocks were found: a page binds numbers in more than one


def digit_mutant(text: str, place: int = 1) -> str:
    """The number with its last digit (or the `place`-th from the end) changed: "3.125" → "3.126";
    a fraction another, "½" → "¼"."""
    if text in numerals.FRACTIONS:
        return "¼" if text != "¼" else "½"
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    at = digits[-min(place, len(digits))]
    return text[:at] + str((int(text[at]) + 1) % 10) + text[at + 1 :]


def word_mutant(numeral: Numeral, value: float) -> str:
    """The word for the next whole number ("sixteen" → "seventeen"); for a word of one value,
    which renumber never rewrites ("half", "twice", "a hundredth"), another such word."""
    return numerals.restate(value + 1, numeral) or ("twice" if numeral.text.lower() == "half" else "half")


def given_mutant(numeral: Numeral, value: float) -> str:
    """A number bound to a given written as another: a word as the next, "½" as "¼", digits changed."""
    if numeral.word:
        return word_mutant(numeral, value)
    return digit_mutant(numeral.text)


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
    """The check's problems on the page with one number rewritten as `new`, read in its block."""
    assert numeral.column is not None, numeral
    lines = page.markdown.split("\n")
    line = lines[numeral.line - 1]
    assert line[numeral.column : numeral.column + len(numeral.text)] == numeral.text
    lines[numeral.line - 1] = line[: numeral.column] + new + line[numeral.column + len(numeral.text) :]
    return page.problems(found=page.alone(page.block_of(numeral.line), "\n".join(lines)))


def given_names(page: Page) -> set[str]:
    """The givens that hold on the page: the book's and its front matter's."""
    return set(BOOK.givens) | set(front_matter(page.markdown).get("givens") or {})


def prose_mutants(book: dict[str, Page]) -> Iterator[tuple[Page, Numeral, str, str]]:
    for page in book.values():
        givens = given_names(page)
        for numeral, value, bound in page.quoted():
            if re.fullmatch(r"\{=\s*(\w+)\s*\}", bound.brace) and bound.brace[2:-1].strip() in givens:
                yield page, numeral, "given", given_mutant(numeral, value)
                continue
            if numeral.word:
                yield page, numeral, "word", word_mutant(numeral, value)
                continue
            yield page, numeral, "digit", digit_mutant(numeral.text)
            if (swapped := swap_mutant(numeral, page)) is not None:
                yield page, numeral, "swap", swapped
        for label in page.reading.labels:
            last = page.values[label.asked]
            assert isinstance(last, int | float), (page.name, label)
            yield page, label.numeral, "label", str(int(last) + 1)  # one past the last
            yield page, label.numeral, "label", label.numeral.text + "3"  # "slot 4" → "slot 43"
            yield page, label.numeral, "label", "0"
        for worked in page.reading.sums:  # off by ten in the last place: more than `≈` allows
            yield page, worked.result, "sum", digit_mutant(worked.result.text, 2)


def test_every_mutant_of_every_bound_number_fails_the_check_at_its_place(book: dict[str, Page]) -> None:
    survivors, killed = [], {"digit": 0, "swap": 0, "word": 0, "sum": 0, "given": 0, "label": 0}
    for page, numeral, kind, new in prose_mutants(book):
        where = f"{page.name}:{numeral.line}:{(numeral.column or 0) + 1}: "
        named = [p for p in mutated(page, numeral, new) if p.startswith(where)]
        if kind == "sum":
            named = [p for p in named if "does not hold" in p]
        if kind == "label":
            named = [p for p in named if "out of range" in p or "counted from 1" in p]
        if any(new in p for p in named):
            killed[kind] += 1
        else:
            survivors.append(f"{where}{numeral.text} → {new} ({kind})")
    print(f"\nprose mutants killed: {killed}, survivors: {len(survivors)}")
    assert survivors == []
    assert killed["digit"] >= 2 * len(book)  # every page binds numbers; a reader that found none would pass
    assert killed["given"] > 0 and killed["label"] > 0


def constant(expression: str) -> Value | None:
    """The value of an expression that names nothing (a given's, resolved), else None."""
    try:
        value = eval(compile(expression, "<given>", "eval"), {"__builtins__": {}})
    except NameError:
        return None
    return [float(v) for v in value] if isinstance(value, list) else float(value)


def test_each_declared_given_changed_fails_the_check_at_every_number_bound_to_it(
    book: dict[str, Page],
) -> None:
    survivors, killed = [], 0
    for page in book.values():
        front = front_matter(page.markdown).get("givens") or {}
        for name, (value, _) in front.items():
            declaration = re.compile(rf"^(\s*{name}:\s*\[)\s*{re.escape(str(value))}\s*,", re.MULTILINE)
            changed, count = declaration.subn(rf"\g<1>{value + 1},", page.markdown, count=1)
            assert count == 1, (page.name, name)
            found = reading.read(changed, BOOK)
            # The numbers bound to the given itself (a sum's operand, a math span's list among them):
            # their expression is now the new value, which needs no page to evaluate.
            uses = [
                b for b in found.bindings if name in re.findall(r"\w+", b.brace) and constant(b.expression)
            ]
            values: dict[Asked, Value] = {**page.values}
            values.update({b.asked: value for b in uses if (value := constant(b.expression)) is not None})
            named = {
                p.split(": ", 1)[0] for p in page.problems(values=values, found=found) if "is written" in p
            }
            places = [{f"{page.name}:{n.line}:{n.column + 1}" for n in use.numerals} for use in uses]
            if uses and all(where & named for where in places):  # a group: at the number bound to it
                killed += 1
            else:
                survivors.append(
                    f"{page.name}: {name} = {value + 1} ({[sorted(w) for w in places if not w & named]})"
                )
    print(
        f"\ndeclared givens changed, failing every number bound to them: {killed},",
        f"survivors: {len(survivors)}",
    )
    assert survivors == []


# Code mutant -----------------------------------------------------------------------------------

# The weight changed: the 3 of Wq that makes slot 2 of a query ("wants a year") from slot 1 of
# its token ("is a bare digit"): it moves the scores, shares and blends the pages work by hand.
WEIGHT = ("WQ", 4)


def _holders(name: str) -> list[object]:
    """Every loaded module that holds `attend.name` under that name, the very object."""
    original = getattr(attend, name)
    return [m for m in list(sys.modules.values()) if getattr(m, name, None) is original]


@contextlib.contextmanager
def weights(replacement: Mapping[str, tuple[float, ...]]) -> Iterator[None]:
    """The matrices replaced in every module that holds them, every figure's cache forgotten on
    the way in and out: what is drawn inside is drawn under these weights."""
    originals = {name: getattr(attend, name) for name in replacement}
    holders = {name: _holders(name) for name in replacement}
    try:
        for name, value in replacement.items():
            for module in holders[name]:
                setattr(module, name, value)
        _forget()
        yield
    finally:
        for name, value in originals.items():
            # and every module first imported inside, which took the replacement from the start
            late = [m for m in list(sys.modules.values()) if getattr(m, name, None) is replacement[name]]
            for module in [*holders[name], *late]:
                setattr(module, name, value)
        _forget()


def renumbered(name: str, markdown: str, values: Mapping[Asked, Value]) -> tuple[str, list[str]]:
    """The page renumbered from `values`, and what renumber left for a person."""
    new, _, left = renumber.renumber(name, markdown, values, book=BOOK)
    return new, left


def test_a_weight_changed_moves_numbers_the_check_names_and_renumber_brings_back(
    book: dict[str, Page], monkeypatch: pytest.MonkeyPatch
) -> None:
    matrix, index = WEIGHT
    own = getattr(attend, matrix)
    changed = tuple(w + 1.0 if i == index else w for i, w in enumerate(own))
    named, rewritten, left, still = {}, {}, [], []
    # The chapter's pinned tests hold its values, so a changed weight breaks them, and a person
    # gives them the new values (docs/contributing.md, "Changing a weight"); a page that shows
    # one goes on here, the pin said broken, so that its prose is checked and renumbered too.
    broken, pinned = [], chapter_tests.run_test

    def shown(node: str) -> str:
        try:
            return pinned(node)
        except chapter_tests.ChapterTestError:
            broken.append(node)
            return f"{node.rpartition('::')[2]} FAILED"

    monkeypatch.setattr(chapter_tests, "run_test", shown)
    # The contributors' page runs every pinned test itself and fails on the first that breaks:
    # its numbers count tests and lines, which no weight moves.
    with weights({matrix: changed}):
        for page in book.values():
            if page.name == "docs/contributing.md":
                continue
            values = run(page.name, page.markdown, page.reading)  # a page that fails here fails the test
            problems = page.problems(values=values)
            named[page.name] = {int(p.split(":")[1]) for p in problems}
            new, held = renumbered(page.name, page.markdown, values)
            left += held
            rewritten[page.name] = {
                n
                for n, (a, b) in enumerate(zip(page.markdown.split("\n"), new.split("\n"), strict=True), 1)
                if a != b
            }
            still += page.problems(markdown=new, values=values)
    moved = sum(len(lines) for lines in named.values())
    print(f"\n{matrix}[{index}] + 1: the check names {moved} lines on {sum(map(bool, named.values()))} pages")
    assert moved > 0, "the weight moved no number the pages quote: it does not reach the package"
    assert broken and all(node.startswith("tests/test_chapter.py::") for node in broken)  # pins only
    assert left == []
    assert still == []  # renumbered, every page passes the check under the new weight
    assert rewritten == named  # renumber rewrote exactly the lines the check named


def test_the_contributors_page_fails_under_a_changed_weight_naming_each_broken_pin_and_its_values() -> None:
    """It runs the pinned tests in its own process, the package's weights as they are there."""
    matrix, index = WEIGHT
    changed = tuple(w + 1.0 if i == index else w for i, w in enumerate(getattr(attend, matrix)))
    markdown = (DOCS / "contributing.md").read_text(encoding="utf-8")
    with weights({matrix: changed}), pytest.raises(Unavailable) as failed:
        run("docs/contributing.md", markdown, reading.read(markdown, BOOK))
    said = str(failed.value)
    assert said.startswith("docs/contributing.md:") and "a python fence failed at `assert pins" in said
    assert "tests/test_chapter.py:" in said and "\n  expected " in said and "\n  obtained " in said


def test_a_page_whose_code_fails_under_a_changed_weight_fails_the_weight_test() -> None:
    code = 'import attend\nassert attend.WQ[5] == 0.0, "Wq moved"'
    page = f'```python exec="1"\n{code}\n```\n\nIt is 0{{= attend.WQ[5]}}.\n'
    found = reading.read(page, BOOK)
    assert run("docs/p.md", page, found)[found.asked[0]] == 0.0
    with (
        weights({"WQ": tuple(w + 1.0 if i == 5 else w for i, w in enumerate(attend.WQ))}),
        pytest.raises(Unavailable),
    ):
        run("docs/p.md", page, found)


# Where a result made under the replaced weights may be kept: the figures' caches and the
# package's own (a table the command prints), which a later test in this process would read.
MEMOS = ("attend.", "attend_figures.")


def _forget() -> None:
    """Every cache in MEMOS emptied."""
    for module in [m for name, m in list(sys.modules.items()) if name.startswith(MEMOS)]:
        for value in vars(module).values():
            if callable(clear := getattr(value, "cache_clear", None)):
                clear()
