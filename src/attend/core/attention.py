"""softmax(q·kᵀ / √d_k)·v on whole matrices at once, the way a model's code writes it.

The chapter's `Head` goes token by token, so each step can be read off by hand. The pieces
built after it (the mask, several heads, the cache, rotary positions) take queries, keys and
values already made and need only this last step, on matrices of any number of heads.
`Head.attend` on the chapter's sequence and `attention` on its projections give the same
numbers; the tests hold them to that.

`attention` refuses what is not queries, keys and values, once; `scaled_dot_product_attention`
is the math, for the package's own callers (several heads, the cache, the learning model),
whose arrays are theirs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attend.core.arrays import Matrix
from attend.core.causal import hide
from attend.core.checks import queries_keys_values, switch
from attend.core.cost import product
from attend.core.softmax import stable_softmax

__all__ = ["Attention", "attention", "scaled_dot_product_attention"]


@dataclass(frozen=True)
class Attention:
    """One pass: the scaled (and perhaps masked) scores, the attention weights made from them,
    the values mixed in those weights, and the multiply-adds of the two products."""

    scores: Matrix  # hidden ones are -inf
    weights: Matrix
    out: Matrix
    score_adds: int  # multiply-adds of q·kᵀ
    mix_adds: int  # multiply-adds of the weights times v


def attention(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    *,
    seen: npt.NDArray[np.bool_] | None = None,
    divide: bool = True,
) -> Attention:
    """Queries against keys, then the values mixed: `scaled_dot_product_attention` on arrays
    checked first (`checks.queries_keys_values`), each refused in one line if it is not one."""
    q, k, v = queries_keys_values(q, k, v, seen)
    return scaled_dot_product_attention(q, k, v, seen=seen, divide=switch(divide, "divide"))


# --8<-- [start:attention]
def scaled_dot_product_attention(
    q: Matrix,
    k: Matrix,
    v: Matrix,
    *,
    seen: npt.NDArray[np.bool_] | None = None,
    divide: bool = True,
) -> Attention:
    """q is (..., n, d_k), k (..., m, d_k) and v (..., m, d_v), one
    leading axis per head if there are several; `seen` marks the
    scores a query may use (a mask), of any shape that broadcasts
    to the scores', (..., n, m)."""
    scores, score_adds = product(q, np.swapaxes(k, -1, -2))  # q·kᵀ, (..., n, m)
    if divide:
        scores /= math.sqrt(q.shape[-1])  # by √d_k
    if seen is not None:
        scores = hide(scores, seen)  # -inf: a weight of exactly 0
    weights = stable_softmax(scores)  # (..., n, m), each row adding to one
    out, mix_adds = product(weights, v)  # (..., n, d_v): each row of weights times the values
    return Attention(scores, weights, out, score_adds, mix_adds)


# --8<-- [end:attention]
