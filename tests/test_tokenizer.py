"""The tokenizer: the table of 512, the chapter's seven tokens, and round trips."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attend.book.chapter import CHAPTER_ENTRY
from attend.core.chronicle import entries
from attend.core.tokenizer import Tokenizer, chronicle_ids, load_tokenizer


def test_the_shipped_table_has_256_bytes_and_256_merges() -> None:
    table = load_tokenizer()
    assert len(table) == 512
    assert len(table.merges) == 256
    assert [table.piece(b) for b in range(256)] == [bytes([b]) for b in range(256)]


def test_the_chapter_entry_is_seven_tokens_and_decodes_to_its_66_bytes() -> None:
    table = load_tokenizer()
    ids = table.encode(CHAPTER_ENTRY)
    assert len(CHAPTER_ENTRY.encode()) == 66
    assert len(ids) == 7
    assert table.decode(ids) == CHAPTER_ENTRY
    assert b"".join(table.piece(i) for i in ids) == CHAPTER_ENTRY.encode()


def test_the_chapter_entrys_first_four_tokens_are_a_year_a_digit_a_phrase_and_a_digit() -> None:
    table = load_tokenizer()
    first = table.encode(CHAPTER_ENTRY)[:4]
    pieces = [table.piece(i) for i in first]
    assert pieces == [b"year 4", b"0", b": 235 hobbs standing in The Hollow, 17", b"7"]
    assert [len(p) for p in pieces] == [6, 1, 38, 1]
    assert first[1] == 48 and first[3] == 55  # lone bytes keep their byte value


def test_retraining_on_the_chronicle_gives_the_shipped_table_byte_for_byte() -> None:
    from importlib.resources import files

    shipped = (files("attend.core") / "data" / "merges.txt").read_text("utf-8")
    assert Tokenizer.train(entries()).dumps() == shipped


def test_the_table_survives_dumps_and_loads() -> None:
    table = load_tokenizer()
    assert Tokenizer.loads(table.dumps()) == table


def test_no_merge_crosses_the_end_of_an_entry() -> None:
    table = load_tokenizer()
    assert not any(b"\n" in table.piece(i) for i in range(256, len(table)))
    # Encoding the whole chronicle is the same as encoding each entry alone.
    newline = table.encode("\n")
    glued: list[int] = []
    for entry in entries():
        glued += table.encode(entry) + newline
    assert list(chronicle_ids()) == glued


def test_training_never_merges_across_entries_even_when_the_join_would_be_common() -> None:
    # "ab" only ever appears across the end of one entry and the start of the next.
    table = Tokenizer.train(["xa", "bx"] * 50, merges=3)
    assert b"ab" not in {table.piece(i) for i in range(256, len(table))}


def test_ties_go_to_the_smallest_pair() -> None:
    table = Tokenizer.train(["ba", "ab"], merges=1)
    assert table.merges == ((ord("a"), ord("b")),)


def test_the_chronicle_is_at_least_4096_tokens_so_every_cost_row_is_real_text() -> None:
    assert len(chronicle_ids()) >= 4096


@given(st.text())
def test_any_utf8_text_round_trips(text: str) -> None:
    table = load_tokenizer()
    assert table.decode(table.encode(text)) == text


@given(st.text(alphabet=st.characters(codec="utf-8"), min_size=1))
def test_text_never_seen_in_training_still_round_trips_through_lone_bytes(text: str) -> None:
    table = load_tokenizer()
    ids = table.encode(text + "\n" + text)
    assert all(0 <= i < 512 for i in ids)
    assert table.decode(ids) == text + "\n" + text


@pytest.mark.parametrize("bad", [512, -1, 10_000])
def test_decoding_an_id_outside_the_table_names_the_id(bad: int) -> None:
    with pytest.raises(ValueError, match=rf"token {bad} ") as caught:
        load_tokenizer().decode([104, bad])
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "encode reads text, a str, not None"),
        (b"abc", "not bytes.*decode the bytes"),
        (42, "encode reads text, a str, not the single number"),
    ],
)
def test_encoding_anything_but_text_is_a_type_error(text: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        load_tokenizer().encode(text)  # type: ignore[arg-type]


def test_encoding_a_lone_surrogate_names_it() -> None:
    with pytest.raises(ValueError, match=r"lone surrogate.*character 2"):
        load_tokenizer().encode("a\ud800")


@pytest.mark.parametrize(
    ("ids", "error"), [(None, TypeError), ("abc", TypeError), ([1.5], TypeError), ([False], TypeError)]
)
def test_decoding_what_is_not_a_run_of_ids_is_a_type_error(ids: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="token id"):
        load_tokenizer().decode(ids)  # type: ignore[arg-type]


@pytest.mark.parametrize("merges", [-1, 257])
def test_training_refuses_a_merge_count_outside_0_to_256(merges: int) -> None:
    with pytest.raises(ValueError, match="merges"):
        Tokenizer.train(["year 1"], merges=merges)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Tokenizer.train("year 1"), "train reads a list of entries, not str"),
        (lambda: Tokenizer.train([b"year 1"]), "train reads text, a str, not bytes"),  # type: ignore[list-item]  # the wrong type on purpose
        (lambda: Tokenizer.train(["year 1"], merges=2.0), "merges must be a whole number"),  # type: ignore[arg-type]  # the wrong type on purpose
        (lambda: Tokenizer.loads(None), "loads reads the text of merges.txt, not None"),  # type: ignore[arg-type]  # the wrong type on purpose
        (lambda: Tokenizer(((1, 2, 3),)), "merge 256 is a pair of ids"),  # type: ignore[arg-type]  # the wrong type on purpose
        (lambda: Tokenizer((("a", 2),)), "merge 256 must be a whole number"),  # type: ignore[arg-type]  # the wrong type on purpose
    ],
)
def test_building_a_table_from_the_wrong_kind_of_thing_is_a_type_error(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        call()


def test_training_refuses_no_entries() -> None:
    with pytest.raises(ValueError, match="no entries"):
        Tokenizer.train([])


def test_a_table_of_no_merges_is_just_the_bytes() -> None:
    table = Tokenizer.train(["year 1"], merges=0)
    assert len(table) == 256
    assert table.encode("year") == list(b"year")


def test_loads_refuses_a_merge_that_uses_an_id_not_yet_made() -> None:
    with pytest.raises(ValueError, match="256 = 300 \\+ 1"):
        Tokenizer.loads("256 = 300 + 1\n")


def test_loads_refuses_a_line_that_is_not_a_merge() -> None:
    with pytest.raises(ValueError, match="line 1"):
        Tokenizer.loads("not a merge\n")


def test_training_stops_early_when_every_entry_is_one_token() -> None:
    table = Tokenizer.train(["ab", "ab"], merges=5)
    assert table.merges == ((ord("a"), ord("b")),)
