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
that would run out of memory says so in one line instead of ending in numpy's MemoryError. So
is a number too large for the arithmetic that follows to stay within float64's range, reckoned
from the largest weight and the largest input before any product is made: every number the
math makes after these checks is finite, and the listings the book shows need no guard of
their own.

Each public function calls these once, at its top; the math below that line is checked by
nothing, and the parts of the package that hand each other arrays they made themselves call
the math without them (the training loop among them).
"""

from __future__ import annotations

import math
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
    "batch_of_sequences",
    "batch_of_tokens",
    "draw_work",
    "finite",
    "generation_work",
    "heads_of",
    "index",
    "indices",
    "largest_input",
    "lengths_within",
    "mask",
    "matrix",
    "model_shape",
    "positions",
    "queries_keys_values",
    "queries_of_keys",
    "real_array",
    "scores",
    "sequence",
    "sequence_work",
    "small",
    "switch",
    "token_ids",
    "turnable",
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


# --- the arrays the head and attention read -------------------------------------------------


def sequence(
    x: object,
    d_model: int,
    *,
    most: float = LARGEST,
    work: Callable[[int], int] | None = None,
    name: str = "the sequence x",
) -> npt.NDArray[np.float64]:
    """`x` as a fresh n × d_model float64 array of at least one token, or a one-line refusal
    naming the token at fault. `most` is the largest size a number may have for what reads it to
    stay in float64's range (`largest_input`); `work`, the numbers a run over n tokens handles,
    held to `WORK_LIMIT` before anything is made of a long list."""
    if work is not None and (isinstance(x, list | tuple) or (isinstance(x, np.ndarray) and x.ndim)):
        within_work(work(len(x)), f"a sequence of {len(x):,} tokens", "ask for a shorter one")
    if isinstance(x, np.ndarray):
        rows = real_array(x, name, lambda at: f"number {at + 1} of {name}")
        if rows.ndim != 2:
            raise TypeError(f"{name} is one run of numbers per token, not a {rows.ndim}-d array")
    elif isinstance(x, list | tuple):
        tokens = [_token(token, t, len(x), d_model) for t, token in enumerate(x)]
        rows = np.array(tokens, dtype=np.float64).reshape(len(x), d_model)
    else:
        raise TypeError(f"{name} is a sequence of tokens, not {a_thing(x)}")
    n = len(rows)
    if not n:
        raise ValueError(f"{name} holds no tokens; at least one is needed")
    if rows.shape[1] != d_model:
        raise ValueError(
            f"each token of {name} arrives with {amount(rows.shape[1], 'number')}, and d_model is {d_model}"
        )

    def where(at: int) -> str:
        return f"token {at // d_model + 1} of {n}, number {at % d_model + 1},"

    finite(rows, where)
    small(rows, most, where, "these weights' products would leave float64's range")
    return rows.copy()


def _token(token: object, t: int, n: int, d_model: int) -> npt.NDArray[np.float64]:
    """Token t of a sequence given as a list: a run of exactly d_model real numbers."""
    name = f"token {t + 1} of {n}"
    if not isinstance(token, list | tuple | np.ndarray):
        raise TypeError(f"{name} is a run of numbers, not {a_thing(token)}")
    numbers = real_array(token, name, lambda at: f"{name}, number {at + 1},")
    if numbers.ndim != 1:
        raise TypeError(f"{name} is a run of numbers, not a grid of them")
    if numbers.size != d_model:
        raise ValueError(f"{name} arrives with {amount(numbers.size, 'number')}, and d_model is {d_model}")
    return numbers


def matrix(weights: object, name: str, rows: int, columns: int) -> npt.NDArray[np.float64]:
    """A flat run of rows·columns finite weights as a read-only rows × columns matrix (row j the
    weights that make output dimension j), or a refusal naming the weight."""
    flat = real_array(weights, name, lambda at: f"{name} weight {at + 1}").ravel()
    if flat.size != rows * columns:
        raise ValueError(
            f"{name} holds {amount(flat.size, 'number')} and a {rows} by {columns} matrix wants "
            f"{rows * columns}"
        )
    finite(flat, lambda at: f"{name} weight {at + 1}")
    held = flat.reshape(rows, columns).copy()
    held.flags.writeable = False
    return held


def heads_of(d_model: object, h: object) -> tuple[int, int]:
    """d_model numbers cut into h heads of equal width: both whole numbers of at least one, h a
    divisor of d_model."""
    d_model, h = whole(d_model, "d_model", 1), whole(h, "h", 1)
    if d_model % h:
        raise ValueError(f"{d_model} numbers do not split into {h} heads of equal width")
    return d_model, h


def largest_input(
    d_model: int,
    d_k: int,
    projections: npt.NDArray[np.float64],
    mixing: npt.NDArray[np.float64] | None = None,
) -> float:
    """The largest size a token's number may have for a head to keep every number it makes in
    float64's range, reckoned from its largest weight w before any product is made.

    A query, key or value is at most d_model·w·x, a score d_k times a query times a key; keeping
    that under half of float64's largest leaves room for the subtraction softmax makes, and the
    output, a weighted mean of values, is no larger than a value. With W_O (`mixing`, its
    largest weight w_o), the joined outputs times W_O are at most d_model·w_o·d_model·w·x too.
    """
    w = float(np.abs(projections).max(initial=0.0))
    if w == 0.0:
        return LARGEST
    most = math.sqrt(LARGEST / 2 / d_k) / (d_model * w)
    if mixing is not None and (w_o := float(np.abs(mixing).max(initial=0.0))):
        most = min(most, LARGEST / (d_model * w_o) / (d_model * w))  # divided in turn: no product underflows
    return most


def scores(values: object) -> npt.NDArray[np.float64]:
    """Scores for softmax as float64: each row at least one score, each score finite or -inf (a
    hidden key), no row -inf throughout; refused in one line otherwise."""
    if not isinstance(values, list | tuple | np.ndarray) or (
        isinstance(values, np.ndarray) and values.ndim == 0
    ):
        raise TypeError(f"softmax takes a row of scores, not {a_thing(values)}")
    if isinstance(values, np.ndarray):  # a view may stand for far more numbers than it stores
        within_work(3 * values.size, f"softmax over {values.size:,} scores", "ask for fewer scores")
    row = real_array(values, "softmax's scores", lambda at: f"softmax's score {at + 1}")
    if row.size == 0 or row.shape[-1] == 0:
        raise ValueError("softmax needs at least one score in a row")
    if np.isfinite(row).all():
        return row  # the usual case, checked with one pass and no more memory
    bad = np.flatnonzero(np.isnan(row) | (row == np.inf))
    if bad.size:
        at = int(bad[0])
        raise ValueError(
            f"softmax's score {_place(at, row.shape)} is {row.flat[at]}, and a score must be a finite "
            "number or -inf"
        )
    hidden = np.flatnonzero((row == -np.inf).all(axis=-1))
    if hidden.size:
        raise ValueError(
            f"softmax's row {int(hidden[0]) + 1} is -inf throughout, so no score in it can take a weight"
        )
    return row


def _place(at: int, shape: tuple[int, ...]) -> str:
    """Position `at` of the flattened scores as 'n' in a row, or 'n of row m' in a square."""
    if len(shape) == 1:
        return str(at + 1)
    r, i = divmod(at, shape[-1])
    return f"{i + 1} of row {r + 1}"


Arrays: TypeAlias = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]


def queries_keys_values(q: object, k: object, v: object, seen: object) -> Arrays:
    """q, k and v as finite float64 arrays of shapes that fit together, (..., n, d_k),
    (..., m, d_k) and (..., m, d_v), their scores within `WORK_LIMIT` and float64's range, and
    `seen` a mask of True and False that lays over the scores; or a one-line refusal."""
    given = sum(value.size for value in (q, k, v) if isinstance(value, np.ndarray))
    within_work(given, "these queries, keys and values", "ask for fewer or narrower tokens")
    checked = []
    for name, value in (("q", q), ("k", k), ("v", v)):
        array = real_array(value, name, _naming(name))
        if array.ndim < 2 or 0 in array.shape:
            raise ValueError(
                f"{name} is (..., tokens, dimensions) with at least one of each, not {array.shape}"
            )
        checked.append(finite(array, _naming(name)))
    q, k, v = checked
    if q.shape[-1] != k.shape[-1] or k.shape[:-1] != v.shape[:-1] or q.shape[:-2] != k.shape[:-2]:
        raise ValueError(f"queries {q.shape}, keys {k.shape} and values {v.shape} do not fit together")
    square = (*q.shape[:-1], k.shape[-2])
    handled = 3 * math.prod(square) + math.prod(q.shape[:-1]) * v.shape[-1]  # and the outputs
    within_work(handled, f"scores of shape {square}", "ask for fewer or shorter sequences")
    most = math.sqrt(LARGEST / 2 / q.shape[-1])
    small(q, most, _naming("q"), "a score of q and k would leave float64's range")
    small(k, most, _naming("k"), "a score of q and k would leave float64's range")
    if seen is not None:
        mask(seen, square)
    return q, k, v


def mask(seen: object, square: tuple[int, ...]) -> None:
    """A mask of True and False that lays over scores of shape `square` by numpy's broadcasting
    without growing them: one (queries, keys) mask for every head, say, or one row of keys per
    sequence."""
    if not isinstance(seen, np.ndarray) or seen.dtype != np.bool_:
        raise TypeError(f"the mask is an array of True and False, not {a_thing(seen)}")
    try:
        stretches = seen.ndim >= 2 and np.broadcast_shapes(seen.shape, square) == square
    except ValueError:
        stretches = False
    if not stretches:
        raise ValueError(f"the mask is {seen.shape} and the scores {square}")


def small(array: npt.NDArray[np.float64], most: float, where: Where, why: str) -> None:
    """Refuse the first number larger than `most` in size, naming it and why it may not be."""
    too_large = np.flatnonzero(np.abs(array) > most)
    if too_large.size:
        at = int(too_large[0])
        raise ValueError(f"{where(at)} is {array.flat[at]:.4g}: past {most:.4g}, {why}")


def _naming(name: str) -> Where:
    """Names the number at a flat position of the array `name`, counted from 1."""
    return lambda at: f"number {at + 1} of {name}"


def positions(n: object, d: object, start: object, last: int) -> tuple[int, int, int]:
    """n positions from `start`, each at most `last`, for d dimensions turned in pairs (d even,
    at least 2), the n × d table within `WORK_LIMIT`."""
    n, d, start = whole(n, "n", 1), whole(d, "d", 2), whole(start, "start", 0)
    if d % 2:
        raise ValueError(f"positions turn the dimensions in pairs, so d must be even, not {d}")
    if start + n - 1 > last:
        raise ValueError(f"positions run to {last:,} at most, and these reach past it")
    within_work(n * d, f"positions for {n:,} tokens of {d:,} dimensions", "ask for fewer tokens")
    return n, d, start


def turnable(x: object) -> npt.NDArray[np.float64]:
    """Queries or keys to turn by rotary positions: a finite float64 array of at least one token,
    (..., tokens, dimensions), each number small enough that a turn (two products added) stays
    in float64's range; or a one-line refusal."""
    rows = real_array(x, "the rows to turn", _naming("the rows to turn"))
    if rows.ndim < 2 or 0 in rows.shape:
        raise ValueError(f"the rows to turn are (..., tokens, dimensions), not an array of {rows.shape}")
    finite(rows, _naming("the rows to turn"))
    small(rows, LARGEST / 2, _naming("the rows to turn"), "a turn would leave float64's range")
    return rows


def queries_of_keys(queries: object, keys: object) -> tuple[int, int]:
    """The two sides of a mask: whole numbers of at least one, the queries no more than the keys
    (each query is one of the keys' tokens), the mask within `WORK_LIMIT`."""
    queries, keys = whole(queries, "queries", 1), whole(keys, "keys", 1)
    if queries > keys:
        raise ValueError(f"{queries} queries ask of {keys} keys; each query is one of the keys' tokens")
    within_work(queries * keys, f"a mask of {queries:,} by {keys:,}", "ask for fewer queries or keys")
    return queries, keys


def lengths_within(lengths: object, n: object) -> tuple[npt.NDArray[np.int_], int]:
    """Sequence lengths, each at least one and at most `n` places, and `n`, the batch's mask
    (lengths × n) within `WORK_LIMIT`."""
    n = whole(n, "n", 1)
    if isinstance(lengths, list | tuple | range):  # before a long list is walked
        count = len(lengths)
        within_work(count * n, f"a mask of {count:,} sequences of {n:,} places", "ask for fewer places")
    sizes = np.array(whole_numbers(lengths, "lengths", 1))
    if sizes.max() > n:
        raise ValueError(f"a sequence of {sizes.max()} tokens does not fit in {n} places")
    return sizes, n


def batch_of_sequences(sequences: object) -> list[npt.NDArray[np.float64]]:
    """A list or tuple of at least one sequence, each a tokens × d array of finite numbers with
    at least one of each and one d for all, the padded batch within `WORK_LIMIT`."""
    if not isinstance(sequences, list | tuple) or not sequences:
        raise TypeError(f"a batch is a list of one or more sequences, not {a_thing(sequences)}")
    rows = []
    for b, sequence in enumerate(sequences, start=1):
        where = _naming(f"sequence {b}")
        array = real_array(sequence, f"sequence {b}", where)
        if array.ndim != 2 or 0 in array.shape:
            raise ValueError(
                f"sequence {b} is tokens × numbers, at least one of each, not an array of {array.shape}"
            )
        rows.append(finite(array, where))
    widths = {row.shape[1] for row in rows}
    if len(widths) > 1:
        raise ValueError(f"the sequences' tokens have different widths: {sorted(widths)}")
    longest = max(len(row) for row in rows)
    within_work(len(rows) * longest * widths.pop(), "the padded batch", "ask for fewer or shorter sequences")
    return rows


# --- ids and places --------------------------------------------------------------------------


def index(value: object, size: int, name: str) -> int:
    """A whole number from 0 to size − 1: one place of `size`, counted from 0. numpy would read
    −1 as the last place and answer for it without a word."""
    at = whole(value, name, 0)
    if at >= size:
        raise ValueError(f"{name} {at} is past the last, {size - 1}")
    return at


def indices(ids: object, size: int, name: str) -> npt.NDArray[np.intp]:
    """An array of whole numbers, each from 0 to size − 1 (the token ids of a batch), as intp;
    numpy would read −1 as the last id and answer for it without a word."""
    if not isinstance(ids, np.ndarray):
        raise TypeError(f"{name} is an array of whole numbers, not {a_thing(ids)}")
    if ids.dtype.kind not in "iu":
        raise TypeError(f"{name} are whole numbers, and this array holds {_kind_words(ids)}")
    if ids.size and (ids.min() < 0 or ids.max() >= size):
        outside = np.flatnonzero((ids < 0) | (ids >= size))
        raise ValueError(f"{name} holds {ids.flat[int(outside[0])]}, and the ids run 0..{size - 1}")
    return ids.astype(np.intp, copy=False)


_HEAD = ("W_Q", "W_K", "W_V", "W_O")


def parameters(params: object) -> dict[str, npt.NDArray[np.float64]]:
    """The learning model's parameters as `learn.initial` makes them: E and W_U (vocab, d_model),
    and with a head all of W_Q, W_K, W_V (d_k, d_model) and W_O (d_model, d_k); finite numbers."""
    _parameter_names(params)
    assert isinstance(params, dict)  # for mypy: _parameter_names refused anything else
    held = {
        name: finite(real_array(value, name, _naming(name)), _naming(name)) for name, value in params.items()
    }
    if held["E"].ndim != 2 or 0 in held["E"].shape:
        raise ValueError(f"params['E'] is {held['E'].shape}, and it is (vocab, d_model)")
    vocab, d_model = held["E"].shape
    d_k = len(held["W_Q"]) if "W_Q" in held else 0
    wanted = {"E": (vocab, d_model), "W_U": (vocab, d_model), "W_O": (d_model, d_k)}
    for name, array in held.items():
        shape = wanted.get(name, (d_k, d_model))
        if array.shape != shape or 0 in array.shape:
            raise ValueError(f"params[{name!r}] is {array.shape}; the model's other matrices want {shape}")
    return held


def _parameter_names(params: object) -> dict[str, object]:
    """`params` if a dict of the names `learn.initial` gives: E and W_U, and a head's four or none."""
    if not isinstance(params, dict):
        raise TypeError(f"params are a dict of named matrices, as initial makes them, not {a_thing(params)}")
    unknown = [repr(name) for name in params if name not in ("E", "W_U", *_HEAD)]
    if unknown:
        raise ValueError(f"params hold {', '.join(unknown)}, which the model has no use for")
    lacking = [name for name in ("E", "W_U", *_HEAD) if name not in params]
    if lacking and lacking != list(_HEAD):  # a model without a head lacks all four, and only them
        raise ValueError(f"params lack {', '.join(lacking)}: initial makes E and W_U, and a head's four")
    return params


def batch_of_tokens(
    ids: object, targets: object, weight: object, vocab: int
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """A batch for the learning model: ids and targets (B, n) of whole numbers from 0 to
    vocab − 1, weight (B, n) of finite numbers, the logits (B, n, vocab) within `WORK_LIMIT`."""
    tokens = int(np.size(ids))  # type: ignore[arg-type]  # refused below if not an array
    within_work(tokens * vocab, f"logits for {tokens:,} tokens", "ask for fewer or shorter sequences")
    ids, targets = indices(ids, vocab, "ids"), indices(targets, vocab, "targets")
    if ids.ndim != 2 or 0 in ids.shape:
        raise ValueError(f"ids are (sequences, tokens), at least one of each, not an array of {ids.shape}")
    weights = finite(real_array(weight, "weight", _naming("weight")), _naming("weight"))
    for name, array in (("targets", targets), ("weight", weights)):
        if array.shape != ids.shape:
            raise ValueError(f"{name} are one per token, {ids.shape}, not {array.shape}")
    return ids, targets, weights


def model_shape(vocab: object, d_model: object, d_k: object, context: object) -> None:
    """The learning model's sizes: whole numbers of at least one, d_model even (sinusoidal
    positions fill dimensions in pairs), its parameters within `WORK_LIMIT`."""
    vocab, d_model, d_k, _ = (
        whole(value, name, 1)
        for name, value in (("vocab", vocab), ("d_model", d_model), ("d_k", d_k), ("context", context))
    )
    if d_model % 2:
        raise ValueError(
            f"sinusoidal positions fill dimensions in pairs, so d_model must be even, not {d_model}"
        )
    parameters = 2 * vocab * d_model + 4 * d_model * d_k
    within_work(parameters, f"a model of {parameters:,} parameters", "ask for a smaller vocab or d_model")
