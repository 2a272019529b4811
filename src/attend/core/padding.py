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
from attend.core.checks import batch_of_sequences, lengths_within

__all__ = ["pad", "padding_mask"]


# --8<-- [start:padding]
def padding_mask(lengths: Sequence[int], n: int) -> npt.NDArray[np.bool_]:
    """(batch, 1, n): True where key j is one of sequence b's own
    tokens, padded on the right, so j < lengths[b]. The middle axis
    of 1 lays it over every query, alone or `&` a causal mask."""
    sizes, n = lengths_within(lengths, n)  # (batch,), each at most n
    return (np.arange(n)[None, :] < sizes[:, None])[:, None, :]


def pad(sequences: Sequence[npt.ArrayLike]) -> tuple[Matrix, tuple[int, ...]]:
    """The sequences (each tokens × d) as one (batch, longest, d)
    array, each filled out on the right with rows of zeros, and
    their lengths, which `padding_mask` takes."""
    checked = batch_of_sequences(sequences)  # each (tokens, d), one d for all
    lengths = tuple(len(s) for s in checked)
    batch = np.zeros((len(checked), max(lengths), checked[0].shape[1]))
    for b, sequence in enumerate(checked):
        batch[b, : len(sequence)] = sequence
    return batch, lengths


# --8<-- [end:padding]
