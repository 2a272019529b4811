"""Rows 2 and 4 of the chapter, told apart by position: by how much, and at what cost.

The chapter's tokens 2 and 4 are both a bare "0"-like digit with the same typed numbers, so
the head gives them the same query, the same shares and the same output. That is on
purpose: it is the hole positions fill. Here the chapter's head is run three ways on its
row (as it is, with sinusoidal positions added to the tokens, with rotary positions turning
its queries and keys), and each run says how far apart rows 2 and 4 came out and what the
positions added to the head's work.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attend.attention import Attention, attention
from attend.cost import Cost, product
from attend.head import Head
from attend.positions import rotary, sinusoidal

__all__ = ["SCHEMES", "Parting", "parting"]

Matrix = npt.NDArray[np.float64]

SCHEMES = ("none", "sinusoidal", "rotary")


@dataclass(frozen=True)
class Parting:
    """One run of a head with one scheme of positions, and what it did to two of its rows.

    `added` counts the additions of a table to the tokens; `turned` the multiply-adds of
    turning queries and keys; `waves` the sines and cosines either scheme evaluates (a
    table a model works out once and keeps).
    """

    scheme: str
    rows: tuple[int, int]  # counted from 1
    attended: Attention
    cost: Cost  # the head's own work
    added: int
    turned: int
    waves: int

    @property
    def share_gap(self) -> float:
        """The largest difference between the two rows' shares."""
        a, b = (self.attended.shares[r - 1] for r in self.rows)
        return float(np.abs(a - b).max())

    @property
    def out_gap(self) -> float:
        """The distance between the two rows' outputs (root of the summed squared differences)."""
        a, b = (self.attended.out[r - 1] for r in self.rows)
        return float(np.linalg.norm(a - b))


# --8<-- [start:parting]
def parting(head: Head, x: Matrix, scheme: str, rows: tuple[int, int] = (2, 4)) -> Parting:
    """Run `head` on the row `x` with positions of the kind `scheme`
    names, and keep what it did to `rows`."""
    n, d = x.shape
    added = turned = waves = 0
    if scheme == "sinusoidal":
        x = x + sinusoidal(n, d)  # each token's numbers plus its position's
        added, waves = x.size, x.size
    q, project_q = product(x, head.wq.T)
    k, project_k = product(x, head.wk.T)
    v, project_v = product(x, head.wv.T)
    if scheme == "rotary":
        q, turn_q = rotary(q)  # queries and keys turned; values not
        k, turn_k = rotary(k)
        turned, waves = turn_q + turn_k, q.size
    done = attention(q, k, v, divide=head.divide)
    cost = Cost(n, project_q + project_k + project_v, done.score, done.mix)
    return Parting(scheme, rows, done, cost, added, turned, waves)


# --8<-- [end:parting]
