"""Rows 2 and 4 of the chapter, told apart by position: by how much, and at what cost.

The chapter's tokens 2 and 4 are both a bare "0"-like digit with the same typed numbers, so
the head gives them the same query, the same attention weights and the same output. That is on
purpose: it is the hole positions fill. Here the chapter's head is run three ways on its
row (as it is, with sinusoidal positions added to the tokens, with rotary positions turning
its queries and keys), and each run says how far apart rows 2 and 4 came out and what the
positions added to the head's work.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attend.core.arrays import Matrix
from attend.core.attention import Attention, scaled_dot_product_attention
from attend.core.checks import a_thing, sequence, whole
from attend.core.cost import Cost, product
from attend.core.head import Head
from attend.core.positions import rotary, sinusoidal

__all__ = ["SCHEMES", "Parting", "parting"]


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
    def weight_gap(self) -> float:
        """The largest difference between the two tokens' attention weights."""
        a, b = (self.attended.weights[r - 1] for r in self.rows)
        return float(np.abs(a - b).max())

    @property
    def out_gap(self) -> float:
        """The distance between the two rows' outputs (root of the summed squared differences)."""
        a, b = (self.attended.out[r - 1] for r in self.rows)
        return float(np.linalg.norm(a - b))


# --8<-- [start:parting]
def parting(
    head: Head,
    x: Matrix,
    scheme: str,
    rows: tuple[int, int] = (2, 4),
) -> Parting:
    """Run `head` on the sequence `x` with positions of the kind
    `scheme` names, and keep what it did to the tokens `rows`."""
    x, rows = _checked(head, x, scheme, rows)
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
    attended = scaled_dot_product_attention(q, k, v, divide=head.divide)
    cost = Cost(n, project_q + project_k + project_v, attended.score_adds, attended.mix_adds)
    return Parting(scheme, rows, attended, cost, added, turned, waves)


# --8<-- [end:parting]


def _checked(head: object, x: object, scheme: object, rows: object) -> tuple[Matrix, tuple[int, int]]:
    """The sequence and the two token numbers, checked against the head, or a one-line refusal.
    Positions add at most 1 to a number and rotary ones turn a pair, so half of what the head
    takes keeps every score in float64's range."""
    if not isinstance(head, Head):
        raise TypeError(f"head is an attend.Head, not {a_thing(head)}")
    if scheme not in SCHEMES:
        raise ValueError(f"scheme is one of {', '.join(SCHEMES)}, not {a_thing(scheme)}")
    tokens = sequence(x, head.d_model, most=head.largest_input / 2 - 1)
    if not isinstance(rows, tuple) or len(rows) != 2:
        raise TypeError(f"rows is two token numbers, not {a_thing(rows)}")
    a, b = (whole(r, "each of rows", 1) for r in rows)
    if max(a, b) > len(tokens):
        raise ValueError(f"tokens {a} and {b} asked of a sequence of {len(tokens)}")
    return tokens, (a, b)
