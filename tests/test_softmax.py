"""Softmax: shares of one, unmoved by a shift, safe at scores e cannot be raised to."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attend import softmax

scores = hnp.arrays(np.float64, st.integers(1, 12), elements=st.floats(-1e4, 1e4, allow_nan=False))


@given(scores)
def test_every_row_of_shares_adds_to_one(row: np.ndarray) -> None:
    shares = softmax(row)
    assert (shares >= 0).all()
    assert np.isclose(shares.sum(), 1.0)


@given(scores, st.floats(-1e3, 1e3))
def test_adding_the_same_number_to_every_score_changes_no_share(row: np.ndarray, shift: float) -> None:
    assert np.allclose(softmax(row + shift), softmax(row), atol=1e-9)


def test_a_square_is_taken_row_by_row() -> None:
    square = np.array([[0.0, 0.0], [800.0, -800.0]])
    assert softmax(square).tolist() == [[0.5, 0.5], [1.0, 0.0]]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ([], "at least one score"),
        ([1.0, float("nan")], r"score 2\b.*nan"),
        ([float("inf")], r"score 1\b.*inf"),
        ([[0.0, 1.0], [2.0, float("inf")]], r"score 2 of row 2\b.*inf"),
        ([-np.inf, -np.inf], "row 1 is -inf throughout"),
        ([[0.0, 1.0], [-np.inf, -np.inf]], "row 2 is -inf throughout"),
    ],
)
def test_a_row_with_no_score_to_share_or_a_score_that_is_not_a_number_is_refused(
    bad: list[float], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        softmax(bad)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (None, "row of scores, not None"),
        ("1.5", "row of scores, not str"),
        (3.0, "row of scores, not the single number"),
        (np.float64(3.0), "row of scores, not the single number"),
        ([1j], r"score 1\b.*complex"),
        (np.array([1j]), "scores holds complex numbers"),
        (["1.5"], r"score 1\b.*str"),
        ([True, False], r"score 1\b.*bool"),
        (np.ma.masked_array([1.0, 2.0], mask=[False, True]), "masked array"),
    ],
)
def test_a_thing_that_is_not_a_row_of_real_numbers_is_a_type_error(bad: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        softmax(bad)  # type: ignore[arg-type]


def test_a_score_of_minus_infinity_gets_a_share_of_exactly_nothing() -> None:
    mask = np.triu(np.full((3, 3), -np.inf), k=1)  # a causal mask: no token sees a later one
    shares = softmax(np.zeros((3, 3)) + mask)
    assert shares.tolist() == [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3]]


def test_scores_as_far_apart_as_floats_go_give_shares_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert softmax([1e308, -1e308]).tolist() == [1.0, 0.0]
