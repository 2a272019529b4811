"""Two ways to tell a head where each token stands.

Attention as the chapter builds it reads a sequence as a set: swap two tokens and each one's
attention weights swap with them, so two tokens with the same embedding leave with the same
output wherever they stand. Position has to be put in.

- Sinusoidal (Vaswani et al. 2017, "Attention is all you need", section 3.5): a fixed run of
  sines and cosines for each position, added to the token's embedding before the projections.
  Dimensions 2i and 2i+1 turn at the rate 1/10000^(2i/d_model), fast in the first dimensions and
  slow in the last, so no two positions of a long sequence get the same run.
- Rotary (Su et al., "RoFormer", 2021, section 3.4): after the projections, each pair of a
  query's or key's dimensions is turned by an angle that grows with the position. A query turned
  by m steps dotted with a key turned by n steps depends on m − n only: the score sees how
  far apart two tokens are, not where they are.

Positions are counted from 0, as both papers count them.
"""

from __future__ import annotations

import numpy as np

from attend.core.arrays import Matrix
from attend.core.checks import positions, turnable

__all__ = ["BASE", "angles", "rotary", "sinusoidal"]


BASE = 10000.0  # both papers' choice: the slowest pair turns once in 2π·10000 positions
# The last position either scheme is asked for: there an angle of about 2·10⁹ radians is still
# known to within 10⁻⁶ in float64, further out its sine would be mostly rounding.
LAST_POSITION = 2**31


# --8<-- [start:angles]
def angles(n: int, d: int, start: int = 0) -> Matrix:
    """n × d/2: position p times the rate of pair i, 1/BASE^(2i/d)."""
    n, d, start = positions(n, d, start, LAST_POSITION)
    rates = BASE ** (-np.arange(0, d, 2) / d)  # (d/2,): one per pair of dimensions
    return np.arange(start, start + n)[:, None] * rates[None, :]  # (n, d/2)


# --8<-- [end:angles]


# --8<-- [start:sinusoidal]
def sinusoidal(n: int, d: int) -> Matrix:
    """The n × d table added to the tokens: sin in the even
    dimensions, cos in the odd ones, as PE(p, 2i) = sin(p / 10000^(2i/d)) and
    PE(p, 2i+1) = cos(p / 10000^(2i/d))."""
    turn = angles(n, d)  # (n, d/2)
    table = np.empty((n, d))
    table[:, 0::2] = np.sin(turn)
    table[:, 1::2] = np.cos(turn)
    return table


# --8<-- [end:sinusoidal]


# --8<-- [start:rotary]
def rotary(x: Matrix, start: int = 0) -> tuple[Matrix, int]:
    """Queries or keys (..., tokens, d_k) with each pair of
    dimensions turned by its angle at its position, and the
    multiply-adds that took: a 2×2 turn per pair, 2 per number."""
    x = turnable(x)  # (..., n, d_k)
    turn = angles(x.shape[-2], x.shape[-1], start)  # (n, d_k/2)
    cos, sin = np.cos(turn), np.sin(turn)
    even, odd = x[..., 0::2], x[..., 1::2]  # (..., n, d_k/2) each: the pairs
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out, 2 * x.size


# --8<-- [end:rotary]
