"""What a written number means: its value, the precision it holds a value to, and how a new
value is written the same way.

A number is written in digits (`3.125`, `−0.5`, `4,096`, `1_000`, `.5`, `1e3`, `0x1F`), as a
power (`10⁴`, the ² of `n²`), a vulgar fraction (`½`) or in words (`sixteen`, `twenty-five`,
`a thousand`, `half`, `twice`, `a dozen`, `a hundredth`): a small vocabulary, so that a word
found is a number for sure. Digits may have a unit or a sign joined to them (`10ms`, `2.5x`,
`12k`, `58%`, `3rd`): what is held is the number as written before it, so `58%` quotes 58 and
`12k` quotes 12, one rule for every unit, none of them guessed at.

Digits are read in the script and the convention they are written in: a decimal comma
(`3,14159`, `1.234,5`), thousands grouped by a no-break or thin space (`1 000`), Arabic-Indic or
full-width digits (`٣`, `３`); a new value is written back the same way. Where a form could be
either convention's (`1,234` is 1234 or 1.234), the page's decimal mark decides (`mark`); a page
that writes decimal commas without declaring its mark has such a form refused (`Unreadable`).
`work_out` works out the written arithmetic of a worked sum (`0.5×0.25`), refusing anything that
is not arithmetic.
"""

from __future__ import annotations

import ast
import functools
import math
import re
import unicodedata
from dataclasses import dataclass

SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_PLAIN_DIGITS = str.maketrans(SUPERSCRIPTS, "0123456789")
FRACTIONS = {"½": 1 / 2, "⅓": 1 / 3, "⅔": 2 / 3, "¼": 1 / 4, "¾": 3 / 4, "⅕": 1 / 5, "⅛": 1 / 8}
# What may stand between the digits of one number: a decimal mark, or a thousands separator as
# a locale writes it: "1,234.5", "1.234,5", "1_000", a space that never breaks a line (no-break,
# narrow no-break, thin: "1 000"), Arabic's "١٬٢٣٤٫٥". An ordinary space parts two numbers.
SPACES = "\u00a0\u202f\u2009"
_ARABIC_DECIMAL, _ARABIC_GROUP = "\u066b", "\u066c"
_SEPARATORS = f",._{SPACES}{_ARABIC_DECIMAL}{_ARABIC_GROUP}"
NUMBER = rf"\d+(?:[{_SEPARATORS}]\d+)*"
# Digits in every form a reader takes for a number: hex, a leading dot (".5"), scientific
# ("2.5e-4"), then a power, then a unit or sign joined on ("10ms", "2.5x", "12k", "58%", "3rd";
# "90\%" as Markdown writes a percent sign it must not read as markup).
_HEX = r"0[xX][0-9A-Fa-f]+"
_EXPONENT = r"[eE][+−-]?\d+"
PERCENT = ("%", "\\%", "％", "٪")
_UNIT = r"\\%|[%％٪]|[^\W\d_]+"
WRITTEN = rf"(?:{_HEX}|(?:{NUMBER}|\.\d+)(?:{_EXPONENT})?)[{SUPERSCRIPTS}]*(?:{_UNIT})?"
_FORM = re.compile(
    rf"(?P<sign>[−-]?)(?:(?P<hex>{_HEX})|(?P<body>{NUMBER})|\.(?P<dot>\d+))(?P<exponent>{_EXPONENT})?"
    rf"(?P<power>[{SUPERSCRIPTS}]*)(?P<unit>{_UNIT})?"
)
ORDINALS = ("st", "nd", "rd", "th")
# How a page reads a form either convention could write ("1,234", "1.234"): "." (1234 and
# 1.234), "," (1.234 and 1234), or AMBIGUOUS: it writes decimal commas and declares no mark.
AMBIGUOUS = "?"
# Number words: a small vocabulary, so that a word found is a number for sure.
_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"]
_UNITS += ["twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]  # 20, 30, ...
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
# Words and phrases of one value each, never written anew by renumber, held to it exactly.
_FIXED: dict[str, float] = {"half": 0.5, "twice": 2, "a dozen": 12}
_FIXED |= {"a hundredth": 0.01, "a thousandth": 0.001, "a millionth": 0.000_001}
# Fractions in words: "a third" to "a tenth" ("an eighth"), "one" for "a", and the multiples
# below one, spaced or hyphenated ("three quarters", "two-thirds").
_PARTS = {"half": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}
_PARTS |= {"eighth": 8, "ninth": 9, "tenth": 10}
_ONE = {part: f"{'an' if part[0] == 'e' else 'a'} {part}" for part in _PARTS}  # "an eighth"
_FIXED |= {said: 1 / _PARTS[part] for part, said in _ONE.items()}
_FIXED |= {
    f"{_UNITS[count]}{gap}{part}{'s' * (count > 1)}": count / whole
    for part, whole in _PARTS.items()
    for count in range(1, whole)
    for gap in " -"
}
# Of those, the ones ordinary sentences also use as positions ("a third try", "a fifth column").
POSITIONS = frozenset(said for part, said in _ONE.items() if part not in ("half", "quarter"))
_UNIT_WORD = "|".join(sorted(_UNITS, key=len, reverse=True))  # "seventeen" before "seven"
_SMALL = rf"(?:{'|'.join(_TENS)})(?:-(?:{'|'.join(_UNITS[1:10])}))?|{_UNIT_WORD}"
_PHRASES = "|".join(sorted(_FIXED, key=len, reverse=True))
WORDS = rf"{_PHRASES}|(?:a|{_SMALL}) (?:{'|'.join(_SCALES)})(?: and (?:{_SMALL}))?|{_SMALL}"
WORD = re.compile(rf"(?i:{WORDS})")


# Unit symbols a superscript after them is the power of (`m/s²`, `km²`, `ft³`), not a number: the
# metre, second and gram with the prefixes prose uses, and a few more, none a letter prose uses
# as a variable alone (`n²` stays a number).
UNIT_SYMBOLS = (
    *(f"{prefix}{base}" for base in ("m", "s") for prefix in ("", "k", "c", "m", "µ", "μ", "n")),
    *("kg", "mg", "µg", "μg", "ft", "in", "yd", "mi", "sec", "min", "hr", "Hz", "kHz", "MHz", "GHz"),
    *("Pa", "kPa", "mol", "lb", "oz"),
)


class Unreadable(ValueError):  # noqa: N818 (what the reader says of such digits: they are unreadable)
    """Digits a reader takes for one number whose value the page cannot settle: why, and what to
    write instead."""


@dataclass(frozen=True)
class Form:
    """A number in digits taken apart: its digits made ASCII, and how it was written."""

    sign: str  # "", "-" or "−"
    whole: str  # the digits before the decimal mark, ungrouped ("" for ".5")
    fraction: str | None  # the digits after it; None where none is written
    exponent: str  # as written ("e−4"), or ""
    power: str  # superscript digits, or ""
    unit: str
    hex: str  # "0x1F" as written, or ""
    group: str  # the character that groups thousands, or ""
    decimal: str  # the decimal mark written, or ""
    zero: str  # the zero of the digits' script: "0", "٠", "０"

    @property
    def value(self) -> float:
        if self.hex:
            value = float(int(self.hex, 16))
        else:
            value = float(f"{self.whole or '0'}.{self.fraction or '0'}{self.exponent.replace('−', '-')}")
        if power := self.power.translate(_PLAIN_DIGITS):
            try:
                value **= int(power)
            except OverflowError:  # "10⁴⁰⁰": past any float, and past any value a float can give
                value = math.inf
        return -value if self.sign else value


def _ascii(text: str) -> tuple[str, str]:
    """`text` with its digits made ASCII, and the zero of their script; `Unreadable` if it mixes two."""
    zeros = {chr(ord(c) - unicodedata.decimal(c)) for c in text if unicodedata.decimal(c, None) is not None}
    if len(zeros) > 1:
        raise Unreadable("mixes the digits of two scripts: write it in one")
    zero = zeros.pop() if zeros else "0"
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in text), zero


def _decimal_of(separators: list[str], parts: list[str], mark: str) -> str:
    """Which separator of a number's digits is its decimal mark ("" if none): the Arabic one,
    the last of two kinds, or a lone comma or dot that cannot group thousands ("3,14159",
    "0.500"); one that could ("1,234") is the page's `mark`'s to settle."""
    kinds = list(dict.fromkeys(separators))
    if _ARABIC_DECIMAL in kinds:
        return _ARABIC_DECIMAL
    if len(kinds) == 2 and kinds[1] in ".,":
        return kinds[1]
    if len(kinds) > 1:
        raise Unreadable(
            f"mixes {' and '.join(map(repr, kinds))} between its digits: group thousands one way"
        )
    if kinds[0] not in ".," or len(separators) > 1:
        return ""  # "1_000", "1 000", "1,234,567": grouping only
    head, tail = parts
    if len(tail) != 3 or not 1 <= len(head) <= 3 or head.startswith("0"):
        return kinds[0]
    if mark == AMBIGUOUS:
        raise Unreadable(
            f"could be {head}{tail} or {head}.{tail}, and this page writes decimal commas: "
            'declare its mark (`decimal_mark: ","` or ".") in the front matter or mkdocs.yml'
        )
    return kinds[0] if kinds[0] == mark else ""


def _settle(body: str, mark: str) -> tuple[str, str | None, str, str]:
    """ASCII digits with separators as the page reads them: (whole, fraction, group, decimal)."""
    separators = re.findall(rf"[{_SEPARATORS}]", body)
    parts = re.split(rf"[{_SEPARATORS}]", body)
    if not separators:
        return body, None, "", ""
    decimal = _decimal_of(separators, parts, mark)
    if decimal and (separators.count(decimal) > 1 or separators[-1] != decimal):
        raise Unreadable(f"has {decimal!r} where its decimal mark should be last and alone")
    groups = parts[:-1] if decimal else parts
    grouping = set(separators[:-1] if decimal else separators)
    if len(grouping) > 1:
        raise Unreadable("groups its thousands two ways: group them one way")
    group = grouping.pop() if grouping else ""
    if group and group != "_" and not _in_threes(groups):
        raise Unreadable(
            "groups its digits other than in threes: write a list with a space after each comma, "
            "or group thousands in threes"
        )
    return "".join(groups), parts[-1] if decimal else None, group, decimal


def _in_threes(groups: list[str]) -> bool:
    return len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])


def version(text: str) -> bool:
    """Whether digits are a version or a date rather than a number: three or more parts joined
    by dots alone, not all in threes ("3.11.2", "23.05.2014"; "1.234.567" is a number)."""
    parts = text.split(".")
    return len(parts) > 2 and all(p.isdecimal() for p in parts) and not all(len(p) == 3 for p in parts[1:])


@functools.lru_cache(maxsize=4096)
def form(text: str, mark: str = ".") -> Form:
    """A number in digits taken apart as a page whose decimal mark is `mark` reads it; a
    `ValueError` if it is no such number, `Unreadable` saying why if the page cannot read it."""
    plain, zero = _ascii(text)
    found = _FORM.fullmatch(plain)
    if found is None:
        raise ValueError(f"{text!r} is not a number in digits")
    if found["dot"]:
        whole, fraction, group, decimal = "", found["dot"], "", "."
    elif found["body"]:
        whole, fraction, group, decimal = _settle(found["body"], mark)
    else:
        whole, fraction, group, decimal = "", None, "", ""
    return Form(
        found["sign"],
        whole,
        fraction,
        found["exponent"] or "",
        found["power"],
        found["unit"] or "",
        found["hex"] or "",
        group,
        decimal,
        zero,
    )


@dataclass(frozen=True)
class Numeral:
    """A number as written, and where (`column` counts from 0); `mark`: how its page reads a form
    either convention could write; `approximate`: written after `≈` or "about", so that a whole
    number holds its value rounded; `digits`: the fewest digits its whole part is written with
    (a time's seconds, `44:05`: 2)."""

    line: int
    column: int
    text: str
    mark: str = "."
    approximate: bool = False
    digits: int = 0

    @property
    def word(self) -> bool:
        return bool(WORD.fullmatch(self.text))

    @property
    def form(self) -> Form | None:
        """The number taken apart, if it is written in digits (not a word, a fraction, a power)."""
        if self.word or self.text in FRACTIONS or not self.text.strip(SUPERSCRIPTS):
            return None
        return form(self.text, self.mark)

    @property
    def places(self) -> int | None:
        """The decimals written (of the mantissa, in scientific form), which a value is rounded
        to; None: the value must be exactly it (a whole number, hex, a power, a word). A whole
        number written approximately (`≈ 333`, "about 333") holds its value rounded: 0 places."""
        found = self.form
        if found is None or found.power or found.hex:
            return None
        decimals = len(found.fraction or "")
        if found.exponent:
            return decimals
        return decimals or (0 if self.approximate else None)

    @property
    def unit(self) -> str:
        """What is joined to the digits ("ms" of "10ms", "%" of "58%"), or ""."""
        found = self.form
        return found.unit if found else ""

    @property
    def percent(self) -> bool:
        return self.unit in PERCENT

    @property
    def scientific(self) -> bool:
        """Written as `2.5e-4`: held to the significant digits its mantissa shows."""
        found = self.form
        return bool(found and found.exponent and not found.power)

    @property
    def value(self) -> float:
        return value_of(self.text, self.mark)


def value_of(text: str, mark: str = ".") -> float:
    """The value of a number as written: "4,096", "−0.5", ".5", "1e3", "0x1F", "½", "10⁴",
    "twenty-five", "a thousand", "3,14159", "٣"; a unit joined to digits is not part of it
    ("58%" is 58)."""
    if WORD.fullmatch(text):
        return _word_value(text.lower())
    if text in FRACTIONS:
        return FRACTIONS[text]
    if not text.strip(SUPERSCRIPTS):  # the ² of "n²"
        return float(text.translate(_PLAIN_DIGITS))
    return form(text, mark).value


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
    3.125, but "about 3" and "≈ 3" do (a whole number written approximately holds the value
    rounded). Scientific form holds the significant digits its mantissa shows: "2.5e-4" quotes
    0.00025."""
    places = numeral.places
    if places is None:
        counted = numeral.approximate and numeral.word and numeral.text.lower() not in _FIXED
        wanted = round(value) if counted and math.isfinite(value) else value
        return math.isclose(wanted, numeral.value, rel_tol=0, abs_tol=1e-9)
    if numeral.scientific:
        return f"{value:.{places}e}" == f"{numeral.value:.{places}e}"
    return _fixed(value, places) == _fixed(numeral.value, places)


def _fixed(value: float, places: int) -> str:
    text = f"{value:.{places}f}"
    return text.lstrip("-") if float(text) == 0 else text


def restate(value: float, numeral: Numeral) -> str | None:
    """`value` written the way the numeral is, at its precision (words as words, its unit, its
    grouping, decimal mark and script kept), or None where that cannot show the value exactly
    as the check reads it, or shows a value that is not zero as zero (`unwritable` says which):
    renumber writes nothing then."""
    return _restated(value, numeral)[0]


def unwritable(value: float, numeral: Numeral) -> str:
    """Why `restate` gives nothing for `value`: the form cannot show it, or would show it as 0."""
    return _restated(value, numeral)[1]


CANNOT = "renumber cannot write it in this form"


def _restated(value: float, numeral: Numeral) -> tuple[str | None, str]:
    if not math.isfinite(value):
        return None, CANNOT
    if numeral.word:
        text = _worded(value, numeral)
    elif (found := numeral.form) is None or found.power:
        text = ""  # a fraction or a power: rewritten by hand
    else:
        text = _digits(value, numeral, found)
    fresh = Numeral(numeral.line, numeral.column, text, numeral.mark, numeral.approximate)
    try:
        if not text or not holds(fresh, value):
            return None, CANNOT
    except ValueError:  # "1,234": a form the page cannot read back
        return None, CANNOT
    if value != 0 and fresh.value == 0:
        return None, f"at the precision written it would read {text}, which hides that it is not zero"
    return text, ""


def _worded(value: float, numeral: Numeral) -> str:
    """`value` as a number word like the numeral's (its capital kept), or "" if none says it."""
    written = numeral.text
    counted = round(value) if numeral.approximate else value
    whole = counted == round(counted) and 0 <= counted < 1e9
    text = _spelt(int(counted), written) if whole else ""
    if written.lower() in _FIXED or not WORD.fullmatch(text) or value_of(text) != counted:
        return ""
    return text.capitalize() if written[0].isupper() else text


def _digits(value: float, numeral: Numeral, found: Form) -> str:
    """`value` in the form `found` was written in, its unit kept: hex, Python's grouping,
    scientific, an ordinal (its suffix made to fit) or a decimal, grouped, signed, with a leading
    dot and in the script as written; "" where that form cannot show it."""
    unit = found.unit
    counted = round(value) if numeral.approximate else value
    whole = int(counted) if counted == round(counted) else None
    if found.hex or unit.lower() in ORDINALS:
        return _counted(whole, found)
    if found.group == "_":
        return f"{whole:_}{unit}" if whole is not None else ""
    places = numeral.places or 0
    scientific = numeral.scientific
    text = _scientific(value, places, found) if scientific else _decimal(value, places, found, numeral.digits)
    minus = "−" in found.sign + found.exponent
    return _script(text.replace("-", "−") if minus else text, found.zero) + unit


def _counted(whole: int | None, found: Form) -> str:
    """A whole number as hex (its letters in the case written) or as an ordinal; "" for another."""
    if whole is None or whole < 0:
        return ""
    if found.hex:
        digits = f"{whole:x}"
        return found.hex[:2] + (digits.upper() if any(c.isupper() for c in found.hex[2:]) else digits)
    return _script(f"{whole}", found.zero) + _ordinal(whole)


def _scientific(value: float, places: int, found: Form) -> str:
    mantissa, _, exponent = f"{value:.{places}e}".partition("e")
    return mantissa.replace(".", found.decimal or ".") + f"{found.exponent[0]}{int(exponent)}"


def _decimal(value: float, places: int, found: Form, digits: int = 0) -> str:
    """`value` at `places` decimals, grouped and marked as `found` was, a leading dot kept, its
    whole part padded with zeros to `digits`."""
    fixed = _fixed(value, places)
    sign = "-" if fixed.startswith("-") else ""
    head, _, tail = fixed.lstrip("-").partition(".")
    head = head.zfill(digits)
    if found.group:
        head = f"{int(head):,}".replace(",", found.group)
    head = "" if not found.whole and head == "0" else head  # ".5" keeps its leading dot
    return sign + head + (f"{found.decimal}{tail}" if tail else "")


def _script(text: str, zero: str) -> str:
    """ASCII digits written in the script whose zero is `zero`."""
    return text.translate({ord("0") + n: ord(zero) + n for n in range(10)}) if zero != "0" else text


def _ordinal(n: int) -> str:
    """The suffix that makes `n` an ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st."""
    return "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


# What a worked sum may hold besides numbers: operators (a sum's pattern admits + − × ÷ and
# powers, a square root being a power ½), never a name, a call or an attribute.
_ARITHMETIC = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop, ast.Load)


def work_out(written: str, mark: str = ".") -> float:
    """Arithmetic as prose writes it (`2 x 32 x 4`, `√4`, `4²`, `1,024 ÷ 2`, `0,5 × 0,25` on a
    page of decimal commas); else a ValueError."""
    python = re.sub(NUMBER, lambda m: repr(form(m.group(0), mark).value), written)
    python = re.sub(r"√\s*([\d.]+)", r"(\1**0.5)", python)
    python = re.sub(rf"[{SUPERSCRIPTS}]+", lambda m: "**" + m.group(0).translate(_PLAIN_DIGITS), python)
    python = re.sub(r"(?<=[\d\s])x(?=[\s\d])", "*", python)
    tree = ast.parse(python.translate(str.maketrans("×·÷−", "**/-")).strip(), mode="eval")
    for node in ast.walk(tree):
        number = isinstance(node, ast.Constant) and isinstance(node.value, int | float)
        if not (number or isinstance(node, _ARITHMETIC)):
            raise ValueError(f"not arithmetic: {ast.dump(node)}")
    return float(eval(compile(tree, "<worked sum>", "eval"), {"__builtins__": {}}))
