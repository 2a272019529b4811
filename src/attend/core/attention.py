"""softmax(q·kᵀ / √dk)·v on whole matrices at once, the way a model's code writes it.

The chapter's `Head` goes token by token, so each step can be read off by hand. The pieces
built after it (the mask, several heads, the cache, rotary positions) take queries, keys and
values already made and need only this last step, on matrices of any number of heads.
`Head.attend` on the chapter's row and `attention` on its projections give the same numbers;
the tests hold them to that.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attend.core.arrays import Matrix
from attend.core.causal import hide
from attend.core.checks import a_thing, finite, real_array, switch
from attend.core.cost import product
from attend.core.softmax import softmax

__all__ = ["Attention", "attention"]


@dataclass(frozen=True)
class Attention:
    """One pass: the scaled (and perhaps masked) scores, the attention weights made from them,
    the values mixed in those weights, and the multiply-adds of the two products."""

    scores: Matrix  # hidden ones are -inf
    weights: Matrix
    out: Matrix
    score_adds: int  # multiply-adds of Q·Kᵀ
    mix_adds: int  # multiply-adds of the weights times V


# --8<-- [start:attention]
def attention(
    q: Matrix,
    k: Matrix,
    v: Matrix,
    *,
    seen: npt.NDArray[np.bool_] | None = None,
    divide: bool = True,
) -> Attention:
    """Queries against keys, then the values mixed. Each argument
    is (..., tokens, dk), one leading axis per head if there are
    several; `seen` marks the scores a query may use (a mask), of
    any shape that broadcasts to the scores'."""
    q, k, v = _matrices(q, k, v, seen)
    dk = q.shape[-1]
    scores, score_adds = product(q, np.swapaxes(k, -1, -2))  # q·kᵀ
    if switch(divide, "divide"):
        scores /= math.sqrt(dk)
    if seen is not None:
        scores = hide(scores, seen)  # -inf: a weight of exactly 0
    weights = softmax(scores)
    out, mix_adds = product(weights, v)  # each row of weights times the values
    finite(out, _naming("the mixed values"))
    return Attention(scores, weights, out, score_adds, mix_adds)


# --8<-- [end:attention]


def _matrices(q: object, k: object, v: object, seen: object) -> tuple[Matrix, Matrix, Matrix]:
    """q, k and v as finite float64 arrays whose shapes fit together, or a one-line refusal."""
    checked = []
    for name, value in (("q", q), ("k", k), ("v", v)):
        where = _naming(name)
        array = real_array(value, name, where)
        if array.ndim < 2 or 0 in array.shape:
            raise ValueError(
                f"{name} is (..., tokens, dimensions) with at least one of each, not {array.shape}"
            )
        checked.append(finite(array, where))
    q, k, v = checked
    if q.shape[-1] != k.shape[-1] or k.shape[:-1] != v.shape[:-1] or q.shape[:-2] != k.shape[:-2]:
        raise ValueError(f"queries {q.shape}, keys {k.shape} and values {v.shape} do not fit together")
    if seen is None:
        return q, k, v
    if not isinstance(seen, np.ndarray) or seen.dtype != np.bool_:
        raise TypeError(f"the mask is an array of True and False, not {a_thing(seen)}")
    scores = (*q.shape[:-1], k.shape[-2])
    if seen.ndim < 2 or not _stretches(seen.shape, scores):
        raise ValueError(f"the mask is {seen.shape} and the scores {scores}")
    return q, k, v


def _stretches(mask: tuple[int, ...], scores: tuple[int, ...]) -> bool:
    """Whether a mask of this shape lays over scores of that one by numpy's broadcasting without
    growing them: one (queries, keys) mask for every head, say, or one row of keys per sequence."""
    try:
        return np.broadcast_shapes(mask, scores) == scores
    except ValueError:
        return False


def _naming(name: str) -> Callable[[int], str]:
    """Names the number at a flat position of the array `name`, counted from 1."""
    return lambda at: f"number {at + 1} of {name}"
