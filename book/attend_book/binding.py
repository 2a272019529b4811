"""Each numeral of a page bound to the one printed value it quotes, and the check of every binding.

A page's bindings live in its ledger, `docs/<page>.numbers.yml`, committed beside it. An entry
names a numeral by the words around it (`at`, the numeral in brackets), never by line number,
so an edit above it does not disturb it, and says what it quotes:

    - at: total [3.125]. Token 2's
      block: 2 | from attend import chapter_head, chapter_row
      line: 7 | "0" [3.1250] 0.0000 0.7500
      field: 2

that is, the second number printed on line 7 of the page's second executed block (whose first
source line is shown), which read as shown, with two words either side, when the binding was
made. An entry may instead declare a `given`: the value the numeral must have (`value`) and the
reason nothing on the page prints it. `block` and `line` may be written as bare numbers by
hand; `nox -s renumber` fills in the text.

`check` holds a page's numerals against its blocks' output and its ledger and returns every
problem: a value that moved, a numeral nothing binds, a binding whose block or line is gone, a
worked equation that does not hold or cannot be worked out, an entry nothing on the page needs.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from attend_book import numerals
from attend_book.markdown import fences
from attend_book.numerals import Numeral
from attend_book.run import Block

__all__ = [
    "Entry",
    "Outputs",
    "Problem",
    "Quote",
    "alike",
    "bound",
    "check",
    "dump_ledger",
    "excerpt",
    "ledger_path",
    "load_ledger",
    "match",
    "page_numerals",
    "resolve",
    "same_words",
    "sources",
]


@dataclass(frozen=True)
class Problem:
    """One line of the report."""

    line: int
    message: str
    where: str = ""  # a file other than the page (its ledger), when the problem is there

    def render(self, page: str) -> str:
        return f"{self.where or page}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Entry:
    """One binding of the ledger, as written there."""

    at: str
    block: int | None = None
    head: str = ""
    line: int | None = None
    text: str = ""
    field: int | None = None
    given: str | None = None
    value: str = ""  # what a given numeral must read


@dataclass(frozen=True)
class Quote:
    """A binding resolved against the page's output as it is now."""

    block: int
    head: str
    line: int
    text: str
    field: int
    value: str
    found_again: bool = False  # not where the ledger put it: its block or its line had moved

    def describe(self) -> str:
        return f'block {self.block} ({self.head}), line {self.line} "{self.text}", field {self.field}'


@dataclass
class Outputs:
    """A page's blocks as a numeral can quote them: each block's head and its printed lines."""

    heads: list[str] = field(default_factory=list)
    lines: list[list[str]] = field(default_factory=list)
    figures: list[tuple[int, str]] = field(default_factory=list)  # (fence line, html)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _shape(text: str) -> str:
    """A printed line with its numbers taken out: what stays when values move."""
    return re.sub(r"#+", "#", numerals.NUMBERS.sub("#", _collapse(text)))


def _heads(markdown: str) -> dict[int, str]:
    """The first source line of every fence, by the line its opening mark is on."""
    return {
        fence.line: _collapse(next((line for line in fence.body.splitlines() if line.strip()), ""))
        for fence in fences(markdown)
    }


def sources(markdown: str, blocks: Sequence[Block]) -> Outputs:
    """What each block of the page lets a numeral quote, in block order."""
    heads = _heads(markdown)
    out = Outputs()
    for block in blocks:
        out.heads.append(heads.get(block.line, ""))
        if block.html and "<figure" in block.text:
            out.lines.append(numerals.figure_lines(block.text) + (block.data or "").splitlines())
            out.figures.append((block.line, block.text))
        else:
            out.lines.append(block.text.splitlines())
    return out


def page_numerals(markdown: str, outputs: Outputs) -> list[Numeral]:
    """Every numeral the reader of the page sees: its Markdown's, then its figures' words."""
    found = numerals.read(markdown)
    for line, html in outputs.figures:
        found += numerals.figure_prose(html, line)
    return found


def resolve(entry: Entry, outputs: Outputs) -> Quote | str:
    """The printed value an entry quotes now, or why it quotes nothing any more."""
    if entry.block is None or entry.line is None or entry.field is None:
        return "the binding names no block, line and field"
    index = entry.block
    if entry.head and not (
        0 < index <= len(outputs.heads) and _shape(outputs.heads[index - 1]) == _shape(entry.head)
    ):
        same = [i + 1 for i, head in enumerate(outputs.heads) if head == entry.head]
        alike = [i + 1 for i, head in enumerate(outputs.heads) if _shape(head) == _shape(entry.head)]
        if len(same) == 1 or len(alike) == 1:
            index = same[0] if len(same) == 1 else alike[0]
        elif not _prints(outputs, index, entry):  # a block whose first line was edited still counts
            return f"no block begins `{entry.head}` any more"
    if not 0 < index <= len(outputs.lines):
        return f"the page has no block {index}"
    lines = outputs.lines[index - 1]
    number = entry.line
    if entry.text:
        kept = [excerpt(line, entry.field) or "" for line in lines]
        wanted = _shape(entry.text)
        fits = [i + 1 for i, text in enumerate(kept) if _shape(text) == wanted]
        exact = [i for i in fits if _collapse(kept[i - 1]) == entry.text]
        if number not in fits:
            if len(exact) == 1:
                number = exact[0]
            elif len(fits) == 1:
                number = fits[0]
            else:
                return (
                    f'block {index} ({outputs.heads[index - 1]}) prints no line like "{entry.text}" any more'
                )
    if not 0 < number <= len(lines):
        return f"block {index} ({outputs.heads[index - 1]}) has no line {number}"
    fields = numerals.printed_numbers(lines[number - 1])
    if not 0 < entry.field <= len(fields):
        return f'line {number} of block {index} has no field {entry.field}: "{_collapse(lines[number - 1])}"'
    return Quote(
        index,
        outputs.heads[index - 1],
        number,
        _collapse(lines[number - 1]),
        entry.field,
        fields[entry.field - 1],
        (index, number) != (entry.block, entry.line)
        or (bool(entry.head) and _shape(outputs.heads[index - 1]) != _shape(entry.head)),
    )


def _prints(outputs: Outputs, index: int, entry: Entry) -> bool:
    """Whether block `index` still prints the entry's quoted words on the entry's line."""
    if not (0 < index <= len(outputs.lines) and entry.line and entry.field and entry.text):
        return False
    lines = outputs.lines[index - 1]
    return 0 < entry.line <= len(lines) and excerpt(lines[entry.line - 1], entry.field) == entry.text


def excerpt(line: str, field: int) -> str | None:
    """The quoted number in brackets with two words either side, as the ledger keeps a quoted
    line: enough to find the line again if it moves, short enough to read at a glance."""
    found = list(numerals.PRINTED.finditer(line))
    if not 0 < field <= len(found):
        return None
    return numerals.bracketed(line, *found[field - 1].span(), 2)


def same_words(numeral: Numeral, entry: Entry, found: Sequence[Numeral]) -> bool:
    """Whether the entry names the numeral beyond doubt: by its words exactly, or by its words
    with numbers aside where no other numeral of the page has those words. A pair `match` made
    on less (rows of a table read alike once their numbers are set aside) may be the wrong one."""
    if entry.at == numeral.context:
        return True
    mine = _normal(numeral.context)
    return _normal(entry.at) == mine and sum(_normal(n.context) == mine for n in found) == 1


def _normal(context: str) -> str:
    return numerals.NUMBERS.sub("#", re.sub(r" \(#\d+\)$", "", context))


def match(found: Sequence[Numeral], entries: Sequence[Entry]) -> tuple[dict[int, Entry], list[Entry]]:
    """Pair the page's numerals with ledger entries: by their words exactly, then with numbers
    disregarded (a numeral or its neighbours rewritten), then by words contained one in the other
    (the page grew or lost a numeral nearby). Returns the pairs by numeral index, and the entries
    nothing on the page matches."""
    pairs: dict[int, Entry] = {}
    left = list(entries)
    wanted = [i for i, n in enumerate(found) if n.equation is None]
    for key in (lambda s: s, _normal):
        waiting: dict[str, list[Entry]] = {}
        for entry in left:
            waiting.setdefault(key(entry.at), []).append(entry)
        unpaired = Counter(key(found[i].context) for i in wanted if i not in pairs)
        for i in wanted:
            mine = key(found[i].context)
            hits = waiting.get(mine) if i not in pairs else None
            # Alike words pair in page order, and only when as many entries as numerals have them.
            if hits and len(hits) == unpaired[mine]:
                pairs[i] = hits.pop(0)
                left.remove(pairs[i])
                unpaired[mine] -= 1
    for i in wanted:
        if i in pairs:
            continue
        mine = _normal(found[i].context)
        hits = [e for e in left if _normal(e.at) in mine or mine in _normal(e.at)]
        if len(hits) == 1:
            pairs[i] = hits[0]
            left.remove(hits[0])
    for i in wanted:  # last, the entry with the same numeral that shares the most words, if one does
        if i in pairs:
            continue
        words = _tokens(found[i].context)
        scored = sorted(
            (
                (sum((words & _tokens(e.at)).values()), n)
                for n, e in enumerate(left)
                if _core(e.at) == _core(found[i].context)
            ),
            reverse=True,
        )
        if scored and scored[0][0] >= 3 and (len(scored) == 1 or scored[1][0] < scored[0][0]):
            pairs[i] = left.pop(scored[0][1])
    return pairs, left


def _tokens(context: str) -> Counter[str]:
    return Counter(re.findall(r"\w+|#", _normal(context)))


def _core(context: str) -> str:
    """The bracketed numeral of a context with the characters glued to it, numbers taken out."""
    found = re.search(r"[\w'’]*\[[^\]]*\][\w'’]*", context)
    return _normal(found.group(0)) if found else ""


def _shown(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _equation_problem(numeral: Numeral) -> str | None:
    assert numeral.equation is not None
    try:
        value = numerals.evaluate(numeral.equation.left)
    except (ArithmeticError, ValueError, SyntaxError) as error:
        return f"{numeral.equation.text} cannot be worked out: {error}"
    if math.isfinite(value) and numerals.rounds_to(value, numeral.text):
        return None
    return f"{numeral.equation.text} does not hold ({numeral.equation.left.strip()} is {_shown(value)})"


def check(
    markdown: str, blocks: Sequence[Block], ledger: Sequence[Entry], ledger_name: str = ""
) -> list[Problem]:
    """Every problem with the numbers of one page, in the order of its lines."""
    outputs = sources(markdown, blocks)
    found = page_numerals(markdown, outputs)
    pairs, unused = match(found, ledger)
    problems: list[Problem] = []
    for i, numeral in enumerate(found):
        if numeral.equation is not None:
            if (message := _equation_problem(numeral)) is not None:
                problems.append(Problem(numeral.line, message))
            continue
        entry = pairs.get(i)
        if entry is None:
            problems.append(Problem(numeral.line, f"{numeral.text} is new and unbound: {numeral.context}"))
        elif entry.given is not None:
            if not entry.given.strip():
                problems.append(Problem(numeral.line, f"{numeral.text} is declared a given without a reason"))
            elif not entry.value or not numerals.rounds_to(numerals.value_of(entry.value), numeral.text):
                problems.append(
                    Problem(
                        numeral.line,
                        f"{numeral.text} is written, the ledger gives it as {entry.value or '?'}"
                        f" ({entry.given})",
                    )
                )
        elif isinstance(quote := resolve(entry, outputs), str):
            problems.append(Problem(numeral.line, f"{numeral.text} quotes nothing now: {quote}"))
        elif not numerals.rounds_to(numerals.value_of(quote.value), numeral.text):
            problems.append(
                Problem(
                    numeral.line,
                    f"{numeral.text} is written, {quote.value} is computed now, at {quote.describe()}",
                )
            )
    for entry in unused:
        problems.append(
            Problem(1, f"the ledger binds a numeral the page no longer writes: {entry.at}", ledger_name)
        )
    return sorted(problems, key=lambda p: (p.where, p.line))


def ledger_path(page: Path) -> Path:
    return page.with_name(f"{page.stem}.numbers.yml")


def _number_and_text(value: Any) -> tuple[int | None, str]:
    if value is None:
        return None, ""
    if isinstance(value, int):
        return value, ""
    number, _, text = str(value).partition("|")
    return int(number.strip()), text.strip()


def load_ledger(path: Path) -> list[Entry]:
    """A page's ledger, or no entries if it has none yet."""
    if not path.exists():
        return []
    loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    entries = []
    for item in loaded:
        block, head = _number_and_text(item.get("block"))
        line, text = _number_and_text(item.get("line"))
        given = item.get("given")
        entries.append(
            Entry(
                str(item["at"]),
                block,
                head,
                line,
                text,
                item.get("field"),
                None if given is None else str(given),
                str(item.get("value", "")),
            )
        )
    return entries


def _scalar(text: str) -> str:
    """A YAML scalar: plain where that reads back the same, double-quoted where it would not."""
    dumped: str = yaml.safe_dump(text, allow_unicode=True, width=10_000, default_style=None)
    dumped = dumped.removesuffix("\n...\n").rstrip("\n")
    return dumped


def dump_ledger(entries: Iterable[Entry], page: str) -> str:
    """The ledger as text: one entry per numeral, in the order the page writes them."""
    out = [
        f'# What each numeral of {page} quotes (see docs/contributing.md, "Numbers are bound").',
        "# Checked on every build; `nox -s renumber` rewrites it.",
    ]
    for entry in entries:
        out.append(f"- at: {_scalar(entry.at)}")
        if entry.given is not None:
            out.append(f"  value: {_scalar(entry.value)}")
            out.append(f"  given: {_scalar(entry.given)}")
            continue
        out.append(f"  block: {_scalar(f'{entry.block} | {entry.head}' if entry.head else str(entry.block))}")
        out.append(f"  line: {_scalar(f'{entry.line} | {entry.text}' if entry.text else str(entry.line))}")
        out.append(f"  field: {entry.field}")
    return "\n".join(out) + "\n"


def alike(entry: Entry, other: Entry) -> bool:
    """Whether two entries bind the same way and differ, if at all, only in the numbers of their
    words and quoted text."""
    return (
        _normal(entry.at) == _normal(other.at)
        and _shape(entry.text) == _shape(other.text)
        and _shape(entry.head) == _shape(other.head)
        and (entry.block, entry.line, entry.field, entry.given, entry.value)
        == (other.block, other.line, other.field, other.given, other.value)
    )


def bound(entry: Entry, quote: Quote) -> Entry:
    """The entry restated with where its quote is found now."""
    kept = excerpt(quote.text, quote.field) or quote.text
    return replace(entry, block=quote.block, head=quote.head, line=quote.line, text=kept, field=quote.field)
