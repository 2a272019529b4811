"""The head redone one multiply-add at a time, each counted where it happens.

`attend.Head` lets numpy do its products, so its counters count the products each step
made rather than sitting inside the loop that makes them. This module is the check on that:
the same head written as the chapter wrote it, in plain loops over tokens, dimensions and keys,
with a counter that goes up by one beside every multiplication. It is far too slow for long
rows (a row of 4096 tokens is 134 million steps), so it runs at the chapter's sizes, where
the tests hold the numpy head's counts and numbers equal to these.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attend.core.arrays import Matrix
from attend.core.checks import sequence, sequence_work
from attend.core.cost import Cost
from attend.core.head import Head
from attend.core.softmax import stable_softmax

__all__ = ["Looped", "looped"]


@dataclass(frozen=True)
class Looped:
    """What the looped head produced: each token's mixed values, and the count."""

    out: Matrix
    cost: Cost


# --8<-- [start:looped]
def looped(head: Head, x: npt.ArrayLike) -> Looped:
    """Run `head` over the sequence `x` in plain loops, counting
    each multiply-add."""
    rows = sequence(x, head.d_model, most=head.largest_input, work=sequence_work).tolist()
    done: Counter[str] = Counter()

    def weighted_sum(weights: list[float], numbers: list[float], step: str) -> float:
        total = 0.0
        for weight, number in zip(weights, numbers, strict=True):
            total += weight * number
            done[step] += 1  # one multiply-add, counted as it happens
        return total

    def project(matrix: Matrix) -> list[list[float]]:
        return [[weighted_sum(run, token, "project") for run in matrix.tolist()] for token in rows]

    q, k, v = project(head.wq), project(head.wk), project(head.wv)
    raw = [[weighted_sum(query, key, "score") for key in k] for query in q]
    divide = np.sqrt(head.d_k) if head.divide else 1.0
    weights = stable_softmax(np.array(raw) / divide).tolist()
    # dimension c of every value
    columns = [list(dimension) for dimension in zip(*v, strict=True)]
    out = [[weighted_sum(row, column, "mix") for column in columns] for row in weights]
    cost = Cost(len(rows), done["project"], done["score"], done["mix"])
    return Looped(np.array(out), cost)


# --8<-- [end:looped]
