"""The year a line repeats: a task where what names the next token stands a whole line back.

On the chronicle's lines the animal that decides the place always stands two tokens before
" in", so a table of counts over the last few tokens (`attend.core.ngram`) names the place as well
as the head does. This task moves the clue out of every window. A year's lines follow one
another and each begins with its year, so read a line and the start of the next line of the
same year, up to its colon:

    year 40: 235 hobbs standing in The Hollow, 1773 born and 1567 gone
    year 40:

At the second "year", the year's first digit is the one the line before began with, a whole
line back; how far back depends on how many digits that line's four numbers have. A window
long enough to reach it holds the whole line before, numbers and all, a run of tokens no
other line repeats, so a table of counts has never seen it and falls back to the last few
tokens, which do not say the year. The head can attend to the line's start wherever it is.

The answer measured is the year's first digit: for years 10 to 80 its tens, for years 1 to 9
the whole year. The second digit asks for a second look, at another token, from another query.

A pair is held out when its first line is (every fifth line of the chronicle, as in
`attend.core.training`), so no held-out pair was trained on, by the model or by the table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from attend.core.arrays import Matrix
from attend.core.chronicle import entries
from attend.core.learn import Params, forward_pass
from attend.core.ngram import named_by_window
from attend.core.training import (
    HELD_OUT,
    Corpus,
    Run,
    Settings,
    answer_correct,
    batch,
    corpus,
    train,
    word_tokenizer,
)

__all__ = [
    "YEAR_WIDTH",
    "Pairs",
    "Windows",
    "YearTable",
    "pairs",
    "weights_to_year",
    "windows",
    "year_run",
    "year_runs",
    "year_settings",
]

YEAR_WIDTH = 40
"""d_model of the year's model. At the learning page's 16 the head finds the year's first digit
from some seeds and not from others; at 40 it names it on nearly every held-out pair from every
seed `scripts/year_seeds.py` tries."""


@dataclass(frozen=True)
class Pairs:
    """The chronicle two lines at a time, as a `Corpus` the trainer reads, with the answer."""

    text: Corpus  # its `place` marks the first line's place
    year: Matrix  # (pairs, longest − 1): 1 where the next token is the second line's first digit
    digits: Matrix  # the same, at every digit of the second line's year
    back: tuple[int, ...]  # for each pair, how many tokens before the second "year" its digit stands
    first: tuple[int, ...]  # for each pair, its first line's number in the chronicle


@cache
def pairs() -> Pairs:
    """Each line of the chronicle with the start of the next line of its year, to the colon."""
    lines, year_of = corpus(), [entry.split(":")[0] for entry in entries()]
    newline = len(lines.names)  # the line break, a token the single lines never needed
    names = (*lines.names, word_tokenizer().piece(word_tokenizer().encode("\n")[0]).decode())
    colon = names.index(":")
    first = [n for n in range(len(year_of) - 1) if year_of[n] == year_of[n + 1]]
    sequences = []
    for n in first:
        line, following = lines.ids[n, : lines.length[n]], lines.ids[n + 1]
        start = following[: list(following).index(colon) + 1]  # "year", its digits, ":"
        sequences.append([*line, newline, *start])
    longest = max(map(len, sequences))
    ids = np.zeros((len(sequences), longest), dtype=np.intp)
    place, year, digits = (np.zeros((len(sequences), longest - 1)) for _ in range(3))
    back = []
    for row, (n, sequence) in enumerate(zip(first, sequences, strict=True)):
        ids[row, : len(sequence)] = sequence
        place[row, : lines.place.shape[1]] = lines.place[n]
        second = lines.length[n] + 1  # where the second "year" stands
        year[row, second] = 1.0  # position t predicts token t + 1: the digit after "year"
        digits[row, second : len(sequence) - 2] = 1.0  # every digit, up to the colon
        back.append(second - 1)  # the first line's digit stands at 1
    numbers, held = np.arange(len(first)), np.array(first) % HELD_OUT == HELD_OUT - 1
    length = np.array(list(map(len, sequences)), dtype=np.intp)
    text = Corpus(names, ids, length, place, numbers[~held], numbers[held])
    return Pairs(text, year, digits, tuple(back), tuple(first))


def year_settings(settings: Settings) -> Settings:
    """`settings` (a seed, its steps) at the year's width, `YEAR_WIDTH`."""
    return replace(settings, d_model=YEAR_WIDTH)


@dataclass(frozen=True)
class YearTable:
    """The head and the baseline trained alike on the pairs, and how many held-out pairs each
    names the year's first digit of."""

    head: Run
    baseline: Run
    head_years: int
    baseline_years: int
    held: int


@cache
def year_run(settings: Settings, *, attends: bool = True) -> Run:
    """The head (or, without it, the baseline) trained on the pairs with `settings`."""
    return train(settings, attends=attends, data=pairs().text)


@cache
def year_runs(settings: Settings) -> YearTable:
    """The head and the baseline trained alike on the pairs, and the year measured on each."""
    data = pairs()
    head, baseline = year_run(settings), year_run(settings, attends=False)
    head_years, baseline_years = (
        int(answer_correct(run.params, data.text.held, data.year, data.text).sum())
        for run in (head, baseline)
    )
    return YearTable(head, baseline, head_years, baseline_years, len(data.text.held))


@dataclass(frozen=True)
class Windows:
    """A table of counts (`attend.core.ngram`) at every window from no tokens to the longest sequence."""

    place: tuple[int, ...]  # held-out lines whose place it names, by window
    year: tuple[int, ...]  # held-out pairs whose year's first digit it names, by window


@cache
def windows() -> Windows:
    """The table of counts on both tasks, each counted on its own training lines."""
    lines, two = corpus(), pairs()
    return Windows(named_by_window(lines, lines.place), named_by_window(two.text, two.year))


def weights_to_year(params: Params, row: int) -> tuple[list[str], Matrix]:
    """The tokens of pair `row` up to its second "year", and the attention weights that token
    gives each of them: where the head looks for the year's first digit."""
    data = pairs()
    ids, targets, weight = batch(np.array([row]), data.text)
    weights = forward_pass(params, ids, targets, weight).a
    if weights is None:
        raise ValueError("the baseline has no head, so no attention weights")
    at = int(np.flatnonzero(data.year[row])[0])  # the second "year"
    names = [data.text.names[i] for i in ids[0, : at + 1]]
    return names, weights[0, at, : at + 1]
