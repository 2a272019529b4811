"""`attend heads`: the chapter's matrices cut into several heads, joined by W_O."""

from __future__ import annotations

from dataclasses import dataclass

from attend.book.chapter import Token, chapter_embeddings, chapter_heads, chapter_pieces
from attend.book.flags import heads_flag
from attend.book.layout import MIXED, block
from attend.book.modes import Mode
from attend.core.checks import amount
from attend.core.heads import HeadsRun

__all__ = ["MODE", "HeadsTable", "table", "text"]


@dataclass(frozen=True)
class HeadsTable:
    """The chapter's matrices cut into h heads, against one head of width d_model."""

    tokens: tuple[Token, ...]
    run: HeadsRun
    one: HeadsRun  # the same matrices as one head (h = 1), W_O and all

    @property
    def formula(self) -> tuple[int, int, int, int]:
        """3·n·d², n·n·d, n·n·d and n·d² (d = d_model): the projections, the scores, the mixing
        and W_O, whatever h is, by the formula the counts are held against."""
        n, d = self.run.out.shape
        return 3 * n * d * d, n * n * d, n * n * d, n * d * d


def table(heads: int = 2) -> HeadsTable:
    """The chapter's matrices as `heads` heads, and as one, over its sequence."""
    x = chapter_embeddings()
    return HeadsTable(chapter_pieces(), chapter_heads(heads).attend(x), chapter_heads(1).attend(x))


def text(cut: HeadsTable) -> str:
    run, one = cut.run, cut.one
    h, n, dk = run.attended.weights.shape[0], run.out.shape[0], run.q.shape[-1]
    lines = [
        f"attend: the book's W_Q, W_K and W_V cut into {amount(h, 'head')} with d_k = {dk},",
        "        joined and mixed by W_O",
    ]
    for i, weights in enumerate(run.attended.weights, start=1):
        caption = f"head {i}'s attention weights, its scores divided by {dk**0.5:.4f}"
        lines += ["", *block(cut.tokens, weights, caption)]
    lines += [
        "",
        *block(cut.tokens, run.joined, "the heads' outputs side by side", MIXED),
        "",
        *block(cut.tokens, run.out, "that times W_O (the identity here)", MIXED),
        "",
        f"  the multiply-adds, {amount(h, 'head')} against one head with d_k = {run.out.shape[1]}",
        f"    {'':<28}{f'{h} heads' if h > 1 else '1 head':>8}{'1 head':>8}  formula",
    ]
    parts = zip(
        ("queries, keys and values", "each query against each key", "mixing the values", "W_O"),
        (run.cost.heads.project, run.cost.heads.score, run.cost.heads.mix, run.cost.wo),
        (one.cost.heads.project, one.cost.heads.score, one.cost.heads.mix, one.cost.wo),
        cut.formula,
        (f"3 x {n} x d_model^2", f"{n} x {n} x d_model", f"{n} x {n} x d_model", f"{n} x d_model^2"),
        strict=True,
    )
    for name, ours, single, value, words in parts:
        lines.append(f"    {name:<28}{ours:8d}{single:8d}  {words} = {value}")
    lines.append(f"    {'altogether':<28}{run.cost.total:8d}{one.cost.total:8d}")
    return "\n".join(lines)


MODE = Mode(
    "heads", "the matrices cut into several heads, joined by W_O", 100, table, text, flags=(heads_flag(2),)
)
