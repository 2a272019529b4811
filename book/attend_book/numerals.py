"""What a written number means: its value, the precision it holds a value to, and how a new
value is written the same way.

A number is written in digits (`3.125`, `−0.5`, `4,096`), as a power (`10⁴`, the ² of `n²`), a
vulgar fraction (`½`) or in words (`sixteen`, `twenty-five`, `a thousand`, `half`, `twice`):
a small vocabulary, so that a word found is a number for sure. `evaluate` works out the written
arithmetic of a worked sum (`0.5×0.25`), refusing anything that is not arithmetic.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

# A number as written: thousands may be grouped with commas ("4,096"); a power as superscript
# digits ("10⁴", the ² of "n²"); a vulgar fraction ("½").
_DIGITS = r"\d{1,3}(?:,\d{3})+(?!\d)|\d+"
NUMBER = rf"(?:{_DIGITS})(?:\.\d+)?"
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_PLAIN_DIGITS = str.maketrans(SUPERSCRIPTS, "0123456789")
FRACTIONS = {"½": 1 / 2, "⅓": 1 / 3, "⅔": 2 / 3, "¼": 1 / 4, "¾": 3 / 4, "⅕": 1 / 5, "⅛": 1 / 8}
# Number words: a small vocabulary, so that a word found is a number for sure.
_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"]
_UNITS += ["twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]  # 20, 30, ...
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_MULTIPLES = {"half": 0.5, "twice": 2}
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))  # "seventeen" before "seven"
_SMALL = rf"(?:{'|'.join(_TENS)})(?:-(?:{'|'.join(_UNITS[1:10])}))?|{_UNIT}"
WORDS = rf"(?:a|{_SMALL}) (?:{'|'.join(_SCALES)})(?: and (?:{_SMALL}))?|{_SMALL}|{'|'.join(_MULTIPLES)}"
WORD = re.compile(rf"(?i:{WORDS})")


@dataclass(frozen=True)
class Numeral:
    """A number as written, and where (`column` counts from 0)."""

    line: int
    column: int
    text: str

    @property
    def word(self) -> bool:
        return bool(WORD.fullmatch(self.text))

    @property
    def places(self) -> int | None:
        """The decimals written, which a value is rounded to; None: the value must be exactly it."""
        return len(self.text.partition(".")[2]) or None

    @property
    def value(self) -> float:
        return value_of(self.text)


def value_of(text: str) -> float:
    """The value of a number as written: "4,096", "−0.5", "½", "10⁴", "twenty-five", "a thousand"."""
    if WORD.fullmatch(text):
        return _word_value(text.lower())
    if text in FRACTIONS:
        return FRACTIONS[text]
    base = text.rstrip(SUPERSCRIPTS)
    power = text[len(base) :].translate(_PLAIN_DIGITS)
    if not base:
        return float(power)
    number = float(base.replace("−", "-").replace(",", ""))
    return number ** int(power) if power else number


def _word_value(text: str) -> float:
    if text in _MULTIPLES:
        return _MULTIPLES[text]
    head, _, rest = text.partition(" ")  # "twenty-five", or "a thousand and six"
    scale, _, tail = rest.partition(" and ")
    return _BELOW_100[head] * _SCALES.get(scale, 1) + _BELOW_100.get(tail, 0)


def _spelt(n: int, like: str) -> str:
    if n < 20:
        return _UNITS[n]
    if n < 100:
        return _TENS[n // 10 - 2] + (f"-{_UNITS[n % 10]}" if n % 10 else "")
    scale, size = next((s, v) for s, v in reversed(_SCALES.items()) if n >= v)
    count, rest = divmod(n, size)
    head = "a" if count == 1 and like.lower().startswith("a ") else _spelt(count, "")
    return f"{head} {scale}" + (f" and {_spelt(rest, '')}" if rest else "")


_BELOW_100 = {"a": 1} | {_spelt(n, ""): n for n in range(100)}  # "a" as in "a thousand"


def holds(numeral: Numeral, value: float) -> bool:
    """Whether `value`, at the precision the numeral is written to, is what is written. A whole
    number, a word, a fraction or a power needs a value that is exactly it: "3" does not quote 3.125."""
    places = numeral.places
    if places is None:
        return math.isclose(value, numeral.value, rel_tol=0, abs_tol=1e-9)
    return _fixed(value, places) == _fixed(numeral.value, places)


def _fixed(value: float, places: int) -> str:
    text = f"{value:.{places}f}"
    return text.lstrip("-") if float(text) == 0 else text


def restate(value: float, numeral: Numeral) -> str | None:
    """`value` written the way the numeral is, at its precision (words as words), or None where
    that cannot show the value exactly as the check reads it: renumber writes nothing then."""
    written = numeral.text
    if numeral.word:
        whole = value == round(value) and 0 <= value < 1e9
        text = _spelt(int(value), written) if whole else ""
        if written.lower() in _MULTIPLES or not WORD.fullmatch(text) or value_of(text) != value:
            return None
        text = text.capitalize() if written[0].isupper() else text
    elif not re.fullmatch(rf"[−-]?{NUMBER}", written):
        return None  # a fraction or a power: rewritten by hand
    else:
        places = numeral.places or 0
        text = f"{value:,.{places}f}" if "," in written else _fixed(value, places)
        text = text.replace("-", "−") if "−" in written else text
    fresh = Numeral(numeral.line, numeral.column, text)
    return text if holds(fresh, value) else None


# What a worked sum may hold besides numbers: operators (a sum's pattern admits + − × ÷ and
# powers, a square root being a power ½), never a name, a call or an attribute.
_ARITHMETIC = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop, ast.Load)


def evaluate(expression: str) -> float:
    """Arithmetic as prose writes it (`2 x 32 x 4`, `√4`, `4²`, `1,024 ÷ 2`); else a ValueError."""
    python = expression.replace(",", "")
    python = re.sub(rf"√\s*({NUMBER})", r"(\1**0.5)", python)
    python = re.sub(rf"[{SUPERSCRIPTS}]+", lambda m: "**" + m.group(0).translate(_PLAIN_DIGITS), python)
    python = re.sub(r"(?<=[\d\s])x(?=[\s\d])", "*", python)
    tree = ast.parse(python.translate(str.maketrans("×·÷−", "**/-")).strip(), mode="eval")
    for node in ast.walk(tree):
        number = isinstance(node, ast.Constant) and isinstance(node.value, int | float)
        if not (number or isinstance(node, _ARITHMETIC)):
            raise ValueError(f"not arithmetic: {ast.dump(node)}")
    return float(eval(compile(tree, "<worked sum>", "eval"), {"__builtins__": {}}))
