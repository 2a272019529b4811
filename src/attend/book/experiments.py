"""The two measurements of the chapter: what scaling is for, and how the work grows.

Both are run, not argued. Scaling is measured on random queries and keys at several
widths, with and without it, from the same draws. The cost is read off the head's own
counters, running on the front of the chronicle, real text cut into real tokens.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, partial

import numpy as np
import numpy.typing as npt

from attend.book.chapter import chapter_head
from attend.book.embedding import embed
from attend.core.checks import a_thing, draw_work, sequence_work, whole, whole_numbers, within_work
from attend.core.cost import Cost
from attend.core.head import Head
from attend.core.softmax import stable_softmax
from attend.core.tokenizer import chronicle_ids

__all__ = ["Measurement", "Spread", "chronicle_embeddings", "cost_sweep", "crossover", "scale_experiment"]

CONFIDENT = 0.99  # a draw whose biggest attention weight reaches this has all but picked one key


@dataclass(frozen=True)
class Spread:
    """How peaked the scores came out, over every draw at one width."""

    spread: float  # mean of (largest score − smallest score) in a draw
    biggest: float  # mean of the biggest attention weight in a draw
    confident: int  # draws whose biggest weight is at least CONFIDENT


@dataclass(frozen=True)
class Measurement:
    """One key width, measured divided by √width and not scaled."""

    width: int
    divided: Spread
    undivided: Spread


# --8<-- [start:scale]
# keys a drawn row holds by default: as many as the chapter's tokens
KEYS_A_ROW = 4


def scale_experiment(
    widths: Sequence[int],
    *,
    count: int = 1000,
    seed: int = 82,
    length: int = KEYS_A_ROW,
) -> list[Measurement]:
    """At each width, `count` draws of one query against `length` keys.

    Every width restarts the generator from `seed`, so its numbers
    do not depend on which widths are listed beside it. Divided and
    undivided use the very same draws, so one spread is exactly
    √width times the other.
    """
    count = whole(count, "count", 1)
    seed, length = whole(seed, "seed", 0), whole(length, "length", 1)
    widths = whole_numbers(widths, "widths", 1)
    work = sum(draw_work(count, width, length) for width in widths)
    too_much = "ask for fewer draws or fewer or narrower widths"
    within_work(work, "the experiment", too_much)
    measured = []
    for width in widths:
        rng = np.random.default_rng(seed)
        queries = rng.standard_normal((count, width))
        keys = rng.standard_normal((count, length, width))
        # each query dotted with the keys of its own draw
        raw = np.einsum("cw,ckw->ck", queries, keys)
        divided = _spread(raw / math.sqrt(width))
        measured.append(Measurement(width, divided, _spread(raw)))
    return measured


def _spread(scores: npt.NDArray[np.float64]) -> Spread:
    biggest = stable_softmax(scores).max(axis=-1)
    return Spread(
        spread=float((scores.max(axis=-1) - scores.min(axis=-1)).mean()),
        biggest=float(biggest.mean()),
        confident=int((biggest >= CONFIDENT).sum()),
    )


# --8<-- [end:scale]


def chronicle_embeddings(length: int) -> npt.NDArray[np.float64]:
    """The typed embeddings of the first `length` tokens of the chronicle."""
    ids = chronicle_ids()[: whole(length, "length", 1)]
    if len(ids) < length:
        raise ValueError(f"a row of {length} tokens: the chronicle holds 1 to {len(ids)}")
    return embed(ids)


# --8<-- [start:sweep]
def counted(head: Head, length: int) -> Cost:
    """What the head's counters say one run on the chronicle took."""
    return head.attend(chronicle_embeddings(length)).cost


@cache
def chapter_cost(length: int) -> Cost:
    """`counted` for the chapter's head, kept: the book prints and
    draws the same runs twice."""
    return counted(chapter_head(), length)


def cost_sweep(
    lengths: Sequence[int],
    head: Head | None = None,
) -> list[Cost]:
    """The counted cost at each length, by the chapter's head unless
    another is given."""
    count = chapter_cost if head is None else partial(counted, _head(head))
    lengths = whole_numbers(lengths, "lengths", 1)
    work = sum(map(sequence_work, lengths))
    within_work(work, "the sweep", "ask for shorter or fewer sequences")
    return [count(n) for n in lengths]


def crossover(head: Head | None = None) -> int:
    """The shortest sequence whose counted pairs outgrow its projections."""
    n = 1
    while (cost := cost_sweep([n], head)[0]).quadratic <= cost.project:
        n += 1
    return n


# --8<-- [end:sweep]


def _head(head: object) -> Head:
    if not isinstance(head, Head):
        raise TypeError(f"head is an attend.Head, not {a_thing(head)}")
    return head
