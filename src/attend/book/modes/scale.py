"""`attend scale`: what scaling by 1/√d_k does, measured on random queries and keys at several widths."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from attend.book.experiments import Measurement, scale_experiment
from attend.book.flags import MOST_ITEMS, Flag, from_zero, whole_number, whole_numbers
from attend.book.modes import Mode
from attend.core.checks import amount, draw_work

__all__ = ["MODE", "ScaleTable", "table", "text"]


@dataclass(frozen=True)
class ScaleTable:
    """Scaling measured at several key widths."""

    count: int  # draws at each width
    seed: int
    measured: tuple[Measurement, ...]


def table(widths: Sequence[int] = (4, 16, 64, 256), *, count: int = 1000, seed: int = 82) -> ScaleTable:
    """The scaling experiment at each width."""
    return ScaleTable(count, seed, tuple(scale_experiment(widths, count=count, seed=seed)))


def text(scale: ScaleTable) -> str:
    lines = [
        f"attend: what scaling by 1/sqrt(d_k) does, {amount(scale.count, 'draw')} at each width",
        "",
        f"  each draw one query and four keys, from numpy's default_rng({scale.seed}) at each width",
        "",
        "           ---------- scaled ----------   ---------- not scaled ----------",
        "             spread   largest    draws      spread   largest    draws",
        "     d_k   of a row    weight  at 0.99    of a row    weight  at 0.99",
    ]
    for m in scale.measured:
        a, b = m.divided, m.undivided
        lines.append(
            f"  {m.width:6d} {a.spread:10.4f}{a.biggest:10.4f}{a.confident:9d}"
            f"  {b.spread:10.4f}{b.biggest:10.4f}{b.confident:9d}"
        )
    return "\n".join(lines)


MODE = Mode(
    name="scale",
    help="what scaling does, measured at several widths",
    order=60,
    table=table,
    text=text,
    flags=(
        Flag(
            "--widths", "key widths to measure, comma-separated", whole_numbers, [4, 16, 64, 256], "W,W,..."
        ),
        Flag("--count", "draws at each width", whole_number, 1000, "N"),
        Flag("--seed", "where numpy's generator starts at every width", from_zero, 82, "N"),
    ),
    work=lambda widths, count, seed: sum(draw_work(count, width) for width in widths),
    instead="ask for a smaller --count or fewer or narrower --widths",
    bound=f"a scale width w counts COUNT x (5 x w + 20), summed over the {MOST_ITEMS} widths listed at most",
)
