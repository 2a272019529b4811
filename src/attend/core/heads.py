"""Several heads side by side, their outputs joined and mixed by one more matrix, Wo.

One head makes one set of attention weights per token, so it can follow one kind of likeness
at a time. Split the d_model numbers of a query, key and value into h runs of d_k = d_model/h
and give each run its own head: h sets of weights from the same sequence, for the same
multiply-adds as one head of width d_model. Only Wo is extra. It is the one place where what the
heads found is mixed across heads; without it each output dimension would only ever hold what one
head found.

The layout follows nanoGPT's CausalSelfAttention: one d_model×d_model matrix each for queries,
keys and values, whose output dimensions are cut into h heads of d_k dimensions in order, then
the heads' outputs laid side by side again and multiplied by Wo.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attend.core.arrays import Matrix
from attend.core.attention import Attention, attention
from attend.core.causal import causal_mask
from attend.core.checks import finite, real_array, switch, whole
from attend.core.cost import Cost, product
from attend.core.head import _matrix

__all__ = ["HeadsCost", "HeadsRun", "MultiHead"]


@dataclass(frozen=True)
class HeadsCost:
    """Multiply-adds of one run of several heads: theirs together, and Wo's."""

    heads: Cost
    wo: int

    @property
    def total(self) -> int:
        return self.heads.total + self.wo


@dataclass(frozen=True)
class HeadsRun:
    """Every number of one run: each head's queries, keys, values and attention weights (head first),
    the heads' outputs joined side by side, and that joined row times Wo."""

    q: Matrix
    k: Matrix
    v: Matrix
    attended: Attention
    joined: Matrix
    out: Matrix
    cost: HeadsCost


# --8<-- [start:heads]
class MultiHead:
    """h heads over d_model numbers. `wq`, `wk`, `wv` and `wo` each
    hold d_model·d_model weights, d_model for each output dimension;
    head i owns dimensions i·d_k to (i+1)·d_k − 1 of the first three."""

    def __init__(
        self,
        d_model: int,
        h: int,
        wq: npt.ArrayLike,
        wk: npt.ArrayLike,
        wv: npt.ArrayLike,
        wo: npt.ArrayLike,
    ) -> None:
        self.d_model, self.h = whole(d_model, "d_model", 1), whole(h, "h", 1)
        if self.d_model % self.h:
            raise ValueError(f"{self.d_model} numbers do not split into {self.h} heads of equal width")
        self.d_k = self.d_model // self.h
        cut = (self.h, self.d_k, self.d_model)  # head, its dimension, the input it weighs
        self.wq = _matrix("Wq", wq, self.d_model, self.d_model).reshape(cut)
        self.wk = _matrix("Wk", wk, self.d_model, self.d_model).reshape(cut)
        self.wv = _matrix("Wv", wv, self.d_model, self.d_model).reshape(cut)
        self.wo = _matrix("Wo", wo, self.d_model, self.d_model)

    def project(self, x: Matrix) -> tuple[Matrix, Matrix, Matrix, int]:
        """Each token's query, key and value in every head: (h, n, d_k)."""
        q, for_q = product(x, self.wq.transpose(0, 2, 1))
        k, for_k = product(x, self.wk.transpose(0, 2, 1))
        v, for_v = product(x, self.wv.transpose(0, 2, 1))
        for name, made in (("queries", q), ("keys", k), ("values", v)):
            _fits(made, name)
        return q, k, v, for_q + for_k + for_v

    def join(self, out: Matrix) -> tuple[Matrix, Matrix, int]:
        """The heads' outputs side by side, d_model numbers per token,
        and that mixed by Wo."""
        joined = out.transpose(1, 0, 2).reshape(out.shape[1], self.d_model)
        mixed, wo_adds = product(joined, self.wo.T)
        _fits(mixed, "Wo times the joined outputs")
        return joined, mixed, wo_adds

    def attend(self, x: npt.ArrayLike, *, causal: bool = False) -> HeadsRun:
        """Run every head over the sequence `x` (n × d_model) and mix."""
        x = self.row(x)
        n = len(x)
        q, k, v, project = self.project(x)
        seen = causal_mask(n, n) if switch(causal, "causal") else None
        attended = attention(q, k, v, seen=seen)
        joined, out, wo_adds = self.join(attended.out)
        cost = Cost(length=n, project=project, score=attended.score_adds, mix=attended.mix_adds)
        return HeadsRun(q, k, v, attended, joined, out, HeadsCost(cost, wo_adds))

    # --8<-- [end:heads]

    def __repr__(self) -> str:
        return f"MultiHead(d_model={self.d_model}, h={self.h})"

    def row(self, x: npt.ArrayLike) -> Matrix:
        """The sequence as an n × d_model array of finite numbers, or a one-line refusal."""
        row = real_array(x, "the row x", lambda at: f"number {at + 1} of the row x")
        if row.ndim != 2 or not len(row) or row.shape[1] != self.d_model:
            raise ValueError(
                f"the row x is n tokens of {self.d_model} numbers each, not an array of {row.shape}"
            )
        return finite(row, lambda at: f"token {at // self.d_model + 1}, number {at % self.d_model + 1},")


def _fits(made: Matrix, name: str) -> None:
    """Refuse a run whose arithmetic left float64's range."""
    if not np.isfinite(made).all():
        raise ValueError(
            f"{name} went beyond the largest finite number; the weights or the tokens are too large"
        )
