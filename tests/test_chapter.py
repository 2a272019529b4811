"""The chapter's eight tests: each one a sentence the head must keep true.

Kept apart from the property tests so that the book can run exactly these, at build, quickly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from attend import WK, WQ, WV, Head, Layer, Workings, chapter_head, softmax

# Each holds a number of the chapter written out by hand: a weight changed on purpose is
# edited here, and only here (docs/contributing.md lists them from this mark). The marked
# sections are what the pages show where their story reaches each test, run at build.
pytestmark = pytest.mark.pins_chapter


# --8<-- [start:projection]
def test_a_projection_is_a_weighted_sum_and_nothing_else(run: Workings) -> None:
    for matrix, projected in ((WQ, run.q), (WK, run.k), (WV, run.v)):
        for t, token in enumerate(run.x.tolist()):
            by_pencil = [sum(matrix[j * 4 + i] * token[i] for i in range(4)) for j in range(4)]
            assert projected[t].tolist() == by_pencil
            assert Layer(4, matrix, (0.0,) * 4).forward(token) == by_pencil
    # within 1e-12: a weight such as 0.6 has no exact binary form, nor have its products
    assert run.q[1].tolist() == pytest.approx([0, 3, 0.5, 0], abs=1e-12)
    assert run.k[1].tolist() == pytest.approx([1, 0, 0, 0], abs=1e-12)
    assert run.k[0].tolist() == pytest.approx([0, 1, 0.25, 0.5], abs=1e-12)
    # --8<-- [end:projection]


# --8<-- [start:score]
def test_every_score_is_a_query_times_a_key_divided_by_two(run: Workings) -> None:
    assert run.div == 2.0
    for i in range(4):
        for j in range(4):
            dot = sum(a * b for a, b in zip(run.q[i], run.k[j], strict=True))
            assert run.raw[i, j] == dot
            assert run.scaled[i, j] == dot / 2
    assert run.raw[1].tolist() == pytest.approx([3.125, 0, 0.75, 0], abs=1e-12)
    # --8<-- [end:score]


# --8<-- [start:weights]
def test_every_row_of_attention_weights_sums_to_one(run: Workings) -> None:
    assert (run.weights > 0).all()
    assert np.allclose(run.weights.sum(axis=1), 1.0, atol=1e-12)
    assert round(run.weights[1, 0], 4) == 0.5800
    # --8<-- [end:weights]


# --8<-- [start:same-row]
def test_two_tokens_with_the_same_numbers_get_the_same_row(run: Workings) -> None:
    assert np.array_equal(run.weights[1], run.weights[3])
    assert np.array_equal(run.out[1], run.out[3])
    assert not np.array_equal(run.weights[0], run.weights[1])
    # --8<-- [end:same-row]


# --8<-- [start:cost]
def test_the_cost_is_three_projections_and_two_passes(run: Workings) -> None:
    n, d_model, d_k = 4, 4, 4
    assert (run.cost.project, run.cost.score, run.cost.mix) == (192, 64, 64)
    assert run.cost.total == 320 == 3 * n * d_model * d_k + 2 * n * n * d_k
    assert run.cost.quadratic == 128
    # --8<-- [end:cost]


# --8<-- [start:softmax]
def test_softmax_survives_a_score_nothing_can_raise_e_to() -> None:
    with np.errstate(over="raise"):
        weights = softmax([800.0, 0.0, -800.0])
    assert np.isfinite(weights).all()
    assert math.isclose(weights.sum(), 1.0)
    assert weights[0] == 1.0
    # --8<-- [end:softmax]


# --8<-- [start:wrong-matrix]
def test_a_matrix_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError, match="Wv holds 3 numbers"):
        Head(2, 2, [1, 0, 0, 1], [1, 0, 0, 1], [1, 0, 0])
    # --8<-- [end:wrong-matrix]


# --8<-- [start:wrong-width]
def test_a_token_of_the_wrong_width_is_refused() -> None:
    sequence = [(0, 1, 0, 0.5), (1, 0), (0, 0, 1, 1), (1, 0, 0, 0)]
    with pytest.raises(ValueError, match="token 2 of 4 arrives with 2 numbers"):
        chapter_head().attend(sequence)
    # --8<-- [end:wrong-width]
