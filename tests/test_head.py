"""The head's refusals, its record, and the properties that hold for any head and any row."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attend import Head, Workings, chapter_head, chapter_row


def test_the_chapter_row_is_the_typed_numbers_of_its_four_tokens() -> None:
    assert chapter_row().tolist() == [[0, 1, 0, 0.5], [1, 0, 0, 0], [0, 0, 1, 1], [1, 0, 0, 0]]


def test_the_square_is_not_symmetric(run: Workings) -> None:
    assert run.raw[1, 0] == 3.125
    assert run.raw[0, 1] == 0.0


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


def test_an_array_row_reads_the_same_as_a_list_row(run: Workings) -> None:
    again = chapter_head().attend(np.array(run.x))
    assert np.array_equal(again.out, run.out)


def test_the_record_cannot_be_written_to(run: Workings) -> None:
    with pytest.raises(ValueError):
        run.attn[0, 0] = 1.0
    with pytest.raises(ValueError):
        chapter_head().wq[0, 0] = 1.0


def test_leaving_the_divide_off_divides_by_one() -> None:
    run = chapter_head(scale=False).attend(chapter_row())
    assert run.div == 1.0
    assert np.array_equal(run.scaled, run.raw)
    assert round(run.attn[1, 0], 4) == 0.8468


@st.composite
def heads_and_rows(draw: st.DrawFn) -> tuple[Head, np.ndarray]:
    d, dk, n = draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.integers(1, 8))
    finite = st.floats(-10, 10, allow_nan=False)
    weights = [draw(hnp.arrays(np.float64, d * dk, elements=finite)) for _ in range(3)]
    row = draw(hnp.arrays(np.float64, (n, d), elements=finite))
    wq, wk, wv = weights
    return Head(d, dk, wq, wk, wv), row


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
