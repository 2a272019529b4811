"""One attention head: three stored matrices and the rule for using them.

The three matrices are the stored weights: fixed before any row of tokens arrives and the
same for every row. The weights that decide how much one token counts toward another are a
different kind of thing. They are worked out from the row itself, every time, and they do
not exist until the row does. Everything below is arithmetic small enough to check with a
pencil, and each line maps to one step of softmax(Q·Kᵀ / √dk)·V.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attend.cost import Cost
from attend.softmax import softmax

__all__ = ["Head", "Workings"]

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Workings:
    """Every number one run of a head produced, kept so that each can be printed and checked.

    `raw` is every query dotted with every key; `scaled` is the same square after the divide
    by `div`; `attn` holds the shares (each row adds to one); `out` is the values mixed in
    those shares. The arrays are read-only: a record of what happened, not a workspace.
    """

    x: Matrix
    q: Matrix
    k: Matrix
    v: Matrix
    raw: Matrix
    scaled: Matrix
    div: float
    attn: Matrix
    out: Matrix
    cost: Cost


# --8<-- [start:head]
class Head:
    """Three projection matrices, `d` numbers in and `dk` numbers out.

    Each of `wq`, `wk` and `wv` is a flat run of d·dk numbers, one run of `d` per output
    slot: the layout a row of neurons uses, because one flat run of numbers is a thing you
    can copy, write down and compare. `scale` divides every score by √dk; it is a switch
    rather than a constant so that leaving the divide off can be run instead of described.
    """

    def __init__(
        self,
        d: int,
        dk: int,
        wq: Sequence[float] | npt.ArrayLike,
        wk: Sequence[float] | npt.ArrayLike,
        wv: Sequence[float] | npt.ArrayLike,
        scale: bool = True,
    ) -> None:
        for name, size in (("d", d), ("dk", dk)):
            if isinstance(size, bool) or not isinstance(size, int) or size < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, not {size!r}")
        self.d, self.dk, self.scale = d, dk, scale
        self.wq = _matrix("Wq", wq, d, dk)
        self.wk = _matrix("Wk", wk, d, dk)
        self.wv = _matrix("Wv", wv, d, dk)

    # --8<-- [end:head]

    def __repr__(self) -> str:
        return f"Head(d={self.d}, dk={self.dk}, scale={self.scale})"

    # --8<-- [start:attend]
    def attend(self, tokens: Sequence[Sequence[float]] | npt.ArrayLike) -> Workings:
        """Run the head over one row of tokens and keep every intermediate number."""
        x = self._row(tokens)
        n = len(x)
        div = math.sqrt(self.dk) if self.scale else 1.0

        # One token at a time, no token sees another: three projections.
        q, project_q = _project(self.wq, x)
        k, project_k = _project(self.wk, x)
        v, project_v = _project(self.wv, x)

        # Every query against every key, divided, then turned into shares of one.
        raw, scaled, attn = np.empty((n, n)), np.empty((n, n)), np.empty((n, n))
        score = 0
        for i, query in enumerate(q):
            raw[i] = k @ query  # query i dotted with each of the n keys
            score += k.size  # n keys of dk numbers: n·dk multiply-adds
            scaled[i] = raw[i] / div
            attn[i] = softmax(scaled[i])

        # Each token leaves with the values mixed in its own row's shares.
        out = np.empty((n, self.dk))
        mix = 0
        for i, shares in enumerate(attn):
            out[i] = shares @ v  # share j times value j, summed over j
            mix += v.size  # n values of dk numbers: n·dk multiply-adds

        cost = Cost(tokens=n, project=project_q + project_k + project_v, score=score, mix=mix)
        for record in (x, q, k, v, raw, scaled, attn, out):
            record.flags.writeable = False
        return Workings(x, q, k, v, raw, scaled, div, attn, out, cost)

    # --8<-- [end:attend]

    def _row(self, tokens: Sequence[Sequence[float]] | npt.ArrayLike) -> Matrix:
        """The row as an n×d array, or a one-line refusal saying which token is wrong."""
        try:
            rows = list(tokens)  # type: ignore[arg-type]
        except TypeError:
            raise ValueError("a row of tokens is a sequence of tokens, each a run of numbers") from None
        if not rows:
            raise ValueError("the row holds no tokens; the head needs at least one to read")
        n = len(rows)
        for t, token in enumerate(rows, start=1):
            try:
                numbers = np.asarray(token, dtype=np.float64)
            except (TypeError, ValueError):
                raise ValueError(f"token {t} of {n} holds something that is not a number") from None
            if numbers.ndim != 1:
                raise ValueError(f"token {t} of {n} is not a run of numbers")
            if numbers.size != self.d:
                raise ValueError(
                    f"token {t} of {n} arrives with {numbers.size} numbers and the head reads {self.d}"
                )
            if not np.isfinite(numbers).all():
                raise ValueError(f"token {t} of {n} holds a number that is not finite")
        return np.array(rows, dtype=np.float64)


# --8<-- [start:project]
def _project(m: Matrix, x: Matrix) -> tuple[Matrix, int]:
    """Each token times one matrix, and the multiply-adds that took.

    Row j of `m` is the run of d weights for output slot j, so slot j of a projected token is
    that run dotted with the token: a weighted sum, and nothing else.
    """
    out = np.empty((len(x), m.shape[0]))
    done = 0
    for t, token in enumerate(x):
        out[t] = m @ token  # dk runs of d weights, each dotted with the token
        done += m.size  # dk·d multiply-adds
    return out, done


# --8<-- [end:project]


def _matrix(name: str, numbers: Sequence[float] | npt.ArrayLike, d: int, dk: int) -> Matrix:
    """A flat run of d·dk weights as a read-only dk×d matrix, or a refusal naming the matrix."""
    try:
        flat = np.asarray(numbers, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise ValueError(f"{name} holds something that is not a number") from None
    if flat.size != d * dk:
        raise ValueError(f"{name} holds {flat.size} numbers and a {dk} by {d} matrix wants {d * dk}")
    if not np.isfinite(flat).all():
        raise ValueError(f"{name} holds a weight that is not a finite number")
    matrix = flat.reshape(dk, d).copy()
    matrix.flags.writeable = False
    return matrix
