"""`attend scores`: the attention weights of the chapter's run, what each row comes to, the head's output."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attend.book.chapter import Token, chapter_embeddings, chapter_head, chapter_pieces
from attend.book.flags import NO_SCALE
from attend.book.layout import MIXED, block, divide_line, named, tokens_named
from attend.book.modes import Mode
from attend.core.head import Workings

__all__ = ["MODE", "RowWeights", "Scores", "table", "text"]


@dataclass(frozen=True)
class RowWeights:
    """What one token's attention weights come to: their total, and the tokens given the largest
    (more than one where weights tie, as they do for tokens with the same key)."""

    total: float
    top: tuple[int, ...]  # token numbers, counted from 1, in order
    largest: float


@dataclass(frozen=True)
class Scores:
    """The chapter's run, and what each token's attention weights come to."""

    tokens: tuple[Token, ...]
    run: Workings
    rows: tuple[RowWeights, ...]  # one per token, in order


def table(*, divide: bool = True) -> Scores:
    """One run of the chapter's head, and what each token's attention weights come to."""
    run = chapter_head(divide=divide).attend(chapter_embeddings())
    rows = tuple(
        RowWeights(float(w.sum()), tuple(int(j) + 1 for j in np.flatnonzero(w == w.max())), float(w.max()))
        for w in run.weights
    )
    return Scores(chapter_pieces(), run, rows)


def text(scores: Scores) -> str:
    run, cost = scores.run, scores.run.cost
    lines = [
        "attend: the attention weights, each row adding to one, and the head's output",
        "",
        divide_line(run),
        "",
        *block(scores.tokens, run.weights, "the attention weights, a row per query"),
        "",
        "  what each row comes to",
    ]
    for i, row in enumerate(scores.rows, start=1):
        lines.append(
            f"    row {i}  sums to {row.total:.4f}   its largest weight, "
            f"{row.largest:.4f}, goes to {tokens_named(row.top)}"
        )
    lines += [
        "",
        *block(scores.tokens, run.out, "the head's output: the values summed in each row's weights", MIXED),
        "",
        "  token 2, before and after",
        named("arrives as", run.x[1]),
        named("leaves as", run.out[1]),
        "",
        "  the multiply-adds it took",
        f"    {'queries, keys and values':<34}{cost.project:9d}",
        f"    {'each query against each key':<34}{cost.score:9d}",
        f"    {'mixing the values':<34}{cost.mix:9d}",
        f"    {'altogether':<34}{cost.total:9d}",
    ]
    return "\n".join(lines)


MODE = Mode("scores", "the attention weights and the head's output", 50, table, text, flags=(NO_SCALE,))
