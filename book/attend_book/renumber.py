"""`nox -s renumber`: bring every page's numerals back to what the code prints now.

For each page it runs the page's fences, then

* rewrites every bound numeral whose value moved to the value its quote prints now, at the
  precision it is written to, and then every worked equation whose operands moved;
* binds each new numeral whose source is unambiguous: of the printed numbers with its value,
  the one best aligned with the numerals written beside it (the run `(0, 3, 0.5, 0)` against a
  printed row), then on the same line as its neighbours' quotes, then sharing most words;
* drops ledger entries nothing on the page writes any more, and restates a kept entry's words
  and quoted line as they are now where they changed in more than their numbers;

and prints each change as `page:line old → new`, each numeral it could not bind with its
candidates, and each it could not rewrite. Run twice, the second run changes nothing.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import takewhile
from pathlib import Path

from attend_book import binding, numerals
from attend_book.binding import Entry, Outputs, Quote, shape, unnumbered
from attend_book.cache import FOLDER, Cache, build_versions, fingerprint, source_roots
from attend_book.numerals import Numeral
from attend_book.run import Block, FenceError

Scored = tuple[tuple[int, ...], Quote]  # a candidate's score, and the quote it would make
_WORD = re.compile(r"[A-Za-z]{3,}")
# Words too common to say which printed line a sentence is about.
_COMMON = frozenset({
    "the", "and", "for", "its", "that", "this", "with", "from", "are", "was", "not", "but",
    "has", "have", "one", "two", "all", "any", "each", "every", "into", "than", "then", "what",
    "which", "when", "where", "who", "how", "out", "use", "per", "let", "got", "gets", "get",
})  # fmt: skip


@dataclass
class Report:
    """What one run changed and what it left for a person."""

    changes: list[str] = field(default_factory=list)
    bound: list[str] = field(default_factory=list)
    unbound: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)


def restate(printed: str, written: str) -> str:
    """`printed` written the way `written` is: its decimals, its minus sign, its grouping."""
    value = numerals.value_of(printed)
    places = numerals.decimals(written)
    if places == 0 and value != round(value):
        places = numerals.decimals(printed)
    text = f"{value:,.{places}f}" if "," in written else f"{value:.{places}f}"
    if "." in text and not written.endswith("0") and places < 4:
        # Written short ("3.125", not "3.1250"), so kept short; four places is how the tables
        # print, and a numeral written to four places keeps them.
        text = text.rstrip("0").rstrip(".")
    return text.replace("-", "−") if written.startswith("−") else text


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - _COMMON


def _word_before(text: str, end: int) -> str:
    """The word right before position `end` ("token" in "token 3"), or "" if something else is."""
    found = re.search(r"([A-Za-z]{2,})[^\w\n]{0,2}$", text[:end])
    return found.group(1).lower().removesuffix("s") if found else ""


def _agreeing(printed: Sequence[str], written: Sequence[str]) -> int:
    """How many printed values, from the first, read as the written numerals beside them."""
    pairs = zip(printed, written, strict=False)  # as far as both go
    return len(list(takewhile(lambda p: numerals.rounds_to(numerals.value_of(p[0]), p[1]), pairs)))


def candidates(numeral: Numeral, outputs: Outputs, near: Sequence[Quote] = ()) -> list[Scored]:
    """Every printed number the numeral could quote, each with its score, best first.

    The score, compared in this order: how many of the numerals written in a run with it line
    up with consecutive printed numbers around the candidate; whether the word before it is the
    word printed before the candidate ("token 3" quoting "token 3"); how many neighbours'
    quotes sit on the same line; how many words its context shares with the line and its
    block's first line; and, last, how near the block is to it on the page.
    """
    mine = _words(numeral.context)
    label = _word_before(numeral.context, numeral.context.find("["))
    run, place = numeral.run or (numeral.text,), numeral.place
    scored = []
    for b, head in enumerate(outputs.heads, 1):
        distance = abs(numeral.line - outputs.opens[b - 1])
        for n, line in enumerate(outputs.lines[b - 1], 1):
            found = list(numerals.PRINTED.finditer(line))
            fields = [m.group(0) for m in found]
            for f, value in enumerate(fields, 1):
                if not numerals.rounds_to(numerals.value_of(value), numeral.text):
                    continue
                after = _agreeing(fields[f:], run[place + 1 :])
                before = _agreeing(fields[: f - 1][::-1], run[:place][::-1])
                beside = sum((q.block, q.line) == (b, n) for q in near)
                labelled = int(bool(label) and _word_before(line, found[f - 1].start()) == label)
                overlap = len(mine & _words(f"{line} {head}"))
                score = (1 + before + after, labelled, beside, overlap, -distance)
                scored.append((score, Quote(b, head, n, " ".join(line.split()), f, value)))
    return sorted(scored, key=lambda s: s[0], reverse=True)


def best(numeral: Numeral, outputs: Outputs, near: Sequence[Quote], guess: bool) -> Quote | None:
    """The candidate to bind, or None when the evidence does not single one out: the only printed
    number with the numeral's value, or the one ahead of every other on the run, the neighbours,
    the label and the shared words (not nearness). With `guess`, the top one, nearness and all."""
    scored = candidates(numeral, outputs, near)
    if not scored:
        return None
    if guess or len(scored) == 1:
        return scored[0][1]
    top, second = scored[0][0][:4], scored[1][0][:4]
    strong = top[0] >= 2 or top[1] >= 1 or top[2] >= 1 or top[3] >= 2
    return scored[0][1] if top > second and strong else None


def _same_words(numeral: Numeral, entry: Entry, found: Sequence[Numeral]) -> bool:
    """Whether the entry names the numeral beyond doubt: by its words exactly, or by its words
    with numbers aside where no other numeral of the page has those words. A pair `match` made
    on less (rows of a table read alike once their numbers are set aside) may be the wrong one."""
    if entry.at == numeral.context:
        return True
    mine = unnumbered(numeral.context)
    return unnumbered(entry.at) == mine and sum(unnumbered(n.context) == mine for n in found) == 1


def _restated(entry: Entry, context: str, quote: Quote | str | None) -> Entry:
    """The entry with the numeral's words and its quote as they are now, or as it was written
    where the two differ only in numbers: a value that moved changes the page, not the ledger,
    so a diff shows only the numerals."""
    fresh = replace(entry, at=context)
    if isinstance(quote, Quote):
        fresh = _bound(fresh, quote)
    alike = (
        unnumbered(entry.at) == unnumbered(fresh.at)
        and (shape(entry.text), shape(entry.head)) == (shape(fresh.text), shape(fresh.head))
        and (entry.block, entry.line, entry.field) == (fresh.block, fresh.line, fresh.field)
    )
    return entry if alike else fresh


def _bound(entry: Entry, quote: Quote) -> Entry:
    kept = binding.excerpt(quote.text, quote.field) or quote.text
    return replace(entry, block=quote.block, head=quote.head, line=quote.line, text=kept, field=quote.field)


def _rewrite(markdown: str, edits: list[tuple[Numeral, str]], report: Report, page: str) -> str:
    lines = markdown.split("\n")
    changes: list[str] = []
    for numeral, new in sorted(edits, key=lambda e: (e[0].line, e[0].column or 0), reverse=True):
        text = lines[numeral.line - 1]
        column = numeral.column
        if column is None or text[column : column + len(numeral.text)] != numeral.text:
            report.unbound.append(
                f"{page}:{numeral.line}: {numeral.text} should now read {new}, but it is not written "
                f"on that line as such (a caption or alt text drawn by code?): {numeral.context}"
            )
            continue
        lines[numeral.line - 1] = text[:column] + new + text[column + len(numeral.text) :]
        changes.append(f"{page}:{numeral.line} {numeral.text} → {new}")
    report.changes += reversed(changes)  # made right to left, so that columns stay true
    return "\n".join(lines)


def _equations(markdown: str, outputs: Outputs, report: Report, page: str) -> str:
    """Rewrite the result of every worked equation whose operands moved, until all hold."""
    for _ in range(3):
        edits = []
        for numeral in binding.page_numerals(markdown, outputs):
            if numeral.equation is None:
                continue
            try:
                value = numerals.evaluate(numeral.equation.left)
            except (ArithmeticError, ValueError, SyntaxError):
                continue  # the check reports it; there is no value to write
            if not numerals.rounds_to(value, numeral.text):
                edits.append((numeral, restate(repr(round(value, 12)), numeral.text)))
        if not edits:
            break
        markdown = _rewrite(markdown, edits, report, page)
    return markdown


def renumber(
    page: str, markdown: str, blocks: Sequence[Block], entries: Sequence[Entry], guess: bool = False
) -> tuple[str, list[Entry], Report]:
    """The page and its ledger brought up to date with `blocks`, and what was done."""
    report = Report()
    outputs, found, pairs, unused = binding.read(markdown, blocks, entries)
    quotes = {i: binding.resolve(entry, outputs) for i, entry in pairs.items() if entry.given is None}
    report.dropped = [f"{page}: dropped the binding of a numeral no longer written: {e.at}" for e in unused]
    edits = []
    for i, quote in quotes.items():
        numeral = found[i]
        if isinstance(quote, str):
            report.unbound.append(f"{page}:{numeral.line}: {numeral.text} quotes nothing now: {quote}")
        elif not numerals.rounds_to(numerals.value_of(quote.value), numeral.text):
            if quote.found_again or not _same_words(numeral, pairs[i], found):
                # The binding was found again, not where it was made: rewriting prose on a
                # guess could turn a right number wrong, so a person looks first.
                report.unbound.append(
                    f"{page}:{numeral.line}: {numeral.text} reads {quote.value} at {quote.describe()} now, "
                    f"but its binding had to be found again ({numeral.context}): check it, then rerun"
                )
            else:
                edits.append((numeral, restate(quote.value, numeral.text)))
    markdown = _equations(_rewrite(markdown, edits, report, page), outputs, report, page)
    after = binding.page_numerals(markdown, outputs)
    assert len(after) == len(found), "a rewrite changed how many numerals the page has"
    kept = {i: _restated(entry, after[i].context, quotes.get(i)) for i, entry in pairs.items()}
    placed = {i: quote for i, quote in quotes.items() if isinstance(quote, Quote)}
    for _ in range(2):  # a second pass can lean on the quotes the first one found
        for i, numeral in enumerate(after):
            if numeral.equation is not None or i in kept:
                continue
            near = [q for j, q in placed.items() if abs(after[j].line - numeral.line) <= 1]
            if (chosen := best(numeral, outputs, near, guess)) is not None:
                kept[i], placed[i] = _bound(Entry(numeral.context), chosen), chosen
                report.bound.append(f"{page}:{numeral.line} {numeral.text} bound to {chosen.describe()}")
    for i, numeral in enumerate(after):
        if numeral.equation is None and i not in kept:
            options = candidates(numeral, outputs)
            listed = "; ".join(q.describe() for _, q in options[:4])
            report.unbound.append(
                f"{page}:{numeral.line}: {numeral.text} could not be bound ({len(options)} candidates"
                f"{': ' + listed if listed else ''}): {numeral.context}"
            )
    report.changes.sort(key=lambda change: int(change.split(" ", 1)[0].rsplit(":", 1)[1]))
    return markdown, [kept[i] for i in sorted(kept)], report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="renumber", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("pages", nargs="*", type=Path, help="the pages to renumber (default: all in --docs)")
    parser.add_argument("--docs", type=Path, default=Path("docs"), help="the book's page directory")
    parser.add_argument(
        "--guess",
        action="store_true",
        help="bind every new numeral to its best candidate even when others score as well "
        "(a first pass over a new page: review every entry it writes)",
    )
    args = parser.parse_args(argv)
    # The build's own cache: a page whose code did not change is not run again, and what runs
    # here is not run again by the next build either.
    outputs = Cache(Path(FOLDER), fingerprint(source_roots(), build_versions()))
    status = 0
    for path in args.pages or sorted(args.docs.glob("*.md")):
        name, markdown = path.as_posix(), path.read_text(encoding="utf-8")
        try:
            blocks = outputs.page(name, markdown).blocks
        except FenceError as failure:
            print(failure, file=sys.stderr)
            status = 1
            continue
        ledger = binding.ledger_path(path)
        new, entries, report = renumber(name, markdown, blocks, binding.load_ledger(ledger), args.guess)
        if new != markdown:
            path.write_text(new, encoding="utf-8")
        text = binding.dump_ledger(entries, path.name)
        if entries and (not ledger.exists() or ledger.read_text(encoding="utf-8") != text):
            ledger.write_text(text, encoding="utf-8")
        for line in (*report.changes, *report.bound, *report.dropped, *report.unbound):
            print(line)
        if report.unbound:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
