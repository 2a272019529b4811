"""The head's refusals, its record, and the properties that hold for any head and any row."""

from __future__ import annotations

import warnings
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attend import Head, Workings, chapter_embeddings, chapter_head, softmax


def test_the_chapters_sequence_is_the_typed_embeddings_of_its_four_tokens() -> None:
    assert chapter_embeddings().tolist() == [[0, 1, 0, 0.5], [1, 0, 0, 0], [0, 0, 1, 1], [1, 0, 0, 0]]


def test_the_square_is_not_symmetric(run: Workings) -> None:
    assert run.raw[1, 0] != run.raw[0, 1]


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_a_weight_that_is_not_finite_is_refused_by_its_place(bad: float) -> None:
    with pytest.raises(ValueError, match=r"Wk weight 2\b.*not a finite number"):
        Head(2, 2, [1, 0, 0, 1], [1, bad, 0, 1], [1, 0, 0, 1])


def test_a_weight_too_large_for_a_float_is_refused_not_overflowed() -> None:
    with pytest.raises(ValueError, match=r"Wq weight 1\b.*too large"):
        Head(4, 4, [10**400] * 16, [0] * 16, [0] * 16)


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ([1, 0, 0, 1j], r"Wq weight 4\b.*complex"),
        (np.array([1, 0, 0, 1j]), "Wq holds complex numbers"),
        ([1, 0, 0, "1"], r"Wq weight 4\b.*str"),
        ([1, 0, 0, True], r"Wq weight 4\b.*bool"),
        (np.array([True, False, False, True]), "Wq holds true/false values"),
        ([1, 0, 0, Decimal(1)], r"Wq weight 4\b.*Decimal"),
        (np.array(["2026-01-01"] * 4, dtype="datetime64[D]"), "Wq holds dates"),
        (np.ma.masked_array([1.0, 0, 0, 1], mask=[False, True, False, False]), "Wq is a masked array"),
        ("1001", r"Wq is a run of numbers, not str"),
        (None, "Wq is a run of numbers, not None"),
    ],
)
def test_a_weight_of_the_wrong_kind_is_refused_as_a_type_error(weights: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        Head(2, 2, weights, [1, 0, 0, 1], [1, 0, 0, 1])  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_token_that_is_not_finite_is_refused_by_its_place(bad: float) -> None:
    with pytest.raises(ValueError, match=r"token 3 of 4, number 2\b.*not a finite"):
        chapter_head().attend([(0, 1, 0, 0.5), (1, 0, 0, 0), (0, bad, 1, 1), (1, 0, 0, 0)])
    with pytest.raises(ValueError, match=r"token 3 of 4, number 2\b.*not a finite"):
        chapter_head().attend(np.array([(0, 1, 0, 0.5), (1, 0, 0, 0), (0, bad, 1, 1), (1, 0, 0, 0)]))


def test_an_empty_row_is_refused() -> None:
    with pytest.raises(ValueError, match="no tokens"):
        chapter_head().attend([])
    with pytest.raises(ValueError, match="no tokens"):
        chapter_head().attend(np.empty((0, 4)))


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ([("a", "b", "c", "d")], r"token 1 of 1, number 1\b.*str"),
        ([5, 6], r"token 1 of 2 is a run of numbers, not the single number 5"),
        (7, r"sequence x .*not the single number 7"),
        ("abcd", r"sequence x .*not str"),
        (None, r"sequence x .*not None"),
        (np.zeros(4), r"sequence x .*not a 1-d array"),
        (np.zeros((1, 4), dtype=complex), "sequence x holds complex numbers"),
        ([[1, 0, 0, 1 + 2j]], r"token 1 of 1, number 4\b.*complex"),
    ],
)
def test_a_row_of_the_wrong_kind_is_refused_as_a_type_error(row: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        chapter_head().attend(row)  # type: ignore[arg-type]


def test_a_token_of_the_wrong_width_in_an_array_is_refused() -> None:
    with pytest.raises(ValueError, match=r"arrives with 3 numbers\b.*d_model is 4"):
        chapter_head().attend(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"token 1 of 1 arrives with 1 number\b.*d_model is 4"):
        chapter_head().attend([[0.0]])


@pytest.mark.parametrize(
    ("size", "error"), [(0, ValueError), (-1, ValueError), (2.0, TypeError), (True, TypeError)]
)
def test_a_head_of_no_width_is_refused(size: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="d_model must be"):
        Head(size, 1, [], [], [])  # type: ignore[arg-type]


def test_a_numpy_width_times_a_huge_width_is_worked_out_in_python_without_overflow() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=f"Wq holds 0 numbers .* wants {2**63}"):
            Head(np.int64(2), 2**62, [], [], [])  # type: ignore[arg-type]  # the wrong type on purpose


@pytest.mark.parametrize("switch", ["no", 0, 1.0, None])
def test_the_divide_is_a_switch_and_nothing_else(switch: object) -> None:
    with pytest.raises(TypeError, match="divide is a switch"):
        chapter_head(divide=switch)  # type: ignore[arg-type]


def refused_before_any_product(head: Head, x: object) -> str:
    """The one-line refusal of a token too large for the head's weights, raised before a
    product is made: no overflow warning escapes, as one would from numpy's arithmetic."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="float64's range") as caught:
            head.attend(x)  # type: ignore[arg-type]
    return str(caught.value)


def test_a_token_whose_query_would_overflow_is_refused_by_its_place() -> None:
    identity = np.eye(4).ravel()
    head = Head(4, 4, np.full(16, 1e308), identity, identity)
    assert refused_before_any_product(head, [[1e5] * 4]).startswith("token 1 of 1, number 1,")


def test_a_token_whose_value_would_overflow_is_refused_by_its_place() -> None:
    identity = np.eye(4).ravel()
    head = Head(4, 4, identity, identity, np.full(16, 1e308))
    assert refused_before_any_product(head, [[0.0] * 4, [1e5] * 4]).startswith("token 2 of 2,")


def test_a_token_whose_score_would_overflow_is_refused_by_the_head_not_softmax() -> None:
    head = Head(1, 1, [1e200], [1e200], [1.0])
    refused = refused_before_any_product(head, [[0.0], [1.0]])
    assert refused.startswith("token 2 of 2,") and "softmax" not in refused


def test_the_largest_token_the_head_takes_keeps_every_number_it_makes_finite() -> None:
    head = Head(4, 4, np.full(16, 1e150), np.full(16, -1e150), np.full(16, 1e150))
    x = np.full((3, 4), head.largest_input)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run = head.attend(x)
    assert all(np.isfinite(a).all() for a in (run.q, run.k, run.v, run.raw, run.weights, run.out))
    refused_before_any_product(head, np.nextafter(x, np.inf))


def test_an_array_row_reads_the_same_as_a_list_row(run: Workings) -> None:
    again = chapter_head().attend(np.array(run.x))
    assert np.array_equal(again.out, run.out)


def test_the_record_cannot_be_written_to(run: Workings) -> None:
    with pytest.raises(ValueError):
        run.weights[0, 0] = 1.0
    with pytest.raises(ValueError):
        chapter_head().wq[0, 0] = 1.0


def test_a_numpy_bool_is_a_switch_too() -> None:
    assert chapter_head(divide=np.bool_(False)).divide is False  # type: ignore[arg-type]  # the wrong type on purpose


def test_leaving_the_divide_off_divides_by_one() -> None:
    run = chapter_head(divide=False).attend(chapter_embeddings())
    assert run.div == 1.0
    assert np.array_equal(run.scaled, run.raw)
    assert np.array_equal(run.weights, softmax(run.raw))


@st.composite
def heads_and_rows(draw: st.DrawFn) -> tuple[Head, np.ndarray]:
    d, dk, n = draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.integers(1, 8))
    finite = st.floats(-10, 10, allow_nan=False)
    weights = [draw(hnp.arrays(np.float64, d * dk, elements=finite)) for _ in range(3)]
    row = draw(hnp.arrays(np.float64, (n, d), elements=finite))
    wq, wk, wv = weights
    return Head(d, dk, wq, wk, wv), row


@settings(max_examples=60, deadline=None)
@given(heads_and_rows(), st.randoms())
def test_permuting_the_tokens_permutes_the_outputs(case, random) -> None:  # type: ignore[no-untyped-def]
    head, row = case
    order = list(range(len(row)))
    random.shuffle(order)
    plain, shuffled = head.attend(row), head.attend(row[order])
    assert np.allclose(shuffled.out, plain.out[order], atol=1e-9)
    assert np.allclose(shuffled.weights, plain.weights[np.ix_(order, order)], atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(heads_and_rows())
def test_the_counted_cost_equals_the_closed_form(case) -> None:  # type: ignore[no-untyped-def]
    head, row = case
    n, d, dk = len(row), head.d_model, head.d_k
    cost = head.attend(row).cost
    assert cost.length == n
    assert cost.project == 3 * n * d * dk
    assert cost.quadratic == 2 * n * n * dk
    assert cost.total == 3 * n * d * dk + 2 * n * n * dk
