"""A binding's value in the namespace a page's code left: what a provider hands the check.

A provider runs a page's code its own way (a process of its own, a notebook's kernel) and
evaluates each binding's expression there as the page's code goes, stage by stage (`Stages`).
What comes back is what the check can compare and JSON can carry: a number, or lists of numbers
nested as the value is (numpy's arrays and scalars by their `tolist`, so numpy is never imported
here), or the one line that says why there is none. Nothing is raised, so the check can name the
number each failing binding quotes.

A binding is evaluated where it is written, after the fences above it, so a fence further down
that gives a name a new value cannot change what an earlier sentence quotes. Prose often
announces what the code below it computes ("we draw 100 samples", then the fence that draws
them): a binding that names what no fence above it defines yet is evaluated again after each
fence below, and takes its value once every name it uses is defined; if the fences below give
it another value by the page's end, the check does not guess which the sentence means, and
says so.
"""

from __future__ import annotations

import difflib
import json
import math
import numbers
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: a notebook's kernel loads this module from its source alone
    from bound_numbers.values import Value

# What evaluates the points at some indexes: each one's value and whether a name it uses is not
# defined yet (`evaluated`), in order.
Each = Callable[[list[int]], list[tuple["Value", bool]]]

WIDTH = 200  # the most characters of an error a reason quotes
SHOWN = 20  # the most characters of a value that a fence below changed
AT_END = "at the page's end"
# The longest integer a provider can send as JSON: json writes none past Python's digit limit.
_JSON_BITS = int(sys.get_int_max_str_digits() * 3.32) or sys.maxsize


def evaluated(expression: str, namespace: dict[str, object]) -> tuple[Value, bool]:
    """The expression's value in `namespace`, or the one-line reason it has none (for a name or
    an attribute that is not there, with the nearest one that is); and whether a name it uses
    is not defined there yet."""
    try:
        return plain(eval(compile(expression, "<binding>", "eval"), namespace)), False
    except (Exception, SystemExit) as error:  # exit() too: a binding that cannot be worked out is said
        return said(error) + _nearest(error, namespace), isinstance(error, NameError)


class Stages:
    """A page's points (stage, expression, where, and whether the page fixed the stage), evaluated
    stage by stage as its code runs: each at its stage, or, while a name it uses is not defined
    yet, again at each stage after, unless the page said where it is quoted (`; after the next
    fence`, `plan.py`). Such a point is evaluated once more after the last fence: if the fences
    below it gave it another value by then, which of the two the sentence quotes is not for the
    check to guess, and the point's value is the one line that says so."""

    def __init__(self, points: Sequence[Sequence[Any]], places: Sequence[Sequence[Any]] = ()) -> None:
        self.points = points
        # Each fence as a binding names it, by stage from 1 (`["cell", 49]` in a notebook): how the
        # line about a point the fences below define names the one it should quote; "fence N" else.
        self.places = places
        self.waiting: list[int] = []  # the points whose names were not all defined yet
        self.ahead: dict[int, tuple[int, Value]] = {}  # those a fence below gave a value: the stage, it

    def at(
        self, stage: int, namespace: dict[str, object], last: bool, step: Callable[[str], None] = print
    ) -> list[tuple[int, Value]]:
        """Each point of `stage`, and each waiting, evaluated in `namespace` (`last`: after the
        last fence, where nothing is left to wait for), each named to `step` as it starts: the
        index and value of those that have their value now."""

        def each(indexes: list[int]) -> list[tuple[Value, bool]]:
            found = []
            for index in indexes:
                step(self.points[index][2])
                found.append(evaluated(self.points[index][1], namespace))
            return found

        return self.evaluate(stage, last, each)

    def evaluate(self, stage: int, last: bool, each: Each) -> list[tuple[int, Value]]:
        """`at`, where `each` evaluates the points (a notebook's kernel evaluates them all in one
        request): the index and value of those that have their value now."""
        waited, self.waiting = self.waiting, []
        indexes = [*waited, *(n for n, point in enumerate(self.points) if point[0] == stage)]
        found: list[tuple[int, Value]] = []
        for index, (value, undefined) in zip(indexes, each(indexes) if indexes else [], strict=True):
            fixed = len(self.points[index]) > 3 and bool(self.points[index][3])
            if undefined and not last and not fixed:
                self.waiting.append(index)
                continue
            if index in waited and not last:
                self.ahead[index] = (stage, value)
            found.append((index, value))
        if last and self.ahead:
            found += self._twice(each)
        return found

    def _twice(self, each: Each) -> list[tuple[int, Value]]:
        """Each point given a value by a fence below it whose value is another after the last,
        and the line that says so, naming the fence that gave the first value: the one that sets
        what the binding reads, so that the binding that names it holds."""
        changed: list[tuple[int, Value]] = []
        for (index, (stage, first)), (end, _) in zip(self.ahead.items(), each(list(self.ahead)), strict=True):
            if end != first:
                word, number = self.places[stage - 1] if stage <= len(self.places) else ("fence", stage)
                below = f"`{{= {self.points[index][1]}; after {word} {number}}}`"
                said = (
                    f"names what only the {word}s below it define, and they give it {_given(first, 'first')} "
                    f"and {_given(end, AT_END)}: say where it is quoted from, as in {below}, or bind it to "
                    "what the code above it computes"
                )
                changed.append((index, said))
        return changed


def as_json(expressions: Sequence[str], namespace: dict[str, object]) -> str:
    """Each expression `evaluated` in `namespace`, as JSON: what a notebook's kernel answers
    (`kernel.py`), which has this module's source and nothing else of bound_numbers."""
    return json.dumps([evaluated(expression, namespace) for expression in expressions])


def raised() -> str:
    """Where in its cell the exception IPython showed last was raised, and the exception, as
    JSON `[line, name, said]`: the line of the cell's own code (the first module-level frame,
    IPython's run of the cell being above it) that the traceback last passed through, 0 if none
    did; for a SyntaxError, its line. What a notebook's kernel answers after a cell fails."""
    error = getattr(sys, "last_value", None)
    if error is None:
        return json.dumps([0, "", ""])
    if isinstance(error, SyntaxError):
        line = error.lineno or 0
    else:
        frames = traceback.extract_tb(getattr(sys, "last_traceback", None) or error.__traceback__)
        cell = next((frame.filename for frame in frames if frame.name == "<module>"), None)
        line = next((frame.lineno or 0 for frame in reversed(frames) if frame.filename == cell), 0)
    return json.dumps([line, type(error).__name__, said(error)])


def _given(value: Value, when: str) -> str:
    """What a binding was given `when` ("first"), in a few words: its value, or that it had none
    and why ("no number at the page's end (it is a Quantity, not a number)")."""
    if isinstance(value, str):  # the reason it has no value, not a value
        return f"no number {when} ({'it ' if value.startswith('is ') else ''}{value})"
    shown = repr(value)
    return f"{shown if len(shown) <= SHOWN else shown[: SHOWN - 1] + '…'} {when}"


def plain(value: object) -> Value:
    """`value` as a number or a nested list of numbers, or the one-line reason it is not one."""
    if callable(tolist := getattr(value, "tolist", None)):
        try:
            value = tolist()
        except Exception:  # handed on to what lacks it (pint's Quantity of an int): not numpy's
            return f"is a {type(value).__name__}, not a number"
    if isinstance(value, bool) or not isinstance(value, numbers.Real | Decimal | list | tuple):
        return f"is a {type(value).__name__}, not a number"
    if isinstance(value, list | tuple):
        items = [plain(item) for item in value]
        return next((item for item in items if isinstance(item, str)), items)
    if isinstance(value, int):  # one past a float's range is the check's to say (`check.values_of`)
        fits = value.bit_length() <= _JSON_BITS
        return value if fits else "is an integer of thousands of digits, past what a written number can quote"
    if isinstance(value, Decimal) and not value.is_finite():  # float() refuses a signalling NaN
        return _unquotable(value, value.is_infinite())
    number = float(value)  # a Fraction or a Decimal as well
    return number if math.isfinite(number) else _unquotable(number, math.isinf(number))


def _unquotable(value: object, infinite: bool) -> str:
    """Why an infinity or a NaN has no number that quotes it, in words a reader knows."""
    kind = "infinite" if infinite else "not a number"
    return f"its value is {value} ({kind}), which no written number can quote"


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
