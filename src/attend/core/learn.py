"""The smallest model that reads with attention, and its gradients worked out by hand.

Every matrix the earlier pages ran was typed. Here they are numbers to be found: a token
embedding E, the book's three matrices W_Q, W_K and W_V (one row per output dimension, as
`Head` stores them, so Q = X·W_Qᵀ), the output projection W_O, and an unembedding W_U that
turns each token's d_model numbers into one logit per token of the vocabulary. Positions
are the sinusoidal table, added and never trained. One causal head, a residual connection,
cross-entropy against the next token: that is the whole model, laid out as nanoGPT's
model.py lays out a bigger one, so each line maps to a line of the math.

The backward pass is written out step by step in the same names, each gradient the product
of the one after it with a local derivative. Softmax's is the full Jacobian of each row,
diag(a) − a·aᵀ, multiplied out, not a shortcut: the page shows that matrix. Everything is
float64 and every random number comes from one seeded generator, so a run is repeated
exactly on the machine that made it, and to rounding on any other.

Without the head (`attends=False`) the same code is the baseline: each token's logits come
from its own embedding and position alone, so nothing earlier in the line can reach them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from attend.core.arrays import Matrix
from attend.core.attention import scaled_dot_product_attention
from attend.core.causal import causal_mask
from attend.core.checks import batch_of_tokens, model_shape, parameters, whole
from attend.core.positions import sinusoidal

__all__ = [
    "HEAD",
    "Forward",
    "HeadPass",
    "Params",
    "Shape",
    "backward",
    "forward",
    "forward_pass",
    "initial",
    "jacobian",
]

Params: TypeAlias = dict[str, Matrix]
Ids: TypeAlias = npt.NDArray[np.intp]

HEAD = ("W_Q", "W_K", "W_V", "W_O")  # the parameters the baseline goes without


@dataclass(frozen=True)
class Shape:
    """The model's sizes: the vocabulary, d_model, d_k (= d_v here), the longest sequence."""

    vocab: int
    d_model: int
    d_k: int
    context: int

    def __post_init__(self) -> None:
        model_shape(self.vocab, self.d_model, self.d_k, self.context)


# --8<-- [start:initial]
def initial(shape: Shape, seed: int, *, attends: bool = True) -> Params:
    """Small random numbers for every parameter, from one seed.
    Each matrix is scaled by 1/√(its input width), so every
    product starts near the size of what went in."""
    rng = np.random.default_rng(whole(seed, "seed", 0))  # None would draw afresh at every call
    vocab, d_model, d_k = shape.vocab, shape.d_model, shape.d_k

    def draw(rows: int, cols: int) -> Matrix:
        return rng.standard_normal((rows, cols)) / math.sqrt(cols)

    params = {"E": rng.standard_normal((vocab, d_model)) * 0.5}
    if attends:
        params["W_Q"], params["W_K"] = draw(d_k, d_model), draw(d_k, d_model)
        params["W_V"], params["W_O"] = draw(d_k, d_model), draw(d_model, d_k)
    params["W_U"] = draw(vocab, d_model)
    return params


# --8<-- [end:initial]


@dataclass(frozen=True)
class HeadPass:
    """What the head made on the way forward: (sequences, tokens, ...)."""

    q: Matrix
    k: Matrix
    v: Matrix
    a: Matrix  # the attention weights, 0 above the diagonal
    out: Matrix  # the head's output


@dataclass(frozen=True)
class Forward:
    """Every number the forward pass made, kept for the backward pass. Arrays are
    (sequences, tokens, ...); `weight` is 1/(tokens counted) at a counted target, else 0."""

    ids: Ids
    weight: Matrix
    x: Matrix
    head: HeadPass | None  # None for the baseline
    y: Matrix  # x plus the head's projected output: the residual connection
    probs: Matrix  # softmax of the logits
    loss: float

    @property
    def a(self) -> Matrix | None:
        """The attention weights, if there is a head."""
        return None if self.head is None else self.head.a


def forward(params: Params, ids: Ids, targets: Ids, weight: Matrix) -> Forward:
    """`forward_pass` on a batch checked first (`checks.batch_of_tokens`): ids and targets
    (B, n), whole numbers in the vocabulary, and weight (B, n), each refused in one line if not."""
    params = parameters(params)
    ids, targets, weight = batch_of_tokens(ids, targets, weight, len(params["E"]))
    return forward_pass(params, ids, targets, weight)


# --8<-- [start:forward]
def forward_pass(params: Params, ids: Ids, targets: Ids, weight: Matrix) -> Forward:
    """ids and targets (B, n): each sequence, and each token's next.
    Returns every step, and the loss: mean −log p(next token)."""
    n, d = ids.shape[1], params["E"].shape[1]
    x = params["E"][ids] + sinusoidal(n, d)  # X = E[ids] + P, (B, n, d)
    y, head = x, None
    if "W_Q" in params:
        q = x @ params["W_Q"].T  # Q = X·W_Qᵀ, (B, n, d_k)
        k = x @ params["W_K"].T  # K = X·W_Kᵀ
        v = x @ params["W_V"].T  # V = X·W_Vᵀ
        attended = scaled_dot_product_attention(q, k, v, seen=causal_mask(n, n))
        a, out = attended.weights, attended.out  # A = softmax(QKᵀ/√d_k), A·V
        y = x + out @ params["W_O"].T  # the residual connection
        head = HeadPass(q, k, v, a, out)
    logits = y @ params["W_U"].T  # Z = Y·W_Uᵀ, (B, n, vocab)
    logits -= logits.max(axis=-1, keepdims=True)
    probs = np.exp(logits)
    probs /= probs.sum(axis=-1, keepdims=True)  # softmax(Z), (B, n, vocab)
    picked = np.take_along_axis(probs, targets[..., None], -1)[..., 0]  # (B, n)
    loss = float(-(weight * np.log(picked)).sum())
    return Forward(ids, weight, x, head, y, probs, loss)


# --8<-- [end:forward]


# --8<-- [start:jacobian]
def jacobian(a: Matrix) -> Matrix:
    """∂a_i/∂s_j for a = softmax(s), for every row at once:
    a_i(δ_ij − a_j), that is diag(a) − a·aᵀ, (..., n, n)."""
    jac = -a[..., :, None] * a[..., None, :]  # −a_i·a_j everywhere
    diagonal = np.arange(a.shape[-1])
    jac[..., diagonal, diagonal] += a  # and a_i on the diagonal
    return jac


# --8<-- [end:jacobian]


# --8<-- [start:backward]
def backward(params: Params, f: Forward, targets: Ids) -> Params:
    """∂loss/∂ each parameter, the chain rule taken one step at a
    time from the loss back to the embedding; dZ is ∂loss/∂Z, and
    so on for every name d·: a gradient, never a width."""
    grads: Params = {}
    onehot = np.eye(f.probs.shape[-1])[targets]  # 1 at the next token
    dZ = (f.probs - onehot) * f.weight[..., None]  # at the logits
    grads["W_U"] = _summed(dZ, f.y)  # Z = Y·W_Uᵀ
    dY = dZ @ params["W_U"]
    dX = dY.copy()  # the residual: Y = X + O passes it to X whole
    if (head := f.head) is not None:
        grads["W_O"] = _summed(dY, head.out)  # O = (A·V)·W_Oᵀ
        dO = dY @ params["W_O"]  # at the head's output A·V
        dA = dO @ np.swapaxes(head.v, -1, -2)  # A·V
        dV = np.swapaxes(head.a, -1, -2) @ dO
        jac = jacobian(head.a)  # (B, n, n, n): an n×n Jacobian per query
        dS = (jac @ dA[..., None])[..., 0]  # each row: Jᵀ·dA, and Jᵀ = J
        dS /= math.sqrt(head.q.shape[-1])  # S = QKᵀ/√d_k
        dQ = dS @ head.k
        dK = np.swapaxes(dS, -1, -2) @ head.q
        grads["W_Q"] = _summed(dQ, f.x)  # Q = X·W_Qᵀ
        grads["W_K"] = _summed(dK, f.x)
        grads["W_V"] = _summed(dV, f.x)
        dX += dQ @ params["W_Q"] + dK @ params["W_K"] + dV @ params["W_V"]
    grads["E"] = np.zeros_like(params["E"])
    np.add.at(grads["E"], f.ids, dX)  # X = E[ids] + P: to each token
    return grads


# --8<-- [end:backward]


# --8<-- [start:summed]
def _summed(d_out: Matrix, inputs: Matrix) -> Matrix:
    """∂loss/∂W for out = inputs·Wᵀ, given d_out = ∂loss/∂out,
    summed over every sequence and token: d_outᵀ·inputs, one
    product a sequence.
    Each product is small enough that BLAS works it on one
    thread, so a run takes the same time on a busy machine and
    adds in one order whatever the number of cores; one product
    over all the tokens at once would start BLAS's threads."""
    per_sequence: Matrix = np.swapaxes(d_out, -1, -2) @ inputs
    summed: Matrix = per_sequence.sum(axis=0)
    return summed


# --8<-- [end:summed]
