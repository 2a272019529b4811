"""`attend weights`: the chapter's three stored matrices, one run of d_model weights per output dimension."""

from __future__ import annotations

from dataclasses import dataclass

from attend.book.chapter import D_K, D_MODEL, chapter_head
from attend.book.layout import numbers
from attend.book.modes import Mode
from attend.core.arrays import Matrix
from attend.core.checks import amount

__all__ = ["MODE", "Weights", "table", "text"]


@dataclass(frozen=True)
class Weights:
    """The three weight matrices as the head holds them, d_k × d_model."""

    d_model: int
    d_k: int
    matrices: tuple[tuple[str, Matrix], ...]  # ("W_Q", d_k × d_model), ("W_K", …), ("W_V", …)


def table() -> Weights:
    """The chapter's matrices as its head holds them."""
    head = chapter_head()
    return Weights(D_MODEL, D_K, (("W_Q", head.wq), ("W_K", head.wk), ("W_V", head.wv)))


def text(weights: Weights) -> str:
    each = amount(weights.d_model * weights.d_k, "number")
    lines = [
        f"attend: three weight matrices of {each}, stored as torch.nn.Linear does:",
        f"  row j holds the {weights.d_model} weights that make output dimension j",
    ]
    for name, matrix in weights.matrices:
        lines.append("")
        for j, row in enumerate(matrix, start=1):
            lines.append(f"  {name if j == 1 else '   '} row {j}  {numbers(row)}")
    return "\n".join(lines)


MODE = Mode("weights", "the three stored matrices", 20, table, text)
