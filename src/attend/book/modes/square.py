"""`attend square`: every query against every key, before and after scaling by 1/√d_k."""

from __future__ import annotations

from dataclasses import dataclass

from attend.book.chapter import Token, chapter_embeddings, chapter_head, chapter_pieces
from attend.book.flags import NO_SCALE
from attend.book.layout import block, divide_line
from attend.book.modes import Mode
from attend.core.checks import amount
from attend.core.head import Workings

__all__ = ["MODE", "Square", "table", "text"]


@dataclass(frozen=True)
class Square:
    """The chapter's run, for its scores before and after scaling."""

    tokens: tuple[Token, ...]
    run: Workings


def table(*, divide: bool = True) -> Square:
    """One run of the chapter's head, scaled or not."""
    return Square(chapter_pieces(), chapter_head(divide=divide).attend(chapter_embeddings()))


def text(square: Square) -> str:
    run = square.run
    n, d_k = run.raw.shape[0], run.k.shape[1]
    return "\n".join(
        [
            f"attend: each query against each key, {amount(n, 'token')}, keys {d_k} wide",
            "",
            divide_line(run),
            "",
            *block(square.tokens, run.raw, "each query dotted with each key"),
            "",
            *block(square.tokens, run.scaled, f"the same scores divided by {run.div:.4f}"),
        ]
    )


MODE = Mode("square", "every query against every key", 40, table, text, flags=(NO_SCALE,))
