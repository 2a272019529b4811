"""The two measurements of the chapter: what the divide is for, and how the work grows.

Both are run, not argued. The divide is measured on random queries and keys at several
widths, with and without it, from the same draws. The cost is read off the head's own
counters, running on the front of the chronicle, real text cut into real tokens.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, partial

import numpy as np
import numpy.typing as npt

from attend.chapter import chapter_head
from attend.cost import Cost
from attend.embedding import embed
from attend.head import Head
from attend.softmax import softmax
from attend.tokenizer import chronicle_ids

__all__ = ["ScaleRow", "Spread", "cost_sweep", "crossover", "scale_experiment"]

CONFIDENT = 0.99  # a row whose biggest share reaches this has all but picked one token


@dataclass(frozen=True)
class Spread:
    """How peaked the rows of scores came out, over every row drawn at one width."""

    spread: float  # mean of (largest score − smallest score) in a row
    biggest: float  # mean of the biggest share in a row
    confident: int  # rows whose biggest share is at least CONFIDENT


@dataclass(frozen=True)
class ScaleRow:
    """One key width, measured divided by √width and with the divide left off."""

    width: int
    divided: Spread
    undivided: Spread


# --8<-- [start:scale]
def scale_experiment(
    widths: Iterable[int], count: int = 1000, seed: int = 82, tokens: int = 4
) -> list[ScaleRow]:
    """`count` rows of scores at each width: one random query against `tokens` random keys.

    Each width starts its own generator from `seed`, so a width gives the same numbers
    whichever other widths it is listed with; the divided and undivided columns come from
    the very same draws, which is why one spread is exactly √width times the other.
    """
    rows = []
    for width in widths:
        rng = np.random.default_rng(seed)
        queries = rng.standard_normal((count, width))
        keys = rng.standard_normal((count, tokens, width))
        raw = np.einsum("rw,rtw->rt", queries, keys)  # each query dotted with its row's keys
        rows.append(ScaleRow(width, _spread(raw / math.sqrt(width)), _spread(raw)))
    return rows


def _spread(scores: npt.NDArray[np.float64]) -> Spread:
    biggest = softmax(scores).max(axis=-1)
    return Spread(
        spread=float((scores.max(axis=-1) - scores.min(axis=-1)).mean()),
        biggest=float(biggest.mean()),
        confident=int((biggest >= CONFIDENT).sum()),
    )


# --8<-- [end:scale]


def chronicle_row(tokens: int) -> npt.NDArray[np.float64]:
    """The typed rows of the first `tokens` tokens of the chronicle."""
    ids = chronicle_ids()
    if not 1 <= tokens <= len(ids):
        raise ValueError(f"a row of {tokens} tokens: the chronicle holds 1 to {len(ids)}")
    return embed(ids[:tokens])


# --8<-- [start:sweep]
def counted(head: Head, tokens: int) -> Cost:
    """What the head's own counters say one run over the front of the chronicle took."""
    return head.attend(chronicle_row(tokens)).cost


@cache
def chapter_cost(tokens: int) -> Cost:
    """`counted` for the chapter's head, kept: the book prints and draws the same runs twice."""
    return counted(chapter_head(), tokens)


def cost_sweep(rows: Iterable[int], head: Head | None = None) -> list[Cost]:
    """The counted cost at each row length, for the chapter's head unless told otherwise."""
    count = chapter_cost if head is None else partial(counted, head)
    return [count(n) for n in rows]


def crossover(head: Head | None = None) -> int:
    """The shortest row on which the counted pairs outgrow the counted projections."""
    n = 1
    while (cost := cost_sweep([n], head)[0]).quadratic <= cost.project:
        n += 1
    return n


# --8<-- [end:sweep]
