"""The KV cache: generating with kept keys and values gives every token what running the
whole row again gives it, for work per token that grows in a straight line, not a square."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attend import MultiHead, cache_bytes, chapter_heads, generate, modes

FAIR = st.floats(-3, 3)


@st.composite
def layers(draw: st.DrawFn) -> tuple[MultiHead, np.ndarray]:
    h = draw(st.integers(1, 3))
    d = h * draw(st.integers(1, 3))
    wq, wk, wv, wo = (draw(hnp.arrays(np.float64, d * d, elements=FAIR)) for _ in range(4))
    x = draw(hnp.arrays(np.float64, (draw(st.integers(1, 9)), d), elements=FAIR))
    return MultiHead(d, h, wq, wk, wv, wo), x


@settings(max_examples=100, deadline=None)
@given(layers())
def test_cached_generation_gives_each_token_what_the_uncached_and_the_masked_whole_row_give(
    made: tuple[MultiHead, np.ndarray],
) -> None:
    layer, x = made
    kept, again = generate(layer, x, cache=True), generate(layer, x, cache=False)
    whole = layer.attend(x, causal=True).out
    assert np.allclose(kept.out, again.out, rtol=1e-12, atol=1e-12)
    assert np.allclose(again.out, whole, rtol=1e-12, atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(layers())
def test_each_step_counts_what_the_formula_says_with_and_without_the_cache(
    made: tuple[MultiHead, np.ndarray],
) -> None:
    layer, x = made
    n, d = x.shape
    kept, again = generate(layer, x, cache=True), generate(layer, x, cache=False)
    steps = range(1, n + 1)
    assert kept.work == tuple(4 * d * d + 2 * t * d for t in steps)  # Wq, Wk, Wv, Wo; t keys and values
    assert again.work == tuple(4 * t * d * d + 2 * t * t * d for t in steps)
    assert kept.work[0] == again.work[0] and kept.total <= again.total


def test_the_chapters_kvcache_table_holds_both_ways_and_the_bytes_kept() -> None:
    table = modes.kvcache.table(8, 2)
    assert table.largest_difference < 1e-12
    assert table.kept.work == (72, 80, 88, 96, 104, 112, 120, 128)
    assert table.again.total == sum(64 * t + 8 * t * t for t in range(1, 9))
    assert table.cache_bytes == 2 * 1 * 2 * 2 * 8 * 8


def test_the_cache_holds_a_key_and_a_value_per_token_per_kept_head_per_layer() -> None:
    assert cache_bytes(1, 1, 4, 4, 8) == 256
    assert cache_bytes(32, 8, 128, 8192, 2) == 2 * 32 * 8 * 128 * 8192 * 2
    assert cache_bytes(2, 3, 5, 0, 4) == 0


@pytest.mark.parametrize(
    ("args", "kind", "problem"),
    [
        ((0, 1, 4, 4, 8), ValueError, "layers must be at least 1"),
        ((1, 1, 4, -1, 8), ValueError, "tokens must be at least 0"),
        ((1, 1, 4.0, 4, 8), TypeError, "d_k must be a whole number"),
        ((1, True, 4, 4, 8), TypeError, "kv_heads must be a whole number"),
    ],
)
def test_cache_bytes_refuses_sizes_that_are_not_whole_numbers_in_range(
    args: tuple[object, ...], kind: type[Exception], problem: str
) -> None:
    with pytest.raises(kind, match=problem):
        cache_bytes(*args)  # type: ignore[arg-type]


def test_generate_refuses_a_cache_switch_that_is_not_true_or_false() -> None:
    with pytest.raises(TypeError, match="cache is a switch"):
        generate(chapter_heads(1), np.ones((2, 4)), cache="yes")  # type: ignore[arg-type]
