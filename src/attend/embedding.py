"""The typed table: four numbers for every token, written by a rule instead of learned.

A token id is only a name for a run of bytes; token 383 is not seven times token 55 in any
useful sense. So each token gets a short row of numbers, and the id's only job is to say
which row. In a trained model that table is learned with everything else. Here it is typed,
by the rule below, and the book says so: the arithmetic downstream does not care where the
numbers came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

import numpy as np
import numpy.typing as npt

from attend.tokenizer import load_tokenizer

__all__ = ["SLOTS", "embed", "typed_row", "typed_table"]

SLOTS = ("a bare digit", "carries a year", "carries a count", "how much it says")


# --8<-- [start:rule]
def typed_row(piece: bytes) -> tuple[float, float, float, float]:
    """The four typed numbers for the bytes one token stands for."""
    bare_digit = len(piece) == 1 and piece.isdigit()
    carries_year = re.search(rb"year \d", piece) is not None
    carries_count = re.search(rb"\d [a-z]", piece) is not None
    words = len(re.findall(rb"[A-Za-z]+", piece))
    return (float(bare_digit), float(carries_year), float(carries_count), min(1.0, words / 2))


# --8<-- [end:rule]


@cache
def typed_table() -> npt.NDArray[np.float64]:
    """One row of four for each of the tokenizer's 512 tokens, read-only."""
    tokenizer = load_tokenizer()
    table = np.array([typed_row(tokenizer.piece(i)) for i in range(len(tokenizer))])
    table.flags.writeable = False
    return table


def embed(ids: Iterable[int]) -> npt.NDArray[np.float64]:
    """The typed rows of a run of token ids, ready for a head to read."""
    return typed_table()[list(ids)]
