"""The chapter's eight tests, and the head's refusals and properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attend import WK, WQ, WV, Head, Layer, chapter_head, chapter_row, softmax

CHAPTER_ROW = [(0, 1, 0, 0.5), (1, 0, 0, 0), (0, 0, 1, 1), (1, 0, 0, 0)]


@pytest.fixture
def run():  # type: ignore[no-untyped-def]
    return chapter_head().attend(CHAPTER_ROW)


def test_the_chapter_row_is_the_typed_numbers_of_its_four_tokens() -> None:
    assert chapter_row().tolist() == [list(map(float, t)) for t in CHAPTER_ROW]


def test_a_projection_is_a_weighted_sum_and_nothing_else(run) -> None:  # type: ignore[no-untyped-def]
    for matrix, projected in ((WQ, run.q), (WK, run.k), (WV, run.v)):
        for t, token in enumerate(CHAPTER_ROW):
            by_pencil = [sum(matrix[j * 4 + i] * token[i] for i in range(4)) for j in range(4)]
            assert projected[t].tolist() == by_pencil
            assert Layer(4, matrix, (0.0,) * 4).forward(token) == by_pencil
    assert run.q[1].tolist() == [0, 3, 0.5, 0]
    assert run.k[1].tolist() == [1, 0, 0, 0]
    assert run.k[0].tolist() == [0, 1, 0.25, 0.5]


def test_every_score_is_a_query_times_a_key_divided_by_two(run) -> None:  # type: ignore[no-untyped-def]
    assert run.div == 2.0
    for i in range(4):
        for j in range(4):
            dot = sum(a * b for a, b in zip(run.q[i], run.k[j], strict=True))
            assert run.raw[i, j] == dot
            assert run.scaled[i, j] == dot / 2
    assert run.raw[1].tolist() == [3.125, 0, 0.75, 0]


def test_the_square_is_not_symmetric(run) -> None:  # type: ignore[no-untyped-def]
    assert run.raw[1, 0] == 3.125
    assert run.raw[0, 1] == 0.0


def test_every_attention_row_is_shares_of_one(run) -> None:  # type: ignore[no-untyped-def]
    assert (run.attn > 0).all()
    assert np.allclose(run.attn.sum(axis=1), 1.0, atol=1e-12)
    assert round(run.attn[1, 0], 4) == 0.5800


def test_two_tokens_with_the_same_numbers_get_the_same_row(run) -> None:  # type: ignore[no-untyped-def]
    assert np.array_equal(run.attn[1], run.attn[3])
    assert np.array_equal(run.out[1], run.out[3])
    assert not np.array_equal(run.attn[0], run.attn[1])


def test_the_cost_is_three_projections_and_two_passes(run) -> None:  # type: ignore[no-untyped-def]
    n, d, dk = 4, 4, 4
    assert (run.cost.project, run.cost.score, run.cost.mix) == (192, 64, 64)
    assert run.cost.total == 320 == 3 * n * d * dk + 2 * n * n * dk
    assert run.cost.quadratic == 128


def test_softmax_survives_a_score_nothing_can_raise_e_to() -> None:
    with np.errstate(over="raise"):
        shares = softmax([800.0, 0.0, -800.0])
    assert np.isfinite(shares).all()
    assert math.isclose(shares.sum(), 1.0)
    assert shares[0] == 1.0


def test_a_matrix_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError, match="^Wv holds 3 numbers and a 2 by 2 matrix wants 4$"):
        Head(2, 2, [1, 0, 0, 1], [1, 0, 0, 1], [1, 0, 0])


def test_a_token_of_the_wrong_width_is_refused() -> None:
    row = [(0, 1, 0, 0.5), (1, 0), (0, 0, 1, 1), (1, 0, 0, 0)]
    with pytest.raises(ValueError, match="^token 2 of 4 arrives with 2 numbers and the head reads 4$"):
        chapter_head().attend(row)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_a_weight_that_is_not_finite_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="^Wk holds a weight that is not a finite number$"):
        Head(2, 2, [1, 0, 0, 1], [1, bad, 0, 1], [1, 0, 0, 1])


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_token_that_is_not_finite_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="^token 3 of 4 holds a number that is not finite$"):
        chapter_head().attend([(0, 1, 0, 0.5), (1, 0, 0, 0), (0, bad, 1, 1), (1, 0, 0, 0)])


def test_an_empty_row_is_refused() -> None:
    with pytest.raises(ValueError, match="no tokens"):
        chapter_head().attend([])
    with pytest.raises(ValueError, match="no tokens"):
        chapter_head().attend(np.empty((0, 4)))


def test_a_token_that_is_not_numbers_is_refused() -> None:
    with pytest.raises(ValueError, match="^token 1 of 1 holds something that is not a number$"):
        chapter_head().attend([("a", "b", "c", "d")])
    with pytest.raises(ValueError, match="^token 1 of 2 is not a run of numbers$"):
        chapter_head().attend([5, 6])
    with pytest.raises(ValueError, match="sequence of tokens"):
        chapter_head().attend(7)


@pytest.mark.parametrize("size", [0, -1, 2.0, True])
def test_a_head_of_no_width_is_refused(size: object) -> None:
    with pytest.raises(ValueError, match="must be a whole number of at least 1"):
        Head(size, 1, [], [], [])  # type: ignore[arg-type]


def test_an_array_row_reads_the_same_as_a_list_row(run) -> None:  # type: ignore[no-untyped-def]
    again = chapter_head().attend(np.array(CHAPTER_ROW, dtype=float))
    assert np.array_equal(again.out, run.out)


def test_the_record_cannot_be_written_to(run) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        run.attn[0, 0] = 1.0
    with pytest.raises(ValueError):
        chapter_head().wq[0, 0] = 1.0


def test_leaving_the_divide_off_divides_by_one() -> None:
    run = chapter_head(scale=False).attend(CHAPTER_ROW)
    assert run.div == 1.0
    assert np.array_equal(run.scaled, run.raw)
    assert round(run.attn[1, 0], 4) == 0.8468


@st.composite
def heads_and_rows(draw: st.DrawFn) -> tuple[Head, np.ndarray]:
    d, dk, n = draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.integers(1, 8))
    finite = st.floats(-10, 10, allow_nan=False)
    weights = [draw(hnp.arrays(np.float64, d * dk, elements=finite)) for _ in range(3)]
    row = draw(hnp.arrays(np.float64, (n, d), elements=finite))
    return Head(d, dk, *weights), row


@settings(max_examples=60, deadline=None)
@given(heads_and_rows(), st.randoms())
def test_permuting_the_tokens_permutes_the_outputs(case, random) -> None:  # type: ignore[no-untyped-def]
    head, row = case
    order = list(range(len(row)))
    random.shuffle(order)
    plain, shuffled = head.attend(row), head.attend(row[order])
    assert np.allclose(shuffled.out, plain.out[order], atol=1e-9)
    assert np.allclose(shuffled.attn, plain.attn[np.ix_(order, order)], atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(heads_and_rows())
def test_the_counted_cost_equals_the_closed_form(case) -> None:  # type: ignore[no-untyped-def]
    head, row = case
    n, d, dk = len(row), head.d, head.dk
    cost = head.attend(row).cost
    assert cost.tokens == n
    assert cost.project == 3 * n * d * dk
    assert cost.quadratic == 2 * n * n * dk
    assert cost.total == 3 * n * d * dk + 2 * n * n * dk
