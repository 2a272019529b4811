"""The public API refuses what it cannot do, in one line, before it does any of it: every
function that makes an array is held to the work limit, a training run that diverges stops and
names its rate, an id or a line number outside what it indexes is refused (numpy would read −1 as
the last), and the weights come from a seed that has to be given."""

from __future__ import annotations

import tracemalloc
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from attend import (
    MultiHead,
    attention,
    causal_mask,
    chapter_heads,
    generate,
    pad,
    padding_mask,
    sinusoidal,
    softmax,
)
from attend.core.checks import WORK_LIMIT
from attend.core.learn import Shape, forward, initial
from attend.core.positions import angles
from attend.core.training import Settings, batch, corpus, line_weights, place_of, train

TINY = Shape(vocab=5, d_model=2, d_k=1, context=3)
HUGE = np.broadcast_to(np.intp(0), (10**4, 10**4))  # a hundred million ids, none of them stored


@pytest.fixture
def allocated() -> Iterator[Callable[[], int]]:
    """The most memory Python and numpy held at once since the test started, in bytes."""
    tracemalloc.start()
    yield lambda: tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()


def one_line(error: type[Exception] | tuple[type[Exception], ...], call: Callable[[], object]) -> str:
    """The refusal `call` raises, with no warning on the way, as one line."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(error) as refused:
            call()
    message = str(refused.value)
    assert message and "\n" not in message
    return message


@pytest.mark.parametrize(
    "call",
    [
        lambda: sinusoidal(10**9, 2),
        lambda: angles(10**9, 2),
        lambda: causal_mask(10**5, 10**5),
        lambda: padding_mask([1], 10**11),
        lambda: pad([np.broadcast_to(np.zeros(4), (30_000, 4))] * 1_000),
        lambda: attention(*[np.broadcast_to(np.zeros(1), (60_000, 1))] * 3),
        lambda: chapter_heads(2).attend(np.broadcast_to(np.zeros(4), (5_000, 4))),
        lambda: generate(chapter_heads(1), np.broadcast_to(np.zeros(4), (600, 4)), cache=False),
        lambda: Shape(vocab=10**9, d_model=16, d_k=8, context=10),
        lambda: forward(initial(TINY, 1), HUGE, HUGE, np.zeros((1, 1))),
        lambda: softmax(np.broadcast_to(np.zeros(1), (10**5, 10**5))),
        lambda: softmax(np.broadcast_to(np.zeros(1), (1, 10**10))),
        lambda: attention(*[np.broadcast_to(np.zeros(1), (2, 10**9))] * 3),
        lambda: attention(np.broadcast_to(np.zeros(1), (10_001, 1)), np.zeros((1, 1)), np.zeros((1, 10_000))),
        lambda: padding_mask([1] * 10**6, 1_000),
    ],
    ids=[
        "sinusoidal",
        "angles",
        "causal mask",
        "padding mask",
        "pad",
        "attention",
        "several heads",
        "generate",
        "a model's shape",
        "forward",
        "softmax of a square",
        "softmax of a long row",
        "attention of wide tokens",
        "attention whose outputs are too many",
        "padding mask of a long list",
    ],
)
def test_every_array_making_call_over_the_work_limit_is_one_line_before_anything_is_made(
    call: Callable[[], object], allocated: Callable[[], int]
) -> None:
    assert f"one run handles at most {WORK_LIMIT:,}" in one_line(ValueError, call)
    assert allocated() < 10_000_000


def test_a_diverging_training_run_stops_with_one_line_naming_its_rate() -> None:
    refused = one_line(ValueError, lambda: train(Settings(rate=0.999, steps=50)))
    assert "diverged" in refused and "0.999" in refused


def test_a_training_run_at_the_book_s_rate_does_not_stop() -> None:
    run = train(Settings(steps=60, every=30))
    assert np.isfinite(run.held_loss).all() and run.held_loss[-1] < run.held_loss[0]


@pytest.mark.parametrize("bad", [-1, 5])
def test_a_token_id_outside_the_vocabulary_is_refused_by_forward_not_read_as_another(bad: int) -> None:
    ids = np.array([[0, 1, bad]])
    targets = np.array([[1, 2, 3]])
    refused = one_line(ValueError, lambda: forward(initial(TINY, 1), ids, targets, np.full((1, 3), 1 / 3)))
    assert f"holds {bad}" in refused and "0..4" in refused
    refused = one_line(ValueError, lambda: forward(initial(TINY, 1), targets, ids, np.full((1, 3), 1 / 3)))
    assert refused.startswith("targets")


def test_forward_refuses_ids_that_are_not_whole_numbers_and_weights_of_another_shape() -> None:
    params, ids = initial(TINY, 1), np.array([[0, 1]])
    floats = ids * 1.0
    assert "whole numbers" in one_line(TypeError, lambda: forward(params, floats, ids, np.ones((1, 2))))  # type: ignore[arg-type]
    assert "weight" in one_line(ValueError, lambda: forward(params, ids, ids, np.ones((2, 2))))


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda p: [], "a dict"),
        (lambda p: {"E": p["E"]}, "lack W_U"),
        (lambda p: {k: v for k, v in p.items() if k != "W_O"}, "lack W_O"),
        (lambda p: {**p, "W_X": p["W_Q"]}, "'W_X'"),
        (lambda p: {**p, "W_Q": p["W_Q"].T}, "params['W_Q']"),
        (lambda p: {**p, "E": p["E"][0]}, "params['E']"),
        (lambda p: {**p, "W_U": p["W_U"] * np.nan}, "W_U is nan"),
    ],
    ids=["a list", "no W_U", "three of a head", "an unknown matrix", "W_Q turned", "E flat", "nan in W_U"],
)
def test_forward_refuses_parameters_that_are_not_a_model_s_naming_what_is_wrong(
    change: Callable[[dict[str, Any]], object], named: str
) -> None:
    ids = np.array([[0, 1]])
    params = change(initial(TINY, 1))
    assert named in one_line((TypeError, ValueError), lambda: forward(params, ids, ids, np.ones((1, 2))))  # type: ignore[arg-type]


def test_a_model_without_a_head_is_still_a_model() -> None:
    ids = np.array([[0, 1]])
    assert np.isfinite(forward(initial(TINY, 1, attends=False), ids, ids, np.ones((1, 2))).loss)


def test_the_attention_of_a_line_is_refused_at_a_word_the_line_does_not_hold() -> None:
    params = initial(Settings().shape(), 1)
    assert "no token 'zebra'" in one_line(ValueError, lambda: line_weights(params, 0, "zebra"))


@pytest.mark.parametrize("line", [-1, 10**6])
def test_a_line_number_outside_the_chronicle_is_refused_not_read_from_the_end(line: int) -> None:
    assert "line" in one_line(ValueError, lambda: place_of(line))
    params = initial(Settings().shape(), 1)
    assert "line" in one_line(ValueError, lambda: line_weights(params, line, " in"))
    assert "lines holds" in one_line(ValueError, lambda: batch(np.array([line])))


def test_the_last_line_is_still_read() -> None:
    assert place_of(len(corpus().ids) - 1)


@pytest.mark.parametrize("seed", [None, 1.5, "1", -1])
def test_the_weights_come_from_a_seed_that_is_given(seed: object) -> None:
    with pytest.raises((TypeError, ValueError), match="seed"):
        initial(TINY, seed)  # type: ignore[arg-type]
    first, again = initial(TINY, 3), initial(TINY, 3)
    assert all(np.array_equal(first[name], again[name]) for name in first)


def test_several_heads_refuse_a_layer_given_in_place_of_one() -> None:
    assert "MultiHead" in one_line(TypeError, lambda: generate("layer", [[1.0] * 4], cache=True))  # type: ignore[arg-type]
    assert isinstance(chapter_heads(1), MultiHead)
