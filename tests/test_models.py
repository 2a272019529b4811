"""The published shapes and what they cost, held against cases worked by hand and published totals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attend.book.models import (
    GPT2_SMALL,
    GPT2_XL,
    LLAMA2_7B,
    LLAMA3_8B,
    LLAMA31_8B,
    MODELS,
    Model,
    doubling,
    head_tie,
    kv_cache_bytes,
    layer_tie,
    layer_work,
    llama_mlp_width,
    score_bytes,
    square_share,
    weights,
)

model = st.sampled_from(MODELS)
length = st.integers(1, 1 << 20)


def test_one_gpt2_token_through_one_layer_is_twelve_d_squared_by_hand() -> None:
    d = 768
    work = layer_work(GPT2_SMALL, 1)
    assert work.qkv == 3 * d * d  # three D×D matrices
    assert work.output == d * d
    assert work.mlp == 2 * d * 4 * d  # up to 4D and back
    assert work.straight == 12 * d * d
    assert work.scores == work.mix == 12 * 64  # one pair in each of 12 heads, 64 numbers wide


def test_a_gpt2_layer_ties_at_six_d_where_square_and_rest_are_equal() -> None:
    d = GPT2_SMALL.d_model
    assert layer_tie(GPT2_SMALL) == 6 * d
    work = layer_work(GPT2_SMALL, 6 * d)
    assert work.square == work.straight  # 2·n²·D = 12·n·D² at n = 6D


@given(model, length)
def test_the_square_leads_only_past_the_tie(shape: Model, n: int) -> None:
    work = layer_work(shape, n)
    tie = layer_tie(shape)
    assert (work.square > work.straight) == (n > tie)


def test_a_head_with_its_own_keys_and_values_ties_at_one_and_a_half_d() -> None:
    for shape in (GPT2_SMALL, GPT2_XL, LLAMA2_7B):
        n = head_tie(shape)
        assert n == 1.5 * shape.d_model
        assert 3 * n * shape.d_model * shape.d_k == 2 * n * n * shape.d_k


def test_a_query_head_sharing_its_keys_and_values_with_three_others_ties_at_three_quarters_d() -> None:
    # Q is D×D, K and V D×D/4 each: 1.5·D² a token against 2·n·D for the scores and mixing
    for shape in (LLAMA3_8B, LLAMA31_8B):
        assert head_tie(shape) == 0.75 * shape.d_model == 3072
        work = layer_work(shape, 3072)
        assert work.qkv == work.square


@given(model, length)
def test_a_causal_count_takes_the_pairs_on_and_below_the_diagonal(shape: Model, n: int) -> None:
    full, causal = layer_work(shape, n), layer_work(shape, n, causal=True)
    assert causal.scores * n * n == full.scores * n * (n + 1) // 2
    assert causal.straight == full.straight
    assert square_share(shape, n, causal=True) < square_share(shape, n) or n == 1


@given(model, length)
def test_doubling_costs_between_two_and_four_times_and_more_the_longer_the_row(shape: Model, n: int) -> None:
    ratio = doubling(shape, n)
    assert 2 < ratio < 4
    assert doubling(shape, 2 * n) > ratio


def test_doubling_at_the_tie_costs_three_times() -> None:
    # at the tie the rest is c·n and the square c·n; at 2n they are 2c·n and 4c·n: 6/2
    assert doubling(GPT2_SMALL, 6 * GPT2_SMALL.d_model) == 3


@given(model, length)
def test_the_square_share_is_the_square_over_the_whole(shape: Model, n: int) -> None:
    work = layer_work(shape, n)
    assert square_share(shape, n) == pytest.approx(work.square / (work.square + work.straight))
    assert (square_share(shape, n) > 0.5) == (n > layer_tie(shape))


def test_llama31_8b_has_llama3_8bs_layer_and_sixteen_times_its_window() -> None:
    assert layer_work(LLAMA31_8B, 1000) == layer_work(LLAMA3_8B, 1000)
    assert LLAMA31_8B.context == 16 * LLAMA3_8B.context == 131072


def test_the_square_is_most_of_a_llama31_layer_at_its_window_and_over_half_at_32k() -> None:
    # the straight part is 13·D² a token, the square 2·n·D: 2n / (2n + 13D)
    assert square_share(LLAMA31_8B, 131072) == pytest.approx(2 * 131072 / (2 * 131072 + 13 * 4096))
    assert round(100 * square_share(LLAMA31_8B, 131072)) == 83
    assert round(100 * square_share(LLAMA31_8B, 32768)) == 55
    assert all(square_share(m, m.context) < 0.5 for m in MODELS if m is not LLAMA31_8B)


def test_llama2_7b_holds_a_gibibyte_of_attention_weights_a_layer_at_4096_tokens() -> None:
    # 32 heads · 4096 · 4096 · 2 bytes = 2^(5+12+12+1)
    assert score_bytes(LLAMA2_7B, 4096) == 32 * 4096**2 * 2 == 2**30


@given(model, length)
def test_the_attention_weights_grow_with_the_square_of_the_length(shape: Model, n: int) -> None:
    assert score_bytes(shape, 2 * n) == 4 * score_bytes(shape, n)


def test_a_model_numbers_take_the_bytes_of_their_published_dtype() -> None:
    assert [m.number_bytes for m in MODELS] == [4, 4, 2, 2, 2]
    for shape in MODELS:
        assert kv_cache_bytes(shape, 1) == 2 * shape.layers * shape.kv_heads * shape.d_k * shape.number_bytes


def test_a_cache_kept_in_sixteen_bits_is_half_the_float32_one() -> None:
    assert kv_cache_bytes(GPT2_SMALL, dtype="float16") * 2 == kv_cache_bytes(GPT2_SMALL)
    assert kv_cache_bytes(LLAMA2_7B, dtype="bfloat16") == kv_cache_bytes(LLAMA2_7B)


@pytest.mark.parametrize("dtype", ["int8", "float64", "bf16", 2])
def test_a_dtype_the_cache_has_no_width_for_is_refused(dtype: object) -> None:
    with pytest.raises(ValueError, match="dtype is one of float32, float16, bfloat16"):
        kv_cache_bytes(GPT2_SMALL, dtype=dtype)  # type: ignore[arg-type]


def test_llama2_7b_keeps_two_gibibytes_of_keys_and_values_at_its_context() -> None:
    # 2 · 32 layers · 32 heads · 128 numbers · 4096 tokens · 2 bytes = 2^(1+5+5+7+12+1)
    assert kv_cache_bytes(LLAMA2_7B) == 2**31 == kv_cache_bytes(LLAMA2_7B, 4096)


def test_grouped_queries_shrink_the_cache_by_the_heads_per_key() -> None:
    ungrouped = kv_cache_bytes(LLAMA3_8B) * LLAMA3_8B.heads // LLAMA3_8B.kv_heads
    assert ungrouped == kv_cache_bytes(LLAMA2_7B, LLAMA3_8B.context)  # same layers, widths, bytes


@given(model, length)
def test_the_cache_grows_in_step_with_the_length(shape: Model, n: int) -> None:
    assert kv_cache_bytes(shape, 2 * n) == 2 * kv_cache_bytes(shape, n)


def test_a_gpt2_layer_stores_twelve_d_squared_weights_and_nine_d_biases() -> None:
    d = GPT2_SMALL.d_model
    # c_attn 3D² + 3D, c_proj D² + D_MODEL, c_fc 4D² + 4D, mlp c_proj 4D² + D_MODEL
    assert weights(GPT2_SMALL).layer == 12 * d * d + 9 * d


@pytest.mark.parametrize(
    ("shape", "published", "unit"),
    [
        (GPT2_SMALL, 124, 10**6),  # nanoGPT's from_pretrained: gpt2 "124M params"
        (GPT2_XL, 1558, 10**6),  # gpt2-xl "1558M params"
        (LLAMA2_7B, 7, 10**9),  # the model card's 7B
        (LLAMA3_8B, 8, 10**9),  # the model card's 8B
        (LLAMA31_8B, 8, 10**9),  # the Llama 3.1 model card's 8B
    ],
)
def test_the_shapes_add_up_to_the_published_sizes(shape: Model, published: int, unit: int) -> None:
    assert round(weights(shape).total / unit) == published


def test_the_mlp_holds_two_thirds_of_a_gpt2_or_llama2_layer() -> None:
    for shape in (GPT2_SMALL, GPT2_XL, LLAMA2_7B):
        share = weights(shape).mlp / weights(shape).layer
        assert share == pytest.approx(2 / 3, abs=0.01)
    # grouped queries shrink the attention's K and V, so Llama 3's MLP holds more
    assert weights(LLAMA3_8B).mlp / weights(LLAMA3_8B).layer > 0.8
    assert weights(LLAMA31_8B) == weights(LLAMA3_8B)  # the same layers, tables and norms


def test_meta_rounding_gives_the_widths_the_hugging_face_configs_publish() -> None:
    assert llama_mlp_width(4096, multiple_of=256) == 11008  # Llama-2-7b-hf intermediate_size
    assert llama_mlp_width(4096, multiple_of=1024, multiplier=1.3) == 14336  # Meta-Llama-3-8B


def test_every_model_splits_its_width_evenly_among_its_heads() -> None:
    for shape in MODELS:
        assert shape.d_k * shape.heads == shape.d_model
        assert shape.heads % shape.kv_heads == 0


@pytest.mark.parametrize("n", [0, -4, 2.5, True])
def test_a_length_that_is_not_a_whole_count_of_tokens_is_refused(n: object) -> None:
    with pytest.raises((TypeError, ValueError), match="n must be"):
        layer_work(GPT2_SMALL, n)  # type: ignore[arg-type]
    with pytest.raises((TypeError, ValueError), match="n must be"):
        kv_cache_bytes(GPT2_SMALL, n)  # type: ignore[arg-type]
    with pytest.raises((TypeError, ValueError), match="n must be"):
        score_bytes(GPT2_SMALL, n)  # type: ignore[arg-type]


def test_a_causal_switch_that_is_not_true_or_false_is_refused() -> None:
    with pytest.raises(TypeError, match="causal is a switch"):
        layer_work(GPT2_SMALL, 4, causal="yes")  # type: ignore[arg-type]
