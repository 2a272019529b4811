"""Softmax: turning a row of scores into shares of one.

A share has to be positive and the shares of a row have to add to one, so each score
becomes a power of e and is divided by the row's total. The largest score is taken off
every entry first. That cancels exactly (the same factor leaves the top and the bottom of
the fraction) and it keeps the biggest power of e at exactly 1, so a score of 800, which a
float64 cannot raise e to, still gives finite shares instead of inf / inf = nan.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["softmax"]


# --8<-- [start:softmax]
def softmax(scores: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Shares of one along the last axis, largest score subtracted first."""
    row = np.asarray(scores, dtype=np.float64)
    if row.size == 0 or row.shape[-1] == 0:
        raise ValueError("softmax needs at least one score in a row")
    if not np.isfinite(row).all():
        raise ValueError("softmax was handed a score that is not a finite number")
    powers = np.exp(row - row.max(axis=-1, keepdims=True))
    shares: npt.NDArray[np.float64] = powers / powers.sum(axis=-1, keepdims=True)
    return shares


# --8<-- [end:softmax]
