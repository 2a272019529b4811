"""Softmax: shares of one, unmoved by a shift, safe at scores e cannot be raised to."""

from __future__ import annotations

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


@pytest.mark.parametrize("bad", [[], [1.0, float("nan")], [float("inf")]])
def test_a_row_with_nothing_or_no_number_is_refused(bad: list[float]) -> None:
    with pytest.raises(ValueError, match="softmax"):
        softmax(bad)
