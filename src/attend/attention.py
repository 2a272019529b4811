"""softmax(q·kᵀ / √dk)·v on whole matrices at once, the way a model's code writes it.

The chapter's `Head` goes token by token, so each step can be read off by hand. The pieces
built after it (the mask, several heads, the cache, rotary positions) take queries, keys and
values already made and need only this last step, on matrices of any number of heads.
`Head.attend` on the chapter's row and `attention` on its projections give the same numbers;
the tests hold them to that.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attend.causal import hide
from attend.cost import product
from attend.softmax import softmax

__all__ = ["Attention", "attention"]

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Attention:
    """One pass: the scaled (and perhaps masked) scores, their shares, the mixed values, and
    the multiply-adds of the two products."""

    scores: Matrix  # hidden ones are -inf
    shares: Matrix
    out: Matrix
    score: int
    mix: int


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
    several; `seen` marks the scores a query may use (a mask)."""
    dk = q.shape[-1]
    scores, score = product(q, np.swapaxes(k, -1, -2))  # q·kᵀ
    if divide:
        scores /= math.sqrt(dk)
    if seen is not None:
        scores = hide(scores, seen)  # -inf: a share of exactly 0
    shares = softmax(scores)
    out, mix = product(shares, v)  # each row of shares times the values
    return Attention(scores, shares, out, score, mix)


# --8<-- [end:attention]
