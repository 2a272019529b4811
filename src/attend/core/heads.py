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
from attend.core.attention import Attention, scaled_dot_product_attention
from attend.core.causal import causal_mask
from attend.core.checks import heads_of, largest_input, matrix, sequence, sequence_work, switch
from attend.core.cost import Cost, product

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
        self.d_model, self.h = heads_of(d_model, h)
        self.d_k = self.d_model // self.h
        cut = (self.h, self.d_k, self.d_model)  # head, its dimension, the input it weighs
        self.wq = matrix(wq, "Wq", self.d_model, self.d_model).reshape(cut)
        self.wk = matrix(wk, "Wk", self.d_model, self.d_model).reshape(cut)
        self.wv = matrix(wv, "Wv", self.d_model, self.d_model).reshape(cut)
        self.wo = matrix(wo, "Wo", self.d_model, self.d_model)

    def project(self, x: Matrix) -> tuple[Matrix, Matrix, Matrix, int]:
        """Each token's query, key and value in every head: (h, n, d_k)."""
        q, for_q = product(x, self.wq.transpose(0, 2, 1))
        k, for_k = product(x, self.wk.transpose(0, 2, 1))
        v, for_v = product(x, self.wv.transpose(0, 2, 1))
        return q, k, v, for_q + for_k + for_v

    def join(self, out: Matrix) -> tuple[Matrix, Matrix, int]:
        """The heads' outputs (h, n, d_k) side by side, (n, d_model),
        and that mixed by Wo, (n, d_model)."""
        joined = out.transpose(1, 0, 2).reshape(out.shape[1], self.d_model)
        mixed, wo_adds = product(joined, self.wo.T)
        return joined, mixed, wo_adds

    def attend(self, x: npt.ArrayLike, *, causal: bool = False) -> HeadsRun:
        """Run every head over the sequence `x` (n × d_model) and mix."""
        x = sequence(x, self.d_model, most=self.largest_input, work=self.work)  # (n, d_model)
        n = len(x)
        q, k, v, project = self.project(x)
        seen = causal_mask(n, n) if switch(causal, "causal") else None
        attended = scaled_dot_product_attention(q, k, v, seen=seen)
        joined, out, wo_adds = self.join(attended.out)
        cost = Cost(length=n, project=project, score=attended.score_adds, mix=attended.mix_adds)
        return HeadsRun(q, k, v, attended, joined, out, HeadsCost(cost, wo_adds))

    # --8<-- [end:heads]

    def __repr__(self) -> str:
        return f"MultiHead(d_model={self.d_model}, h={self.h})"

    @property
    def largest_input(self) -> float:
        """The largest size a token's number may have for every number the layer makes, Wo's
        mix among them, to stay in float64's range (`checks.largest_input`)."""
        return largest_input(self.d_model, self.d_k, np.stack([self.wq, self.wk, self.wv]), self.wo)

    def work(self, n: int) -> int:
        """The numbers a run over n tokens handles: each head's three n × n squares."""
        return self.h * sequence_work(n)
