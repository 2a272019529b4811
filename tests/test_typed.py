"""The typed table: a short rule, applied to every token, that gives the chapter's four rows."""

from __future__ import annotations

import numpy as np
import pytest

from attend import Layer, chapter_tokens, embed, embedding_table, load_tokenizer, typed_embedding


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
    assert typed_embedding(piece) == row


def test_every_token_of_the_table_has_four_numbers_between_zero_and_one() -> None:
    table = embedding_table()
    assert table.shape == (len(load_tokenizer()), 4) == (512, 4)
    assert ((table >= 0) & (table <= 1)).all()
    assert not table.flags.writeable


@pytest.mark.parametrize(
    ("ids", "error", "message"),
    [
        ([-1], ValueError, r"token -1 is not in the table\b.*0..511"),
        ([512], ValueError, "token 512 is not in the table"),
        ([1.0], TypeError, "a token id is a whole number.*1.0"),
        ([True], TypeError, "a token id is a whole number.*bool"),
        ("abc", TypeError, "list of whole numbers, not str"),
        (None, TypeError, "list of whole numbers, not None"),
        (np.array([1.5]), TypeError, "this array holds float64 values"),
    ],
)
def test_embed_refuses_what_is_not_an_id_in_the_table(
    ids: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        embed(ids)  # type: ignore[arg-type]


def test_embed_takes_a_numpy_array_of_ids_like_a_list() -> None:
    assert np.array_equal(embed(np.array(chapter_tokens())), embed(list(chapter_tokens())))


def test_the_chapter_tokens_are_year_4_then_0_then_the_long_piece_then_7() -> None:
    pieces = [load_tokenizer().piece(t) for t in chapter_tokens()]
    assert pieces == [b"year 4", b"0", b": 235 hobbs standing in The Hollow, 17", b"7"]
    assert chapter_tokens()[1] == 48 and chapter_tokens()[3] == 55
    assert np.array_equal(embedding_table()[48], embedding_table()[55])


def test_a_layer_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="wants 8 weights and holds 7"):
        Layer(4, (0.0,) * 7, (0.0, 0.0))
    with pytest.raises(ValueError, match="reads 4 inputs and got 3"):
        Layer(4, (0.0,) * 4, (0.0,)).forward([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="inputs must be at least 1"):
        Layer(0, (), ())


@pytest.mark.parametrize(
    ("weights", "error", "message"),
    [
        ((1.0, "2"), TypeError, r"weight 2\b.*str"),
        ((1.0, True), TypeError, r"weight 2\b.*bool"),
        ((1.0, float("inf")), ValueError, r"weight 2\b.*not a finite number"),
        (None, TypeError, "weights is a run of numbers, not None"),
    ],
)
def test_a_layer_refuses_weights_that_are_not_finite_real_numbers(
    weights: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Layer(2, weights, (0.0,))  # type: ignore[arg-type]


def test_a_layer_refuses_inputs_whose_sum_overflows() -> None:
    with pytest.raises(ValueError, match="neuron 1's weighted sum is beyond the largest"):
        Layer(2, (1e308, 1e308), (0.0,)).forward([10.0, 10.0])


def test_a_layer_adds_its_bias_to_the_weighted_sum() -> None:
    assert Layer(2, (1.0, 2.0, 0.5, 0.0), (10.0, -1.0)).forward([3.0, 4.0]) == [21.0, 0.5]
