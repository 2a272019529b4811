"""One attention head: three stored matrices, and the steps that use them on a sequence.

Two kinds of weight meet in this file. The three matrices are stored: they are set before any
sequence comes in and stay the same whichever sequence it is. The attention weights that say how
much one token takes from another are not stored anywhere; they are computed afresh from each
sequence and exist only once that sequence does. Every step below is small enough to redo by
hand, and each one is a piece of softmax(Q·Kᵀ / √d_k)·V.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attend.core.arrays import Matrix
from attend.core.checks import largest_input, matrix, sequence, sequence_work, switch, whole
from attend.core.cost import Cost
from attend.core.softmax import stable_softmax

__all__ = ["Head", "Workings"]


@dataclass(frozen=True)
class Workings:
    """Every number one run of a head produced, kept so that each can be printed and checked.

    `raw` is every query dotted with every key; `scaled` is the same scores after scaling, divided
    by `div` (when `divided`); `weights` holds the attention weights (each token's add to one);
    `out` is the values mixed in those weights. The arrays are read-only: a record of what
    happened, not a workspace.
    """

    x: Matrix
    q: Matrix
    k: Matrix
    v: Matrix
    raw: Matrix
    scaled: Matrix
    div: float
    divided: bool  # the head's switch: whether it divided at all (div is 1.0 for d_k = 1 either way)
    weights: Matrix
    out: Matrix
    cost: Cost

    def __post_init__(self) -> None:
        for record in (self.x, self.q, self.k, self.v, self.raw, self.scaled, self.weights, self.out):
            record.flags.writeable = False


# --8<-- [start:head]
class Head:
    """Three weight matrices, `d_model` numbers in, `d_k` out.

    `wq`, `wk` and `wv` each come as one flat list of d_model·d_k
    weights: for each output dimension in turn, the d_model weights
    that make it, as a layer of neurons keeps them (and
    torch.nn.Linear stores them, d_k rows of d_model). A flat list is
    copied, printed and compared whole. `divide` turns the scaling by
    1/√d_k on or off: a switch, so the head without it can be run,
    not only talked about.
    """

    def __init__(
        self,
        d_model: int,
        d_k: int,
        wq: npt.ArrayLike,
        wk: npt.ArrayLike,
        wv: npt.ArrayLike,
        *,
        divide: bool = True,
    ) -> None:
        self.d_model = whole(d_model, "d_model", 1)
        self.d_k = whole(d_k, "d_k", 1)
        self.divide = switch(divide, "divide")
        self.wq = matrix(wq, "Wq", self.d_k, self.d_model)
        self.wk = matrix(wk, "Wk", self.d_k, self.d_model)
        self.wv = matrix(wv, "Wv", self.d_k, self.d_model)

    # --8<-- [end:head]

    def __repr__(self) -> str:
        return f"Head(d_model={self.d_model}, d_k={self.d_k}, divide={self.divide})"

    @property
    def largest_input(self) -> float:
        """The largest size a token's number may have for every number this head makes to stay
        in float64's range (`checks.largest_input`)."""
        return largest_input(self.d_model, self.d_k, np.stack([self.wq, self.wk, self.wv]))

    # --8<-- [start:attend]
    def attend(self, x: npt.ArrayLike) -> Workings:
        """Run the head over the sequence `x` and keep every number it made."""
        x = sequence(x, self.d_model, most=self.largest_input, work=sequence_work)  # (n, d_model)
        n = len(x)

        # Each token on its own, seeing no other: three projections, each (n, d_k).
        q, project_q = _project(self.wq, x)
        k, project_k = _project(self.wk, x)
        v, project_v = _project(self.wv, x)

        # Every query against every key, (n, n), scaled, then softmax
        # row by row: the attention weights, (n, n).
        raw = np.empty((n, n))
        score = 0
        for i, query in enumerate(q):
            products = k * query  # (n, d_k): dimension c of key j times that of query i
            raw[i] = products.sum(axis=1)  # query i dotted with each key
            score += products.size  # one multiply-add per product made
        div = math.sqrt(self.d_k) if self.divide else 1.0
        scaled = raw / div
        weights = stable_softmax(scaled)

        # Each token's output, (n, d_k): the values summed in its own weights.
        out = np.empty((n, self.d_k))
        mix = 0
        for i, row in enumerate(weights):
            products = row[:, None] * v  # (n, d_k): weight j times value j
            out[i] = products.sum(axis=0)  # summed over the tokens
            mix += products.size  # one multiply-add per product made

        cost = Cost(length=n, project=project_q + project_k + project_v, score=score, mix=mix)
        return Workings(x, q, k, v, raw, scaled, div, self.divide, weights, out, cost)

    # --8<-- [end:attend]


# --8<-- [start:project]
def _project(m: Matrix, x: Matrix) -> tuple[Matrix, int]:
    """Each token times one matrix, and the multiply-adds that took.

    Row j of `m` holds the d_model weights that make output dimension
    j, so dimension j of a projected token is those weights dotted
    with the token: a weighted sum, nothing more. The count is read off the array
    of products before they are summed: what was made, not what a
    formula says should have been.
    """
    out = np.empty((len(x), m.shape[0]))  # (n, d_k)
    adds = 0
    for t, token in enumerate(x):
        products = m * token  # (d_k, d_model): each row of weights times the token
        out[t] = products.sum(axis=1)  # one weighted sum per row
        adds += products.size  # one multiply-add per product made
    return out, adds


# --8<-- [end:project]
