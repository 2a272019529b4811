"""`attend mask`: the chapter's score matrix under the causal mask."""

from __future__ import annotations

from dataclasses import dataclass

from attend.book.chapter import Token, chapter_embeddings, chapter_head, chapter_pieces
from attend.book.layout import MIXED, block, named
from attend.book.modes import Mode
from attend.core.attention import Attention, attention
from attend.core.causal import causal_mask
from attend.core.checks import amount
from attend.core.head import Workings

__all__ = ["MODE", "MaskTable", "table", "text"]


@dataclass(frozen=True)
class MaskTable:
    """The chapter's square with each query kept from the keys after it."""

    tokens: tuple[Token, ...]
    run: Workings  # the chapter's run, every query seeing every key
    masked: Attention  # its queries, keys and values again, each query kept from later keys


def table() -> MaskTable:
    """The chapter's run, and its queries, keys and values scored again under the causal mask."""
    run = chapter_head().attend(chapter_embeddings())
    n = len(run.x)
    return MaskTable(chapter_pieces(), run, attention(run.q, run.k, run.v, seen=causal_mask(n, n)))


def text(mask: MaskTable) -> str:
    masked, run = mask.masked, mask.run
    lines = [
        "attend: the n x n score matrix under the causal mask",
        "",
        "  each query sees its own key and the keys before it; a hidden score is -inf,",
        "  and e to -inf is an attention weight of exactly 0",
        "",
        *block(mask.tokens, masked.scores, f"the scores divided by {run.div:.4f}, the later keys hidden"),
        "",
        *block(mask.tokens, masked.weights, "attention weights, each row adding to one"),
        "",
        "  what each row comes to",
    ]
    for i, row in enumerate(masked.weights, start=1):
        lines.append(f"    row {i}  sums to {row.sum():.4f}   over {amount(i, 'token')}")
    lines += [
        "",
        *block(mask.tokens, masked.out, "the head's output: the values weighted and summed", MIXED),
        "",
        "  tokens 2 and 4, whose attention weights are the same unmasked",
        named("token 2 masked", masked.weights[1]),
        named("token 4 masked", masked.weights[3]),
        named("either, unmasked", run.weights[1]),
    ]
    return "\n".join(lines)


MODE = Mode("mask", "the score matrix under the causal mask", 90, table, text)
