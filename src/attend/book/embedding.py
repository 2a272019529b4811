"""The embedding table: four numbers for every token, set by a rule rather than learned.

A token id names a run of bytes and nothing more: token 422 is no bigger than token 55 in
any sense a head could use. So each token is given four numbers of its own, and its id
only picks which four. A trained model learns that table along with everything else; here a rule
writes it, and the book says as much, because nothing after this step can tell a typed
embedding from a learned one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from attend.core.checks import token_ids
from attend.core.tokenizer import load_tokenizer

__all__ = ["DIMENSIONS", "embed", "embedding_table", "typed_embedding"]

# What each of the four dimensions of an embedding says, in order.
DIMENSIONS = ("a bare digit", "carries a year", "carries a count", "how much it says")


# --8<-- [start:rule]
def typed_embedding(piece: bytes) -> tuple[float, float, float, float]:
    """The embedding the rule types for the bytes one token stands for: four numbers."""
    bare_digit = len(piece) == 1 and piece.isdigit()
    carries_year = re.search(rb"year \d", piece) is not None
    carries_count = re.search(rb"\d [a-z]", piece) is not None
    words = len(re.findall(rb"[A-Za-z]+", piece))
    return (
        float(bare_digit),
        float(carries_year),
        float(carries_count),
        min(1.0, words / 2),
    )


# --8<-- [end:rule]


@cache
def embedding_table() -> npt.NDArray[np.float64]:
    """The typed embedding of each of the tokenizer's 512 tokens, one row per id, read-only."""
    tokenizer = load_tokenizer()
    table = np.array([typed_embedding(tokenizer.piece(i)) for i in range(len(tokenizer))])
    table.flags.writeable = False
    return table


def embed(ids: Sequence[int] | npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.float64]:
    """The embeddings of a run of token ids, one row of four per token: a sequence to read.

    Each id is checked against the table first, because numpy would read -1 as the last
    token and hand back its numbers without a word.
    """
    table = embedding_table()
    return table[token_ids(ids, len(table))]
