"""The numbers a reader meets on a page, and what the page binds each one to.

A number is bound where it is written: `3.125{= run.raw[1, 0]}`, a group
`(0, 3, 0.5, 0){= run.q[1]}`, a number word `sixteen{= run.raw.size}`, a constant
`2{given: the power of n in n²}`. `read(markdown)` finds every number of headings, paragraphs,
lists, tables, admonitions, link and alt text, math and the front matter's title and description
(markdown-it-py's block tokens say which lines a reader sees; fences and code spans are code),
with its line and column in the file, and returns the bindings, the worked sums (`0.5×0.25 = 0.125`) and a
`Problem` for each number that is neither bound, given nor a label (`token 2`: a position
counted from 1), and for each binding it cannot read. `strip` takes the bindings out for the
reader.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import groupby

from attend_book.markdown import FRONT, INCLUDE, fences, parse
from attend_book.numerals import FRACTIONS, NUMBER, SUPERSCRIPTS, WORDS, WRITTEN, Numeral


@dataclass(frozen=True)
class Problem:
    """One line of the report; `column` counts from 0, None where a whole line is meant."""

    line: int
    message: str
    column: int | None = None
    renumbered: bool = False  # a moved number, which `nox -s renumber` rewrites
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
# The binding right after a number: `{= expression}` or `{given: reason}`; it may wrap.
BRACE = re.compile(r"\{(?:=(?P<expression>[^{}]*)|given:(?P<reason>[^{}]*))\}")
_GROUP = re.compile(rf"\((?:\s*[−-]?{NUMBER}\s*,)+\s*[−-]?{NUMBER}\s*\)")
# A position: an integer right after one of these words, or joined to such an integer ("rows 2
# and 4", "tokens 1, 2 or 3"); in a table, an integer alone in a column headed by one.
LABELS = (
    "token",
    "slot",
    "row",
    "column",
    "position",
    "line",
    "layer",
    "step",
    "dimension",
    "head",
    "exercise",
)
_JOIN = r"(?:\s*,\s*|\s+and\s+|\s+or\s+|\s+to\s+|\s*[–-]\s*)"
_LABELLED = re.compile(rf"(?i)\b(?:{'|'.join(LABELS)})s?\s+(?P<run>\d+(?:{_JOIN}\d+)*)(?!\w|[.,]\d)")
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
_TEX = re.compile(rf"{BRACE.pattern}|\\(?P<command>[A-Za-z]+)|[\^_{{}}]")
_SYMBOLS = {"times": "×", "cdot": "·", "div": "÷", "sqrt": "√"}
_FRONT_KEYS = re.compile(r"^(?:title|description):[ \t]*['\"]?", re.MULTILINE)


@dataclass(frozen=True)
class Binding:
    """Numbers and the one expression (or given reason) written after them."""

    numerals: tuple[Numeral, ...]
    expression: str | None  # None for a given
    reason: str = ""
    group: bool = False

    @property
    def written(self) -> str:
        texts = ", ".join(n.text for n in self.numerals)
        return f"({texts})" if self.group else texts

    @property
    def brace(self) -> str:
        return f"{{given: {self.reason}}}" if self.expression is None else f"{{= {self.expression}}}"


@dataclass(frozen=True)
class Sum:
    """Worked arithmetic as written, `left = result` (or `≈`)."""

    text: str
    left: str
    result: Numeral
    approximate: bool


@dataclass
class Reading:
    bindings: list[Binding] = field(default_factory=list)
    sums: list[Sum] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    unclosed: list[Problem] = field(default_factory=list)  # fences: what is past them is unread

    @property
    def expressions(self) -> list[str]:
        return sorted({b.expression for b in self.bindings if b.expression is not None})


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def _tex(tex: str) -> str:
    """TeX as the prose reads it, the same width, bindings kept: operators spelt out; commands,
    `^`, `_` and braces blank, so that a script is read like the rest (the 1.5625 of $e^{1.5625}$)."""

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
    file has them from `line` on, with what is not read blanked. `headers`: a row's column heads."""

    line: int
    text: str
    kind: str = "prose"
    headers: tuple[str, ...] = ()

    def where(self, offset: int) -> tuple[int, int]:
        return self.line + self.text.count("\n", 0, offset), offset - self.text.rfind("\n", 0, offset) - 1


def _passages(markdown: str) -> Iterator[_Passage]:
    """markdown-it-py says which lines a reader sees as text; they are read where they are."""
    lines = markdown.split("\n")
    if front := FRONT.match(markdown):
        for key in _FRONT_KEYS.finditer(front.group(0)):
            line, at = front.group(0).count("\n", 0, key.start()), key.end() - key.start()
            yield _Passage(line + 1, " " * at + lines[line][at:])
    headers: tuple[str, ...] | None = None  # inside a table: its column heads
    for token in parse(markdown):
        first, end = token.map or (0, 0)
        if token.type == "table_open":
            headers = tuple(cell.strip().lower() for cell in _read_as_text(lines[first]).split("|"))
        elif token.type == "table_close":
            headers = None
        elif token.type == "tr_open" and headers is not None:
            yield _Passage(first + 1, _read_as_text(lines[first]), "table", headers)
        elif token.type == "inline" and headers is None and token.map:
            said = token.content.split("\n")
            yield _Passage(first + 1, _read_as_text("\n".join(map(_unmarked, lines[first:end], said))))
        elif token.type == "math_block":
            yield _Passage(first + 1, _tex("\n".join(lines[first:end])))
        elif token.type == "html_block":
            yield _Passage(first + 1, _read_as_text("\n".join(lines[first:end])), "html")


def _read_passage(passage: _Passage, reading: Reading) -> None:
    """The passage's bindings, sums and problems into `reading`. Numbers are read in its text
    with the bindings blanked, so every offset is the passage's own: a binding starts where
    the number it binds ends."""
    text = BRACE.sub(_blank, passage.text)
    braces = {brace.start(): brace for brace in BRACE.finditer(passage.text)}  # taken as bound

    def numeral(start: int, end: int) -> Numeral:
        return Numeral(*passage.where(start), text[start:end])

    def problem(start: int, message: str) -> None:
        line, column = passage.where(start)
        reading.problems.append(Problem(line, message, column))

    def bind(numerals: tuple[Numeral, ...], start: int, end: int, group: bool) -> None:
        brace = braces.pop(end)
        expression, reason = brace["expression"], brace["reason"]
        if expression is not None and not expression.strip():
            problem(start, f"{brace.group(0)} binds {numerals[0].text} to nothing: write an expression")
        elif reason is not None and not reason.strip():
            problem(start, f"{brace.group(0)} gives {numerals[0].text} without a reason: write one")
        else:
            said = " ".join(expression.split()) if expression is not None else None
            reading.bindings.append(Binding(numerals, said, " ".join((reason or "").split()), group))

    grouped: set[int] = set()
    for group in _GROUP.finditer(text):
        if group.end() in braces:
            members = [m for m in _NUMERAL.finditer(text, group.start(), group.end()) if m["digits"]]
            bind(
                tuple(numeral(m.start(), m.end("digits")) for m in members), group.start(), group.end(), True
            )
            grouped.update(m.start() for m in members)
    labels = {
        run.start("run") + m.start()
        for run in _LABELLED.finditer(text)
        for m in re.finditer(r"\d+", run["run"])
    }
    for found in _NUMERAL.finditer(text):
        end = found.end("digits") if found["digits"] else found.end()
        written = numeral(found.start(), end)
        if found.start() in grouped or (found["digits"] and _named(text, found.start())):
            continue
        if bold := _BOLD.match(text, end):  # `**0.58**{= x}`: bound where the bold closes
            end = bold.end()
        if end in braces:
            bind((written,), found.start(), end, False)
            continue
        if (spaced := _SPACED.match(passage.text, end)) and spaced.end() in braces:
            spaced_out = braces.pop(spaced.end()).group(0)
            problem(
                found.start(), f"{written.text} {spaced_out} has a space before its binding: remove the space"
            )
            continue
        if found["word"] and written.text.lower() in ORDINARY:
            continue
        if passage.kind == "html":
            message = "is in raw HTML, which the check cannot read: write it in Markdown"
        elif found.start() in labels or _table_label(passage, text, found):
            if written.value >= 1 and written.value == round(written.value):
                continue
            message = "follows a label, but a label is a position counted from 1"
        elif written.unit:
            message = f"is not bound: bind it {{= …}} to {written.value:g}, the number as written before"
            message += f" {written.unit}, give it {{given: …}} or make it a label"
        else:
            message = "is not bound: bind it {= …}, give it {given: …} or make it a label"
        problem(found.start(), f"{written.text} {message}")
    for brace in braces.values():
        problem(
            brace.start(), f"{brace.group(0)} follows no number: a binding goes right after what it binds"
        )
    for stray in re.finditer(r"\{(?:=|given:)", text):
        problem(stray.start(), "a binding with no closing } in its paragraph (or a brace inside it)")
    for worked in _SUM.finditer(text):
        result = numeral(worked.start("right"), worked.end("right"))
        shown = passage.text[worked.start() : worked.end()]
        written_sum, left = (" ".join(BRACE.sub("", part).split()) for part in (shown, worked["left"]))
        reading.sums.append(Sum(written_sum, left, result, worked["relation"] == "≈"))


def _named(text: str, start: int) -> bool:
    """Whether the number at `start` ends a run of hyphen-joined parts that begins with a letter."""
    before = re.search(r"[\w.-]*\Z", text[max(0, start - 40) : start])
    return bool(before and _NAMED.fullmatch(before.group(0)))


def _table_label(passage: _Passage, text: str, found: re.Match[str]) -> bool:
    """Whether the number is alone in a table cell under a label's head ("slot")."""
    column = text.count("|", 0, found.start())
    head = passage.headers[column].rstrip("s") if column < len(passage.headers) else ""
    return head in LABELS and text.split("|")[column].strip() == found.group(0)


def read(markdown: str) -> Reading:
    """Every binding, worked sum and unbound number of a page, in reading order."""
    reading = Reading()
    lines = markdown.split("\n")
    for fence in fences(markdown):  # one left open swallows the rest of the page, bindings and all
        last = _QUOTED.sub("", lines[fence.end - 1])  # a fence in a blockquote closes on "> ```"
        if not last.startswith(fence.mark) or fence.end == fence.line:
            reading.unclosed.append(Problem(fence.line, f"this {fence.mark} fence never closes", 0))
    for passage in _passages(markdown):
        _read_passage(passage, reading)
    reading.problems += reading.unclosed
    return reading


_CODE_OR_BRACE = re.compile(rf"(?P<code>{CODE})|{BRACE.pattern}", re.DOTALL)


def strip(markdown: str) -> str:
    """The page as a reader gets it: every binding taken out, fences and code spans untouched."""
    code = {n for fence in fences(markdown) for n in range(fence.line - 1, fence.end)}
    lines = markdown.split("\n")
    parts = []
    for inside, run in groupby(range(len(lines)), key=code.__contains__):
        text = "\n".join(lines[n] for n in run)
        parts.append(text if inside else _CODE_OR_BRACE.sub(lambda m: m.group(0) if m["code"] else "", text))
    return "\n".join(parts)
