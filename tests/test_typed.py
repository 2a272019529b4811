"""The typed table: a short rule, applied to every token, that gives the chapter's four rows."""

from __future__ import annotations

import numpy as np
import pytest

from attend import Layer, chapter_tokens, load_tokenizer, typed_row, typed_table


@pytest.mark.parametrize(
    ("piece", "row"),
    [
        (b"year 4", (0.0, 1.0, 0.0, 0.5)),
        (b"0", (1.0, 0.0, 0.0, 0.0)),
        (b"7", (1.0, 0.0, 0.0, 0.0)),
        (b": 235 hobbs standing in The Hollow, 17", (0.0, 0.0, 1.0, 1.0)),
        (b"17", (0.0, 0.0, 0.0, 0.0)),
        (b" gone", (0.0, 0.0, 0.0, 0.5)),
    ],
)
def test_the_rule_types_a_piece_by_what_it_carries(piece: bytes, row: tuple[float, ...]) -> None:
    assert typed_row(piece) == row


def test_every_token_of_the_table_has_four_numbers_between_zero_and_one() -> None:
    table = typed_table()
    assert table.shape == (len(load_tokenizer()), 4) == (512, 4)
    assert ((table >= 0) & (table <= 1)).all()
    assert not table.flags.writeable


def test_the_chapter_tokens_are_year_4_then_0_then_the_long_piece_then_7() -> None:
    pieces = [load_tokenizer().piece(t) for t in chapter_tokens()]
    assert pieces == [b"year 4", b"0", b": 235 hobbs standing in The Hollow, 17", b"7"]
    assert chapter_tokens()[1] == 48 and chapter_tokens()[3] == 55
    assert np.array_equal(typed_table()[48], typed_table()[55])


def test_a_layer_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="wants 8 weights and holds 7"):
        Layer(4, (0.0,) * 7, (0.0, 0.0))
    with pytest.raises(ValueError, match="reads 4 inputs and got 3"):
        Layer(4, (0.0,) * 4, (0.0,)).forward([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="at least one input"):
        Layer(0, (), ())


def test_a_layer_adds_its_bias_to_the_weighted_sum() -> None:
    assert Layer(2, (1.0, 2.0, 0.5, 0.0), (10.0, -1.0)).forward([3.0, 4.0]) == [21.0, 0.5]
