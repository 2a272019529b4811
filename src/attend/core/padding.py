"""The padding mask: sequences of different lengths run as one batch, the filler hidden.

A model runs many sequences at once as one array, and an array's rows all have one length,
so every shorter sequence is filled out to the longest with padding tokens. Those are not
text: a real token's query must give them nothing, or its output would depend on how long
its neighbours in the batch happened to be. The padding mask hides them the way the causal
mask hides later tokens, with a score of -inf, and the two combine by `&` because a key is
seen only where both allow it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from attend.core.arrays import Matrix
from attend.core.checks import a_thing, finite, real_array, whole, whole_numbers

__all__ = ["pad", "padding_mask"]


# --8<-- [start:padding]
def padding_mask(lengths: Sequence[int], n: int) -> npt.NDArray[np.bool_]:
    """(batch, 1, n): True where key j is one of sequence b's own
    tokens, padded on the right, so j < lengths[b]. The middle axis
    of 1 lays it over every query, alone or `&` a causal mask."""
    n = whole(n, "n", 1)
    sizes = np.array(whole_numbers(lengths, "lengths", 1))
    if sizes.max() > n:
        raise ValueError(f"a sequence of {sizes.max()} tokens does not fit in {n} places")
    return (np.arange(n)[None, :] < sizes[:, None])[:, None, :]


def pad(sequences: Sequence[npt.ArrayLike]) -> tuple[Matrix, tuple[int, ...]]:
    """The sequences (each tokens × d) as one (batch, longest, d)
    array, each filled out on the right with rows of zeros, and
    their lengths, which `padding_mask` takes."""
    rows = [_sequence(s, b) for b, s in enumerate(_batch(sequences), start=1)]
    widths = {row.shape[1] for row in rows}
    if len(widths) > 1:
        raise ValueError(f"the sequences' tokens have different widths: {sorted(widths)}")
    lengths = tuple(len(row) for row in rows)
    batch = np.zeros((len(rows), max(lengths), widths.pop()))
    for b, row in enumerate(rows):
        batch[b, : len(row)] = row
    return batch, lengths


# --8<-- [end:padding]


def _batch(sequences: object) -> list[object]:
    """A list or tuple of at least one sequence, or a one-line refusal."""
    if not isinstance(sequences, list | tuple) or not sequences:
        raise TypeError(f"a batch is a list of one or more sequences, not {a_thing(sequences)}")
    return list(sequences)


def _sequence(sequence: object, b: int) -> Matrix:
    """Sequence b as a tokens × d array of finite numbers, or a one-line refusal."""
    where = f"sequence {b}"
    rows = real_array(sequence, where, lambda at: f"number {at + 1} of {where}")
    if rows.ndim != 2 or 0 in rows.shape:
        raise ValueError(f"{where} is tokens × numbers, at least one of each, not an array of {rows.shape}")
    return finite(rows, lambda at: f"number {at + 1} of {where}")
