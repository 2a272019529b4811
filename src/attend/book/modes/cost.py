"""`attend cost`: the head's multiply-adds counted at several sequence lengths, held against the formula."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from attend.book.chapter import D_K, D_MODEL
from attend.book.experiments import cost_sweep, crossover
from attend.book.flags import MOST_ITEMS, Flag, chronicle_lengths
from attend.book.modes import Mode
from attend.core.checks import amount, sequence_work
from attend.core.cost import Cost

__all__ = ["MODE", "CostTable", "table", "text"]


@dataclass(frozen=True)
class CostTable:
    """Counted multiply-adds at several sequence lengths, and the formula at the last."""

    d_model: int
    d_k: int
    costs: tuple[Cost, ...]
    crossover: int  # the shortest sequence whose query-key pairs outgrow its projections
    tie: int | None  # the length just before it, where the counted pairs equal the projections, if they do

    @property
    def projections(self) -> int:
        """3·n·d_model·d_k at the last length, by the formula the count is held against."""
        return 3 * self.costs[-1].length * self.d_model * self.d_k

    @property
    def pairs(self) -> int:
        """2·n²·d_k at the last length, by the formula."""
        return 2 * self.costs[-1].length ** 2 * self.d_k

    @property
    def growth(self) -> tuple[float | None, ...]:
        """Each total over the one before it; the first has none before it."""
        totals = [c.total for c in self.costs]
        return (None, *(b / a for a, b in pairwise(totals)))

    @property
    def agrees(self) -> bool:
        """Whether the head's count at the last length is what the formula says."""
        return self.projections + self.pairs == self.costs[-1].total

    @property
    def pair_percent(self) -> tuple[float, ...]:
        """The pairs' part of each total, in percent."""
        return tuple(100 * c.quadratic / c.total for c in self.costs)


def table(lengths: Sequence[int] = (4, 8, 16, 32)) -> CostTable:
    """The head's counts on the chronicle at each length, the formula at the last, and where
    the query-key pairs first equal and first outgrow the projections."""
    costs, first = tuple(cost_sweep(lengths)), crossover()
    before = cost_sweep([first - 1])[0] if first > 1 else None
    tie = first - 1 if before is not None and before.quadratic == before.project else None
    return CostTable(D_MODEL, D_K, costs, first, tie)


def text(cost: CostTable) -> str:
    d, dk = cost.d_model, cost.d_k
    lines = [
        "attend: one head at several sequence lengths, multiply-adds counted as made",
        "",
        f"  d_model {d}, d_k and d_v {dk}, each sequence the first n tokens of the chronicle",
        "",
        "    tokens  q, k and v  q-k pairs  altogether   x previous  % q-k pairs",
    ]
    for c, growth, percent in zip(cost.costs, cost.growth, cost.pair_percent, strict=True):
        ratio = " " * 13 if growth is None else f"{growth:13.2f}"
        lines.append(f"  {c.length:8d}{c.project:12d}{c.quadratic:11d}{c.total:12d}{ratio}{percent:13.1f}%")
    n = cost.costs[-1].length
    lines += [
        "",
        f"  the count held against the formula, at {amount(n, 'token')}",
        f"    {f'3 x {n} x {d} x {dk}, the projections':<44}{cost.projections:12d}",
        f"    {f'2 x {n} x {n} x {dk}, the query-key pairs':<44}{cost.pairs:12d}",
        f"    {'adding up to':<44}{cost.projections + cost.pairs:12d}",
        f"    {'what the head counted':<44}{cost.costs[-1].total:12d}",
        f"    {'the same number':<44}{str(cost.agrees).lower():>12}",
        "",
        "  where the query-key pairs overtake the projections",
    ]
    if cost.tie is not None:
        lines.append(f"    2 x n x n x d_k equals 3 x n x d_model x d_k at n = {cost.tie:d}")
    lines.append(f"    2 x n x n x d_k first passes 3 x n x d_model x d_k at n = {cost.crossover:d}")
    return "\n".join(lines)


MODE = Mode(
    name="cost",
    help="the counted multiply-adds at several sequence lengths",
    order=70,
    table=table,
    text=text,
    flags=(
        Flag(
            "--lengths",
            "sequence lengths in tokens, each the first tokens of the chronicle",
            chronicle_lengths,
            [4, 8, 16, 32],
            "N,N,...",
            keyword="lengths",
        ),
    ),
    work=lambda lengths: sum(map(sequence_work, lengths)),
    instead="ask for shorter or fewer sequences",
    bound=f"cost counts 3 x n x n for each sequence length n, summed over the {MOST_ITEMS} lengths "
    "listed at most",
)
