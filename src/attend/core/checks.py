"""How the package says no: one rule for every function that takes numbers or token ids.

numpy is generous with what it will call a number. It reads "1.5" as 1.5, True as 1, a
complex value as its real half (with a warning a reader may never see), a date as a count
of days, and it drops a masked array's mask. Each of those would put a wrong number into a
table without a word. So every public function checks its arguments here first:

- a thing of the wrong kind (None, text, bytes, a bool, a complex number, a date, a
  Decimal, a masked array) is a TypeError;
- a thing of the right kind with a wrong value (not finite, too small, outside the table)
  is a ValueError;

and each message names the argument and, where there is one, the weight, token or score at
fault, in the words the book uses for them.

A request for more work than one run may do (`WORK_LIMIT`) is a ValueError too, reckoned from
the arguments alone before anything is allocated, by the same sums the command uses: a call
that would run out of memory says so in one line instead of ending in numpy's MemoryError.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

__all__ = [
    "LARGEST",
    "WORK_LIMIT",
    "a_thing",
    "amount",
    "draw_work",
    "finite",
    "generation_work",
    "real_array",
    "sequence_work",
    "switch",
    "token_ids",
    "whole",
    "whole_numbers",
    "within_work",
]

Where: TypeAlias = Callable[[int], str]  # names the number at a flat position, counted from 0

REAL_KINDS = "iuf"  # numpy's kind codes for signed, unsigned and floating-point numbers
KIND_WORDS = {
    "b": "true/false values",
    "c": "complex numbers",
    "M": "dates",
    "m": "time spans",
    "O": "Python objects",
    "U": "text",
    "S": "bytes",
    "V": "records",
}
LARGEST = float(np.finfo(np.float64).max)
MOST_DIMENSIONS = 32  # numpy's own limit is 64; nothing here needs more than two
# The bound on one run, in numbers handled. A row of n tokens handles 3·n² (the three n×n
# squares the head keeps) and `count` draws at width w against `length` keys handle
# count × ((length + 1)·w + 5·length) (a query and the keys of w numbers per draw, and the
# scores made from them). Measured with scripts/bench.py: at this limit a run stays under
# 1 GiB and takes a few seconds on a two-core machine.
WORK_LIMIT = 100_000_000


def sequence_work(length: int) -> int:
    """The numbers one run of the head over a sequence of `length` tokens handles."""
    return 3 * length * length


def draw_work(count: int, width: int, length: int = 4) -> int:
    """The numbers `count` draws of one query against `length` keys at `width` handle."""
    return count * ((length + 1) * width + 5 * length)


def generation_work(tokens: int, heads: int) -> int:
    """The numbers generating `tokens` tokens without a cache handles: at step t each of `heads`
    heads runs the row so far again, 3·t² numbers (the sum of 3·t² for t up to `tokens`)."""
    return heads * tokens * (tokens + 1) * (2 * tokens + 1) // 2


def within_work(handled: int, what: str, instead: str) -> None:
    """Refuse, before any of it starts, a run that would handle more than `WORK_LIMIT` numbers."""
    if handled > WORK_LIMIT:
        raise ValueError(
            f"{what} would handle {handled:,} numbers and one run handles at most {WORK_LIMIT:,}; {instead}"
        )


def amount(count: int, noun: str) -> str:
    """`1 token`, `2 tokens`: a count with its noun, in the number it agrees with."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def a_thing(value: object) -> str:
    """A short phrase for what was handed over, for messages that refuse it."""
    if value is None:
        return "None"
    if isinstance(value, bool | np.bool_):
        return f"the bool {value}"
    if isinstance(value, str | bytes):
        shown = repr(value) if len(value) <= 20 else repr(value[:17]) + "..."
        return f"{type(value).__name__} {shown}"
    if _is_number(value):
        return f"the single number {_short(value)}"
    return f"a {type(value).__name__}"


def _is_number(value: object) -> bool:
    """A real number of Python's or numpy's, but not a bool or a time span (numpy counts
    both as integers)."""
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_ | np.timedelta64
    )


def _short(value: object) -> str:
    """repr cut to a line's worth; a huge int is described, since its repr may be refused."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"of about {int(value.bit_length() * 0.30103) + 1} digits"
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def _masked(value: object) -> bool:
    """Whether `value` is a masked array, without importing numpy.ma (a sixth of a start-up)
    when nothing has: no masked array can exist before that module is loaded."""
    ma = sys.modules.get("numpy.ma")
    return ma is not None and isinstance(value, ma.MaskedArray)


def whole(value: object, name: str, least: int) -> int:
    """A whole number of at least `least`; a bool or a float is the wrong kind."""
    if not isinstance(value, int | np.integer) or not _is_number(value):
        raise TypeError(f"{name} must be a whole number, not {a_thing(value)}")
    if value < least:
        raise ValueError(f"{name} must be at least {least}, not {_short(value)}")
    return int(value)


def whole_numbers(values: object, name: str, least: int) -> list[int]:
    """A list or tuple of whole numbers, each at least `least`, and at least one of them."""
    if not isinstance(values, list | tuple | range):
        raise TypeError(f"{name} is a list of whole numbers, not {a_thing(values)}")
    if not values:
        raise ValueError(f"{name} is empty; give at least one")
    return [whole(value, f"each of {name}", least) for value in values]


def switch(value: object, name: str) -> bool:
    """True or False and nothing else: `divide="no"` must not quietly mean yes."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} is a switch, True or False, not {a_thing(value)}")
    return bool(value)


def real_array(value: object, name: str, where: Where) -> npt.NDArray[np.float64]:
    """`value` as float64, refused with a TypeError unless it holds only real numbers.

    Lists and tuples are walked item by item, because numpy would turn a bool or a
    numeric string among them into a number before anything could be checked.
    """
    if _masked(value):
        raise TypeError(f"{name} is a masked array; its mask would be ignored, so pass plain numbers")
    if isinstance(value, np.ndarray):
        _real_kind(value, name)
    elif isinstance(value, list | tuple):
        _real_items(value, name, where, 0)
    else:
        raise TypeError(f"{name} is a run of numbers, not {a_thing(value)}")
    try:
        with np.errstate(over="ignore"):  # a long double past float64's range becomes inf
            return np.asarray(value, dtype=np.float64)
    except ValueError:
        raise ValueError(f"{name} is ragged: its runs of numbers differ in length") from None


def finite(array: npt.NDArray[np.float64], where: Where) -> npt.NDArray[np.float64]:
    """The array itself if every number in it is finite, else a refusal naming the first."""
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        at = int(bad[0])
        raise ValueError(f"{where(at)} is {array.flat[at]}, which is not a finite number")
    return array


def token_ids(ids: object, size: int) -> list[int]:
    """A run of token ids, each a whole number in 0..size-1, as a list of ints."""
    if isinstance(ids, np.ndarray):
        if ids.dtype.kind not in "iu":
            raise TypeError(f"token ids are whole numbers, and this array holds {_kind_words(ids)}")
        ids = ids.tolist()
    if not isinstance(ids, list | tuple | range):
        raise TypeError(f"token ids come as a list of whole numbers, not {a_thing(ids)}")
    if all(type(token) is int for token in ids) and (not ids or 0 <= min(ids) <= max(ids) < size):
        return list(ids)  # the usual case, plain ints in range, checked at C speed
    checked = []
    for token in ids:
        if not isinstance(token, int | np.integer) or not _is_number(token):
            raise TypeError(f"a token id is a whole number, and {a_thing(token)} is not one")
        if not 0 <= token < size:
            raise ValueError(f"token {_short(token)} is not in the table, whose ids run 0..{size - 1}")
        checked.append(int(token))
    return checked


def _shown(item: object) -> str:
    if item is None or isinstance(item, bool | np.bool_ | str | bytes):
        return a_thing(item)
    return f"{_short(item)}, a {type(item).__name__}"


def _kind_words(array: npt.NDArray[np.generic]) -> str:
    return KIND_WORDS.get(array.dtype.kind, f"{array.dtype} values")


def _real_kind(array: npt.NDArray[np.generic], name: str) -> None:
    if _masked(array):
        raise TypeError(f"{name} holds a masked array; its mask would be ignored")
    if array.dtype.kind not in REAL_KINDS:
        raise TypeError(f"{name} holds {_kind_words(array)}, not real numbers")


def _real_items(
    items: list[object] | tuple[object, ...], name: str, where: Where, at: int, depth: int = 1
) -> int:
    """Check every number in nested lists; return the flat position after the last one."""
    if depth > MOST_DIMENSIONS:
        raise TypeError(f"{name} is lists nested more than {MOST_DIMENSIONS} deep, not numbers")
    for item in items:
        if isinstance(item, list | tuple):
            at = _real_items(item, name, where, at, depth + 1)
        elif isinstance(item, np.ndarray):
            _real_kind(item, name)
            at += item.size
        elif not _is_number(item):
            raise TypeError(f"{where(at)} is {_shown(item)}, not a real number")
        else:
            if isinstance(item, int) and abs(item) > LARGEST:
                raise ValueError(f"{where(at)} is a whole number {_short(item)}, too large to be finite")
            at += 1
    return at
