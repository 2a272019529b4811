"""The prose-number check: every numeral a page writes must be one its own code printed.

Pure functions, no mkdocs in sight, so that each rule has a unit test of its own:

* `prose_numerals(page)` finds the numerals a reader sees in a page's prose, with the line of
  the source file each sits on. Fenced code, code spans, front matter, HTML tags, link targets
  and the exponents and subscripts of math are not prose and are left out.
* `output_numerals(text)` finds the numerals in what the page's code printed.
* `equations(page)` finds worked arithmetic written in the prose (`0.5×1.5 = 0.75`,
  `2 x 32 x 32 x 4 = 8192`, `1×0 + 0.5×0.5 = 0.25`) and evaluates the left-hand side.
* `check_page(page, outputs, givens)` puts those together and returns one `Problem` per numeral
  the page's output does not account for, per equation that does not hold, and per declared
  given the page no longer needs.

A written numeral matches a computed one at the precision it is written to: "0.58" is produced
by a printed "0.5800", "3.125" by "3.1250", while "3" needs a computed value that is exactly 3
(so a printed 3.1250 does not excuse a written 3).
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

__all__ = [
    "Computed",
    "Equation",
    "Numeral",
    "Problem",
    "check_page",
    "equations",
    "output_numerals",
    "prose_lines",
    "prose_numerals",
]


@dataclass(frozen=True)
class Numeral:
    """A number as it is written: its text, its value and how many decimals it was given."""

    line: int
    text: str
    value: float
    decimals: int
    column: int = 0


@dataclass(frozen=True)
class Computed:
    """A number some code on the page printed."""

    text: str
    value: float


@dataclass(frozen=True)
class Equation:
    """Worked arithmetic in the prose: `left = right`, with the left side evaluated."""

    line: int
    text: str
    left: str
    value: float
    right: Numeral


@dataclass(frozen=True)
class Problem:
    """One line of the report: where, and what is wrong there."""

    line: int
    message: str

    def render(self, path: str) -> str:
        return f"{path}:{self.line}: {self.message}"


_NUMBER = r"\d+(?:\.\d+)?"
_SIGNED = rf"(?:(?<![\w.)])[−-])?{_NUMBER}"
# A numeral in prose: not glued to a word ("float64", "d_k", "h2") and not part of a longer number.
_PROSE_NUMERAL = re.compile(rf"(?<![\w.])(?:(?<=[\s(\[])[−-](?=\d))?{_NUMBER}(?![\w]|\.\d)")
_OUTPUT_NUMERAL = re.compile(rf"(?<![\w.])-?{_NUMBER}(?![\d])")

# Worked arithmetic: terms joined by operators, an equals sign, one number.
_TERM = rf"(?:√\s*)?{_NUMBER}²?"
_OP = r"(?:\s*[×*·/÷+−-]\s*|\s+x\s+|(?<=\d)x(?=\d))"
_EQUATION = re.compile(
    rf"(?<![\w.])(?P<left>{_TERM}(?:{_OP}{_TERM})+)\s*=\s*(?P<right>{_SIGNED})(?![\w]|\.\d)"
)

_FENCE = re.compile(r"^\s*(?P<mark>`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(?P<ticks>`+)(?!`).*?(?<!`)(?P=ticks)(?!`)")
_HTML_COMMENT = re.compile(r"<!--.*?-->")
_HTML_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_REFERENCE_DEFINITION = re.compile(r"^\s*\[[^\]]+\]:\s+\S+.*$")
_AUTOLINK = re.compile(r"<(?:https?|mailto):[^>]*>")
_ATTR_LIST = re.compile(r"\{\s*[:#.][^}]*\}")
_FOOTNOTE_REF = re.compile(r"\[\^[^\]]+\]")
_LIST_MARKER = re.compile(r"^(?P<indent>\s*)\d+[.)](?=\s)")
_ADMONITION = re.compile(r"^(?P<indent>\s*)(?:!!!|\?\?\?\+?)\s+[\w-]+")
_SNIPPET = re.compile(r"^\s*-{1,3}8<-{1,3}")
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\s)(?P<tex>[^$\n]+?)(?<!\s)\$(?!\$)")
# In TeX, the digit after ^ or _ is an exponent or an index: notation, not a number on the page.
_TEX_SCRIPT = re.compile(r"[\^_](?:\{[^}]*\}|\\?\w)")
_TEX_WORD = re.compile(r"\\[A-Za-z]+")


def _blank(match: re.Match[str]) -> str:
    """The same width of spaces, so that columns still point into the source line."""
    return " " * len(match.group(0))


def _tex_as_prose(tex: str) -> str:
    """TeX with its operators spelt as the prose spells them and its scripts dropped."""
    tex = _TEX_SCRIPT.sub(_blank, tex)
    for word, symbol in ((r"\times", "×"), (r"\cdot", "·"), (r"\div", "÷"), (r"\sqrt", "√")):
        tex = tex.replace(word, symbol.ljust(len(word)))
    tex = _TEX_WORD.sub(_blank, tex)
    return re.sub(r"[{}]", " ", tex)


def prose_lines(page: str) -> list[tuple[int, str]]:
    """Each line of prose as (source line number, what a reader reads on it), code removed.

    Front matter, fenced blocks (at any indentation), snippet lines and HTML comments are dropped
    whole; on the lines that are left, code spans, tags, link targets, attribute lists and
    list markers are blanked, and inline or display math is kept with its scripts dropped.
    """
    lines = page.splitlines()
    out: list[tuple[int, str]] = []
    start = 0
    if lines and lines[0].strip() == "---":
        for end in range(1, len(lines)):
            if lines[end].strip() in {"---", "..."}:
                start = end + 1
                break
    fence: str | None = None
    comment = False
    display_math = False
    for index in range(start, len(lines)):
        number, line = index + 1, lines[index]
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = None
            continue
        if comment:
            if "-->" in line:
                comment = False
                line = " " * (line.index("-->") + 3) + line[line.index("-->") + 3 :]
            else:
                continue
        if (opened := _FENCE.match(line)) is not None:
            fence = opened.group("mark")
            continue
        if _SNIPPET.match(line) or _REFERENCE_DEFINITION.match(line):
            continue
        line = _HTML_COMMENT.sub(_blank, line)
        if "<!--" in line:
            comment = True
            line = line[: line.index("<!--")]
        if line.strip() == "$$":
            display_math = not display_math
            continue
        if display_math:
            out.append((number, _tex_as_prose(line)))
            continue
        line = _CODE_SPAN.sub(_blank, line)
        line = _INLINE_MATH.sub(lambda m: " " + _tex_as_prose(m.group("tex")) + " ", line)
        if line.strip().startswith("$$") and line.strip().endswith("$$"):
            line = _tex_as_prose(line.replace("$$", "  "))
        for pattern in (_AUTOLINK, _HTML_TAG, _LINK_TARGET, _ATTR_LIST, _FOOTNOTE_REF):
            line = pattern.sub(_blank, line)
        line = _LIST_MARKER.sub(
            lambda m: m.group("indent") + " " * (len(m.group(0)) - len(m.group("indent"))), line
        )
        line = _ADMONITION.sub(_blank, line)
        out.append((number, line))
    return out


def _decimals(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def _numeral(line: int, text: str, column: int = 0) -> Numeral:
    value = float(text.replace("−", "-"))
    return Numeral(line, text, value, _decimals(text), column)


def prose_numerals(page: str) -> list[Numeral]:
    """Every numeral in the page's prose, in reading order."""
    return [
        _numeral(number, found.group(0), found.start())
        for number, line in prose_lines(page)
        for found in _PROSE_NUMERAL.finditer(line)
    ]


def output_numerals(text: str) -> list[Computed]:
    """Every number in printed output, each once, in the order first printed."""
    seen: dict[str, Computed] = {}
    for found in _OUTPUT_NUMERAL.finditer(text):
        seen.setdefault(found.group(0), Computed(found.group(0), float(found.group(0))))
    return list(seen.values())


_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}


def _evaluate(node: ast.AST) -> float:
    """Arithmetic only: numbers, + − × ÷, powers and square roots. Anything else is refused."""
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_evaluate(node.left), _evaluate(node.right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_evaluate(node.operand)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "sqrt"
        and len(node.args) == 1
    ):
        return math.sqrt(_evaluate(node.args[0]))
    raise ValueError(f"not arithmetic: {ast.dump(node)}")


def evaluate(expression: str) -> float:
    """The value of arithmetic as the prose writes it: `0.5×1.5`, `2 x 32 x 4`, `√4`."""
    python = re.sub(r"√\s*(" + _NUMBER + ")", r"sqrt(\1)", expression)
    python = re.sub(r"(?<=\d)²", "**2", python)
    python = re.sub(r"(?<=[\d\s])x(?=[\s\d])", "*", python)
    for symbol, spelt in (("×", "*"), ("·", "*"), ("÷", "/"), ("−", "-")):
        python = python.replace(symbol, spelt)
    return _evaluate(ast.parse(python.strip(), mode="eval"))


def equations(page: str) -> list[Equation]:
    """Every worked equation in the page's prose, its left side evaluated."""
    found: list[Equation] = []
    for number, line in prose_lines(page):
        for match in _EQUATION.finditer(line):
            right = _numeral(number, match.group("right"), match.start("right"))
            found.append(
                Equation(number, match.group(0), match.group("left"), evaluate(match.group("left")), right)
            )
    return found


def _holds(value: float, written: Numeral) -> bool:
    if written.decimals == 0:
        return bool(math.isclose(value, written.value, rel_tol=0, abs_tol=1e-9))
    tolerance: float = 0.5 * 10.0**-written.decimals + 1e-12
    return abs(value - written.value) <= tolerance


def _shown(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _nearest(written: Numeral, computed: Iterable[Computed]) -> Computed | None:
    near = [c for c in computed if abs(c.value - written.value) <= max(1.0, 0.25 * abs(written.value))]
    return min(near, key=lambda c: abs(c.value - written.value), default=None)


def _given(written: Numeral, givens: Mapping[str, str]) -> str | None:
    for key in givens:
        try:
            if float(key) == written.value:
                return key
        except ValueError:
            continue
    return None


def check_page(page: str, outputs: Iterable[str], givens: Mapping[str, str] | None = None) -> list[Problem]:
    """Everything wrong with the numbers of one page, in the order they appear in the source.

    `page` is the page's markdown as it sits on disk (front matter included, so that line
    numbers are the file's); `outputs` is everything the page's code printed; `givens` maps a
    numeral the page states without computing it to the reason it may.
    """
    givens = dict(givens or {})
    computed = [c for text in outputs for c in output_numerals(text)]
    problems: list[Problem] = []
    derived: set[tuple[int, int]] = set()
    for equation in equations(page):
        derived.add((equation.line, equation.right.column))
        if not _holds(equation.value, equation.right):
            problems.append(
                Problem(
                    equation.line,
                    f"{equation.text.strip()} does not hold "
                    f"({equation.left.strip()} is {_shown(equation.value)})",
                )
            )
    used: set[str] = set()
    for written in prose_numerals(page):
        if (written.line, written.column) in derived:
            continue
        if any(_holds(c.value, written) for c in computed):
            continue
        if (key := _given(written, givens)) is not None:
            used.add(key)
            continue
        message = f"{written.text} is written here but nothing on the page computes it"
        if (near := _nearest(written, computed)) is not None:
            message += f" (nearest computed: {near.text})"
        problems.append(Problem(written.line, message))
    for key, reason in givens.items():
        if not reason or not str(reason).strip():
            problems.append(Problem(1, f"the given {key} is declared without a reason"))
        elif key not in used:
            problems.append(Problem(1, f"the given {key} is declared but no prose numeral needs it"))
    return sorted(problems, key=lambda p: p.line)
