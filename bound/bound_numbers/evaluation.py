"""A binding's value in the namespace a page's code left: what a provider hands the check.

A provider runs a page's code its own way (a process of its own, a notebook's kernel) and then
evaluates each binding's expression there with `evaluate`. What comes back is what the check can
compare and JSON can carry: a number, or lists of numbers nested as the value is (numpy's arrays
and scalars by their `tolist`, so numpy is never imported here), or the one line that says why
there is none. Nothing is raised, so the check can name the number each failing binding quotes.
"""

from __future__ import annotations

import difflib
import math
import numbers
import sys
import traceback
from collections.abc import Iterable, Mapping
from decimal import Decimal

from bound_numbers.values import Value

WIDTH = 200  # the most characters of an error a reason quotes
# The longest integer a provider can send as JSON: json writes none past Python's digit limit.
_JSON_BITS = int(sys.get_int_max_str_digits() * 3.32) or sys.maxsize


def evaluate(expressions: Iterable[str], namespace: dict[str, object]) -> dict[str, Value]:
    """Each expression's value in `namespace`, or the one-line reason it has none (for a name or
    an attribute that is not there, with the nearest one that is)."""
    values: dict[str, Value] = {}
    for expression in expressions:
        try:
            values[expression] = plain(eval(compile(expression, "<binding>", "eval"), namespace))
        except (Exception, SystemExit) as error:  # exit() too: a binding that cannot be worked out is said
            values[expression] = said(error) + _nearest(error, namespace)
    return values


def plain(value: object) -> Value:
    """`value` as a number or a nested list of numbers, or the one-line reason it is not one."""
    if callable(tolist := getattr(value, "tolist", None)):
        value = tolist()
    if isinstance(value, bool) or not isinstance(value, numbers.Real | Decimal | list | tuple):
        return f"is a {type(value).__name__}, not a number"
    if isinstance(value, list | tuple):
        items = [plain(item) for item in value]
        return next((item for item in items if isinstance(item, str)), items)
    if isinstance(value, int):  # one past a float's range is the check's to say (`check.values_of`)
        fits = value.bit_length() <= _JSON_BITS
        return value if fits else "is an integer of thousands of digits, past what a written number can quote"
    if isinstance(value, Decimal) and not value.is_finite():  # float() refuses a signalling NaN
        return f"is {value}, which no written number can quote"
    number = float(value)  # a Fraction or a Decimal as well
    return number if math.isfinite(number) else f"is {number}, which no written number can quote"


def said(error: BaseException) -> str:
    """An exception in one line: its kind and the first line of its message, cut to `WIDTH`."""
    if isinstance(error, SyntaxError):
        text = f"SyntaxError: {error.msg}"
    else:
        text = traceback.format_exception_only(type(error), error)[-1].strip()
        text = text.splitlines()[0] if text else type(error).__name__
    return text if len(text) <= WIDTH else f"{text[: WIDTH - 1]}…"


def _nearest(error: BaseException, namespace: Mapping[str, object]) -> str:
    """ "; did you mean 'rate'?" for a misspelt name or attribute with a near one, else ""."""
    if isinstance(error, NameError):
        missing, known = error.name, list(namespace)
    elif isinstance(error, AttributeError):
        missing, known = error.name, dir(error.obj)
    else:
        return ""
    near = difflib.get_close_matches(missing or "", [k for k in known if not k.startswith("_")], 1, 0.5)
    return f"; did you mean {near[0]!r}?" if near else ""
