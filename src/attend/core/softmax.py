"""Softmax: a row of scores (logits) made into attention weights that add to one.

Each weight must lie between 0 and 1 and the row must add to one, so each score is raised
as a power of e and then divided by the row's total. Before that the row's largest score is subtracted from
each one. The subtraction changes nothing in the result, since the same factor comes off
the top and the bottom of every fraction, but it makes the largest power exactly e⁰ = 1:
a score of 800, whose power of e no float64 can hold, still gives finite weights rather
than inf / inf = nan.

A score of -inf is allowed and gets a weight of exactly 0. That is how a causal mask hides
the tokens after the one asking; a row that is -inf everywhere has no weight to give and
is refused.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from attend.core.checks import a_thing, real_array

__all__ = ["softmax"]


# --8<-- [start:softmax]
def softmax(scores: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Weights adding to one along the last axis, largest score subtracted first."""
    row = _scores(scores)
    weights: npt.NDArray[np.float64]
    # a difference below -1.8e308 becomes -inf, and e to -inf is 0
    with np.errstate(over="ignore"):
        weights = row - row.max(axis=-1, keepdims=True)
    np.exp(weights, out=weights)  # in place: a long sequence's score matrix is big
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights


# --8<-- [end:softmax]


def _scores(scores: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The scores as float64, refused if a row is empty or holds nan, +inf or only -inf."""
    if not isinstance(scores, list | tuple | np.ndarray) or (
        isinstance(scores, np.ndarray) and scores.ndim == 0
    ):
        raise TypeError(f"softmax takes a row of scores, not {a_thing(scores)}")
    row = real_array(scores, "softmax's scores", lambda at: f"softmax's score {at + 1}")
    if row.size == 0 or row.shape[-1] == 0:
        raise ValueError("softmax needs at least one score in a row")
    if np.isfinite(row).all():
        return row  # the usual case, checked with one pass and no more memory
    bad = np.flatnonzero(np.isnan(row) | (row == np.inf))
    if bad.size:
        at = int(bad[0])
        raise ValueError(
            f"softmax's score {_place(at, row.shape)} is {row.flat[at]}, "
            "and a score must be a finite number or -inf"
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
