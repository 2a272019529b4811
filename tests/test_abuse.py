"""Whatever a careless script hands the package, it gets a finite answer or our refusal.

Hypothesis throws every kind of thing at `Head`, `Head.attend`, `softmax`, the tokenizer and
the command's argv: None, bools, huge and non-finite numbers, complex numbers, text, bytes,
Decimals, dates, masked arrays, ragged and nested lists. Each call must either return
numbers that are all finite, or raise a TypeError or ValueError that our code raised (not
numpy's words passed through) in one line. Warnings are errors here, so none may escape.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attend import (
    Head,
    MultiHead,
    attention,
    cache_bytes,
    chapter_head,
    chapter_heads,
    embed,
    generate,
    load_tokenizer,
    rotary,
    sinusoidal,
    softmax,
)
from attend.book.cli import main

LOOSE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

floats = st.floats(allow_nan=True, allow_infinity=True)
extreme = st.sampled_from([0.0, 1.0, -1.0, 1e-308, 1e154, 1e200, 1e308, -1e308, 5e-324])
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**400),
    floats,
    extreme,
    st.complex_numbers(),
    st.text(max_size=4),
    st.binary(max_size=4),
    st.decimals(allow_nan=False),
    st.dates(),
    st.just(np.datetime64("2026-01-01")),
    st.just(np.timedelta64(3, "s")),
    st.fractions(),
    st.just(np.bool_(True)),
    st.just(np.float32(3.5)),
    st.just(np.int64(2)),
)
arrays = st.one_of(
    hnp.arrays(hnp.scalar_dtypes(), hnp.array_shapes(min_dims=0, max_dims=3, max_side=5)),
    hnp.arrays(np.float64, hnp.array_shapes(max_dims=2, max_side=6), elements=floats | extreme),
    hnp.arrays(np.complex128, st.integers(0, 5)),
    st.just(np.array([np.longdouble("1e4000"), 1.0])),
    hnp.arrays(np.float64, st.integers(1, 5)).map(lambda a: np.ma.masked_array(a, mask=a > 0)),
)
anything = st.recursive(
    leaves | arrays,
    lambda inner: st.lists(inner, max_size=5) | st.lists(inner, max_size=5).map(tuple),
    max_leaves=24,
)


@contextlib.contextmanager
def strict() -> Iterator[None]:
    """Every warning raised as an error, so a warning that escapes fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def ours(problem: BaseException) -> bool:
    """Whether the exception was raised by the attend package itself, in one line."""
    tb = problem.__traceback__
    assert tb is not None
    while tb.tb_next is not None:
        tb = tb.tb_next
    where = tb.tb_frame.f_code.co_filename.replace("\\", "/")
    return "/attend/" in where and "\n" not in str(problem) and bool(str(problem))


def finite_or_refused(call: Callable[[], Any]) -> Any:
    """The call's result, or None if it was refused in the package's own words."""
    with strict():
        try:
            return call()
        except (TypeError, ValueError) as problem:
            assert ours(problem), f"{type(problem).__name__} not raised by attend: {problem}"
            return None


def all_finite(*arrays: Any) -> bool:
    return all(np.isfinite(np.asarray(a, dtype=np.float64)).all() for a in arrays)


@LOOSE
@given(anything)
def test_softmax_gives_finite_shares_of_one_or_refuses(scores: object) -> None:
    shares = finite_or_refused(lambda: softmax(scores))  # type: ignore[arg-type]
    if shares is not None:
        assert all_finite(shares)
        assert ((shares >= 0) & (shares <= 1)).all()
        assert np.allclose(shares.sum(axis=-1), 1.0)


@LOOSE
@given(
    st.one_of(st.integers(-2, 4), leaves),
    st.one_of(st.integers(-2, 4), leaves),
    anything,
    st.one_of(anything, hnp.arrays(np.float64, st.integers(1, 16), elements=extreme)),
    st.one_of(st.booleans(), leaves),
)
def test_a_head_is_built_from_finite_real_weights_or_refused(
    d: object, dk: object, wq: object, wk: object, divide: object
) -> None:
    head = finite_or_refused(lambda: Head(d, dk, wq, wk, wk, divide=divide))  # type: ignore[arg-type]
    if head is not None:
        assert all_finite(head.wq, head.wk, head.wv)
        assert isinstance(head.divide, bool)


@st.composite
def heads(draw: st.DrawFn) -> Head:
    d, dk = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    weights = hnp.arrays(np.float64, d * dk, elements=st.floats(-1e200, 1e200) | extreme)
    return Head(d, dk, draw(weights), draw(weights), draw(weights), divide=draw(st.booleans()))


@LOOSE
@given(
    heads(),
    st.one_of(
        anything,
        hnp.arrays(
            np.float64,
            hnp.array_shapes(min_dims=2, max_dims=2, max_side=6),
            elements=st.floats(-1e300, 1e300) | extreme,
        ),
    ),
)
def test_attend_returns_only_finite_numbers_or_refuses(head: Head, x: object) -> None:
    run = finite_or_refused(lambda: head.attend(x))  # type: ignore[arg-type]
    if run is not None:
        assert all_finite(run.x, run.q, run.k, run.v, run.raw, run.scaled, run.weights, run.out)
        assert np.allclose(run.weights.sum(axis=1), 1.0)


@LOOSE
@given(anything)
def test_the_chapter_head_reads_anything_without_a_stray_error(x: object) -> None:
    run = finite_or_refused(lambda: chapter_head().attend(x))  # type: ignore[arg-type]
    if run is not None:
        assert all_finite(run.out)


wide_arrays = st.one_of(
    anything,
    hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
        elements=st.floats(-1e300, 1e300) | extreme,
    ),
)


huge = st.floats(-1e300, 1e300) | extreme


@st.composite
def fitting(draw: st.DrawFn) -> tuple[object, object, object]:
    """Queries, keys and values whose shapes fit, holding huge and tiny numbers."""
    h, n, dk = draw(st.integers(1, 3)), draw(st.integers(1, 4)), draw(st.integers(1, 4))
    q, k, v = (draw(hnp.arrays(np.float64, (h, n, dk), elements=huge)) for _ in range(3))
    return q, k, v


@LOOSE
@given(
    st.one_of(fitting(), st.tuples(wide_arrays, wide_arrays, wide_arrays)), st.one_of(st.booleans(), leaves)
)
def test_attention_returns_shares_of_one_and_finite_values_or_refuses(
    made: tuple[object, object, object], divide: object
) -> None:
    q, k, v = made
    done = finite_or_refused(lambda: attention(q, k, v, divide=divide))  # type: ignore[arg-type]
    if done is not None:
        assert all_finite(done.weights, done.out) and np.allclose(done.weights.sum(axis=-1), 1.0)


@LOOSE
@given(wide_arrays, st.one_of(st.integers(-2, 5), leaves))
def test_rotary_turns_finite_rows_or_refuses(x: object, start: object) -> None:
    turned = finite_or_refused(lambda: rotary(x, start))  # type: ignore[arg-type]
    if turned is not None:
        assert all_finite(turned[0])


@LOOSE
@given(
    st.sampled_from([1, 2, 4]),
    st.one_of(wide_arrays, hnp.arrays(np.float64, st.tuples(st.integers(1, 5), st.just(4)), elements=huge)),
    st.one_of(st.booleans(), leaves),
)
def test_several_heads_and_the_cache_read_anything_without_a_stray_error(
    h: int, x: object, cache: object
) -> None:
    layer = chapter_heads(h)
    run = finite_or_refused(lambda: layer.attend(x))  # type: ignore[arg-type]
    made = finite_or_refused(lambda: generate(layer, x, cache=cache))  # type: ignore[arg-type]
    if run is not None:
        assert all_finite(run.out)
    if made is not None:
        assert all_finite(made.out)


@LOOSE
@given(st.one_of(anything, st.integers(-2, 4), leaves), st.one_of(anything, st.integers(-2, 4), leaves))
def test_a_layer_of_several_heads_is_built_from_finite_real_weights_or_refused(h: object, wq: object) -> None:
    layer = finite_or_refused(lambda: MultiHead(4, h, wq, wq, wq, wq))  # type: ignore[arg-type]
    if layer is not None:
        assert all_finite(layer.wq, layer.wo)


@LOOSE
@given(st.one_of(st.integers(-2, 10**30), leaves), st.one_of(st.integers(-2, 6), leaves))
def test_cache_bytes_are_a_whole_number_or_refused(tokens: object, dtype_bytes: object) -> None:
    size = finite_or_refused(lambda: cache_bytes(2, 2, 64, tokens, dtype_bytes))  # type: ignore[arg-type]
    if size is not None:
        assert isinstance(size, int) and size >= 0


@LOOSE
@given(st.one_of(st.integers(-2, 4), leaves), st.one_of(anything, st.integers(-2, 6)))
def test_sinusoidal_positions_are_finite_or_refused(n: object, d: object) -> None:
    table = finite_or_refused(lambda: sinusoidal(n, d))  # type: ignore[arg-type]
    if table is not None:
        assert all_finite(table)


@LOOSE
@given(st.one_of(anything, st.text()))
def test_encode_gives_ids_in_the_table_or_refuses(text: object) -> None:
    ids = finite_or_refused(lambda: load_tokenizer().encode(text))  # type: ignore[arg-type]
    if ids is not None:
        assert isinstance(text, str) and all(0 <= i < 512 for i in ids)


@LOOSE
@given(st.one_of(anything, st.lists(st.integers(-600, 600), max_size=6)))
def test_decode_and_embed_take_only_ids_in_the_table(ids: object) -> None:
    text = finite_or_refused(lambda: load_tokenizer().decode(ids))  # type: ignore[arg-type]
    rows = finite_or_refused(lambda: embed(ids))  # type: ignore[arg-type]
    assert (text is None) == (rows is None)  # the two agree on what an id is
    if rows is not None:
        assert all_finite(rows) and rows.shape[1:] == (4,)


FLAGS = [
    "--lengths",
    "--widths",
    "--count",
    "--seed",
    "--no-scale",
    "--heads",
    "--tokens",
    "--width",
    "--steps",
    "--help",
    "--version",
    "--len",
    "-h",
]
MODES = [
    "embeddings",
    "weights",
    "project",
    "square",
    "scores",
    "scale",
    "cost",
    "positions",
    "mask",
    "heads",
    "kvcache",
    "learn",
    "fly",
    "",
]
values = st.one_of(
    st.integers(-3, 40).map(str),
    st.lists(st.integers(-1, 40).map(str), min_size=1, max_size=4).map(",".join),
    st.text(max_size=6),
    st.sampled_from(["４", "٤", "𝟒", "1_000", "+8", " 8", "8 ", "0x10", "1e3", "9" * 25]),
)
argvs = st.lists(st.one_of(st.sampled_from(MODES + FLAGS), values), max_size=5)


@settings(max_examples=200, deadline=None)
@given(argvs)
def test_any_argv_prints_its_tables_or_one_line_and_a_status(argv: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    with strict(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:
            status = stop.code  # type: ignore[assignment]
    if status == 0:
        assert err.getvalue() == "" and out.getvalue()
    else:
        assert status == 2, (argv, status, err.getvalue())
        assert out.getvalue() == ""
        assert err.getvalue().startswith("attend: ") and err.getvalue().count("\n") == 1


def test_lists_nested_deeper_than_any_row_are_refused_not_recursed_into_forever() -> None:
    endless: list[object] = []
    endless.append(endless)
    deep: object = 1.0
    for _ in range(40):
        deep = [deep]
    for row in (endless, deep):
        with pytest.raises(TypeError, match="nested more than 32 deep"):
            softmax(row)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        "1.5",
        b"1",
        1j,
        Decimal("1.5"),
        Fraction(1, 2),
        date(2026, 1, 1),
        np.datetime64("2026-01-01"),
        np.timedelta64(3),
    ],
)
def test_a_weight_of_every_wrong_kind_is_a_type_error_from_attend(value: object) -> None:
    with pytest.raises(TypeError) as caught:
        Head(1, 1, [value], [1.0], [1.0])  # type: ignore[arg-type]  # the wrong type on purpose
    assert ours(caught.value)
    assert str(caught.value).startswith("Wq weight 1 is ")
