"""The learning model's backward pass: every parameter's gradient held against central finite
differences, softmax's Jacobian against its definition, and the padding shown to change
nothing."""

from __future__ import annotations

import numpy as np
import pytest

from attend.core.learn import HEAD, backward, forward, jacobian
from attend.core.softmax import softmax
from attend.core.training import batch
from tests.learn_cases import LINES, finite_differences, small_case

SEEDS = (0, 1, 2)


@pytest.mark.parametrize("attends", [True, False], ids=["head", "baseline"])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_gradient_is_what_finite_differences_measure(seed: int, attends: bool) -> None:
    params, ids, targets, weight = small_case(seed, attends=attends)
    ours = backward(params, forward(params, ids, targets, weight), targets)
    measured = finite_differences(params, ids, targets, weight)
    assert ours.keys() == measured.keys() == params.keys()
    for name, grad in ours.items():
        scale = np.abs(measured[name]).max()
        assert scale > 0, name
        assert np.abs(grad - measured[name]).max() <= 1e-7 * scale, name


def test_the_baseline_has_no_head_to_learn() -> None:
    head, _, _, _ = small_case(0)
    alone, _, _, _ = small_case(0, attends=False)
    assert set(head) - set(alone) == set(HEAD)


@pytest.mark.parametrize("n", [1, 2, 5])
def test_the_jacobian_is_the_derivative_of_softmax_one_score_at_a_time(n: int) -> None:
    s = np.random.default_rng(n).standard_normal(n)
    step = 1e-6
    measured = np.empty((n, n))
    for j in range(n):
        up, down = s.copy(), s.copy()
        up[j] += step
        down[j] -= step
        measured[:, j] = (softmax(up) - softmax(down)) / (2 * step)
    assert np.allclose(jacobian(softmax(s)), measured, atol=1e-9)


def test_the_jacobian_is_symmetric_and_each_row_sums_to_zero() -> None:
    a = softmax(np.random.default_rng(0).standard_normal((3, 5)))
    jac = jacobian(a)
    assert jac.shape == (3, 5, 5)
    assert np.array_equal(jac, np.swapaxes(jac, -1, -2))
    assert np.allclose(jac.sum(axis=-1), 0, atol=1e-15)


def test_a_padded_batch_has_the_loss_and_gradients_of_its_lines_weighted_by_their_tokens() -> None:
    params, ids, targets, weight = small_case(1)
    whole = backward(params, forward(params, ids, targets, weight), targets)
    total = weight.astype(bool).sum()
    summed = {name: np.zeros_like(value) for name, value in params.items()}
    loss = 0.0
    for line in LINES:
        one_ids, one_targets, one_weight = batch(np.array([line]))
        f = forward(params, one_ids, one_targets, one_weight)
        share = one_weight.astype(bool).sum() / total
        loss += share * f.loss
        for name, grad in backward(params, f, one_targets).items():
            summed[name] += share * grad
    assert forward(params, ids, targets, weight).loss == pytest.approx(loss, rel=1e-12)
    for name, grad in whole.items():
        assert np.allclose(grad, summed[name], rtol=1e-10, atol=1e-14), name


def test_the_attention_weights_are_causal_and_each_row_sums_to_one() -> None:
    params, ids, targets, weight = small_case(2)
    weights = forward(params, ids, targets, weight).a
    assert weights is not None
    assert np.all(np.triu(weights, k=1) == 0)
    assert np.allclose(weights.sum(axis=-1), 1)
