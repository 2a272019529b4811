"""A table of counts: the strongest simple way to predict the next token without attention.

An n-gram model reads the last few tokens (its window, n − 1 of them) and names whatever most
often came next after the same run of tokens in the training text. It has no weights to train
and no notion of where to look: it sees exactly the window, all of it, and nothing before it.
A run of tokens it never saw in training gets the guess of the run one token shorter, and so
on down to the commonest token of all ("stupid backoff", Brants et al. 2007, with the counts
kept and the scores left out), so the table always guesses, from the longest context it knows.

That is the sceptic's baseline for the learning page: if a table of counts over a fixed window
does as well as the head, the head has shown it can look back, not that it needed attention.
The window is measured at every width up to a sequence's length, so no width is left untried.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from attend.core.checks import whole

if TYPE_CHECKING:
    from attend.core.arrays import Matrix
    from attend.core.training import Corpus

__all__ = ["START", "CountTable", "count_table", "named_by_window"]

START = -1
"""Stands before a sequence's first token, so that a window reaching past the start says so:
the table tells "the first two tokens" from "two tokens somewhere in the middle"."""


# --8<-- [start:table]
@dataclass(frozen=True)
class CountTable:
    """For every run of at most `longest` tokens seen in training, the token that most often
    came next (the smaller id where two came next equally often)."""

    longest: int
    commonest: Mapping[tuple[int, ...], int]

    def guess(self, before: Sequence[int], window: int) -> int:
        """The next token after `before`, read through a window of its last `window` tokens:
        what most often followed the longest end of that window the table has seen."""
        seen = _padded(before, window)
        return self.commonest[seen[window - self.known(before, window) :]]

    def known(self, before: Sequence[int], window: int) -> int:
        """How many of the last `window` tokens of `before` the table guesses from: the length
        of the longest end of the window it saw in training."""
        whole(window, "window", 0)
        if window > self.longest:
            raise ValueError(f"the table counted runs of at most {self.longest} tokens, not {window}")
        seen = _padded(before, window)
        return next(width for width in range(window, -1, -1) if seen[window - width :] in self.commonest)


def count_table(sequences: Iterable[Sequence[int]], longest: int) -> CountTable:
    """Count, in every sequence, which token came after each run of up to `longest` tokens
    before it (the empty run among them: the commonest token of all)."""
    whole(longest, "longest", 0)
    followers: defaultdict[tuple[int, ...], Counter[int]] = defaultdict(Counter)
    for sequence in sequences:
        for at in range(1, len(sequence)):
            seen = _padded(sequence[:at], longest)
            for width in range(longest + 1):
                followers[seen[longest - width :]][sequence[at]] += 1
    if not followers:
        raise ValueError("a table of counts needs a sequence of at least two tokens to count")
    commonest = {
        context: min(counts, key=lambda token: (-counts[token], token))
        for context, counts in followers.items()
    }
    return CountTable(longest, commonest)


# --8<-- [end:table]


def _padded(before: Sequence[int], window: int) -> tuple[int, ...]:
    """The last `window` tokens of `before`, START standing in for any before its beginning."""
    last = tuple(int(token) for token in before[max(0, len(before) - window) :])
    return (START,) * (window - len(last)) + last


def named_by_window(data: Corpus, answer: Matrix) -> tuple[int, ...]:
    """Count on `data`'s training lines, then for every window from 0 tokens to its longest
    line: on how many held-out lines the table names every token `answer` marks (1 where the
    next token is part of it), each guess read from the true tokens before it."""
    lines = [data.ids[n, : data.length[n]].tolist() for n in range(len(data.ids))]
    longest = int(data.length.max()) - 1
    table = count_table([lines[n] for n in data.train], longest)
    asked = [(lines[n], np.flatnonzero(answer[n]) + 1) for n in data.held]  # t − 1 predicts t
    return tuple(
        sum(all(table.guess(line[:at], window) == line[at] for at in marked) for line, marked in asked)
        for window in range(longest + 1)
    )
