"""The chapter's own numbers: the three matrices and the four tokens they are run on.

None of these weights was learned. They were written by hand, each one chosen to pick out
something the typed embeddings say, so that every score in the chapter comes out for a reason
a reader can name; the book points that out wherever the matrices appear.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from attend.book.embedding import embed
from attend.core.head import Head
from attend.core.heads import MultiHead
from attend.core.tokenizer import load_tokenizer

__all__ = [
    "CHAPTER_ENTRY",
    "D_K",
    "D_MODEL",
    "WK",
    "WO",
    "WQ",
    "WV",
    "Token",
    "chapter_embeddings",
    "chapter_head",
    "chapter_heads",
    "chapter_pieces",
    "chapter_tokens",
]

CHAPTER_ENTRY = "year 40: 235 hobbs standing in The Hollow, 1773 born and 1567 gone"
"""The entry of the chronicle the chapter reads, four tokens of it at a time."""

D_MODEL = 4  # d_model: the width of each token's embedding
D_K = 4  # d_k, the query and key width; d_v, the value width, is the same here

# --8<-- [start:weights]
# Stored as torch.nn.Linear stores them: row j holds the d_model weights that
# make output dimension j, read left to right.
WQ = (
    0.0, 0.0, 2.0, 0.0,  # query dimension 1: twice "carries a count"
    3.0, 0.0, 0.0, 0.0,  # query dimension 2: three times "a bare digit"
    0.5, 0.0, 0.0, 0.0,  # query dimension 3: half of "a bare digit"
    0.0, 0.5, 0.0, 0.0,  # query dimension 4: half of "carries a year"
)  # fmt: skip
WK = (
    1.0, 0.0, 0.0, 0.0,
    0.0, 1.0, 0.0, 0.0,
    0.0, 0.0, 1.0, 0.5,
    0.0, 0.0, 0.0, 1.0,
)  # fmt: skip
WV = (
    1.0, 0.0, 0.0, 0.0,
    0.0, 1.0, 0.0, 0.0,
    0.0, 0.0, 1.0, 0.0,
    0.5, 0.0, 0.0, 1.0,
)  # fmt: skip
# --8<-- [end:weights]

# --8<-- [start:wo]
# W_O for the chapter's matrices cut into heads: the identity, so the
# heads' outputs leave side by side exactly as they were made.
WO = tuple(float(i == j) for i in range(D_MODEL) for j in range(D_MODEL))
# --8<-- [end:wo]


def chapter_head(*, divide: bool = True) -> Head:
    """The head the whole chapter runs: four numbers in, four out, the typed matrices."""
    return Head(D_MODEL, D_K, WQ, WK, WV, divide=divide)


def chapter_heads(h: int) -> MultiHead:
    """The chapter's three matrices cut into h heads of 4/h dimensions, in order, and W_O the
    identity: with h = 1 it is the chapter's head, scaling and all."""
    return MultiHead(D_MODEL, h, WQ, WK, WV, WO)


@cache
def chapter_tokens() -> tuple[int, ...]:
    """The first four tokens of the chapter's chronicle entry."""
    return tuple(load_tokenizer().encode(CHAPTER_ENTRY)[:4])


def chapter_embeddings() -> npt.NDArray[np.float64]:
    """The sequence the head reads in the chapter, X: its four tokens' typed embeddings."""
    return embed(chapter_tokens())


@dataclass(frozen=True)
class Token:
    """One token of the chapter's sequence: its id and the bytes it stands for."""

    id: int
    piece: bytes

    @property
    def text(self) -> str:
        """The bytes as text; a piece cut inside a character shows U+FFFD there."""
        return self.piece.decode("utf-8", errors="replace")


def chapter_pieces() -> tuple[Token, ...]:
    """The chapter's four tokens with their bytes, which every table labels its lines by."""
    tokenizer = load_tokenizer()
    return tuple(Token(t, tokenizer.piece(t)) for t in chapter_tokens())
