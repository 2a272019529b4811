"""Multiply-adds per byte read: one token written with a cache does about one multiply-add per
weight it brings from memory, a whole sequence does one per weight per token."""

from __future__ import annotations

import pytest

from attend.book.intensity import A100_80GB, matrix_bytes, sequence_traffic, step_traffic
from attend.book.models import (
    BYTES,
    GEMMA_2B,
    GPT2_SMALL,
    LLAMA2_7B,
    LLAMA3_8B,
    MODELS,
    Model,
    kv_cache_bytes,
    weights,
)

EVERY = (*MODELS, GEMMA_2B)


@pytest.mark.parametrize("model", EVERY, ids=lambda m: m.name)
def test_the_matrices_read_are_every_layers_weights_and_the_output_table(model: Model) -> None:
    stored = weights(model)
    numbers = model.layers * (stored.attention + stored.mlp) + model.vocab * model.d_model
    assert matrix_bytes(model) == numbers * BYTES[model.dtype]


@pytest.mark.parametrize("model", EVERY, ids=lambda m: m.name)
def test_one_token_reads_the_matrices_and_the_cache_it_asks_of(model: Model) -> None:
    step = step_traffic(model, 100)
    assert step.weights == matrix_bytes(model)
    assert step.cache == kv_cache_bytes(model, 100)
    assert step.read == step.weights + step.cache


@pytest.mark.parametrize("model", EVERY, ids=lambda m: m.name)
def test_one_token_does_about_a_multiply_add_per_weight_it_reads(model: Model) -> None:
    """Within 1%: biases are read and added, not multiplied; the one key adds a row of scores."""
    step = step_traffic(model, 1)
    per_number = 1 / BYTES[model.dtype]
    assert 0.99 * per_number < step.per_byte < 1.01 * per_number


@pytest.mark.parametrize("model", EVERY, ids=lambda m: m.name)
def test_a_sequence_of_one_token_does_the_work_of_a_step_asking_of_one_key(model: Model) -> None:
    assert sequence_traffic(model, 1).work == step_traffic(model, 1).work
    assert sequence_traffic(model, 1).cache == 0


def test_a_whole_sequence_uses_each_byte_once_for_every_token() -> None:
    short, long = sequence_traffic(LLAMA3_8B, 512), sequence_traffic(LLAMA3_8B, 1024)
    assert long.read == short.read
    assert 2 <= long.per_byte / short.per_byte < 2.2  # the square adds a little on top


def test_a_cache_every_query_head_keeps_for_itself_is_read_at_one_multiply_add_a_number() -> None:
    """Llama-2-7B keeps 32 key and value heads for 32 query heads: each cached number meets one
    query, so a step at the full window stays at the weights' half a multiply-add a byte."""
    full = step_traffic(LLAMA2_7B, LLAMA2_7B.context)
    assert full.per_byte == pytest.approx(0.5, rel=1e-4)
    assert step_traffic(LLAMA3_8B, LLAMA3_8B.context).per_byte > 0.55  # four queries share each


def test_the_chip_waits_on_memory_for_one_token_and_on_arithmetic_for_a_whole_sequence() -> None:
    ridge = A100_80GB.per_byte
    assert ridge == pytest.approx(312e12 / 2 / 2039e9)
    one_token = step_traffic(LLAMA3_8B, LLAMA3_8B.context).per_byte
    assert one_token < ridge < sequence_traffic(LLAMA3_8B, 8192).per_byte


@pytest.mark.parametrize(
    ("keys", "problem"), [(0, "keys must be at least 1"), (1.5, "keys must be a whole number")]
)
def test_a_step_with_no_keys_is_refused_in_one_line(keys: object, problem: str) -> None:
    with pytest.raises((TypeError, ValueError), match=problem):
        step_traffic(GPT2_SMALL, keys)  # type: ignore[arg-type]
