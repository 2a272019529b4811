"""Each expression the prose binds a number to, evaluated in the namespace a page's code left.

Run where that namespace is: in a page's own process after its last fence (`execution`), and in
the workbench's kernel after its last cell (`workbench`). A value goes back as JSON writes it
(`page.Value`); an expression without one is never raised, only said, in one line, so the check
can name the number it was bound to.
"""

from __future__ import annotations

import difflib
import sys
import traceback
from collections.abc import Iterable

from bound_numbers.values import Value

# The longest integer a report can carry: json writes no int of more than Python's digit limit.
_REPORTED_BITS = int(sys.get_int_max_str_digits() * 3.32) or sys.maxsize


def evaluate(expressions: Iterable[str], namespace: dict[str, object]) -> dict[str, Value]:
    """Each expression's value in `namespace`, or the one-line reason it has none: for a name
    or an attribute that is not there, with the nearest one that is."""
    values: dict[str, Value] = {}
    for expression in expressions:
        try:
            values[expression] = plain(eval(compile(expression, "<binding>", "eval"), namespace))
        except Exception as error:  # a binding that cannot be worked out is reported, not raised
            values[expression] = said(error).splitlines()[-1] + _nearest(error, namespace)
    return values


def plain(value: object) -> Value:
    """`value` as a number or nested list of numbers (numpy's included), or why it is not one."""
    if callable(tolist := getattr(value, "tolist", None)):  # numpy's arrays and scalars
        value = tolist()
    if isinstance(value, int) and value.bit_length() > _REPORTED_BITS:  # json could not write it
        return "is an integer of thousands of digits, past what a written number can quote"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if isinstance(value, list | tuple):
        items = [plain(item) for item in value]
        return next((item for item in items if isinstance(item, str)), items)
    return f"is a {type(value).__name__}, not a number"


def said(error: BaseException) -> str:
    """An exception as Python's traceback ends: its type and message."""
    return "".join(traceback.format_exception_only(error)).rstrip()


def _nearest(error: Exception, namespace: dict[str, object]) -> str:
    """ "; did you mean 'q2'?" for a misspelt name or attribute with a near one, else ""."""
    if isinstance(error, NameError):
        missing, known = error.name, list(namespace)
    elif isinstance(error, AttributeError):
        missing, known = error.name, dir(error.obj)
    else:
        return ""
    near = difflib.get_close_matches(missing or "", [k for k in known if not k.startswith("_")], 1, 0.5)
    return f"; did you mean {near[0]!r}?" if near else ""
