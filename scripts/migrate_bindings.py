"""Rewrite pages from the old binding syntax to the one the number check reads now.

    python scripts/migrate_bindings.py docs/*.md docs/workbench.py README.md

Three rewrites, each only where it keeps every number bound to what it was bound to:

* a given, `three{given: W_Q, W_K and W_V}`, becomes a given declared once in the page's
  front matter, `givens: {query_key: [3, "W_Q, W_K and W_V"]}`, and a use, `three{= query_key}`
  (a given the book's mkdocs.yml declares with the same value and reason is used by its name);
* the bindings inside a math span move after it, one for the span's numbers in order:
  `$e^{1.5625{= s2[0]}}$` becomes `$e^{1.5625}${= s2[0]}`;
* a worked sum whose every operand is bound takes one binding in the sum's shape:
  `0.5{= a}×0.25{= b} = 0.125{= a * b}` becomes `0.5×0.25 = 0.125{= a * b}`, and where the
  result is bound to a value of its own, `… = 0.75{= a * b == run.raw[1, 2]}`.

What a reader sees does not change (each page is checked for that before it is written); a page
already (partly) in the new syntax is left as it is where it is; a second run changes nothing.
What cannot be rewritten is left as it is, with one line `page:line: why`. Exit status 1 then.
"""

from __future__ import annotations

import ast
import keyword
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from attend_book import shapes
from attend_book.declared import DeclarationError, Declared, Given, front_matter, givens_of, of_mkdocs
from attend_book.markdown import FRONT, fences
from attend_book.notebooks import prose_of
from attend_book.reading import BRACE, Binding, Reading, read, strip

_SKIPPED = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "to",
        "and",
        "or",
        "for",
        "by",
        "is",
        "are",
        "be",
        "as",
        "at",
        "its",
        "it",
        "this",
        "that",
        "with",
        "from",
        "each",
        "every",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "both",
    ]
)


@dataclass
class Page:
    """One file being rewritten: its text, where each line starts, what it declares."""

    name: str
    text: str
    book: Declared
    python: bool  # a jupytext script: its Markdown cells are the prose
    added: dict[str, Given] = field(default_factory=dict)
    left: list[str] = field(default_factory=list)

    def reading(self) -> Reading:
        return read(prose_of(self.text) if self.python else self.text, self.book)

    def offset(self, line: int, column: int) -> int:
        starts = [0, *(m.end() for m in re.finditer("\n", self.text))]
        return starts[line - 1] + column

    def brace_after(self, line: int, column: int) -> re.Match[str] | None:
        return BRACE.match(self.text, self.offset(line, column))

    def leave(self, line: int, why: str) -> None:
        self.left.append(f"{self.name}:{line}: {why}")

    def edit(self, edits: Iterable[tuple[int, int, str]]) -> None:
        """Each (start, end, new) applied, from the end of the text back."""
        for start, end, new in sorted(edits, reverse=True):
            self.text = self.text[:start] + new + self.text[end:]

    def declared(self) -> dict[str, Given]:
        try:
            own = givens_of(front_matter(self.text).get("givens"), "front matter")
        except DeclarationError:
            own = {}
        return {**self.book.givens, **own, **self.added}

    def taken(self) -> set[str]:
        """Every name the page's code or bindings use: a given must not hide one."""
        sources = [f.body for f in fences(self.text)] + [
            m["expression"] or "" for m in BRACE.finditer(self.text)
        ]
        names: set[str] = set()
        for source in sources:
            try:
                tree = ast.parse(source.strip())
            except SyntaxError:  # a transcript, or code the page shows without running
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Name):
                    names.add(node.id)
                elif isinstance(node, ast.FunctionDef | ast.ClassDef | ast.arg | ast.alias):
                    names.add(getattr(node, "name", None) or getattr(node, "arg", None) or "")
                    names.add(getattr(node, "asname", None) or "")
        return names

    def name_for(self, value: float, reason: str) -> str:
        """The given declared with this value and reason, or a new one named from the reason."""
        known = self.declared()
        for name, given in known.items():
            if given == Given(value, reason):
                return name
        words = [w for w in re.findall(r"[a-z][a-z0-9]+", reason.lower()) if w not in _SKIPPED]
        stem = "_".join(words[:2])[:20].strip("_") or "given"
        stem = stem if stem.isidentifier() and not keyword.iskeyword(stem) else f"given_{stem}"
        taken, name, n = self.taken() | set(known), stem, 1
        while name in taken:
            n += 1
            name = f"{stem}{n}"
        self.added[name] = Given(value, reason)
        return name


def givens(page: Page) -> None:
    """`{given: reason}` → `{= name}`, the given declared for the page."""
    edits = []
    for numeral, _ in page.reading().unvalued:
        brace = page.brace_after(numeral.line, numeral.column + len(numeral.text))
        if brace is None or brace["reason"] is None:
            page.leave(numeral.line, f"{numeral.text}{{given: …}}: a given of a group; declare it by hand")
            continue
        reason = " ".join(brace["reason"].split())  # as written: the reading blanks its code spans
        edits.append((brace.start(), brace.end(), f"{{= {page.name_for(numeral.value, reason)}}}"))
    page.edit(edits)


def _expression(binding: Binding) -> str:
    brace = BRACE.fullmatch(binding.brace)
    assert brace is not None and brace["expression"] is not None, binding.brace
    return " ".join(brace["expression"].split())


def maths(page: Page) -> None:
    """The bindings inside each math span moved after it, one for its numbers in order."""
    found = page.reading()
    for line, column, end_line, end_column in reversed(found.maths):  # from the end: offsets stay true
        start, end = page.offset(line, column), page.offset(end_line, end_column)
        if not any(BRACE.finditer(page.text[start:end])):
            continue
        inside = [
            b for b in found.bindings if start <= page.offset(b.numerals[0].line, b.numerals[0].column) < end
        ]
        block = page.text.startswith("$$", start)  # bound on the line after it
        if not page.text.startswith("\n" if block else "$", end - 1):
            page.leave(line, "a math span the migration cannot find the end of: move its bindings by hand")
            continue
        unread = [
            p for p in found.problems if p.column is not None and start <= page.offset(p.line, p.column) < end
        ]
        unread = [p for p in unread if "is inside math" not in p.message]
        if unread or any(b.group for b in inside) or BRACE.match(page.text, end):
            page.leave(
                line, "a math span whose numbers are not each bound on their own: move its bindings by hand"
            )
            continue
        said = [_expression(b) for b in inside]
        edits = []
        for binding in inside:
            number = binding.numerals[0]
            brace = page.brace_after(number.line, number.column + len(number.text))
            assert brace is not None, binding
            edits.append((brace.start(), brace.end(), ""))
        one = f"{{= {said[0] if len(said) == 1 else '[' + ', '.join(said) + ']'}}}"
        edits.append((end, end, f"{one}\n" if block else one))
        kept = page.text
        page.edit(edits)
        if _bound(page.reading()) != _bound(found):
            page.text = kept
            page.leave(
                line, "a math span whose numbers would read differently unbound: move its bindings by hand"
            )


def sums(page: Page) -> None:
    """Each worked sum whose operands are each bound: one binding after its result."""
    found = page.reading()
    single = {(b.numerals[0].line, b.numerals[0].column): b for b in found.bindings if len(b.numerals) == 1}
    edits = []
    for worked in found.sums:
        operands = [single.get((t.line, t.column)) for t in worked.terms]
        result = single.get((worked.result.line, worked.result.column))
        braces = [page.brace_after(t.line, t.column + len(t.text)) for t in worked.terms]
        if result is None or not any(braces):
            continue  # one binding for the whole sum already, or none
        if not all(operands) or not all(braces):
            page.leave(worked.result.line, f"{worked.text}: an operand is unbound; bind the sum by hand")
            continue
        first = page.offset(worked.terms[0].line, worked.terms[0].column)
        last = page.offset(worked.terms[-1].line, worked.terms[-1].column) + len(worked.terms[-1].text)
        left, spans, at = BRACE.sub("", page.text[first:last]), [], 0
        for term in worked.terms:
            at = left.index(term.text, at)
            spans.append((at, at + len(term.text)))
            at += len(term.text)
        try:
            shape = shapes.written(left, spans)
            said = [_expression(b) for b in operands if b is not None]
            resolve = Declared(givens=page.declared()).resolve
            one = shapes.composed(shape, said, _expression(result), resolve)
        except (shapes.ShapeError, SyntaxError) as error:
            page.leave(worked.result.line, f"{worked.text}: {error}; bind the sum by hand")
            continue
        brace = page.brace_after(worked.result.line, worked.result.column + len(worked.result.text))
        assert brace is not None, worked
        edits += [(b.start(), b.end(), "") for b in braces if b is not None] + [
            (brace.start(), brace.end(), f"{{= {one}}}")
        ]
    page.edit(edits)


_LISTED = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")


def _sliced(expressions: list[str]) -> str:
    """`s2[0]`, `s2[1]`, `s2[2]` as `s2[:3]`, where they index one thing at consecutive places;
    else the list of them."""
    listed = f"[{', '.join(expressions)}]"
    trees = [ast.parse(e, mode="eval").body for e in expressions]
    if not all(isinstance(t, ast.Subscript) for t in trees):
        return listed
    parts = []
    for tree in trees:
        assert isinstance(tree, ast.Subscript)
        index = tree.slice.elts if isinstance(tree.slice, ast.Tuple) else [tree.slice]
        last = index[-1]
        if not (isinstance(last, ast.Constant) and type(last.value) is int):
            return listed
        parts.append((ast.dump(tree.value), [ast.dump(i) for i in index[:-1]], last.value))
    places = [p[2] for p in parts]
    if any(p[:2] != parts[0][:2] for p in parts) or places != list(range(places[0], places[0] + len(places))):
        return listed
    first = trees[0]
    assert isinstance(first, ast.Subscript)
    lower = None if places[0] == 0 else ast.Constant(places[0])
    cut = ast.Slice(lower, ast.Constant(places[-1] + 1))
    index = [*first.slice.elts[:-1], cut] if isinstance(first.slice, ast.Tuple) else [cut]
    made = ast.Subscript(first.value, ast.Tuple(index) if len(index) > 1 else cut, ast.Load())
    return ast.unparse(made)


def runs(page: Page) -> None:
    """Numbers written as a list, each bound on its own, bound by one binding after the last."""
    found = page.reading()
    summed = {(n.line, n.column) for s in found.sums for n in (*s.terms, s.result)}
    maths = [(page.offset(a, b), page.offset(c, d)) for a, b, c, d in found.maths]
    chains: list[list[tuple[Binding, re.Match[str]]]] = []
    singles = sorted(
        (b for b in found.bindings if len(b.numerals) == 1),
        key=lambda b: (b.numerals[0].line, b.numerals[0].column),
    )
    for binding in singles:
        number = binding.numerals[0]
        at = page.offset(number.line, number.column)
        brace = page.brace_after(number.line, number.column + len(number.text))
        alone = brace is None or (number.line, number.column) in summed or any(a <= at < b for a, b in maths)
        joined = chains and chains[-1] and _LISTED.fullmatch(page.text, chains[-1][-1][1].end(), at)
        if alone or not number.text[0].isdigit():
            chains.append([])
        elif joined:
            chains[-1].append((binding, brace))  # type: ignore[arg-type]
        else:
            chains.append([(binding, brace)])  # type: ignore[list-item]
    for chain in reversed(chains):  # from the end back: each chain's offsets stay true
        if len(chain) < 2:
            continue
        said = _sliced([_expression(b) for b, _ in chain])
        edits = [(brace.start(), brace.end(), "") for _, brace in chain[:-1]]
        edits.append((chain[-1][1].start(), chain[-1][1].end(), f"{{= {said}}}"))
        kept = page.text
        page.edit(edits)
        if _bound(page.reading()) != _bound(found):  # part of a longer list, or after a label
            page.text = kept


def _bound(found: Reading) -> list[tuple[str, bool]]:
    """Every bound or labelled number, in reading order, and whether it is a label: what a
    rewrite must keep."""
    numbers = [(n, False) for b in found.bindings for n in b.numerals]
    numbers += [(numeral, False) for numeral, _ in found.unvalued]
    numbers += [(label.numeral, True) for label in found.labels]
    return [(n.text, label) for n, label in sorted(numbers, key=lambda x: (x[0].line, x[0].column))]


def declare(page: Page) -> None:
    """The givens named on this run written into the page's front matter."""
    if not page.added:
        return
    entries = [f"  {name}: [{_number(g.value)}, {_quoted(g.reason)}]" for name, g in page.added.items()]
    front = FRONT.match(page.text)
    if front is None:
        for name in page.added:
            page.leave(1, f"the given {name} needs front matter (or mkdocs.yml's givens): declare it by hand")
        return
    lines = front.group(0).split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith("givens:")), None)
    if at is None:
        lines[-2:-2] = ["givens:", *entries]
    elif lines[at].strip() != "givens:":
        page.leave(at + 1, "the front matter's givens are not one a line: add the new ones by hand")
        return
    else:
        end = at + 1
        while end < len(lines) and lines[end].startswith((" ", "\t")):
            end += 1
        lines[end:end] = entries
    page.text = "\n".join(lines) + page.text[front.end() :]


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else repr(value)


def _quoted(reason: str) -> str:
    return '"' + reason.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _seen(text: str, python: bool) -> str:
    """What a reader sees of a page, front matter aside."""
    prose = prose_of(text) if python else text
    body = FRONT.sub("", prose, count=1)
    return re.sub(r"\n\s*\n", "\n\n", strip(body))  # a math block's binding leaves a blank line


def migrate(path: Path, book: Declared) -> tuple[str, list[str]]:
    """The file rewritten, and a line for each thing left for a person."""
    text = path.read_text(encoding="utf-8")
    page = Page(path.as_posix(), text, book, path.suffix == ".py")
    before = page.reading()
    givens(page)
    maths(page)
    sums(page)
    runs(page)
    declare(page)
    if _seen(page.text, page.python) != _seen(text, page.python):
        return text, [f"{page.name}:1: rewriting would change what a reader sees; nothing written"]
    after = page.reading()
    if _bound(after) != _bound(before) or len(after.problems) > len(before.problems):
        return text, [f"{page.name}:1: rewriting would unbind a number; nothing written"]
    try:  # the rewritten front matter must still be YAML
        front_matter(page.text)
    except DeclarationError as error:
        return text, [f"{page.name}:1: {error}; nothing written"]
    return page.text, page.left


def main(argv: list[str]) -> int:
    book = of_mkdocs(Path("mkdocs.yml"), "attend-book")
    status = 0
    for name in argv:
        path = Path(name)
        try:
            new, left = migrate(path, book)
            if new != path.read_text(encoding="utf-8"):
                path.write_text(new, encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            left = [f"{name}:1: {error}"]
        for line in left:
            print(line)
        status = max(status, int(bool(left)))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
