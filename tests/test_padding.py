"""The padding mask: a batch of sequences of different lengths, each padded to the longest, where
no real token's query gives the padding any weight and every sequence comes out as it would alone."""

from __future__ import annotations

import numpy as np
import pytest

from attend import attention, causal_mask, chapter_embeddings, chapter_head
from attend.core.padding import pad, padding_mask


def batch_of_two() -> tuple[np.ndarray, tuple[int, ...]]:
    """The chapter's four tokens and, beside them, their first two, padded to four."""
    row = chapter_embeddings()
    return pad([row, row[:2]])


def projected(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    head = chapter_head()
    return x @ head.wq.T, x @ head.wk.T, x @ head.wv.T


def test_two_sequences_of_different_lengths_are_padded_on_the_right_with_zeros() -> None:
    x, lengths = batch_of_two()
    assert lengths == (4, 2)
    assert x.shape == (2, 4, 4)
    assert np.array_equal(x[1, :2], chapter_embeddings()[:2])
    assert not x[1, 2:].any()


def test_the_mask_marks_each_sequences_own_keys_for_every_query() -> None:
    mask = padding_mask([4, 2, 1], 4)
    assert mask.shape == (3, 1, 4)
    assert mask[:, 0].astype(int).tolist() == [[1, 1, 1, 1], [1, 1, 0, 0], [1, 0, 0, 0]]


@pytest.mark.parametrize("causal", [False, True])
def test_the_padded_keys_get_a_weight_of_exactly_zero(causal: bool) -> None:
    x, lengths = batch_of_two()
    seen = padding_mask(lengths, 4)
    if causal:
        seen = seen & causal_mask(4, 4)
    shares = attention(*projected(x), seen=seen).weights
    assert np.array_equal(shares[1, :, 2:], np.zeros((4, 2)))
    assert np.allclose(shares.sum(axis=-1), 1.0)


def test_a_padded_sequence_gives_its_real_tokens_the_outputs_it_gives_them_alone() -> None:
    x, lengths = batch_of_two()
    batch = attention(*projected(x), seen=padding_mask(lengths, 4))
    alone = chapter_head().attend(chapter_embeddings()[:2])
    assert np.allclose(batch.weights[1, :2, :2], alone.weights)
    assert np.allclose(batch.out[1, :2], alone.out)
    longest = chapter_head().attend(chapter_embeddings())
    assert np.allclose(batch.out[0], longest.out)


def test_without_the_mask_the_padding_draws_weight_away_from_the_real_keys() -> None:
    x, _ = batch_of_two()
    unmasked = attention(*projected(x)).weights
    assert (unmasked[1, :2, 2:] > 0).all()
    alone = chapter_head().attend(chapter_embeddings()[:2]).weights
    assert unmasked[1, 1, 0] < alone[1, 0]


def test_with_the_causal_mask_and_right_padding_a_real_query_never_reaches_a_pad() -> None:
    x, lengths = batch_of_two()
    q, k, v = projected(x)
    causal = attention(q, k, v, seen=causal_mask(4, 4)).weights
    both = attention(q, k, v, seen=causal_mask(4, 4) & padding_mask(lengths, 4)).weights
    assert np.array_equal(causal[1, :2], both[1, :2])


@pytest.mark.parametrize(
    ("lengths", "n", "problem"),
    [
        ([5, 2], 4, "5 tokens does not fit in 4 places"),
        ([], 4, "lengths is empty"),
        ([0], 4, "must be at least 1"),
        ([2.0], 4, "must be a whole number"),
        ("42", 4, "is a list of whole numbers"),
    ],
)
def test_lengths_that_cannot_be_a_batch_are_refused_in_one_line(
    lengths: object, n: int, problem: str
) -> None:
    with pytest.raises((TypeError, ValueError), match=problem):
        padding_mask(lengths, n)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("sequences", "problem"),
    [
        ([], "a batch is a list of one or more sequences"),
        ([[[1.0, 2.0]], [[1.0]]], "different widths"),
        ([[[np.nan]]], r"number 1 of sequence 1\b.*nan"),
        ([[1.0, 2.0]], "sequence 1 is tokens × numbers"),
    ],
)
def test_sequences_that_cannot_be_padded_are_refused_in_one_line(sequences: object, problem: str) -> None:
    with pytest.raises((TypeError, ValueError), match=problem):
        pad(sequences)  # type: ignore[arg-type]


def test_a_mask_that_would_grow_the_scores_is_refused() -> None:
    q = np.ones((2, 3, 2))
    with pytest.raises(ValueError, match="the mask is \\(3, 1, 3\\)"):
        attention(q, q, q, seen=np.ones((3, 1, 3), dtype=bool))
