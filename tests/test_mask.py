"""The causal mask: a query sees its own key and the keys before it, and softmax turns the
hidden scores into shares of exactly 0 without a warning or a nan."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attend import attention, causal_mask, chapter_embeddings, chapter_head, modes

FAIR = st.floats(-30, 30)


@st.composite
def projections(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Queries, keys and values for 1 to 3 heads, 1 to 8 tokens and 1 to 5 slots."""
    h, n, dk = draw(st.integers(1, 3)), draw(st.integers(1, 8)), draw(st.integers(1, 5))
    q, k, v = (draw(hnp.arrays(np.float64, (h, n, dk), elements=FAIR)) for _ in range(3))
    return q, k, v


def test_a_whole_row_sees_the_lower_triangle_and_a_new_token_sees_everything() -> None:
    assert causal_mask(4, 4).astype(int).tolist() == [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]]
    assert causal_mask(1, 5).all()
    assert causal_mask(2, 4).astype(int).tolist() == [[1, 1, 1, 0], [1, 1, 1, 1]]


def test_more_queries_than_keys_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="5 queries ask of 4 keys"):
        causal_mask(5, 4)


@settings(max_examples=150, deadline=None)
@given(projections())
def test_masked_rows_are_shares_of_one_with_every_hidden_share_exactly_zero(
    made: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    q, k, v = made
    n = q.shape[1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        done = attention(q, k, v, seen=causal_mask(n, n))
    assert np.isfinite(done.weights).all()
    assert np.allclose(done.weights.sum(axis=-1), 1.0)
    assert (done.weights[:, ~causal_mask(n, n)] == 0).all()
    assert np.array_equal(done.out[:, 0], v[:, 0])  # the first token sees only itself


@settings(max_examples=100, deadline=None)
@given(projections(), st.data())
def test_what_comes_after_a_token_cannot_change_its_output(
    made: tuple[np.ndarray, np.ndarray, np.ndarray], data: st.DataObject
) -> None:
    q, k, v = made
    n = q.shape[1]
    t = data.draw(st.integers(1, n), label="tokens kept")
    later = data.draw(hnp.arrays(np.float64, (3, *q.shape), elements=FAIR), label="other later tokens")
    changed = [np.concatenate([a[:, :t], b[:, t:]], axis=1) for a, b in zip((q, k, v), later, strict=True)]
    before = attention(q, k, v, seen=causal_mask(n, n)).out[:, :t]
    after = attention(*changed, seen=causal_mask(n, n)).out[:, :t]
    assert np.array_equal(before, after)


def test_unmasked_attention_on_whole_matrices_is_the_chapters_head_token_by_token() -> None:
    run = chapter_head().attend(chapter_embeddings())
    done = attention(run.q, run.k, run.v)
    assert np.allclose(done.weights, run.weights, rtol=0, atol=1e-15)
    assert np.allclose(done.out, run.out, rtol=0, atol=1e-15)
    assert (done.score_adds, done.mix_adds) == (run.cost.score, run.cost.mix)


def test_the_chapters_row_2_masked_is_two_shares_worked_by_hand() -> None:
    table = modes.mask.table()
    scaled = table.run.scaled[1]  # 3.125 / 2 and 0 / 2 for the two keys it may see
    first = math.exp(scaled[0]) / (math.exp(scaled[0]) + math.exp(scaled[1]))
    assert table.masked.weights[1].tolist() == pytest.approx([first, 1 - first, 0, 0], abs=1e-15)
    assert np.array_equal(table.masked.scores[1, 2:], [-np.inf, -np.inf])


def test_the_last_row_sees_every_key_so_the_mask_leaves_it_as_it_was() -> None:
    table = modes.mask.table()
    assert np.allclose(table.masked.weights[-1], table.run.weights[-1], rtol=0, atol=1e-15)
    assert not np.allclose(table.masked.weights[1], table.masked.weights[3])  # rows 2 and 4 part


@pytest.mark.parametrize(
    ("q", "k", "v", "problem"),
    [
        ([1.0], [[1.0]], [[1.0]], "q is .*tokens, dimensions"),
        ([[1.0, 2.0]], [[1.0]], [[1.0]], "do not fit together"),
        ([[np.nan]], [[1.0]], [[1.0]], r"number 1 of q\b.*nan"),
        ([["a"]], [[1.0]], [[1.0]], "not a real number"),
    ],
)
def test_attention_refuses_what_is_not_queries_keys_and_values(
    q: object, k: object, v: object, problem: str
) -> None:
    with pytest.raises((TypeError, ValueError), match=problem):
        attention(q, k, v)  # type: ignore[arg-type]


def test_a_mask_of_the_wrong_shape_or_kind_is_refused() -> None:
    q = np.ones((3, 2))
    with pytest.raises(ValueError, match="the mask is \\(2, 2\\)"):
        attention(q, q, q, seen=causal_mask(2, 2))
    with pytest.raises(TypeError, match="True and False"):
        attention(q, q, q, seen=np.ones((3, 3)))  # type: ignore[arg-type]
