"""The year a line repeats: the pairs read back as the chronicle's own text, the answer is the
first line's digit a whole line back, no window that reaches it was ever seen in training, and
the head names it where neither a table of counts at any window nor the baseline does."""

from __future__ import annotations

import numpy as np

from attend.core.chronicle import entries
from attend.core.ngram import count_table, named_by_window
from attend.core.training import Settings, corpus, train
from attend.core.years import YEAR_WIDTH, pairs, year_runs


def test_each_pair_is_a_line_and_the_next_line_of_its_year_up_to_the_colon() -> None:
    data, lines = pairs(), entries()
    assert len(data.first) == len(lines) - len({line.split(":")[0] for line in lines})
    for row, n in enumerate(data.first):
        shown = "".join(data.text.names[i] for i in data.text.ids[row, : data.text.length[row]])
        assert shown == lines[n] + "\n" + lines[n + 1].split(":")[0] + ":"
        assert lines[n].split(":")[0] == lines[n + 1].split(":")[0]


def test_the_answer_is_the_digit_after_the_second_year_and_the_first_line_began_with_it() -> None:
    data = pairs()
    names = data.text.names
    for row in range(len(data.text.ids)):
        ids = data.text.ids[row]
        (at,) = np.flatnonzero(data.year[row]) + 1  # position t predicts token t + 1
        assert names[ids[at - 1]] == "year" and ids[at] == ids[1]
        assert at - 1 - data.back[row] == 1  # the first line's digit, `back` tokens before "year"
        digits = np.flatnonzero(data.digits[row]) + 1
        assert [names[i] for i in ids[digits]] == [names[i] for i in ids[1 : 1 + len(digits)]]
        assert names[ids[digits[-1] + 1]] == ":"


def test_how_far_back_the_digit_stands_varies_with_the_line_before() -> None:
    back = set(pairs().back)
    assert len(back) > 1 and min(back) > 10  # at more than one distance, and never close


def test_a_pair_is_held_out_exactly_when_its_first_line_is() -> None:
    data, lines = pairs(), corpus()
    held = {data.first[row] for row in data.text.held}
    assert held == set(lines.held) & set(data.first)
    assert not set(data.text.train) & set(data.text.held)


def test_the_first_lines_place_is_marked_as_on_the_line_alone() -> None:
    data, lines = pairs(), corpus()
    for row, n in enumerate(data.first):
        width = lines.place.shape[1]
        assert np.array_equal(data.text.place[row, :width], lines.place[n])


def test_no_window_wide_enough_to_hold_the_first_lines_digit_was_seen_in_training() -> None:
    data = pairs()
    text = data.text
    sequences = [text.ids[n, : text.length[n]].tolist() for n in range(len(text.ids))]
    table = count_table([sequences[n] for n in text.train], int(text.length.max()) - 1)
    for row in text.held:
        at = int(np.flatnonzero(data.year[row])[0])  # the second "year"
        reach = data.back[row] + 1  # from the digit to "year", both in the window
        assert table.known(sequences[row][: at + 1], reach) < reach


def test_the_head_names_the_year_more_often_than_every_window_and_the_baseline() -> None:
    data = pairs()
    table = year_runs(Settings(d_model=YEAR_WIDTH))
    best_window = max(named_by_window(data.text, data.year))
    assert table.held == len(data.text.held)
    assert table.head_years > 2 * max(best_window, table.baseline_years)


def test_a_run_on_the_pairs_reads_their_vocabulary_and_holds_out_their_held_pairs() -> None:
    data = pairs().text
    run = train(Settings(steps=2, every=1), data=data)
    assert run.params["E"].shape[0] == len(data.names) == len(corpus().names) + 1
    assert run.held_lines == len(data.held)
