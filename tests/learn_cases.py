"""Small cases of the learning model that the gradient checks share (finite differences here,
PyTorch's autograd in tests/crosscheck): a few real lines of the chronicle, a narrow model."""

from __future__ import annotations

import numpy as np

from attend.core.arrays import Matrix
from attend.core.learn import Ids, Params, Shape, forward, initial
from attend.core.training import batch, corpus

LINES = np.array([0, 7, 300])  # three lines of different lengths, so the batch is padded


def small_case(seed: int, *, attends: bool = True) -> tuple[Params, Ids, Ids, Matrix]:
    """Parameters of a model four wide (d_k = 2) over the whole vocabulary, and a batch of
    three lines; the parameters are trained a little off their start by a random nudge, so no
    gradient is checked only at the symmetric starting point."""
    data = corpus()
    shape = Shape(len(data.names), 4, 2, data.ids.shape[1] - 1)
    params = initial(shape, seed, attends=attends)
    rng = np.random.default_rng([seed, 2])
    for name in params:
        params[name] += 0.3 * rng.standard_normal(params[name].shape)
    return (params, *batch(LINES))


def loss(params: Params, ids: Ids, targets: Ids, weight: Matrix) -> float:
    return forward(params, ids, targets, weight).loss


def finite_differences(params: Params, ids: Ids, targets: Ids, weight: Matrix, step: float = 1e-5) -> Params:
    """Every parameter's gradient by central differences: (L(w + h) − L(w − h)) / 2h, one
    number at a time."""
    grads: Params = {}
    for name, value in params.items():
        grad = np.zeros_like(value)
        for at in np.ndindex(value.shape):
            kept = value[at]
            value[at] = kept + step
            up = loss(params, ids, targets, weight)
            value[at] = kept - step
            down = loss(params, ids, targets, weight)
            value[at] = kept
            grad[at] = (up - down) / (2 * step)
        grads[name] = grad
    return grads
