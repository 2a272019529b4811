"""The multiply-adds one run of a head did, counted where they happened.

A formula for the work can share a mistake with the reasoning behind it. So the head counts
at each product it takes: next to every numpy `@` it adds the number of multiply-adds that
product does, worked out from the sizes of the two arrays it multiplies (a dk×d matrix times
a token of d numbers is dk·d). The tests hold these counts against the closed form
3·n·D·Dk + 2·n²·Dk, worked out separately.
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

    `project` grows in a straight line with the row: three matrices
    per token. `score` and `mix` grow with its square: every token
    against every other, once to score and once to mix.
    """

    length: int  # tokens in the row
    project: int
    score: int
    mix: int

    @property
    def total(self) -> int:
        return self.project + self.score + self.mix

    @property
    def quadratic(self) -> int:
        """The part that grows with the square of the row."""
        return self.score + self.mix


# --8<-- [end:cost]


# --8<-- [start:product]
def product(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], int]:
    """`a @ b` and the multiply-adds it took, for the modules that
    multiply whole matrices at once: every number of the product
    is one run of a's last axis dotted with one column of b."""
    with np.errstate(over="ignore", invalid="ignore"):  # the caller checks
        out: npt.NDArray[np.float64] = a @ b
    return out, out.size * a.shape[-1]


# --8<-- [end:product]
