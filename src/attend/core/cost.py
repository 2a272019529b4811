"""How many multiply-adds a pass of the head made, tallied from its products as they are made.

A formula for the work can share a mistake with the reasoning behind it, so the head does
not take its cost from one. numpy multiplies in C, where no counter can sit in the innermost
loop as the chapter's Go counter did; instead each step of `Head.attend` makes its products as
an array (a key times a query, dimension by dimension), counts the products in that array, and
only then adds them up. A step that skipped a product or made one twice would show in its count.

Two checks keep that honest. `attend.core.loops` redoes the head in plain Python loops, adding
one to a counter at every multiply-add as the chapter did; the tests hold the numpy head's
counts (and its numbers) equal to those at every sequence length up to 64 tokens, where the
loops are quick. And the tests hold the counts against the closed form
3·n·d_model·d_k + 2·n²·d_k, worked out separately from the shapes.

The pieces built on whole matrices (attention, several heads, the cache) multiply with `@`,
whose products are made inside BLAS where nothing can count them, so `product` does take its
count from a formula: the shape of what `@` returned, each of its numbers one dot product of a
row of `a` with a column of `b`. The tests hold those counts to the head's, counted as made, on
the same sequence.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["Cost", "product"]


# --8<-- [start:cost]
@dataclass(frozen=True)
class Cost:
    """Multiply-adds of one run, by the step that did them.

    `project` grows in a straight line with the sequence: three matrices
    per token. `score` and `mix` grow with its square: every token
    against every other, once to score and once to mix.
    """

    length: int  # tokens in the sequence
    project: int
    score: int
    mix: int

    @property
    def total(self) -> int:
        return self.project + self.score + self.mix

    @property
    def quadratic(self) -> int:
        """Scoring and weighing the values: the part quadratic in the sequence length."""
        return self.score + self.mix


# --8<-- [end:cost]


# --8<-- [start:product]
def product(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], int]:
    """`a @ b` and the multiply-adds it took, for the modules that
    multiply whole matrices at once: every number of the product
    is one run of a's last axis dotted with one column of b, so the
    count is reckoned from the shapes, not tallied as made."""
    out: npt.NDArray[np.float64] = a @ b
    return out, out.size * a.shape[-1]


# --8<-- [end:product]
