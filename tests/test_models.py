"""The published shapes and what they cost, held against cases worked by hand and published totals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attend.models import (
    GPT2_SMALL,
    GPT2_XL,
    LLAMA2_7B,
    LLAMA3_8B,
    MODELS,
    Model,
    doubling,
    head_tie,
    kv_cache_bytes,
    layer_tie,
    layer_work,
    llama_mlp_width,
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
    d = GPT2_SMALL.d
    assert layer_tie(GPT2_SMALL) == 6 * d
    work = layer_work(GPT2_SMALL, 6 * d)
    assert work.square == work.straight  # 2·n²·D = 12·n·D² at n = 6D


@given(model, length)
def test_the_square_leads_only_past_the_tie(shape: Model, n: int) -> None:
    work = layer_work(shape, n)
    tie = layer_tie(shape)
    assert (work.square > work.straight) == (n > tie)


def test_one_head_ties_at_one_and_a_half_d_as_the_page_says() -> None:
    for shape in MODELS:
        n = head_tie(shape)
        assert 3 * n * shape.d * shape.dk == 2 * n * n * shape.dk


@given(model, length)
def test_doubling_costs_between_two_and_four_times_and_more_the_longer_the_row(shape: Model, n: int) -> None:
    ratio = doubling(shape, n)
    assert 2 < ratio < 4
    assert doubling(shape, 2 * n) > ratio


def test_doubling_at_the_tie_costs_three_times() -> None:
    # at the tie the rest is c·n and the square c·n; at 2n they are 2c·n and 4c·n: 6/2
    assert doubling(GPT2_SMALL, 6 * GPT2_SMALL.d) == 3


@given(model, length)
def test_the_square_share_is_the_square_over_the_whole(shape: Model, n: int) -> None:
    work = layer_work(shape, n)
    assert square_share(shape, n) == pytest.approx(work.square / (work.square + work.straight))
    assert (square_share(shape, n) > 0.5) == (n > layer_tie(shape))


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
    d = GPT2_SMALL.d
    # c_attn 3D² + 3D, c_proj D² + D, c_fc 4D² + 4D, mlp c_proj 4D² + D
    assert weights(GPT2_SMALL).layer == 12 * d * d + 9 * d


@pytest.mark.parametrize(
    ("shape", "published", "unit"),
    [
        (GPT2_SMALL, 124, 10**6),  # nanoGPT's from_pretrained: gpt2 "124M params"
        (GPT2_XL, 1558, 10**6),  # gpt2-xl "1558M params"
        (LLAMA2_7B, 7, 10**9),  # the model card's 7B
        (LLAMA3_8B, 8, 10**9),  # the model card's 8B
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


def test_meta_rounding_gives_the_widths_the_hugging_face_configs_publish() -> None:
    assert llama_mlp_width(4096, multiple_of=256) == 11008  # Llama-2-7b-hf intermediate_size
    assert llama_mlp_width(4096, multiple_of=1024, multiplier=1.3) == 14336  # Meta-Llama-3-8B


def test_every_model_splits_its_width_evenly_among_its_heads() -> None:
    for shape in MODELS:
        assert shape.dk * shape.heads == shape.d
        assert shape.heads % shape.kv_heads == 0


@pytest.mark.parametrize("n", [0, -4, 2.5, True])
def test_a_length_that_is_not_a_whole_count_of_tokens_is_refused(n: object) -> None:
    with pytest.raises((TypeError, ValueError), match="^n must be"):
        layer_work(GPT2_SMALL, n)  # type: ignore[arg-type]
    with pytest.raises((TypeError, ValueError), match="^n must be"):
        kv_cache_bytes(GPT2_SMALL, n)  # type: ignore[arg-type]
