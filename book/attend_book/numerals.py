"""The numerals a reader meets on a page, read from markdown-it-py tokens.

`read(markdown)` finds every numeral of headings, paragraphs, lists, tables, admonitions, link
text, alt text and math, with its line, its column (where the text is on that line verbatim, so
that renumber can rewrite it) and the words around it; fences, code spans, raw HTML and front
matter are code, not numbers a reader is told. `figure_prose` reads a figure's alt text and
caption, `figure_lines` the text drawn in its SVG. `evaluate` works out worked arithmetic
(`0.5×0.25 = 0.125`), refusing anything that is not arithmetic.
"""

from __future__ import annotations

import ast
import html as html_lib
import math
import operator
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from markdown_it.token import Token

from attend_book.markdown import INCLUDE, parse

# A number as written or printed: thousands may be grouped with commas ("4,096").
_DIGITS = r"\d{1,3}(?:,\d{3})+(?!\d)|\d+"
NUMBER = rf"(?:{_DIGITS})(?:\.\d+)?"
NUMBERS = re.compile(rf"-?{NUMBER}")
# In prose a numeral is not glued to a word ("float64", "Wq2", "d_k") nor part of a longer
# number; an ordinal suffix ("800th") and a minus sign after a space or bracket belong to it.
_FRACTIONS = {"½": 0.5, "¼": 0.25, "¾": 0.75}
_PROSE = re.compile(
    rf"(?<![\w.,])(?P<sign>(?<=[\s(\[])[−-])?(?P<number>{NUMBER}|[½¼¾])(?:st|nd|rd|th)?(?![\w]|[.,]\d)"
)
PRINTED = re.compile(rf"(?<![\w.])-?(?:{NUMBER})(?![\d])")
_TERM = rf"(?:√\s*)?{NUMBER}²?"
_OP = r"(?:\s*[×*·/÷+−-]\s*|\s+x\s+|(?<=\d)x(?=\d))"
_EQUATION = re.compile(
    rf"(?<![\w.])(?P<left>{_TERM}(?:{_OP}{_TERM})+)\s*=\s*(?P<right>{NUMBER})(?![\w]|\.\d)"
)
_ATTR_LIST = re.compile(r"\{\s*[:#.][^}]*\}")
_TEX_WORD = re.compile(r"\\[A-Za-z]+")


@dataclass(frozen=True)
class Numeral:
    """A number as a reader meets it, and where: `column` is None where the text it sits in is not
    on the page verbatim (a figure's caption, text with escapes); `context` is the words around
    it, the numeral in brackets; `passage` the kind of passage it was read from."""

    line: int
    column: int | None
    text: str
    context: str
    passage: str = "prose"
    equation: Equation | None = field(default=None, compare=False)
    run: tuple[str, ...] = field(default=(), compare=False)
    place: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Equation:
    """Worked arithmetic: `left = right`, where `right` is the numeral it derives."""

    text: str
    left: str


def value_of(text: str) -> float:
    """The value of a numeral as written: "4,096", "−0.5", "½"."""
    if text in _FRACTIONS:
        return _FRACTIONS[text]
    return float(text.replace("−", "-").replace(",", ""))


def decimals(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def rounds_to(value: float, written: str) -> bool:
    """Whether `value`, at the precision `written` has, is what is written.

    A whole number needs a value that is exactly it: "3" does not quote 3.125.
    """
    number = value_of(written)
    places = decimals(written)
    if places == 0:
        return math.isclose(value, number, rel_tol=0, abs_tol=1e-9)
    return f"{value:.{places}f}" == f"{number:.{places}f}"


def printed_numbers(line: str) -> list[str]:
    """The numbers of one printed line, in order: the fields a numeral can quote."""
    return [m.group(0) for m in PRINTED.finditer(line)]


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def _tex(tex: str) -> str:
    """TeX as the prose reads it, the same width: operators spelt out; commands, `^`, `_` and
    braces blank, so that a script is read like the rest (the 1.5625 of $e^{1.5625}$, the 2 of $n^2$)."""
    tex = re.sub(r"[\^_]", " ", tex)
    for word, symbol in ((r"\times", "×"), (r"\cdot", "·"), (r"\div", "÷"), (r"\sqrt", "√")):
        tex = tex.replace(word, symbol.ljust(len(word)))
    return re.sub(r"[{}]", " ", _TEX_WORD.sub(_blank, tex))


@dataclass
class _Passage:
    """One run of reader text (a paragraph, a heading, a table row, a caption), flattened: `scan`
    is what numerals are looked for in (code blanked), `shown` the same with code, for context."""

    kind: str
    scan: str = ""
    shown: str = ""
    spans: list[tuple[int, int, int | None]] = field(default_factory=list)  # (start, line, column)

    def add(self, scan: str, shown: str, line: int, column: int | None) -> None:
        self.spans.append((len(self.scan), line, column))
        self.scan += scan
        self.shown += shown

    def where(self, offset: int) -> tuple[int, int | None]:
        start, line, column = next(span for span in reversed(self.spans) if span[0] <= offset)
        return line, None if column is None else column + offset - start


def _inline(token: Token, passage: _Passage, find: Callable[[int, str], int | None]) -> None:
    line = (token.map[0] if token.map else 0) + 1
    for child in token.children or []:
        if child.type in ("softbreak", "hardbreak"):
            line += 1
            passage.add(" ", " ", line, None)
        elif child.type == "text" and not INCLUDE.match(child.content):
            passage.add(_ATTR_LIST.sub(_blank, child.content), child.content, line, find(line, child.content))
        elif child.type in ("code_inline", "math_inline", "image"):  # one mark either side of the content
            content, column = child.content, find(line, child.content)
            scan, shown = {
                "code_inline": (" " * (len(content) + 2), f"`{content}`"),
                "math_inline": (f" {_tex(content)} ", f"${content}$"),
                "image": (f" {content} ", f" {content} "),  # alt text, set apart from the words beside it
            }[child.type]
            passage.add(scan, shown, line, None if column is None else column - 1)


def _passages(markdown: str) -> Iterator[_Passage]:
    lines = markdown.splitlines()
    cursor: dict[int, int] = {}  # per line, where the text found on it so far ends

    def find(line: int, text: str) -> int | None:
        """Where `text` is on `line`, after what was found there already: repeats in reading order."""
        at = lines[line - 1].find(text, cursor.get(line, 0)) if line <= len(lines) else -1
        if not text or at < 0:
            return None
        cursor[line] = at + len(text)
        return at

    row: _Passage | None = None
    for token in parse(markdown):
        if token.type == "tr_open":
            row = _Passage("table")
        elif token.type == "tr_close" and row is not None:
            yield row
            row = None
        elif token.type == "inline" and row is not None:
            if row.scan:
                row.add(" | ", " | ", (token.map[0] if token.map else 0) + 1, None)
            _inline(token, row, find)
        elif token.type == "inline":
            passage = _Passage("prose")
            _inline(token, passage, find)
            yield passage
        elif token.type == "math_block" and token.map:
            first, last = token.map[0] + 1, token.map[1]
            for offset, tex in enumerate(token.content.splitlines()):
                if tex.strip():
                    line = next((n for n in range(first, last + 1) if tex in lines[n - 1]), first + offset)
                    yield _Passage("math", _tex(tex), tex, [(0, line, find(line, tex))])


def bracketed(text: str, start: int, end: int, words: int) -> str:
    """The number at [start, end) of `text` in brackets, with `words` words either side; a word
    glued to it (`(0,` or `2's`) stays glued."""
    before = text[:start].split()
    after = text[end:].split()
    left = "" if text[:start][-1:].isspace() or not before else before.pop()
    right = "" if text[end:][:1].isspace() or not after else after.pop(0)
    core = f"{left}[{text[start:end]}]{right}"
    return " ".join(part for part in (" ".join(before[-words:]), core, " ".join(after[:words])) if part)


_BETWEEN_A_RUN = re.compile(r"[\s,;:()\[\]|]*")


def _runs(scan: str, equations: list[re.Match[str]]) -> list[list[re.Match[str]]]:
    """The numerals of a passage in runs: numerals with nothing but punctuation between them, as
    in "(0, 3, 0.5, 0)", or the operands of one worked equation ("3 x 32 x 4 x 4"), alone."""
    runs: list[list[re.Match[str]]] = []
    side_before = None  # the equation the numeral before is an operand of, or -1
    for match in _PROSE.finditer(scan):
        at = match.start()
        side = next((k for k, e in enumerate(equations) if e.start("left") <= at < e.end("left")), -1)
        if side == side_before and (side >= 0 or _BETWEEN_A_RUN.fullmatch(scan[runs[-1][-1].end() : at])):
            runs[-1].append(match)
        else:
            runs.append([match])
        side_before = side
    return runs


def _numerals_of(passages: list[_Passage]) -> list[Numeral]:
    found: list[tuple[Numeral, str, int, int]] = []  # each numeral, but for its words, and where
    for passage in passages:
        equations = list(_EQUATION.finditer(passage.scan))
        derived = {
            e.start("right"): Equation(" ".join(e.group(0).split()), e.group("left")) for e in equations
        }
        for group in _runs(passage.scan, equations):
            texts = tuple(passage.scan[m.start() : m.end("number")] for m in group)
            for place, m in enumerate(group):
                line, column = passage.where(m.start())
                equation = derived.get(m.start("number"))
                numeral = Numeral(line, column, texts[place], "", passage.kind, equation, texts, place)
                found.append((numeral, passage.shown, m.start(), m.end("number")))
    contexts = _unique_contexts([(shown, start, end) for _, shown, start, end in found])
    return [replace(numeral, context=context) for (numeral, *_), context in zip(found, contexts, strict=True)]


def _unique_contexts(found: list[tuple[str, int, int]]) -> list[str]:
    """For each numeral the fewest words around it that no other numeral on the page shares."""
    chosen = [""] * len(found)
    for words in (3, 6, 12, 24, 10_000):
        tried = [bracketed(shown, start, end, words) for shown, start, end in found]
        counts = Counter(tried)
        for i, text in enumerate(tried):
            if not chosen[i] and (counts[text] == 1 or words == 10_000):
                chosen[i] = text
    seen: Counter[str] = Counter()
    contexts = []
    for context in chosen:
        seen[context] += 1
        contexts.append(context if seen[context] == 1 else f"{context} (#{seen[context]})")
    return contexts


def read(markdown: str) -> list[Numeral]:
    return _numerals_of(list(_passages(markdown)))


_FIGCAPTION = re.compile(r"<figcaption>(.*?)</figcaption>", re.DOTALL)
_TITLE = re.compile(r"<title>(.*?)</title>", re.DOTALL)
_SVG_TEXT = re.compile(r"<text\b[^>]*>(.*?)</text>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def _plain(fragment: str) -> str:
    return re.sub(r"\s+", " ", html_lib.unescape(_TAG.sub("", fragment))).strip()


def figure_prose(html: str, line: int) -> list[Numeral]:
    kinds = (("alt text", _TITLE), ("caption", _FIGCAPTION))
    texts = [
        (kind, f"{kind}: {_plain(m.group(1))}") for kind, pattern in kinds for m in pattern.finditer(html)
    ]
    return _numerals_of([_Passage(kind, text, text, [(0, line, None)]) for kind, text in texts])


def figure_lines(html: str) -> list[str]:
    return [_plain(m.group(1)) for m in _SVG_TEXT.finditer(html) if _plain(m.group(1))]


_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}


def _evaluate(node: ast.AST) -> float:
    """Arithmetic only: numbers, + − × ÷, powers and square roots. Anything else is refused."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_evaluate(node.left), _evaluate(node.right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_evaluate(node.operand)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sqrt":
        return math.sqrt(_evaluate(node.args[0]))
    raise ValueError(f"not arithmetic: {ast.dump(node)}")


def evaluate(expression: str) -> float:
    """Arithmetic as prose writes it (`2 x 32 x 4`, `√4`, `1,024 ÷ 2`); anything else is a ValueError."""
    python = expression.replace(",", "")
    python = re.sub(rf"√\s*({NUMBER})", r"sqrt(\1)", python)
    python = re.sub(r"(?<=\d)²", "**2", python)
    python = re.sub(r"(?<=[\d\s])x(?=[\s\d])", "*", python)
    python = python.translate(str.maketrans("×·÷−", "**/-"))
    return _evaluate(ast.parse(python.strip(), mode="eval").body)
