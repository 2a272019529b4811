"""The learning model's hand-written backward pass against PyTorch's autograd, in float64:
the same parameters and batch given to the same model written in torch, every parameter's
gradient compared. The largest absolute difference is printed at the end of the run; each
parameter's must be within 1e-9 of the largest gradient there."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from attend.core.learn import backward, forward
from attend.core.positions import sinusoidal
from tests.crosscheck.torch_side import Agree, as_numpy, as_torch
from tests.learn_cases import small_case

SEEDS = range(6)


def torch_loss(
    params: dict[str, torch.Tensor], ids: np.ndarray, targets: np.ndarray, weight: np.ndarray
) -> torch.Tensor:
    """The model of attend.core.learn written with torch's own operations."""
    n = ids.shape[1]
    x = params["E"][torch.as_tensor(ids)] + as_torch(sinusoidal(n, params["E"].shape[1]))
    y = x
    if "W_Q" in params:
        q, k, v = (x @ params[w].T for w in ("W_Q", "W_K", "W_V"))
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        hidden = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
        a = torch.softmax(scores.masked_fill(hidden, -torch.inf), dim=-1)
        y = x + (a @ v) @ params["W_O"].T
    logits = y @ params["W_U"].T
    each = torch.nn.functional.cross_entropy(
        logits.reshape(-1, logits.shape[-1]), torch.as_tensor(targets).reshape(-1), reduction="none"
    )
    return (as_torch(weight).reshape(-1) * each).sum()


@pytest.mark.parametrize("attends", [True, False], ids=["head", "baseline"])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_gradient_is_what_autograd_finds(seed: int, attends: bool, agree_gradient: Agree) -> None:
    params, ids, targets, weight = small_case(seed, attends=attends)
    f = forward(params, ids, targets, weight)
    ours = backward(params, f, targets)
    theirs = {name: as_torch(value).requires_grad_() for name, value in params.items()}
    loss = torch_loss(theirs, ids, targets, weight)
    loss.backward()
    assert f.loss == pytest.approx(loss.item(), rel=1e-12)
    assert ours.keys() == theirs.keys()
    for name, tensor in theirs.items():
        assert tensor.grad is not None, name
        agree_gradient(ours[name], as_numpy(tensor.grad))
