"""Softmax: a row of scores (logits) made into attention weights that add to one.

Each weight must lie between 0 and 1 and the row must add to one, so each score is raised as a
power of e and then divided by the row's total. Before that the row's largest score is
subtracted from each one. The subtraction changes nothing in the result, since the same factor comes off
the top and the bottom of every fraction, but it makes the largest power exactly e⁰ = 1:
a score of 800, whose power of e no float64 can hold, still gives finite weights rather
than inf / inf = nan.

A score of -inf is allowed and gets a weight of exactly 0. That is how a causal mask hides
the tokens after the one asking; a row that is -inf everywhere has no weight to give and
is refused.

`softmax` refuses what is not scores, once; `stable_softmax` is the math, for the package's
own callers, whose scores are theirs.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from attend.core import checks
from attend.core.arrays import Matrix

__all__ = ["softmax", "stable_softmax"]


def softmax(scores: npt.ArrayLike) -> Matrix:
    """Attention weights from scores along the last axis; a row that is not scores (finite, or
    -inf for a hidden key) is refused in one line (`checks.scores`)."""
    return stable_softmax(checks.scores(scores))


# --8<-- [start:softmax]
def stable_softmax(s: Matrix) -> Matrix:
    """Weights adding to one along the last axis, largest score subtracted first."""
    weights: Matrix
    with np.errstate(over="ignore"):  # a difference past -1.8e308 is -inf, and e to -inf is 0
        weights = s - s.max(axis=-1, keepdims=True)  # (..., n), the largest now 0
    np.exp(weights, out=weights)  # in place: a long sequence's score matrix is big
    weights /= weights.sum(axis=-1, keepdims=True)  # (..., n), each row adding to one
    return weights


# --8<-- [end:softmax]
