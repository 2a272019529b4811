"""What a written number means: its value, the precision it holds a value to, and how a new
value is written the same way.

A number is written in digits (`3.125`, `−0.5`, `4,096`, `1_000`, `.5`, `1e3`, `0x1F`), as a
power (`10⁴`, the ² of `n²`), a vulgar fraction (`½`) or in words (`sixteen`, `twenty-five`,
`a thousand`, `half`, `twice`, `a dozen`, `a hundredth`): a small vocabulary, so that a word
found is a number for sure. Digits may have a unit or a sign joined to them (`10ms`, `2.5x`,
`12k`, `58%`, `3rd`): what is held is the number as written before it, so `58%` quotes 58 and
`12k` quotes 12, one rule for every unit, none of them guessed at. `evaluate` works out the
written arithmetic of a worked sum (`0.5×0.25`), refusing anything that is not arithmetic.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

# A number as written: thousands may be grouped with commas ("4,096") or as Python groups them
# ("1_000"); a power as superscript digits ("10⁴", the ² of "n²"); a vulgar fraction ("½").
_DIGITS = r"\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:_\d+)+|\d+"
NUMBER = rf"(?:{_DIGITS})(?:\.\d+)?"
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_PLAIN_DIGITS = str.maketrans(SUPERSCRIPTS, "0123456789")
FRACTIONS = {"½": 1 / 2, "⅓": 1 / 3, "⅔": 2 / 3, "¼": 1 / 4, "¾": 3 / 4, "⅕": 1 / 5, "⅛": 1 / 8}
# Digits in every form a reader takes for a number: hex, a leading dot (".5"), scientific
# ("2.5e-4"), then a power, then a unit or sign joined on ("10ms", "2.5x", "12k", "58%", "3rd").
_HEX = r"0[xX][0-9A-Fa-f]+"
_MANTISSA = rf"(?:{NUMBER}|\.\d+)"
_EXPONENT = r"[eE][+−-]?\d+"
_UNIT = r"%|[^\W\d_]+"
WRITTEN = rf"(?:{_HEX}|{_MANTISSA}(?:{_EXPONENT})?)[{SUPERSCRIPTS}]*(?:{_UNIT})?"
_PARTS = re.compile(
    rf"(?P<sign>[−-]?)(?P<number>{_HEX}|(?P<mantissa>{_MANTISSA})(?P<exponent>{_EXPONENT})?)"
    rf"(?P<power>[{SUPERSCRIPTS}]*)(?P<unit>{_UNIT})?"
)
ORDINALS = ("st", "nd", "rd", "th")
# Number words: a small vocabulary, so that a word found is a number for sure.
_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"]
_UNITS += ["twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]  # 20, 30, ...
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
# Words and phrases of one value each, never written anew by renumber.
_FIXED = {"half": 0.5, "twice": 2, "a dozen": 12, "a quarter": 0.25, "a tenth": 0.1}
_FIXED |= {"a hundredth": 0.01, "a thousandth": 0.001, "a millionth": 0.000_001}
_UNIT_WORD = "|".join(sorted(_UNITS, key=len, reverse=True))  # "seventeen" before "seven"
_SMALL = rf"(?:{'|'.join(_TENS)})(?:-(?:{'|'.join(_UNITS[1:10])}))?|{_UNIT_WORD}"
_PHRASES = "|".join(sorted(_FIXED, key=len, reverse=True))
WORDS = rf"{_PHRASES}|(?:a|{_SMALL}) (?:{'|'.join(_SCALES)})(?: and (?:{_SMALL}))?|{_SMALL}"
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
        """The decimals written (of the mantissa, in scientific form), which a value is rounded
        to; None: the value must be exactly it (a whole number, hex, a power, a word)."""
        parts = _PARTS.fullmatch(self.text)
        if parts is None or parts["power"] or parts["mantissa"] is None:
            return None
        decimals = len(parts["mantissa"].partition(".")[2])
        return decimals if parts["exponent"] else decimals or None

    @property
    def unit(self) -> str:
        """What is joined to the digits ("ms" of "10ms", "%" of "58%"), or ""."""
        parts = _PARTS.fullmatch(self.text)
        return parts["unit"] or "" if parts else ""

    @property
    def scientific(self) -> bool:
        """Written as `2.5e-4`: held to the significant digits its mantissa shows."""
        parts = _PARTS.fullmatch(self.text)
        return bool(parts and parts["exponent"] and not parts["power"])

    @property
    def value(self) -> float:
        return value_of(self.text)


def value_of(text: str) -> float:
    """The value of a number as written: "4,096", "−0.5", ".5", "1e3", "0x1F", "½", "10⁴",
    "twenty-five", "a thousand"; a unit joined to digits is not part of it ("58%" is 58)."""
    if WORD.fullmatch(text):
        return _word_value(text.lower())
    if text in FRACTIONS:
        return FRACTIONS[text]
    if not text.strip(SUPERSCRIPTS):  # the ² of "n²"
        return float(text.translate(_PLAIN_DIGITS))
    parts = _PARTS.fullmatch(text)
    if parts is None:
        raise ValueError(f"{text!r} is not a number as the book writes one")
    number = parts["number"].replace("−", "-").replace(",", "")
    value = float(int(number, 16)) if parts["mantissa"] is None else float(number)
    if power := parts["power"].translate(_PLAIN_DIGITS):
        try:
            value **= int(power)
        except OverflowError:  # "10⁴⁰⁰": past any float, and past any value a float can give
            value = math.inf
    return -value if parts["sign"] else value


def _word_value(text: str) -> float:
    if text in _FIXED:
        return _FIXED[text]
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
    number, a word, a fraction or a power needs a value that is exactly it: "3" does not quote
    3.125. Scientific form holds the significant digits its mantissa shows: "2.5e-4" quotes 0.00025."""
    places = numeral.places
    if places is None:
        return math.isclose(value, numeral.value, rel_tol=0, abs_tol=1e-9)
    if numeral.scientific:
        return f"{value:.{places}e}" == f"{numeral.value:.{places}e}"
    return _fixed(value, places) == _fixed(numeral.value, places)


def _fixed(value: float, places: int) -> str:
    text = f"{value:.{places}f}"
    return text.lstrip("-") if float(text) == 0 else text


def restate(value: float, numeral: Numeral) -> str | None:
    """`value` written the way the numeral is, at its precision (words as words, its unit kept),
    or None where that cannot show the value exactly as the check reads it: renumber writes
    nothing then."""
    written = numeral.text
    parts = _PARTS.fullmatch(written)
    if not math.isfinite(value):
        return None
    if numeral.word:
        whole = value == round(value) and 0 <= value < 1e9
        text = _spelt(int(value), written) if whole else ""
        if written.lower() in _FIXED or not WORD.fullmatch(text) or value_of(text) != value:
            return None
        text = text.capitalize() if written[0].isupper() else text
    elif parts is None or parts["power"]:
        return None  # a fraction or a power: rewritten by hand
    elif not (text := _digits(value, numeral, parts)):
        return None
    fresh = Numeral(numeral.line, numeral.column, text)
    return text if holds(fresh, value) else None


def _digits(value: float, numeral: Numeral, parts: re.Match[str]) -> str:
    """`value` in the form of `parts`, its unit kept: hex, Python's grouping, scientific, an
    ordinal (its suffix made to fit) or a decimal, grouped, signed and with a leading dot as
    written; "" where that form cannot show it."""
    number, unit = parts["number"], parts["unit"] or ""
    whole = int(value) if value == round(value) else None
    if parts["mantissa"] is None or unit.lower() in ORDINALS:
        if whole is None or whole < 0:
            return ""
        if parts["mantissa"] is None:  # hex, its letters in the case written
            digits = f"{whole:x}"
            return number[:2] + (digits.upper() if any(c.isupper() for c in number[2:]) else digits)
        return f"{whole}{_ordinal(whole)}"
    if "_" in number:
        return f"{whole:_}{unit}" if whole is not None else ""
    places = numeral.places or 0
    if numeral.scientific:
        mantissa, _, exponent = f"{value:.{places}e}".partition("e")
        text = f"{mantissa}{parts['exponent'][0]}{int(exponent)}"
    else:
        text = f"{value:,.{places}f}" if "," in number else _fixed(value, places)
    text = re.sub(r"^(-?)0\.", r"\1.", text) if number.startswith(".") else text
    minus = "−" in parts["sign"] + (parts["exponent"] or "")
    return (text.replace("-", "−") if minus else text) + unit


def _ordinal(n: int) -> str:
    """The suffix that makes `n` an ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st."""
    return "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


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
