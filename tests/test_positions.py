"""Positions: the sinusoidal table, the rotary turn, and what each does to the chapter's rows
2 and 4, which the head without positions cannot tell apart."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attend import chapter_embeddings, chapter_head, modes, parting, rotary, sinusoidal
from attend.book.parting import SCHEMES

DIMENSIONS = st.integers(1, 6).map(lambda half: 2 * half)
FAIR = st.floats(-10, 10)


def test_position_0_is_sin_0_and_cos_0_in_every_pair() -> None:
    assert sinusoidal(3, 6)[0].tolist() == [0, 1, 0, 1, 0, 1]


def test_the_first_pair_turns_one_radian_a_position_and_the_last_pair_slowest() -> None:
    table = sinusoidal(5, 4)
    assert table[:, 0].tolist() == [math.sin(p) for p in range(5)]
    assert table[:, 3].tolist() == pytest.approx([math.cos(p / 100) for p in range(5)], abs=1e-15)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 20), DIMENSIONS)
def test_every_position_is_pairs_on_the_unit_circle(n: int, d: int) -> None:
    table = sinusoidal(n, d)
    assert np.allclose(table[:, 0::2] ** 2 + table[:, 1::2] ** 2, 1.0)


@settings(max_examples=80, deadline=None)
@given(st.data(), st.integers(1, 8), DIMENSIONS)
def test_a_rotary_score_depends_only_on_how_far_apart_the_two_tokens_stand(
    data: st.DataObject, n: int, d: int
) -> None:
    q = data.draw(hnp.arrays(np.float64, (n, d), elements=FAIR), label="queries")
    k = data.draw(hnp.arrays(np.float64, (n, d), elements=FAIR), label="keys")
    shift = data.draw(st.integers(0, 50), label="shift")
    here = rotary(q)[0] @ rotary(k)[0].T
    moved = rotary(q, shift)[0] @ rotary(k, shift)[0].T
    assert np.allclose(here, moved, rtol=1e-9, atol=1e-9)


@settings(max_examples=80, deadline=None)
@given(st.data(), st.integers(1, 8), DIMENSIONS)
def test_a_rotary_turn_keeps_each_pairs_length_and_leaves_position_0_alone(
    data: st.DataObject, n: int, d: int
) -> None:
    x = data.draw(hnp.arrays(np.float64, (n, d), elements=FAIR), label="rows")
    turned, done = rotary(x)
    before, after = (a[:, 0::2] ** 2 + a[:, 1::2] ** 2 for a in (x, turned))
    assert np.allclose(before, after)
    assert np.array_equal(turned[0], x[0])
    assert done == 2 * x.size


@pytest.mark.parametrize(
    ("call", "problem"),
    [
        (lambda: sinusoidal(4, 3), "d must be even, not 3"),
        (lambda: rotary(np.ones((2, 3))), "d must be even, not 3"),
        (lambda: rotary(np.ones(4)), "tokens, dimensions"),
    ],
)
def test_an_odd_width_or_a_lone_token_has_no_pairs_to_turn(call: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        call()  # type: ignore[operator]


def test_without_positions_rows_2_and_4_are_the_same_to_the_last_bit() -> None:
    part = parting(chapter_head(), chapter_embeddings(), "none")
    run = chapter_head().attend(chapter_embeddings())
    assert part.weight_gap == part.out_gap == 0.0
    assert np.allclose(part.attended.out, run.out, rtol=0, atol=1e-15)
    assert part.cost == run.cost


@pytest.mark.parametrize("scheme", ["sinusoidal", "rotary"])
def test_either_scheme_parts_rows_2_and_4_and_leaves_the_heads_own_work_as_it_was(scheme: str) -> None:
    part = parting(chapter_head(), chapter_embeddings(), scheme)
    assert part.weight_gap > 0.01 and part.out_gap > 0.01
    assert part.cost == chapter_head().attend(chapter_embeddings()).cost


def test_sinusoidal_adds_one_number_per_slot_and_rotary_turns_queries_and_keys() -> None:
    n, d = chapter_embeddings().shape
    dk = chapter_head().d_k
    none, sines, turns = (parting(chapter_head(), chapter_embeddings(), s) for s in SCHEMES)
    assert (none.added, none.turned, none.waves) == (0, 0, 0)
    assert (sines.added, sines.turned, sines.waves) == (n * d, 0, n * d)
    assert (turns.added, turns.turned, turns.waves) == (0, 2 * 2 * n * dk, n * dk)


def test_the_positions_table_holds_the_table_it_added_and_one_run_per_scheme() -> None:
    table = modes.positions.table()
    assert np.array_equal(table.table, sinusoidal(*chapter_embeddings().shape))
    assert tuple(part.scheme for part in table.partings) == SCHEMES
    assert not table.table.flags.writeable


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (("backwards",), "scheme is one of none, sinusoidal, rotary"),
        (("none", (2, 9)), "tokens 2 and 9 asked of a sequence of 4"),
        (("none", (2, 0)), "at least 1"),
    ],
)
def test_parting_refuses_an_unknown_scheme_or_a_row_that_is_not_there(
    args: tuple[object, ...], problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        parting(chapter_head(), chapter_embeddings(), *args)  # type: ignore[arg-type]
