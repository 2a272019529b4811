"""One attention head: three stored matrices, and the steps that use them on a row.

Two kinds of weight meet in this file. The three matrices are stored: they are set before
any sequence comes in and stay the same whichever sequence it is. The attention weights that say how
much one token takes from another are not stored anywhere; they are computed afresh from each sequence
and exist only once that sequence does. Every step below is small enough to redo by hand, and
each one is a piece of softmax(Q·Kᵀ / √dk)·V.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attend.core.arrays import Matrix
from attend.core.checks import (
    LARGEST,
    a_thing,
    amount,
    finite,
    real_array,
    sequence_work,
    switch,
    whole,
    within_work,
)
from attend.core.cost import Cost
from attend.core.softmax import softmax

__all__ = ["Head", "Workings"]


@dataclass(frozen=True)
class Workings:
    """Every number one run of a head produced, kept so that each can be printed and checked.

    `raw` is every query dotted with every key; `scaled` is the same square after the divide
    by `div` (when `divided`); `weights` holds the attention weights (each token's add to one);
    `out` is the values mixed in those weights. The arrays are read-only: a record of what happened, not a
    workspace.
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
        self.wq = _matrix("Wq", wq, self.d_model, self.d_k)
        self.wk = _matrix("Wk", wk, self.d_model, self.d_k)
        self.wv = _matrix("Wv", wv, self.d_model, self.d_k)

    # --8<-- [end:head]

    def __repr__(self) -> str:
        return f"Head(d_model={self.d_model}, d_k={self.d_k}, divide={self.divide})"

    # --8<-- [start:attend]
    def attend(self, x: npt.ArrayLike) -> Workings:
        """Run the head over the sequence `x` and keep every number it made."""
        x = self._row(x)
        n = len(x)
        div = math.sqrt(self.d_k) if self.divide else 1.0
        with np.errstate(over="ignore", invalid="ignore"):  # checked below
            # Each token on its own, seeing no other: three projections.
            q, project_q = _project(self.wq, x)
            k, project_k = _project(self.wk, x)
            v, project_v = _project(self.wv, x)
            _fits(q, "query")
            _fits(k, "key")
            _fits(v, "value")

            # Every query against every key, scaled, then softmax: the
            # attention weights.
            raw = np.empty((n, n))
            score = 0
            for i, query in enumerate(q):
                products = k * query  # dimension c of key j times that of query i
                raw[i] = products.sum(axis=1)  # query i dotted with each key
                score += products.size  # one multiply-add per product made
            _fits(raw, "score")
            scaled = raw / div
            weights = softmax(scaled)  # each row of scores on its own

            # Each token's output: the values summed in its own weights.
            out = np.empty((n, self.d_k))
            mix = 0
            for i, row in enumerate(weights):
                products = row[:, None] * v  # weight j times value j
                out[i] = products.sum(axis=0)  # summed over the tokens
                mix += products.size  # one multiply-add per product made
            _fits(out, "mix")

        project = project_q + project_k + project_v
        cost = Cost(length=n, project=project, score=score, mix=mix)
        for record in (x, q, k, v, raw, scaled, weights, out):
            record.flags.writeable = False
        return Workings(x, q, k, v, raw, scaled, div, self.divide, weights, out, cost)

    # --8<-- [end:attend]

    def _row(self, x: npt.ArrayLike) -> Matrix:
        """The row as an n×d array, or a one-line refusal saying which token is wrong, or that
        the row is too long for one run."""
        if isinstance(x, list | tuple) or (isinstance(x, np.ndarray) and x.ndim):
            within_work(sequence_work(len(x)), f"a row of {len(x):,} tokens", "attend to a shorter row")
        if isinstance(x, np.ndarray):
            row = real_array(x, "the row x", lambda at: f"number {at + 1} of the row x")
            if row.ndim != 2:
                raise TypeError(f"the row x is one run of numbers per token, not a {row.ndim}-d array")
        elif isinstance(x, list | tuple):
            tokens = [self._token(token, t, len(x)) for t, token in enumerate(x, start=1)]
            row = np.array(tokens, dtype=np.float64).reshape(len(x), self.d_model)
        else:
            raise TypeError(f"the row x is a sequence of tokens, not {a_thing(x)}")
        n = len(row)
        if not n:
            raise ValueError("the row holds no tokens; the head needs at least one to read")
        if row.shape[1] != self.d_model:
            width = amount(row.shape[1], "number")
            raise ValueError(f"token 1 of {n} arrives with {width} and the head reads {self.d_model}")
        return finite(
            row, lambda at: f"{_token_name(at // self.d_model, n)}, number {at % self.d_model + 1},"
        ).copy()

    def _token(self, token: object, t: int, n: int) -> Matrix:
        """One token of a row given as a list: a run of exactly `d` real numbers."""
        name = _token_name(t - 1, n)
        if not isinstance(token, list | tuple | np.ndarray):
            raise TypeError(f"{name} is a run of numbers, not {a_thing(token)}")
        numbers = real_array(token, name, lambda at: f"{name}, number {at + 1},")
        if numbers.ndim != 1:
            raise TypeError(f"{name} is a run of numbers, not a grid of them")
        if numbers.size != self.d_model:
            width = amount(numbers.size, "number")
            raise ValueError(f"{name} arrives with {width} and the head reads {self.d_model}")
        return numbers


# --8<-- [start:project]
def _project(m: Matrix, x: Matrix) -> tuple[Matrix, int]:
    """Each token times one matrix, and the multiply-adds that took.

    Row j of `m` holds the d weights that make output dimension j,
    so dimension j of a projected token is those weights dotted
    with the token: a weighted sum, nothing more. The count is read off the array
    of products before they are summed: what was made, not what a
    formula says should have been.
    """
    out = np.empty((len(x), m.shape[0]))
    adds = 0
    for t, token in enumerate(x):
        products = m * token  # each of the d_k rows of weights times the token
        out[t] = products.sum(axis=1)  # one weighted sum per row
        adds += products.size  # one multiply-add per product made
    return out, adds


# --8<-- [end:project]


# What overflowed, by the step it happened at: t is the token, j the key it was scored against.
CAUSES = {
    "query": "Wq times token {t}, its query,",
    "key": "Wk times token {t}, its key,",
    "value": "Wv times token {t}, its value,",
    "score": "query {t} times key {j}, a score,",
    "mix": "the values mixed for token {t}",
}


def _fits(array: Matrix, step: str) -> None:
    """Refuse a run whose arithmetic left float64's range, naming the token it happened at."""
    if np.isfinite(array).all():
        return
    t, j = (int(i) + 1 for i in np.argwhere(~np.isfinite(array))[0])
    raise ValueError(
        f"{CAUSES[step].format(t=t, j=j)} is beyond the largest finite number, {LARGEST:.4g}; "
        "the weights or the tokens are too large"
    )


def _token_name(t: int, n: int) -> str:
    return f"token {t + 1} of {n}"


def _matrix(name: str, weights: npt.ArrayLike, d_model: int, d_k: int) -> Matrix:
    """A flat run of d_model·d_k weights as a read-only d_k×d_model matrix, or a refusal naming
    the weight."""
    flat = real_array(weights, name, lambda at: f"{name} weight {at + 1}").ravel()
    if flat.size != d_model * d_k:
        raise ValueError(
            f"{name} holds {amount(flat.size, 'number')} and a {d_k} by {d_model} matrix "
            f"wants {d_model * d_k}"
        )
    finite(flat, lambda at: f"{name} weight {at + 1}")
    matrix = flat.reshape(d_k, d_model).copy()
    matrix.flags.writeable = False
    return matrix
