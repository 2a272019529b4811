"""Several heads: each one is a head of its own slots, one head is the chapter's head before
Wo, and cutting d_model into h heads costs the same multiply-adds as one head of width d_model,
plus Wo."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attend import Head, MultiHead, chapter_embeddings, chapter_head, chapter_heads, modes

FAIR = st.floats(-3, 3)


@st.composite
def layers(draw: st.DrawFn, h: int | None = None) -> tuple[MultiHead, np.ndarray]:
    """Random weights for 1 to 4 heads of 1 to 3 slots, and a row of 1 to 6 tokens for them."""
    h = draw(st.integers(1, 4)) if h is None else h
    d = h * draw(st.integers(1, 3))
    wq, wk, wv, wo = (draw(hnp.arrays(np.float64, d * d, elements=FAIR)) for _ in range(4))
    x = draw(hnp.arrays(np.float64, (draw(st.integers(1, 6)), d), elements=FAIR))
    return MultiHead(d, h, wq, wk, wv, wo), x


@settings(max_examples=100, deadline=None)
@given(layers(h=1))
def test_one_head_is_the_single_head_of_the_chapter_up_to_wo(made: tuple[MultiHead, np.ndarray]) -> None:
    layer, x = made
    d = layer.d_model
    single = Head(d, d, layer.wq.ravel(), layer.wk.ravel(), layer.wv.ravel()).attend(x)
    run = layer.attend(x)
    assert np.allclose(run.joined, single.out, rtol=1e-12, atol=1e-12)
    assert np.allclose(run.out, run.joined @ layer.wo.T, rtol=1e-12, atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(layers())
def test_each_head_is_a_head_of_its_own_slots_of_the_three_matrices(
    made: tuple[MultiHead, np.ndarray],
) -> None:
    layer, x = made
    run = layer.attend(x)
    for i in range(layer.h):
        alone = Head(
            layer.d_model, layer.d_k, layer.wq[i].ravel(), layer.wk[i].ravel(), layer.wv[i].ravel()
        ).attend(x)
        assert np.allclose(run.attended.weights[i], alone.weights, rtol=1e-12, atol=1e-12)
        assert np.allclose(
            run.joined[:, i * layer.d_k : (i + 1) * layer.d_k], alone.out, rtol=1e-12, atol=1e-12
        )


@settings(max_examples=100, deadline=None)
@given(layers(), st.booleans())
def test_h_heads_count_the_multiply_adds_of_one_head_of_width_d_and_wo_adds_n_d_d(
    made: tuple[MultiHead, np.ndarray], causal: bool
) -> None:
    layer, x = made
    n, d = x.shape
    cost = layer.attend(x, causal=causal).cost
    heads = cost.heads
    assert (heads.project, heads.score, heads.mix, cost.wo) == (
        3 * n * d * d,
        n * n * d,
        n * n * d,
        n * d * d,
    )
    one = Head(d, d, np.zeros(d * d), np.zeros(d * d), np.zeros(d * d)).attend(x).cost
    assert heads == one and cost.total == one.total + n * d * d


def test_the_chapter_as_one_head_with_wo_the_identity_is_the_chapters_head() -> None:
    run, head = chapter_heads(1).attend(chapter_embeddings()), chapter_head().attend(chapter_embeddings())
    assert np.allclose(run.out, head.out, rtol=0, atol=1e-15)
    assert np.allclose(run.attended.weights[0], head.weights, rtol=0, atol=1e-15)


def test_the_heads_table_holds_h_sets_of_shares_and_the_counts_of_the_formula() -> None:
    table = modes.heads.table(2)
    assert table.run.attended.weights.shape == (2, 4, 4)
    heads, one = table.run.cost, table.one.cost
    assert (heads.heads.project, heads.heads.score, heads.heads.mix, heads.wo) == table.formula
    assert heads.total == one.total == sum(table.formula)
    assert not np.allclose(table.run.attended.weights[0], table.run.attended.weights[1])


@pytest.mark.parametrize(
    ("d", "h", "problem"),
    [
        (4, 3, "4 numbers do not split into 3 heads"),
        (4, 0, "h must be at least 1"),
        (2, 1, "Wq holds 16 numbers"),
    ],
)
def test_a_layer_whose_heads_do_not_fit_is_refused(d: int, h: int, problem: str) -> None:
    w = np.ones(16)
    with pytest.raises(ValueError, match=problem):
        MultiHead(d, h, w, w, w, w)


def test_a_sequence_of_the_wrong_width_is_refused() -> None:
    with pytest.raises(ValueError, match="arrives with 5 numbers, and d_model is 4"):
        chapter_heads(2).attend(np.ones((3, 5)))
