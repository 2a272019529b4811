"""The table of counts, the baseline without attention: what it names, what it falls back to,
where a sequence starts, and what it refuses; and, measured at every window, that it needs
the clue inside its window."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attend.core.ngram import START, count_table, named_by_window
from attend.core.training import Corpus


def test_a_table_names_what_most_often_followed_the_window() -> None:
    table = count_table([[1, 2, 3], [1, 2, 3], [1, 2, 4]], longest=2)
    assert table.guess([1, 2], 2) == 3
    assert table.guess([2], 1) == 3


def test_a_window_never_seen_falls_back_to_its_longest_end_the_table_has_seen() -> None:
    table = count_table([[5, 1, 2, 3], [6, 2, 4]], longest=3)
    before = [7, 1, 2]  # 7 never came before 1 2; "1 2" did, followed by 3
    assert table.known(before, 3) == 2
    assert table.guess(before, 3) == 3


def test_a_window_of_no_tokens_names_the_commonest_token_of_all() -> None:
    table = count_table([[1, 2, 2, 2], [3, 1]], longest=1)
    assert table.known([9], 0) == 0
    assert table.guess([9], 0) == 2


def test_two_tokens_that_came_next_equally_often_go_to_the_smaller() -> None:
    table = count_table([[1, 9], [1, 4]], longest=1)
    assert table.guess([1], 1) == 4


def test_a_window_reaching_past_the_start_tells_the_start_from_the_middle() -> None:
    # after "2" at the very start comes 5; after "2" in the middle comes 6, twice
    table = count_table([[2, 5], [1, 2, 6], [3, 2, 6]], longest=2)
    assert table.guess([2], 2) == 5  # (START, 2): the sequence began with 2
    assert table.guess([2], 1) == 6  # (2,) alone: most often 6
    assert (START, 2) in table.commonest


@given(
    st.lists(st.lists(st.integers(0, 3), min_size=2, max_size=7), min_size=1, max_size=6),
    st.lists(st.integers(0, 3), max_size=6),
    st.integers(0, 4),
)
def test_every_guess_is_the_commonest_follower_of_the_longest_end_seen_counted_afresh(
    sequences: list[list[int]], before: list[int], window: int
) -> None:
    table = count_table(sequences, longest=4)
    padded = [START] * window + before
    runs: dict[
        tuple[int, ...], Counter[int]
    ] = {}  # every run of up to `window` tokens in training, START-padded, with its followers
    for sequence in sequences:
        for at in range(1, len(sequence)):
            seen = [START] * window + sequence[:at]
            for width in range(window + 1):
                runs.setdefault(tuple(seen[len(seen) - width :]), Counter())[sequence[at]] += 1
    width = max(w for w in range(window + 1) if tuple(padded[len(padded) - w :]) in runs)
    counts = runs[tuple(padded[len(padded) - width :])]
    most = max(counts.values())
    assert table.known(before, window) == width
    assert table.guess(before, window) == min(t for t, c in counts.items() if c == most)


@pytest.mark.parametrize(
    ("call", "problem"),
    [
        (lambda: count_table([[1, 2]], longest=2).guess([1], 3), "runs of at most 2 tokens, not 3"),
        (lambda: count_table([[1, 2]], longest=2).guess([1], -1), "window must be at least 0"),
        (lambda: count_table([[1]], longest=2), "a sequence of at least two tokens"),
        (lambda: count_table([[1, 2]], longest=-1), "longest must be at least 0"),
    ],
)
def test_what_a_table_cannot_do_is_refused_in_one_line(call: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem) as refused:
        call()  # type: ignore[operator]
    assert "\n" not in str(refused.value)


def test_a_table_names_an_answer_only_from_a_window_that_holds_its_clue() -> None:
    """Sequences "clue, filler, filler, answer" where the answer copies the clue. With no window
    the table names its commonest token, a filler; with one or two tokens it sees only fillers,
    after which each clue came once, and names the smallest, right on one line in three; three
    tokens hold the clue, in runs seen in training, and name every answer."""
    rows = [[clue, 7, 8, clue] for clue in (1, 2, 3)] * 2  # trained on each, held out the last three
    ids = np.array(rows)
    answer = np.zeros((len(rows), 3))
    answer[:, 2] = 1.0  # position 2 predicts the answer at 3
    numbers = np.arange(len(rows))
    data = Corpus(("",) * 9, ids, np.full(len(rows), 4), answer, numbers[:3], numbers[3:])
    assert named_by_window(data, answer) == (0, 1, 1, 3)
