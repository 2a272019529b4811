"""The numbers a reader meets on a page, and what the page binds each one to.

A number is bound where it is written: `3.125{= table[1, 0]}`, a group
`(0, 3, 0.5, 0){= row}` or a list `1.5625, 0, 0.375 and 0{= scores}`, a number word
`sixteen{= table.size}`, a given by its declared name `twelve{= months}`. One binding after a
worked sum pairs its operands with the written ones (`0.5×0.25 = 0.125{= a[2] * b[2]}`,
`shapes.py`); one after a math span binds the span's numbers in order (`$e^{1.5625}${= scores[0]}`).
`read(markdown, book)` finds every number of headings, paragraphs, lists, tables, admonitions,
link and alt text, math and the front matter's title and description (markdown-it-py's block
tokens say which lines a reader sees; fences and code spans are code), with its line and column
in the file, and returns the bindings, the labels (`row 2`, held to the range its word is
declared with, `declared.py`), the worked sums and a `Problem` for each number that is neither
bound nor a label, and for each binding it cannot read. `strip` takes the bindings out for the
reader.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import groupby

from bound_numbers import shapes
from bound_numbers.declared import DeclarationError, Declared
from bound_numbers.declared import for_page as declared_for_page
from bound_numbers.markdown import INCLUDE
from bound_numbers.numerals import FRACTIONS, NUMBER, SUPERSCRIPTS, WORDS, WRITTEN, Numeral
from bound_numbers.page import FRONT, Page
from bound_numbers.values import Asked


@dataclass(frozen=True)
class Problem:
    """One line of the report; `column` counts from 0, None where a whole line is meant."""

    line: int
    message: str
    column: int | None = None
    renumbered: bool = False  # a moved number, which renumber rewrites
    cause: tuple[str, str] | None = None  # why a binding has no value, and the binding

    def render(self, page: str) -> str:
        return f"{page}:{self.line}:{'' if self.column is None else f'{self.column + 1}:'} {self.message}"


# Digits may have a unit joined on ("10ms", "58%", "3rd"); an x between digits is "times" ("4x4").
# Words ordinary language uses without stating a quantity ("compare two rows", "each one"):
# unbound, they are left alone; bound, they are checked like any number.
ORDINARY = frozenset({"zero", "one", "two"})
_NUMERAL = re.compile(
    rf"(?:(?<=\dx)|(?<![\w.,]))"
    rf"(?P<sign>(?<=[\s(\[])[−-])?(?P<digits>{WRITTEN}|[{''.join(FRACTIONS)}])(?!(?!x\d)\w|[.,]\d)"
    rf"|(?<![\d{SUPERSCRIPTS}])(?P<power>[{SUPERSCRIPTS}]+)(?!\w)"
    rf"|(?<![\w-])(?P<word>(?i:{WORDS}))(?!\w)"
)
# A number joined by hyphens to a word before it is part of a name ("GPT-2", "Llama-3.1-8B",
# "Qwen2.5-7B"), not a quantity; "a 5-10ms wait" is two quantities.
_NAMED = re.compile(r"[^\W\d][\w.]*-(?:[\w.]*-)*")
_BOLD = re.compile(r"\*+")
_QUOTED = re.compile(r"^[ \t]*(?:>[ \t]*)*")
_SPACED = re.compile(r"[ \t]+")
# The binding right after a number: `{= expression}`, or the old `{given: reason}` (read to be
# refused, and stripped); it may wrap.
BRACE = re.compile(r"\{(?:=(?P<expression>[^{}]*)|given:(?P<reason>[^{}]*))\}")
_GROUP = re.compile(rf"\((?:\s*[−-]?{NUMBER}\s*,)+\s*[−-]?{NUMBER}\s*\)")
# Numbers written as a list ("1.5625, 0, 0.375 and 0"), which one binding after the last may bind.
_LISTED = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")
# A label: an integer right after a label word (declared.py), or joined to such an integer ("rows
# 2 and 4", "steps 1, 2 or 3"); in a table, an integer alone in a column headed by one.
_JOIN = r"(?:\s*,\s*|\s+and\s+|\s+or\s+|\s+to\s+|\s*[–-]\s*)"
_TERM = rf"(?:√\s*)?{NUMBER}[{SUPERSCRIPTS}]*"
_OP = r"(?:\s*[×*·/÷+−-]\s*|\s+x\s+|(?<=\d)\s*x(?=\d))"  # "2x3", or "2{= a}x3" read as "2      x3"
_SUM = re.compile(
    rf"(?<![\w.])(?P<left>{_TERM}(?:{_OP}{_TERM})+)\s*(?P<relation>[=≈])\s*(?P<right>{NUMBER})(?![\w]|\.\d)"
)
# What of reader text is not read, blanked to spaces so that every offset stays a column of
# the file: code spans, tags and comments, link targets, attribute lists (`{: .class}`) and
# include lines; inline math is read as TeX (`_tex`).
CODE = r"(?P<ticks>`+).+?(?P=ticks)"
_HIDDEN = re.compile(
    rf"{CODE}|<(?:!--.*?--|/?[A-Za-z][^>]*)>|(?<=\])\([^()\s]*(?:\s+\"[^\"]*\")?\)|\{{\s*[:#.][^}}]*\}}"
    rf"|(?m:{INCLUDE.pattern})|(?<!\\)\$(?P<tex>[^$]+?)(?<!\\)\$",
    re.DOTALL,
)
_TEX = re.compile(rf"{BRACE.pattern}|\\(?P<command>[A-Za-z]+)|[\^_{{}}]|(?<=\d)[A-Za-z]")
_SYMBOLS = {"times": "×", "cdot": "·", "div": "÷", "sqrt": "√"}
_FRONT_KEYS = re.compile(r"^(?:title|description):[ \t]*['\"]?", re.MULTILINE)


@dataclass(frozen=True)
class Binding:
    """Numbers and the one expression written after them (or the part of a sum's that is theirs)."""

    numerals: tuple[Numeral, ...]
    expression: str  # what the page's namespace evaluates: each given's name replaced by its value
    brace: str  # the binding as written, for what the check says
    group: bool = False

    @property
    def written(self) -> str:
        texts = ", ".join(n.text for n in self.numerals)
        return f"({texts})" if self.group else texts

    @property
    def asked(self) -> Asked:
        """Its value, asked for where its first number is written."""
        first = self.numerals[0]
        return Asked(self.expression, first.line, first.column)


@dataclass(frozen=True)
class Label:
    """A position counted from 1 (`row 2`), and the expression for the last one there is."""

    numeral: Numeral
    word: str
    limit: str

    @property
    def asked(self) -> Asked:
        return Asked(self.limit, self.numeral.line, self.numeral.column)


@dataclass(frozen=True)
class Sum:
    """Worked arithmetic as written, `left = result` (or `≈`), and the numbers of its left side."""

    text: str
    left: str
    result: Numeral
    approximate: bool
    terms: tuple[Numeral, ...] = ()


@dataclass
class Reading:
    bindings: list[Binding] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    sums: list[Sum] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # Numbers bound the old way, `{given: reason}`, which holds them to nothing; a problem each.
    unvalued: list[tuple[Numeral, str]] = field(default_factory=list)
    maths: list[tuple[int, int, int, int]] = field(default_factory=list)  # line, column: start, end
    unclosed: list[Problem] = field(default_factory=list)  # fences: what is past them is unread

    @property
    def asked(self) -> list[Asked]:
        """The value of each binding and each label's range, where it is written, once each."""
        labels = (label.asked for label in self.labels)
        return list(dict.fromkeys([*(bound.asked for bound in self.bindings), *labels]))


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def _tex(tex: str) -> str:
    """TeX as the prose reads it, the same width, bindings kept: operators spelt out; commands,
    `^`, `_` and braces blank, so that a script is read like the rest (the 1.5625 of $e^{1.5625}$),
    and a letter right after a digit blank, so that a coefficient is read (the 2 of $2n$)."""

    def plain(match: re.Match[str]) -> str:
        kept = match["expression"] is not None or match["reason"] is not None
        return match.group(0) if kept else _SYMBOLS.get(match["command"] or "", "").ljust(len(match.group(0)))

    return _TEX.sub(plain, tex)


def _read_as_text(text: str) -> str:
    return _HIDDEN.sub(lambda m: f" {_tex(m['tex'])} " if m["tex"] else _blank(m), text)


def _unmarked(line: str, content: str) -> str:
    """The file's `line` with what comes before the parser's `content` of it (an indent, a list
    or quote marker) blanked."""
    ends = line.rstrip().endswith(content.rstrip())
    at = len(line.rstrip()) - len(content.rstrip()) if ends else max(line.find(content), 0)
    return " " * at + line[at:]


@dataclass(frozen=True)
class _Passage:
    """Lines of reader text (a paragraph, a heading, a table row, a math or an HTML block) as the
    file has them from `line` on, with what is not read blanked. `headers`: a row's column heads;
    `maths`: where each math span starts and ends (its dollars included)."""

    line: int
    text: str
    kind: str = "prose"
    headers: tuple[str, ...] = ()
    maths: tuple[tuple[int, int], ...] = ()

    def where(self, offset: int) -> tuple[int, int]:
        return self.line + self.text.count("\n", 0, offset), offset - self.text.rfind("\n", 0, offset) - 1


def _maths(text: str) -> tuple[tuple[int, int], ...]:
    return tuple((m.start(), m.end()) for m in _HIDDEN.finditer(text) if m["tex"])


def _passages(page: Page) -> Iterator[_Passage]:
    """markdown-it-py says which lines a reader sees as text; they are read where they are."""
    markdown = page.markdown
    lines = markdown.split("\n")
    if front := FRONT.match(markdown):
        for key in _FRONT_KEYS.finditer(front.group(0)):
            line, at = front.group(0).count("\n", 0, key.start()), key.end() - key.start()
            yield _Passage(line + 1, " " * at + lines[line][at:])
    headers: tuple[str, ...] | None = None  # inside a table: its column heads
    taken: dict[int, int] = {}  # a line after a math block: how much of it is the block's binding
    for token in page.tokens:
        first, end = token.map or (0, 0)
        if token.type == "table_open":
            headers = tuple(cell.strip().lower() for cell in _read_as_text(lines[first]).split("|"))
        elif token.type == "table_close":
            headers = None
        elif token.type == "tr_open" and headers is not None:
            row = lines[first]
            yield _Passage(first + 1, _read_as_text(row), "table", headers, _maths(row))
        elif token.type == "inline" and headers is None and token.map:
            said = "\n".join(map(_unmarked, lines[first:end], token.content.split("\n")))
            said = " " * taken.get(first, 0) + said[taken.get(first, 0) :]  # a math block's binding
            yield _Passage(first + 1, _read_as_text(said), maths=_maths(said))
        elif token.type == "math_block":
            # A `$$` block's numbers are bound on the line after it: `{= [a, b]}` alone there.
            block = "\n".join(lines[first:end])
            after = BRACE.match(lines[end]) if end < len(lines) else None
            taken[end] = after.end() if after else 0
            bound = f"{block}\n{lines[end][: after.end()]}" if after else block
            yield _Passage(first + 1, _tex(bound), "math", maths=((0, len(block) + 1),))
        elif token.type == "html_block":
            yield _Passage(first + 1, _read_as_text("\n".join(lines[first:end])), "html")


def _numeral_end(found: re.Match[str]) -> int:
    return found.end("digits") if found["digits"] else found.end()


@functools.lru_cache(maxsize=16)
def _labelled(words: tuple[str, ...]) -> re.Pattern[str]:
    """An integer right after a label word, or joined to such an integer ("rows 2 and 4")."""
    said = "|".join(map(re.escape, sorted(words, key=len, reverse=True))) or "(?!)"
    return re.compile(rf"(?i)\b(?P<word>{said})s?\s+(?P<run>\d+(?:{_JOIN}\d+)*)(?!\w|[.,]\d)")


def _constant(expression: str) -> bool:
    """Whether an expression names nothing, so that no change to the code can move its value."""
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return False
    return not any(isinstance(node, ast.Name) for node in ast.walk(tree))


def _listed(expression: str) -> bool:
    """Whether an expression is written as a list or tuple of values, one for each number."""
    try:
        return isinstance(ast.parse(expression.strip(), mode="eval").body, ast.List | ast.Tuple)
    except SyntaxError:
        return False


class _Reader:
    """One passage read into a `Reading`. Numbers are read in its text with the bindings blanked,
    so every offset is the passage's own: a binding starts where what it binds ends."""

    def __init__(self, passage: _Passage, reading: Reading, declared: Declared) -> None:
        self.passage, self.reading, self.declared = passage, reading, declared
        self.text = BRACE.sub(_blank, passage.text)
        self.braces = {brace.start(): brace for brace in BRACE.finditer(passage.text)}
        self.done: set[int] = set()  # where each number bound or reported already starts

    def numeral(self, found: re.Match[str]) -> Numeral:
        end = _numeral_end(found)
        return Numeral(*self.passage.where(found.start()), self.text[found.start() : end])

    def problem(self, start: int, message: str) -> None:
        line, column = self.passage.where(start)
        self.reading.problems.append(Problem(line, message, column))

    def expression(self, end: int, first: Numeral, start: int) -> tuple[str, str] | None:
        """The binding at `end`, taken: its expression as written and its brace, or None after
        the one line that says why it binds nothing."""
        brace = self.braces.pop(end)
        said = " ".join((brace["expression"] or "").split())
        if brace["reason"] is not None:
            self.reading.unvalued.append((first, " ".join(brace["reason"].split())))
            why = "has no value to hold it to: declare it under `givens:` (name: [value, reason]) "
            why += "and write {= name}"
            self.problem(start, f"{brace.group(0)} {why}")
        elif not said:
            self.problem(start, f"{brace.group(0)} binds {first.text} to nothing: write an expression")
        elif _constant(said):
            why = "names nothing, so it can never fail: bind it to what computes it, or declare a given"
            self.problem(start, f"{brace.group(0)} {why}")
        else:
            return said, brace.group(0)
        return None

    def bind(self, numerals: tuple[Numeral, ...], expression: str, brace: str, group: bool = False) -> None:
        self.reading.bindings.append(Binding(numerals, self.declared.resolve(expression), brace, group))

    def bind_sum(
        self, terms: list[re.Match[str]], left: tuple[int, int], result: re.Match[str], brace_at: int
    ) -> None:
        """The binding at `brace_at`, after a worked sum, paired with the sum's operands in order."""
        start = terms[0].start()
        found = self.expression(brace_at, self.numeral(result), start)
        self.done.update(m.start() for m in [*terms, result])
        if found is None:
            return
        expression, brace = found
        at = left[0]
        try:
            spans = [(m.start() - at, _numeral_end(m) - at) for m in terms]
            operands, total = shapes.paired(shapes.written(self.text[at : left[1]], spans), expression)
        except shapes.ShapeError as error:
            shown = " ".join(self.text[start : _numeral_end(result)].split())
            self.problem(start, f"{brace} {error} ({shown})")
            return
        for term, operand in zip(terms, operands, strict=True):
            self.bind((self.numeral(term),), operand, f"{{= {operand}}}")
        self.bind((self.numeral(result),), total, brace)

    def read(self) -> None:
        text, passage = self.text, self.passage
        named = (m.start() for m in _NUMERAL.finditer(text) if m["digits"] and _named(text, m.start()))
        self.done.update(named)  # "GPT-2": a name, not a quantity
        for start, end in passage.maths:
            self.reading.maths.append((*passage.where(start), *passage.where(end)))
        for at, brace in self.braces.items():
            if any(start < at < end for start, end in passage.maths):
                self.problem(
                    at, f"{brace.group(0)} is inside math: bind the span's numbers after it, in order"
                )
        for start, end in passage.maths:
            if end in self.braces:
                self.bind_math(start, end)
        for worked in _SUM.finditer(text):
            terms = [m for m in _NUMERAL.finditer(text, worked.start(), worked.end("left")) if m["digits"]]
            result = _NUMERAL.match(text, worked.start("right"))
            unbound = not any(_numeral_end(m) in self.braces for m in terms)
            if (
                result
                and _numeral_end(result) in self.braces
                and unbound
                and terms[0].start() not in self.done
            ):
                self.bind_sum(terms, (worked.start(), worked.end("left")), result, _numeral_end(result))
        for group in _GROUP.finditer(text):
            if group.end() in self.braces:
                members = [m for m in _NUMERAL.finditer(text, group.start(), group.end()) if m["digits"]]
                numerals = tuple(map(self.numeral, members))
                if found := self.expression(group.end(), numerals[0], group.start()):
                    self.bind(numerals, *found, group=True)
                self.done.update(m.start() for m in members)
        self.bind_runs()
        self.read_numbers()
        for brace in self.braces.values():
            why = "follows no number: a binding goes right after what it binds"
            self.problem(brace.start(), f"{brace.group(0)} {why}")
        for stray in re.finditer(r"\{(?:=|given:)", text):
            self.problem(stray.start(), "a binding with no closing } in its paragraph (or a brace inside it)")
        for worked in _SUM.finditer(text):
            result = _NUMERAL.match(text, worked.start("right"))
            assert result is not None  # the sum's pattern ends in a number
            shown = passage.text[worked.start() : worked.end()]
            written_sum, left = (" ".join(BRACE.sub("", part).split()) for part in (shown, worked["left"]))
            terms = [m for m in _NUMERAL.finditer(text, worked.start(), worked.end("left")) if m["digits"]]
            self.reading.sums.append(
                Sum(
                    written_sum,
                    left,
                    self.numeral(result),
                    worked["relation"] == "≈",
                    tuple(map(self.numeral, terms)),
                )
            )

    def bind_math(self, start: int, end: int) -> None:
        """The binding after a math span: its numbers in order, a worked sum's shape, or one."""
        members = list(_NUMERAL.finditer(self.text, start, end))
        if not members:
            self.problem(end, f"{self.braces.pop(end).group(0)} follows math with no number in it")
            return
        worked = _SUM.search(self.text, start, end)
        listed = _listed(self.braces[end]["expression"] or "")
        if (
            worked
            and not listed
            and worked.start() <= members[0].start()
            and worked.end() >= members[-1].end()
        ):
            self.bind_sum(members[:-1], (worked.start(), worked.end("left")), members[-1], end)
            return
        numerals = tuple(map(self.numeral, members))
        self.done.update(m.start() for m in members)
        if found := self.expression(end, numerals[0], start):
            self.bind(numerals, *found, group=len(numerals) > 1)

    def labels(self) -> dict[int, str]:
        """Where each integer that follows a label word starts, and the word."""
        return {
            run.start("run") + m.start(): run["word"].lower()
            for run in _labelled(tuple(self.declared.labels)).finditer(self.text)
            for m in re.finditer(r"\d+", run["run"])
        }

    def bind_runs(self) -> None:
        """A run of numbers written as a list, `1.5625, 0, 0.375 and 0{= s2}`, bound by the one
        binding after its last: the run's numbers, none bound or a label, in order."""
        labels = self.labels()
        free = [m for m in _NUMERAL.finditer(self.text) if m["digits"] and m.start() not in self.done]
        runs: list[list[re.Match[str]]] = []
        for found in free:
            joined = runs and _LISTED.fullmatch(self.text, _numeral_end(runs[-1][-1]), found.start())
            if joined:
                runs[-1].append(found)
            else:
                runs.append([found])
        for run in runs:
            *head, last = run
            if not head or _numeral_end(last) not in self.braces:
                continue
            if any(_numeral_end(m) in self.braces or m.start() in labels for m in head):
                continue
            numerals = tuple(map(self.numeral, run))
            if said := self.expression(_numeral_end(last), numerals[0], run[0].start()):
                self.bind(numerals, *said, group=True)
            self.done.update(m.start() for m in run)

    def read_numbers(self) -> None:
        text, passage = self.text, self.passage
        words = tuple(self.declared.labels)
        labels = self.labels()
        for found in _NUMERAL.finditer(text):
            if found.start() in self.done:
                continue
            written, end = self.numeral(found), _numeral_end(found)
            if bold := _BOLD.match(text, end):  # `**0.58**{= x}`: bound where the bold closes
                end = bold.end()
            if end in self.braces:
                if bound := self.expression(end, written, found.start()):
                    self.bind((written,), *bound)
                continue
            if (spaced := _SPACED.match(passage.text, end)) and spaced.end() in self.braces:
                spaced_out = self.braces.pop(spaced.end()).group(0)
                said = f"{written.text} {spaced_out} has a space before its binding: remove the space"
                self.problem(found.start(), said)
                continue
            if found["word"] and written.text.lower() in ORDINARY:
                continue
            word = labels.get(found.start()) or _table_label(passage, text, found, words)
            if passage.kind == "html":
                message = "is in raw HTML, which the check cannot read: write it in Markdown"
            elif word:
                if written.value >= 1 and written.value == round(written.value):
                    self.label(written, word, found.start())
                    continue
                message = "follows a label, but a label is a position counted from 1"
            elif written.unit:
                message = f"is not bound: bind it {{= …}} to {written.value:g}, the number as written before"
                message += f" {written.unit} (a given by its name), or make it a label"
            else:
                message = "is not bound: bind it {= …} (a given by its name) or make it a label"
            self.problem(found.start(), f"{written.text} {message}")

    def label(self, written: Numeral, word: str, start: int) -> None:
        limit = self.declared.labels.get(word)
        if limit is None:
            why = f"no range is declared for {word}: declare `labels: {{{word}: …}}` in the front matter"
            self.problem(start, f"{word} {written.text}: {why}")
        else:
            self.reading.labels.append(Label(written, word, self.declared.resolve(limit)))


def _named(text: str, start: int) -> bool:
    """Whether the number at `start` ends a run of hyphen-joined parts that begins with a letter."""
    before = re.search(r"[\w.-]*\Z", text[max(0, start - 40) : start])
    return bool(before and _NAMED.fullmatch(before.group(0)))


def _table_label(passage: _Passage, text: str, found: re.Match[str], words: tuple[str, ...]) -> str:
    """The label word heading the table column the number is alone in, or ""."""
    column = text.count("|", 0, found.start())
    head = passage.headers[column].rstrip("s") if column < len(passage.headers) else ""
    return head if head in words and text.split("|")[column].strip() == found.group(0) else ""


def read(page: Page | str, book: Declared | None = None) -> Reading:
    """Every binding, label, worked sum and unbound number of a page (or of Markdown text), in
    reading order; `book`: what the book declares for every page (its front matter may declare more)."""
    page = page if isinstance(page, Page) else Page("", page)
    markdown = page.markdown
    reading = Reading()
    declared = book or Declared()
    try:
        declared = declared_for_page(markdown, declared)
    except DeclarationError as error:
        reading.problems.append(Problem(1, str(error)))
    lines = markdown.split("\n")
    for fence in page.fences:  # one left open swallows the rest of the page, bindings and all
        last = _QUOTED.sub("", lines[fence.end - 1])  # a fence in a blockquote closes on "> ```"
        if not last.startswith(fence.mark) or fence.end == fence.line:
            reading.unclosed.append(Problem(fence.line, f"this {fence.mark} fence never closes", 0))
    for passage in _passages(page):
        _Reader(passage, reading, declared).read()
    reading.problems += reading.unclosed
    return reading


_CODE_OR_BRACE = re.compile(rf"(?P<code>{CODE})|{BRACE.pattern}", re.DOTALL)


def strip(page: Page | str) -> str:
    """The page (or Markdown text) as a reader gets it: every binding taken out, fences and code
    spans untouched."""
    page = page if isinstance(page, Page) else Page("", page)
    code = {n for fence in page.fences for n in range(fence.line - 1, fence.end)}
    lines = page.markdown.split("\n")
    parts = []
    for inside, run in groupby(range(len(lines)), key=code.__contains__):
        text = "\n".join(lines[n] for n in run)
        parts.append(text if inside else _CODE_OR_BRACE.sub(lambda m: m.group(0) if m["code"] else "", text))
    return "\n".join(parts)
