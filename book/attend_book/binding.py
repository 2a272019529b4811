"""Each numeral of a page bound to the one printed value it quotes, and the check of every binding.

A page's ledger, `docs/<page>.numbers.yml`, names each numeral by the words around it (`at`,
the numeral in brackets), never by line number, so that an edit above it does not disturb it,
and says what it quotes:

    - at: total [3.125]. Token 2's
      block: 2 | from attend import chapter_head, chapter_row
      line: 7 | "0" [3.1250] 0.0000 0.7500
      field: 2

the second number of line 7 printed by the page's second executed block, whose first source
line is shown, and the quoted line as it read when the binding was made. A `given` entry holds
instead the value the numeral must read and why nothing prints it. `block` and `line` may be
bare numbers written by hand; `nox -s renumber` fills in the text.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from attend_book import numerals
from attend_book.markdown import fences
from attend_book.numerals import Numeral
from attend_book.run import Block


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
    opens: list[int] = field(default_factory=list)  # the line each block's fence opens on
    lines: list[list[str]] = field(default_factory=list)
    figures: list[tuple[int, str]] = field(default_factory=list)  # (fence line, html)


def _collapse(text: str) -> str:
    return " ".join(text.split())


# A page's lines are read once per entry that quotes its block: these two are asked the same
# questions hundreds of times per check, so they remember their answers.
@functools.lru_cache(maxsize=1 << 16)
def shape(text: str) -> str:
    """A printed line with its numbers taken out: what stays when values move."""
    return re.sub(r"#+", "#", numerals.NUMBERS.sub("#", _collapse(text)))


def sources(markdown: str, blocks: Sequence[Block]) -> Outputs:
    """What each block of the page lets a numeral quote, in block order."""
    heads = {
        fence.line: _collapse(next(filter(str.strip, fence.body.splitlines()), ""))
        for fence in fences(markdown)
    }
    out = Outputs()
    for block in blocks:
        out.heads.append(heads.get(block.line, ""))
        out.opens.append(block.line)
        if block.html and "<figure" in block.text:
            out.lines.append(numerals.figure_lines(block.text) + (block.data or "").splitlines())
            out.figures.append((block.line, block.text))
        else:
            out.lines.append(block.text.splitlines())
    return out


def page_numerals(markdown: str, outputs: Outputs) -> list[Numeral]:
    """Every numeral the reader of the page sees: its Markdown's, then its figures' words."""
    figures = [numeral for line, html in outputs.figures for numeral in numerals.figure_prose(html, line)]
    return numerals.read(markdown) + figures


def read(
    markdown: str, blocks: Sequence[Block], ledger: Sequence[Entry]
) -> tuple[Outputs, list[Numeral], dict[int, Entry], list[Entry]]:
    """A page read against its blocks' output and its ledger, as the check and renumber both
    start: what it prints, its numerals, the entry of each numeral `match` pairs, the rest."""
    outputs = sources(markdown, blocks)
    found = page_numerals(markdown, outputs)
    return outputs, found, *match(found, ledger)


def _only(*options: list[int]) -> int | None:
    """The one member of the first list that has exactly one."""
    return next((found[0] for found in options if len(found) == 1), None)


def resolve(entry: Entry, outputs: Outputs) -> Quote | str:
    """The printed value an entry quotes now, or why it quotes nothing any more."""
    if entry.block is None or entry.line is None or entry.field is None:
        return "the binding names no block, line and field"
    heads, index = outputs.heads, entry.block
    head_moved = bool(entry.head) and not (
        0 < index <= len(heads) and shape(heads[index - 1]) == shape(entry.head)
    )
    if head_moved:
        same = [i for i, head in enumerate(heads, 1) if head == entry.head]
        alike = [i for i, head in enumerate(heads, 1) if shape(head) == shape(entry.head)]
        moved_to = _only(same, alike)
        if moved_to is not None:
            index = moved_to
        elif not (  # a block whose first line was edited still counts if it prints the quoted words
            0 < index <= len(outputs.lines)
            and 0 < entry.line <= len(outputs.lines[index - 1])
            and excerpt(outputs.lines[index - 1][entry.line - 1], entry.field) == entry.text
        ):
            return f"no block begins `{entry.head}` any more"
    if not 0 < index <= len(outputs.lines):
        return f"the page has no block {index}"
    lines, head = outputs.lines[index - 1], heads[index - 1]
    number = entry.line
    if entry.text:
        kept = [excerpt(line, entry.field) or "" for line in lines]
        fits = [n for n, text in enumerate(kept, 1) if shape(text) == shape(entry.text)]
        if number not in fits:
            found = _only([n for n in fits if _collapse(kept[n - 1]) == entry.text], fits)
            if found is None:
                return f'block {index} ({head}) prints no line like "{entry.text}" any more'
            number = found
    if not 0 < number <= len(lines):
        return f"block {index} ({head}) has no line {number}"
    text = _collapse(lines[number - 1])
    fields = numerals.printed_numbers(lines[number - 1])
    if not 0 < entry.field <= len(fields):
        return f'line {number} of block {index} has no field {entry.field}: "{text}"'
    moved = (index, number) != (entry.block, entry.line) or head_moved
    return Quote(index, head, number, text, entry.field, fields[entry.field - 1], moved)


@functools.lru_cache(maxsize=1 << 16)
def excerpt(line: str, field: int) -> str | None:
    """The quoted number in brackets with two words either side, as the ledger keeps a quoted
    line: enough to find the line again if it moves, short enough to read at a glance."""
    found = list(numerals.PRINTED.finditer(line))
    if not 0 < field <= len(found):
        return None
    return numerals.bracketed(line, *found[field - 1].span(), 2)


def unnumbered(context: str) -> str:
    """A numeral's words with every number, and any `(#2)` that tells repeats apart, as `#`."""
    return numerals.NUMBERS.sub("#", re.sub(r" \(#\d+\)$", "", context))


def match(found: Sequence[Numeral], entries: Sequence[Entry]) -> tuple[dict[int, Entry], list[Entry]]:
    """Pair the page's numerals with ledger entries: by their words exactly, then with numbers
    disregarded (a numeral or its neighbours rewritten), then by words contained one in the other
    (the page grew or lost a numeral nearby), then by the most words shared. Returns the pairs by
    numeral index, and the entries nothing on the page matches."""
    pairs: dict[int, Entry] = {}
    left = list(entries)
    wanted = [i for i, n in enumerate(found) if n.equation is None]
    for key in (lambda s: s, unnumbered):
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
    for pick in (_containing, _sharing_most_words):
        for i in wanted:
            if i not in pairs and (hit := pick(found[i].context, left)) is not None:
                pairs[i] = hit
                left.remove(hit)
    return pairs, left


def _containing(context: str, entries: list[Entry]) -> Entry | None:
    """The one entry whose words contain the numeral's or are contained in them, numbers aside."""
    mine = unnumbered(context)
    hits = [e for e in entries if unnumbered(e.at) in mine or mine in unnumbered(e.at)]
    return hits[0] if len(hits) == 1 else None


def _sharing_most_words(context: str, entries: list[Entry]) -> Entry | None:
    """The entry of the same numeral that shares the most words with it, three at least, if one
    shares more than every other."""
    words = _tokens(context)
    shared = [(sum((words & _tokens(e.at)).values()), e) for e in entries if _core(e.at) == _core(context)]
    shared.sort(key=lambda pair: pair[0], reverse=True)
    if shared and shared[0][0] >= 3 and (len(shared) == 1 or shared[1][0] < shared[0][0]):
        return shared[0][1]
    return None


def _tokens(context: str) -> Counter[str]:
    return Counter(re.findall(r"\w+|#", unnumbered(context)))


def _core(context: str) -> str:
    """The bracketed numeral of a context with the characters glued to it, numbers taken out."""
    found = re.search(r"[\w'’]*\[[^\]]*\][\w'’]*", context)
    return unnumbered(found.group(0)) if found else ""


def check(markdown: str, blocks: Sequence[Block], ledger: Sequence[Entry], where: str = "") -> list[Problem]:
    """Every problem with the numbers of one page, in the order of its lines; `where` names the
    ledger, for the problems found in it."""
    outputs, found, pairs, unused = read(markdown, blocks, ledger)
    problems = [
        Problem(numeral.line, message)
        for i, numeral in enumerate(found)
        if (message := _problem(numeral, pairs.get(i), outputs)) is not None
    ]
    for entry in unused:
        message = f"the ledger binds a numeral the page no longer writes: {entry.at}"
        problems.append(Problem(1, message, where))
    return sorted(problems, key=lambda p: (p.where, p.line))


def _problem(numeral: Numeral, entry: Entry | None, outputs: Outputs) -> str | None:
    written = numeral.text
    if (equation := numeral.equation) is not None:
        try:
            value = numerals.evaluate(equation.left)
        except (ArithmeticError, ValueError, SyntaxError) as error:
            return f"{equation.text} cannot be worked out: {error}"
        if math.isfinite(value) and numerals.rounds_to(value, written):
            return None
        shown = f"{value:.6f}".rstrip("0").rstrip(".")
        return f"{equation.text} does not hold ({equation.left.strip()} is {shown})"
    if entry is None:
        return f"{written} is new and unbound: {numeral.context}"
    if entry.given is not None:
        if not entry.given.strip():
            return f"{written} is declared a given without a reason"
        if entry.value and numerals.rounds_to(numerals.value_of(entry.value), written):
            return None
        return f"{written} is written, the ledger gives it as {entry.value or '?'} ({entry.given})"
    quote = resolve(entry, outputs)
    if isinstance(quote, str):
        return f"{written} quotes nothing now: {quote}"
    if numerals.rounds_to(numerals.value_of(quote.value), written):
        return None
    return f"{written} is written, {quote.value} is computed now, at {quote.describe()}"


def ledger_path(page: Path) -> Path:
    return page.with_name(f"{page.stem}.numbers.yml")


def _number_and_text(value: Any) -> tuple[int | None, str]:
    """`7 | text` as a ledger writes a block or a line (or a bare 7, by hand): the two parts."""
    if value is None or isinstance(value, int):
        return value, ""
    number, _, text = str(value).partition("|")
    return int(number.strip()), text.strip()


def load_ledger(path: Path) -> list[Entry]:
    if not path.exists():
        return []
    return [
        Entry(
            str(item["at"]),
            *_number_and_text(item.get("block")),
            *_number_and_text(item.get("line")),
            item.get("field"),
            None if item.get("given") is None else str(item["given"]),
            str(item.get("value", "")),
        )
        for item in yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or []
    ]


# libyaml's safe loader where PyYAML was built with it: every build reads every ledger, and the
# pure-Python reader took a third of a prose edit's rebuild under `nox -s serve`.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def dump_ledger(entries: Iterable[Entry], page: str) -> str:
    items: list[dict[str, Any]] = []
    for entry in entries:
        if entry.given is not None:
            items.append({"at": entry.at, "value": entry.value, "given": entry.given})
        else:
            block = f"{entry.block} | {entry.head}" if entry.head else str(entry.block)
            line = f"{entry.line} | {entry.text}" if entry.text else str(entry.line)
            items.append({"at": entry.at, "block": block, "line": line, "field": entry.field})
    return (
        f'# What each numeral of {page} quotes (see docs/contributing.md, "Numbers are bound").\n'
        "# Checked on every build; `nox -s renumber` rewrites it.\n"
        + yaml.safe_dump(items, allow_unicode=True, sort_keys=False, width=10_000)
    )
