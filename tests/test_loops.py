"""The numpy head's counters held against the same head counted one multiply-add at a time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attend import D_K, D_MODEL, Head, chapter_head
from attend.book.experiments import chronicle_embeddings
from attend.core.loops import looped

LOOPED_LENGTHS = range(1, 65)  # where plain loops are quick: 35,840 steps at 64 tokens


@pytest.mark.parametrize("n", LOOPED_LENGTHS)
def test_the_numpy_heads_count_is_the_count_made_one_at_a_time(n: int) -> None:
    row = chronicle_embeddings(n)
    counted, run = looped(chapter_head(), row), chapter_head().attend(row)
    assert counted.cost == run.cost
    np.testing.assert_allclose(counted.out, run.out, rtol=1e-12, atol=1e-12)


def test_the_loops_count_what_the_formula_says_at_32_tokens() -> None:
    n = 32
    cost = looped(chapter_head(), chronicle_embeddings(n)).cost
    assert (cost.project, cost.score, cost.mix) == (3 * n * D_MODEL * D_K, n * n * D_K, n * n * D_K)


sizes = st.integers(1, 5)


@given(sizes, sizes, sizes, st.booleans(), st.integers(0, 2**32 - 1))
def test_any_heads_counts_and_numbers_match_its_loops(
    d: int, dk: int, n: int, divide: bool, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    wq, wk, wv = (rng.standard_normal(d * dk) for _ in range(3))
    head = Head(d, dk, wq, wk, wv, divide=divide)
    row = rng.standard_normal((n, d))
    counted, run = looped(head, row), head.attend(row)
    assert counted.cost == run.cost
    np.testing.assert_allclose(counted.out, run.out, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(
    ("x", "refused"),
    [
        (np.zeros((0, D_MODEL)), ValueError),
        (np.zeros((2, D_MODEL + 1)), ValueError),
        (np.zeros(D_MODEL), TypeError),
    ],
)
def test_the_loops_refuse_a_sequence_the_head_cannot_read(x: np.ndarray, refused: type[Exception]) -> None:
    with pytest.raises(refused, match=r"sequence x|d_model is"):
        looped(chapter_head(), x)
