"""The numbers a reader meets on a page, and what the page binds each one to.

A number is bound where it is written: `3.125{= table[1, 0]}`, a group
`(0, 3, 0.5, 0){= row}` or a list `1.5625, 0, 0.375 and 0{= scores}`, a number word
`sixteen{= table.size}`, a given by its declared name `twelve{= months}`. One binding after a
worked sum pairs its operands with the written ones (`0.5×0.25 = 0.125{= a[2] * b[2]}`,
`shapes.py`); one after a math span binds the span's numbers in order (`$e^{1.5625}${= scores[0]}`).
A number that quotes no value is marked `{-}` where it is written, or described once for a page
or a site (`not_results`: the words it follows, years, dates, quotations, patterns).

`read(markdown, book)` finds every number a reader sees: in headings, paragraphs, lists, tables,
admonitions, details, content tabs, footnotes, Markdown inside HTML, link and alt text, math and
the front matter's title and description (markdown.py says which lines a reader sees; code
blocks of every kind and code spans are code), with its line and column in the file, and returns
the bindings, the labels (`row 2`, held to the range its word is declared with, `declared.py`),
the worked sums and a `Problem` for each number that is neither bound, a label nor declared no
result, for each binding it cannot read, and for digits whose value it cannot settle. `strip`
takes the bindings out for the reader, and leaves every code block as it is written.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import html
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import groupby

from bound_numbers import numerals, shapes
from bound_numbers.declared import Declared, Exempt
from bound_numbers.declared import for_page as declared_for_page
from bound_numbers.markdown import INCLUDE, code_lines
from bound_numbers.numerals import (
    AMBIGUOUS,
    FRACTIONS,
    NUMBER,
    POSITIONS,
    SPACES,
    SUPERSCRIPTS,
    WORDS,
    WRITTEN,
    Numeral,
    Unreadable,
)
from bound_numbers.page import FRONT, Page
from bound_numbers.plan import PLACES, when_of
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


# What a binding leaves in the text the reader reads numbers in: a space that is no ordinary
# space, so that `40{= a}-44` reads as 40 and 44 (a sign needs a space the writer typed).
_GAP = "\u2008"
# Digits may have a unit joined on ("10ms", "58%", "3rd"); an x between digits is "times" ("4x4").
# Words ordinary language uses without stating a quantity ("compare two rows", "each one"):
# unbound, they are left alone; bound, they are checked like any number.
ORDINARY = frozenset({"zero", "one", "two"}) | POSITIONS
_NUMERAL = re.compile(
    rf"(?:(?<=\dx)|(?<![\w.,])(?<!\d[{SPACES}\u066b\u066c]))"
    rf"(?P<sign>(?:(?<=[^\S{_GAP}])|(?<=[(\[]))[−-])?(?P<digits>{WRITTEN}|[{''.join(FRACTIONS)}])"
    rf"(?!(?!x\d)\w|[.,]\d)"
    rf"|(?<![\d{SUPERSCRIPTS}])(?P<power>[{SUPERSCRIPTS}]+)(?!\w)"
    rf"|(?<![\w-])(?P<word>(?i:{WORDS}))(?!\w)"
)
# A number joined by hyphens to a word before it is part of a name ("GPT-2", "Llama-3.1-8B",
# "Qwen2.5-7B"), not a quantity; "a 5-10ms wait" is two quantities.
_NAMED = re.compile(r"[^\W\d][\w.]*-(?:[\w.]*-)*")
_BOLD = re.compile(r"\*+")
_QUOTED = re.compile(r"^[ \t]*(?:>[ \t]*)*")
_SPACED = re.compile(r"[ \t]+")
# Written before a number, it quotes a value rounded: a whole number then holds it rounded.
_ABOUT = re.compile(r"(?:[≈~∼]|\b(?i:about|around|roughly|approximately|nearly|almost|some|circa))[\s*]*\Z")
# The binding right after a number: `{= expression}`, `{-}` (not a result), or the old
# `{given: reason}` (read to be refused, and stripped); it may wrap. The expression is Python, and
# may hold any brackets: a dict or set display's braces too, one deep.
BRACE = re.compile(r"\{(?:=(?P<expression>(?:[^{}]|\{[^{}]*\})*)|given:(?P<reason>[^{}]*)|(?P<free>-))\}")
_GROUP = re.compile(rf"\((?:\s*[−-]?{NUMBER}\s*,)+\s*[−-]?{NUMBER}\s*\)")
# Numbers written as a list ("1.5625, 0, 0.375 and 0", "1, 2, or 3"), which one binding after the
# last may bind.
_LISTED = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+")
# A label: an integer right after a label word (declared.py), or joined to such an integer ("rows
# 2 and 4", "steps 1, 2 or 3"); in a table, an integer alone in a column headed by one.
_JOIN = r"(?:\s*,\s*|\s+and\s+|\s+or\s+|\s+to\s+|\s*[–-]\s*)"
_TERM = rf"(?:√\s*)?{NUMBER}[{SUPERSCRIPTS}]*"
_OP = r"(?:\s*[×*·/÷+−-]\s*|\s+x\s+|(?<=\d)\s*x(?=\d))"  # "2x3", or "2{= a}x3" read as "2      x3"
_SUM = re.compile(
    rf"(?<![\w.])(?P<left>{_TERM}(?:{_OP}{_TERM})+)\s*(?P<relation>[=≈])\s*(?P<right>{NUMBER})(?![\w]|\.\d)"
)
# What of reader text is not read, blanked to spaces so that every offset stays a column of
# the file: code spans, tags and comments, link targets and reference labels (`[text][2]`),
# footnote markers (`[^1]`), addresses (`http://localhost:8000`, `127.0.0.1`, `www.example.org/3`,
# `user+7@example.org`), character references (`&#8212;`), attribute lists (`{: .class}`,
# `{ width=300 }`) and include lines; inline math, found as pymdownx.arithmatex finds it (no space
# inside either dollar, so `$5 and $6` are prices), is read as TeX (`_tex`). A binding is kept
# whole, as written: its `][` is a second subscript (`to_each[0][0]`), its `](` a call, its
# `<b … >` a comparison, not a reference label, a link's target or a tag.
CODE = r"(?P<ticks>`+).+?(?P=ticks)"
_ADDRESS = (
    r"\b[A-Za-z][\w+.-]*://[^\s<>()\[\]]+|\bwww\.[^\s<>()\[\]]*[^\s<>()\[\].,;:!?]"
    r"|\b(?:localhost|\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?\b|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
)
# A character reference (`&#8212;`, `&#x2014;`, `&mdash;`) is the one character it names: its
# digits are none the reader sees. One that names a digit or a fraction (`&#51;`, `&frac12;`) is
# left as written, so that what it shows is not waved through.
_ENTITY = r"(?<!\\)&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);"
_HIDDEN = re.compile(
    rf"(?P<binding>{BRACE.pattern})|{CODE}|<(?:!--.*?--|/?[A-Za-z][^>]*)>|(?<=\])\([^()\s]*(?:\s+\"[^\"]*\")?\)|(?<=\])\[[^\[\]]*\]"
    rf"|\[\^[^\]\s]+\]|{_ADDRESS}|(?P<entity>{_ENTITY})|\{{\s*(?:[:#.]|[A-Za-z_][\w-]*=)[^}}]*\}}"
    rf"|(?m:{INCLUDE.pattern})"
    rf"|(?<!\\)\$(?!\s)(?P<tex>(?:\\.|[^\\$])+?)(?<![\s\\])\$",
    re.DOTALL,
)
_TEX = re.compile(rf"{BRACE.pattern}|\\(?P<command>[A-Za-z]+)|[\^_{{}}]|(?<=\d)[A-Za-z]")
_SYMBOLS = {"times": "×", "cdot": "·", "div": "÷", "sqrt": "√"}
_FRONT_KEYS = re.compile(r"^(?:title|description):[ \t]*['\"]?", re.MULTILINE)
# A date: a month and a day, perhaps a year ("May 23", "23 May 2014", "May 23rd, 2014"), or ISO's.
_MONTH = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
_MONTH += r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\b\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?\b"
_DATE = re.compile(
    rf"\b{_MONTH}\s+{_DAY}(?:,?\s+\d{{4}}\b)?|\b{_DAY}\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{4}}\b)?"
    r"|\b\d{4}-\d{2}-\d{2}\b"
)
# Quotations: “…”, „…“, «…», ‘…’ and "…" (straight quotes paired in order).
_QUOTATION = re.compile(r"“[^”]*”|„[^“]*“|«[^»]*»|‘[^’]*’|\"[^\"]*\"")
_YEAR = re.compile(r"(?P<year>\d{4})(?:['’]?s)?")  # 1947, and a decade: the 1990s
_DECADE = re.compile(r"(?<=['’])(?P<tens>\d0)s")  # the '90s: the 1990s, or another century's
# A time of day or a duration, `44:52`, `1:05:30`: its parts are one number's, bound as a group.
_TIME = re.compile(r"(?<![\w.,:])\d{1,2}(?::\d{2}){1,2}(?![\w:]|[.,]\d)")
# A unit's symbol just before a superscript (`m/s²`), or before math that is only a power (`m/s$^2$`).
_UNIT_BEFORE = re.compile(rf"(?<![^\W\d_])(?:{'|'.join(numerals.UNIT_SYMBOLS)})\Z")
_POWER_ONLY = re.compile(r"\$\^(?:\{\d+\}|\d)\$")
# A paragraph's first line as Python-Markdown's ordered lists start, once its binding (blanked to
# _GAP here) is stripped: digits, a full stop and a space.
_MARKER = re.compile(rf"[ \t]*(?P<number>\d+)[{_GAP}]+\.[ \t]")


@dataclass(frozen=True)
class Binding:
    """Numbers and the one expression written after them (or the part of a sum's that is theirs)."""

    numerals: tuple[Numeral, ...]
    expression: str  # what the page's namespace evaluates: each given's name replaced by its value
    brace: str  # the binding as written, for what the check says
    group: bool = False
    when: str = ""  # where the binding says it is quoted from (`plan.WHEN`); "": where it is written
    text: str = ""  # a group's numbers as the page writes them (`1, 2, or 3`), on one line

    @property
    def written(self) -> str:
        """The numbers as the page writes them, so that what the check says can be searched for
        (a `$$` block's: its numbers, in brackets)."""
        if self.text:
            return self.text
        texts = ", ".join(n.text for n in self.numerals)
        return f"({texts})" if self.group else texts

    @property
    def asked(self) -> Asked:
        """Its value, asked for where its first number is written."""
        first = self.numerals[0]
        return Asked(self.expression, first.line, first.column, self.when)

    @property
    def below(self) -> Asked | None:
        """Its value after the fence (or cell) below it, asked beside its own where it is quoted
        where it is written: a number that only that value holds is prose announcing the code
        below, which the check says rather than have renumber write the value above into it."""
        return None if self.when else dataclasses.replace(self.asked, when="next")


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
    part: str = "fence"  # what the page's code is in: fences, or a notebook's cells
    last_fence: int = 0  # the line the page's last fence opens on (0: it has none)
    bindings: list[Binding] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    sums: list[Sum] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    unclosed: list[Problem] = field(default_factory=list)  # fences: what is past them is unread

    @property
    def asked(self) -> list[Asked]:
        """The value of each binding and each label's range, where it is written (or where the
        binding says), once each; then, where a fence opens below a binding, its value after the
        fence below it (`Binding.below`)."""
        labels = (label.asked for label in self.labels)
        below = (b.below for b in self.bindings if b.below is not None and b.below.line < self.last_fence)
        return list(dict.fromkeys([*(bound.asked for bound in self.bindings), *labels, *below]))


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def _gap(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", _GAP, match.group(0))


def _tex(tex: str) -> str:
    """TeX as the prose reads it, the same width, bindings kept: operators spelt out; commands,
    `^`, `_` and braces blank, so that a script is read like the rest (the 1.5625 of $e^{1.5625}$),
    and a letter right after a digit blank, so that a coefficient is read (the 2 of $2n$)."""

    def plain(match: re.Match[str]) -> str:
        kept = any(match[kind] is not None for kind in ("expression", "reason", "free"))
        return match.group(0) if kept else _SYMBOLS.get(match["command"] or "", "").ljust(len(match.group(0)))

    return _TEX.sub(plain, tex)


def _read_as_text(text: str) -> str:
    return _HIDDEN.sub(_as_text, text)


def _as_text(match: re.Match[str]) -> str:
    if match["binding"] or (match["entity"] and _numeric(html.unescape(match["entity"]))):
        return match.group(0)
    return f" {_tex(match['tex'])} " if match["tex"] else _blank(match)


def _numeric(text: str) -> bool:
    """Whether any character of `text` is a digit or a number of its own (`3`, `½`, `²`)."""
    return any(unicodedata.numeric(c, None) is not None for c in text)


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
    `maths`: where each math span starts and ends (its dollars included); `written`: the same
    lines as written, math and all, column for column (where `not_results` patterns look, so one
    may name a unit's power in math, `m/s$^2$`), or "" for the text itself; `paragraph`: whether
    the lines are a paragraph's (not a heading's)."""

    line: int
    text: str
    kind: str = "prose"
    headers: tuple[str, ...] = ()
    maths: tuple[tuple[int, int], ...] = ()
    written: str = ""
    paragraph: bool = False  # a paragraph's text, whose first line Markdown may read as a list's marker

    def where(self, offset: int) -> tuple[int, int]:
        return self.line + self.text.count("\n", 0, offset), offset - self.text.rfind("\n", 0, offset) - 1


def _maths(text: str) -> tuple[tuple[int, int], ...]:
    return tuple((m.start(), m.end()) for m in _HIDDEN.finditer(text) if m["tex"])


class _Walk:
    """The passages of a page's block tokens, in order: what markdown-it says a reader sees as
    text, read where it is in the file."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.headers: tuple[str, ...] | None = None  # inside a table: its column heads
        self.taken: dict[int, int] = {}  # a line after a math block: how much is the block's binding

    def passage(self, kind: str, first: int, end: int) -> Iterator[_Passage]:
        lines = self.lines
        if kind == "table_open":
            self.headers = tuple(cell.strip().lower() for cell in _read_as_text(lines[first]).split("|"))
        elif kind == "table_close":
            self.headers = None
        elif kind == "tr_open" and self.headers is not None:
            row = lines[first]
            yield _Passage(first + 1, _read_as_text(row), "table", self.headers, _maths(row), row)
        elif kind == "math_block":
            yield self.math(first, end)
        elif kind == "html_block":
            yield _Passage(first + 1, _read_as_text("\n".join(lines[first:end])), "html")

    def inline(self, first: int, end: int, content: str, paragraph: bool) -> _Passage:
        said = "\n".join(map(_unmarked, self.lines[first:end], content.split("\n")))
        said = " " * self.taken.get(first, 0) + said[self.taken.get(first, 0) :]  # a math block's binding
        return _Passage(first + 1, _read_as_text(said), maths=_maths(said), written=said, paragraph=paragraph)

    def math(self, first: int, end: int) -> _Passage:
        """A `$$` block, and its binding on the line after it: `{= [a, b]}` alone there."""
        lines = self.lines
        block = "\n".join(lines[first:end])
        after = BRACE.match(lines[end]) if end < len(lines) else None
        self.taken[end] = after.end() if after else 0
        bound = f"{block}\n{lines[end][: after.end()]}" if after else block
        return _Passage(first + 1, _tex(bound), "math", maths=((0, len(block) + 1),), written=bound)


def _passages(page: Page) -> Iterator[_Passage]:
    """markdown-it-py says which lines a reader sees as text; they are read where they are."""
    markdown = page.markdown
    lines = markdown.split("\n")
    if front := FRONT.match(markdown):
        for key in _FRONT_KEYS.finditer(front.group(0)):
            line, at = front.group(0).count("\n", 0, key.start()), key.end() - key.start()
            yield _Passage(line + 1, " " * at + lines[line][at:])
    walk = _Walk(lines)
    opened = ""  # the block token before each inline one: what its text is
    for token in page.tokens:
        first, end = token.map or (0, 0)
        if token.type == "inline" and walk.headers is None and token.map:
            yield walk.inline(first, end, token.content, paragraph=opened == "paragraph_open")
        else:
            yield from walk.passage(token.type, first, end)
        opened = token.type


def _numeral_end(found: re.Match[str]) -> int:
    return found.end("digits") if found["digits"] else found.end()


@functools.lru_cache(maxsize=16)
def _labelled(words: tuple[str, ...]) -> re.Pattern[str]:
    """An integer right after a label word, or joined to such an integer ("rows 2 and 4")."""
    said = "|".join(map(re.escape, sorted(words, key=len, reverse=True))) or "(?!)"
    return re.compile(rf"(?i)\b(?P<word>{said})s?\s+(?P<run>\d+(?:{_JOIN}\d+)*)(?!\w|[.,]\d)")


@functools.lru_cache(maxsize=16)
def _following(words: frozenset[str]) -> re.Pattern[str]:
    """Numbers in any form right after one of `words` ("version 4.0", "chapters 5 and 6")."""
    said = sorted((re.escape(w).replace(r"\ ", r"\s+") for w in words), key=len, reverse=True)
    return re.compile(
        rf"(?i)(?<!\w)(?P<word>{'|'.join(said) or '(?!)'})s?\s+(?P<run>{NUMBER}(?:{_JOIN}{NUMBER})*)"
    )


def _constant(expression: str) -> bool:
    """Whether an expression names nothing, so that no change to the code can move its value."""
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return False
    return not any(isinstance(node, ast.Name) for node in ast.walk(tree))


def _names(expression: str) -> set[str]:
    try:
        return {n.id for n in ast.walk(ast.parse(expression, mode="eval")) if isinstance(n, ast.Name)}
    except SyntaxError:
        return set()


def _quoted_from(said: str) -> tuple[str, str | None]:
    """A binding's expression and where it says it is quoted from, after a `;` that is no part of
    the Python (`t; after the next cell`): `plan.WHEN`'s words, "" for none, None for words that
    name no place."""
    head, semicolon, place = said.rpartition(";")
    if not semicolon or _parses(said):
        return said, ""
    return head.strip(), when_of(place)


def _parses(expression: str) -> bool:
    try:
        ast.parse(expression, mode="eval")
    except SyntaxError:
        return False
    return True


def _listed(expression: str) -> bool:
    """Whether an expression is written as a list or tuple of values, one for each number."""
    try:
        return isinstance(ast.parse(expression.strip(), mode="eval").body, ast.List | ast.Tuple)
    except SyntaxError:
        return False


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


class _Reader:
    """One passage read into a `Reading`, pass by pass. Numbers are read in its text with the
    bindings blanked, so every offset is the passage's own: a binding starts where what it
    binds ends. `mark`: how the page reads a form either decimal convention could write."""

    def __init__(self, passage: _Passage, reading: Reading, declared: Declared, mark: str) -> None:
        self.passage, self.reading, self.declared, self.mark = passage, reading, declared, mark
        self.text = BRACE.sub(_gap, passage.text)
        self.braces = {brace.start(): brace for brace in BRACE.finditer(passage.text)}
        self.done: set[int] = set()  # where each number bound, reported or set aside starts
        self.unreadable: set[int] = set()  # where each number whose digits cannot be read starts
        self.dates = _spans(_DATE, self.text)
        self.exempt = self.not_results(declared.exempt)
        self.labels = self.label_words()

    def read(self) -> None:
        self.screen()
        self.refuse_marker()
        self.bind_maths()
        self.bind_sums()
        self.bind_groups()
        self.bind_times()
        self.bind_runs()
        self.read_numbers()
        self.report_strays()
        self.note_sums()

    # What the passes share ------------------------------------------------------------------

    @functools.cached_property
    def found(self) -> list[re.Match[str]]:
        """Every number of the passage, found once: digits, words and lone powers."""
        return list(_NUMERAL.finditer(self.text))

    def digits(self, start: int | None = None, end: int | None = None) -> Iterator[re.Match[str]]:
        """The numbers written in digits (not words, not lone powers), in all the passage or
        read from `start` to `end` as if nothing were around them."""
        found = self.found if start is None else _NUMERAL.finditer(self.text, start, end or len(self.text))
        return (m for m in found if m["digits"])

    def numeral(self, found: re.Match[str]) -> Numeral:
        end = _numeral_end(found)
        about = _ABOUT.search(self.text, max(0, found.start() - 20), found.start()) is not None
        return Numeral(*self.passage.where(found.start()), self.text[found.start() : end], self.mark, about)

    def problem(self, start: int, message: str) -> None:
        line, column = self.passage.where(start)
        self.reading.problems.append(Problem(line, message, column))

    def expression(self, end: int, first: Numeral, start: int) -> tuple[str, str, str] | None:
        """The binding at `end`, taken: its expression as written, its brace and where it says
        it is quoted from (`plan.WHEN`, "" for where it is written), or None for `{-}` and after
        the one line that says why it binds nothing."""
        brace = self.braces.pop(end)
        said, when = _quoted_from(" ".join((brace["expression"] or "").split()))
        broken = sorted(_names(said) & self.declared.broken)
        if brace["free"] is not None:
            return None
        if when is None:
            place = " ".join((brace["expression"] or "").rpartition(";")[2].split())
            said = f"“{place}” names no place to quote it from: write {PLACES}"
            self.problem(start, f"{first.text}{brace.group(0)}: {said}")
            return None
        if brace["reason"] is not None:
            why = "has no value to hold it to: declare it under `givens:` (name: [value, reason]) "
            self.problem(start, f"{brace.group(0)} {why}and write {{= name}}")
        elif not said:
            self.problem(start, f"{brace.group(0)} binds {first.text} to nothing: write an expression")
        elif _constant(said):
            why = "names nothing, so it can never fail: bind it to what computes it, or declare a given"
            self.problem(start, f"{brace.group(0)} {why}")
        elif broken:
            why = f"uses the given {broken[0]}, whose declaration in the front matter cannot be read (line 1)"
            self.problem(start, f"{brace.group(0)} {why}")
        else:
            return said, brace.group(0), when
        return None

    def bind(
        self,
        numerals: tuple[Numeral, ...],
        expression: str,
        brace: str,
        when: str = "",
        group: bool = False,
        text: str = "",
    ) -> None:
        resolved = self.declared.resolve(expression)
        self.reading.bindings.append(Binding(numerals, resolved, brace, group, when, text))

    def bind_all(
        self, members: list[re.Match[str]], end: int, start: int, group: bool, digits: int = 0
    ) -> None:
        """The binding at `end` for the numbers `members`, in order, each set aside as done; each
        but the first written with at least `digits` digits (a time's: `44:05`)."""
        numerals = tuple(map(self.numeral, members))
        numerals = numerals[:1] + tuple(dataclasses.replace(n, digits=digits) for n in numerals[1:])
        if found := self.expression(end, numerals[0], start):
            # a group as written, to be found by a search; a `$$` block's numbers alone: it may be long
            shown = group and self.passage.kind != "math"
            text = " ".join((self.passage.written or self.text)[start:end].split()) if shown else ""
            self.bind(numerals, *found, group=group, text=text)
        self.done.update(m.start() for m in members)

    def not_results(self, exempt: Exempt) -> list[tuple[int, int]]:
        """Where in the passage numbers quote no value, as declared: dates, quotations, the
        matches of the patterns, and the runs of numbers after the words declared."""
        spans = self.dates if exempt.dates else []
        if exempt.quotes:
            spans = spans + _spans(_QUOTATION, self.text)
        for pattern in exempt.patterns:
            spans = spans + _spans(re.compile(pattern), self.passage.written or self.text)
        words = _following(exempt.after).finditer(self.text) if exempt.after else ()
        return spans + [(m.start("run"), m.end("run")) for m in words]

    def set_aside(self, found: re.Match[str]) -> bool:
        """Whether a number is declared no result: `not_results` covers it (a year in range too,
        and a decade, `the '90s`, of any century whose decade of that name is in range)."""
        start, years = found.start(), self.declared.exempt.years
        if any(first <= start < end for first, end in self.exempt):
            return True
        if not years:
            return False
        if decade := _DECADE.fullmatch(self.text, start, found.end()):
            first, last = years
            opens = (century + int(decade["tens"]) for century in range(first // 100 * 100, last + 1, 100))
            return any(first <= opening + 9 and opening <= last for opening in opens)
        year = _YEAR.fullmatch(found.group(0))
        return bool(year and years[0] <= int(year["year"]) <= years[1])

    def in_date(self, start: int) -> str:
        """The date a number is part of ("May 23"), or ""."""
        return next((self.text[a:b] for a, b in self.dates if a <= start < b), "")

    def label_words(self) -> dict[int, str]:
        """Where each integer that follows a label word starts, and the word."""
        return {
            run.start("run") + m.start(): run["word"].lower()
            for run in _labelled(tuple(self.declared.labels)).finditer(self.text)
            for m in re.finditer(r"\d+", run["run"])
        }

    # The passes, in order ---------------------------------------------------------------------

    def screen(self) -> None:
        """Digits that are no quantity set aside: a name ("GPT-2"), a version ("3.11.2"); and
        digits whose value the page cannot settle, one line each (their binding with them)."""
        for found in self.found:
            if self.unit_power(found):
                self.done.add(found.start())
        for found in self.digits():
            text = found["digits"]
            if _named(self.text, found.start()) or numerals.version(text):
                self.done.add(found.start())
                continue
            try:
                numerals.value_of(text, self.mark)
            except Unreadable as error:
                self.done.add(found.start())
                self.unreadable.add(found.start())
                self.braces.pop(_numeral_end(found), None)
                self.problem(found.start(), f"{text} cannot be read as one number: it {error}")

    def unit_power(self, found: re.Match[str]) -> bool:
        """Whether `found` is a unit's power, not a number: a superscript right after a unit's
        symbol (`m/s²`, `20 km²`), or the digits of math that is a power alone right after one
        (`m/s$^2$`)."""
        if found["power"]:
            return bool(_UNIT_BEFORE.search(self.text, 0, found.start()))
        written = self.passage.written or self.passage.text
        for start, end in self.passage.maths:
            if start < found.start() < end:
                return bool(
                    _POWER_ONLY.fullmatch(written, start, end) and _UNIT_BEFORE.search(written, 0, start)
                )
        return False

    def refuse_marker(self) -> None:
        """A number bound where it opens a paragraph, a full stop and a space after it: with the
        binding stripped, Markdown reads `768. The` as a numbered list's marker, and the number
        leaves the page (Python-Markdown starts every list at 1) while its binding still holds."""
        if self.passage.paragraph and (opens := _MARKER.match(self.text)):
            why = (
                "opens its paragraph and a full stop follows it, so Markdown reads it as a numbered list's "
                "marker and the number leaves the page: reword so the paragraph does not open with it"
            )
            self.problem(opens.start("number"), f"{opens['number']} {why}")

    def bind_maths(self) -> None:
        """Each binding inside a math span refused; each after one binds the span's numbers."""
        passage = self.passage
        for at, brace in self.braces.items():
            if any(start < at < end for start, end in passage.maths):
                self.problem(
                    at, f"{brace.group(0)} is inside math: bind the span's numbers after it, in order"
                )
        for start, end in passage.maths:
            if end in self.braces:
                self.bind_math(start, end)

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
        self.bind_all(members, end, start, group=len(members) > 1)

    def bind_sums(self) -> None:
        """Each worked sum bound by one binding after its result and none before."""
        for worked in _SUM.finditer(self.text):
            terms = list(self.digits(worked.start(), worked.end("left")))
            result = _NUMERAL.match(self.text, worked.start("right"))
            if not (result and terms and _numeral_end(result) in self.braces):
                continue
            if any(_numeral_end(m) in self.braces for m in terms) or terms[0].start() in self.done:
                continue
            self.bind_sum(terms, (worked.start(), worked.end("left")), result, _numeral_end(result))

    def bind_sum(
        self, terms: list[re.Match[str]], left: tuple[int, int], result: re.Match[str], brace_at: int
    ) -> None:
        """The binding at `brace_at`, after a worked sum, paired with the sum's operands in order."""
        start = terms[0].start()
        found = self.expression(brace_at, self.numeral(result), start)
        self.done.update(m.start() for m in [*terms, result])
        if found is None:
            return
        expression, brace, when = found
        at = left[0]
        try:
            spans = [(m.start() - at, _numeral_end(m) - at) for m in terms]
            operands, total = shapes.paired(shapes.written(self.text[at : left[1]], spans), expression)
        except shapes.ShapeError as error:
            shown = " ".join(self.text[start : _numeral_end(result)].split())
            self.problem(start, f"{brace} {error} ({shown})")
            return
        for term, operand in zip(terms, operands, strict=True):
            self.bind((self.numeral(term),), operand, f"{{= {operand}}}", when)
        self.bind((self.numeral(result),), total, brace, when)

    def bind_groups(self) -> None:
        """Each group in brackets, `(0, 3, 0.5, 0){= q}`, bound element by element."""
        for group in _GROUP.finditer(self.text):
            members = list(self.digits(group.start(), group.end()))
            if group.end() not in self.braces:
                continue
            if any(m.start() in self.unreadable for m in members):  # said once, at those digits
                self.braces.pop(group.end())
                self.done.update(m.start() for m in members)
            else:
                self.bind_all(members, group.end(), group.start(), group=True)

    def bind_times(self) -> None:
        """Each time, `44:52` or `1:05:30`, its parts bound together by one binding after it
        (`{= [minutes, seconds]}`, `{= divmod(t, 60)}`) or marked `{-}` whole; unbound, one line."""
        for time in _TIME.finditer(self.text):
            members = list(self.digits(time.start(), time.end()))
            if any(m.start() in self.done or self.set_aside(m) for m in members):
                continue
            if time.end() in self.braces:
                self.bind_all(members, time.end(), time.start(), group=True, digits=2)
                continue
            said = "is not bound: a time's parts are bound together, {= [minutes, seconds]}, or marked {-}"
            self.problem(time.start(), f"{time.group(0)} {said}")
            self.done.update(m.start() for m in members)

    def bind_runs(self) -> None:
        """A run of numbers written as a list, `1.5625, 0, 0.375 and 0{= s2}`, bound by the one
        binding after its last: the run's numbers, none bound or a label, in order."""
        for *head, last in self.runs():
            if not head or _numeral_end(last) not in self.braces:
                continue
            if any(_numeral_end(m) in self.braces or m.start() in self.labels for m in head):
                continue
            self.bind_all([*head, last], _numeral_end(last), head[0].start(), group=True)

    def runs(self) -> list[list[re.Match[str]]]:
        """The numbers not yet bound, a date's or declared no result, in runs written as lists."""
        runs: list[list[re.Match[str]]] = []
        for found in self.digits():
            if found.start() in self.done or self.in_date(found.start()) or self.set_aside(found):
                continue
            if runs and _LISTED.fullmatch(self.text, _numeral_end(runs[-1][-1]), found.start()):
                runs[-1].append(found)
            else:
                runs.append([found])
        return runs

    def read_numbers(self) -> None:
        """Each number not yet bound: bound by the binding after it, a label, declared no
        result, or one line saying what to do."""
        for found in self.found:
            if found.start() in self.done:
                continue
            written, end = self.numeral(found), _numeral_end(found)
            if bold := _BOLD.match(self.text, end):  # `**0.58**{= x}`: bound where the bold closes
                end = bold.end()
            if end in self.braces:
                if bound := self.expression(end, written, found.start()):
                    self.bind((written,), *bound)
                continue
            if (spaced := _SPACED.match(self.passage.text, end)) and spaced.end() in self.braces:
                spaced_out = self.braces.pop(spaced.end()).group(0)
                said = f"{written.text} {spaced_out} has a space before its binding: remove the space"
                self.problem(found.start(), said)
            elif not (found["word"] and written.text.lower() in ORDINARY) and not self.set_aside(found):
                self.unbound(found, written)

    def unbound(self, found: re.Match[str], written: Numeral) -> None:
        """A number with no binding: a label, or the one line saying how to bind it."""
        passage, words = self.passage, tuple(self.declared.labels)
        word = self.labels.get(found.start()) or _table_label(passage, self.text, found, words)
        if passage.kind == "html":
            message = "is in raw HTML, which the check cannot read: write it in Markdown"
        elif word:
            if written.value >= 1 and written.value == round(written.value):
                self.label(written, word, found.start())
                return
            message = "follows a label, but a label is a position counted from 1"
        elif date := self.in_date(found.start()):
            message = (
                f"is part of a date ({date}): bind it {{= …}}, or declare `not_results: {{dates: true}}`"
            )
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

    def report_strays(self) -> None:
        """Each binding no number took, and each that never closes."""
        for brace in self.braces.values():
            why = "follows no number: a binding goes right after what it binds"
            self.problem(brace.start(), f"{brace.group(0)} {why}")
        for stray in re.finditer(r"\{(?:=|given:)", self.text):
            self.problem(stray.start(), "a binding with no closing } in its paragraph (or a brace inside it)")

    def note_sums(self) -> None:
        """Each worked sum, whose written arithmetic the check works out (unless digits in it
        cannot be read: said once, at them)."""
        for worked in _SUM.finditer(self.text):
            result = _NUMERAL.match(self.text, worked.start("right"))
            terms = list(self.digits(worked.start(), worked.end("left")))
            if result is None or any(m.start() in self.unreadable for m in [*terms, result]):
                continue
            shown = self.passage.text[worked.start() : worked.end()]
            written_sum, left = (" ".join(BRACE.sub("", part).split()) for part in (shown, worked["left"]))
            numbers = tuple(map(self.numeral, terms))
            self.reading.sums.append(
                Sum(written_sum, left, self.numeral(result), worked["relation"] == "≈", numbers)
            )


def _named(text: str, start: int) -> bool:
    """Whether the number at `start` ends a run of hyphen-joined parts that begins with a letter."""
    before = re.search(r"[\w.-]*\Z", text[max(0, start - 40) : start])
    return bool(before and _NAMED.fullmatch(before.group(0)))


def _table_label(passage: _Passage, text: str, found: re.Match[str], words: tuple[str, ...]) -> str:
    """The label word heading the table column the number is alone in, or ""."""
    column = text.count("|", 0, found.start())
    head = passage.headers[column].rstrip("s") if column < len(passage.headers) else ""
    return head if head in words and text.split("|")[column].strip() == found.group(0) else ""


def _mark(passages: list[_Passage], declared: Declared) -> str:
    """How the page reads a form either decimal convention could write ("1,234"): as it
    declares; else with a decimal point, unless it writes a decimal comma somewhere ("3,14159"),
    and then not at all."""
    if declared.decimal_mark:
        return declared.decimal_mark
    for passage in passages:
        for found in _COMMA_BODY.finditer(passage.text):
            try:
                if numerals.form(found.group(0)).decimal == ",":
                    return AMBIGUOUS
            except ValueError:
                continue
    return "."


# Digits with a comma between them, not inside a longer run: the only place a decimal comma is.
_COMMA_BODY = re.compile(rf"(?<![\w.,])(?=\d+[.,\d{SPACES}]*,\d){NUMBER}")


def read(page: Page | str, book: Declared | None = None) -> Reading:
    """Every binding, label, worked sum and unbound number of a page (or of Markdown text), in
    reading order; `book`: what the book declares for every page (its front matter may declare more)."""
    page = page if isinstance(page, Page) else Page("", page)
    markdown = page.markdown
    last_fence = max((fence.line for fence in page.fences), default=0)
    reading = Reading("cell" if page.path.endswith(".ipynb") else "fence", last_fence)
    declared = declared_for_page(markdown, book or Declared())
    reading.problems += [Problem(1, error) for error in declared.errors]
    lines = markdown.split("\n")
    for fence in page.fences:  # one left open swallows the rest of the page, bindings and all
        last = _QUOTED.sub("", lines[fence.end - 1])  # a fence in a blockquote closes on "> ```"
        if not last.startswith(fence.mark) or fence.end == fence.line:
            reading.unclosed.append(Problem(fence.line, f"this {fence.mark} fence never closes", 0))
    passages = list(_passages(page))
    mark = _mark(passages, declared)
    for passage in passages:
        _Reader(passage, reading, declared, mark).read()
    reading.problems += reading.unclosed
    return reading


_CODE_OR_BRACE = re.compile(rf"(?P<code>{CODE})|{BRACE.pattern}", re.DOTALL)


def strip(page: Page | str) -> str:
    """The page (or Markdown text) as a reader gets it: every binding taken out, code blocks of
    every kind (fenced, indented, in a list, a tab or an admonition) and code spans exactly as
    written."""
    page = page if isinstance(page, Page) else Page("", page)
    code = code_lines(page.tokens)
    lines = page.markdown.split("\n")
    parts = []
    for inside, run in groupby(range(len(lines)), key=code.__contains__):
        text = "\n".join(lines[n] for n in run)
        parts.append(text if inside else _CODE_OR_BRACE.sub(lambda m: m.group(0) if m["code"] else "", text))
    return "\n".join(parts)
