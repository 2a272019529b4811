"""`attend learn`: a head and a baseline without one, trained alike on the chronicle."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from attend.book.flags import Flag, even_width, from_zero, steps
from attend.book.modes import Mode
from attend.core.checks import amount
from attend.core.training import DEFAULTS, MOST_STEPS, MOST_WIDTH, Run, Settings, corpus, train

__all__ = ["MODE", "LearnTable", "table", "text"]


@dataclass(frozen=True)
class LearnTable:
    """One head and the baseline without it, trained alike on the chronicle's lines, measured
    on the lines held out."""

    head: Run
    baseline: Run
    lines: int  # lines trained on
    held: int  # lines held out


@cache
def table(settings: Settings = DEFAULTS) -> LearnTable:
    """The head and the baseline trained with the same settings, the same seed and batches:
    kept, so that a page, its figures and its table share one run (nothing changes a run)."""
    data = corpus()
    head, baseline = train(settings), train(settings, attends=False)
    return LearnTable(head, baseline, len(data.train), len(data.held))


def text(learned: LearnTable) -> str:
    head, baseline, held = learned.head, learned.baseline, learned.held
    settings, shape = head.settings, head.settings.shape()
    lines = [
        f"attend: a causal head trained on the chronicle, {learned.lines} lines, {held} held out",
        f"        vocabulary {shape.vocab}, d_model {shape.d_model}, d_k = d_v {shape.d_k}, "
        f"seed {settings.seed}, {amount(settings.steps, 'step')} of {settings.batch} lines",
        "",
        "  held-out loss (mean cross-entropy, nats) by step",
        "      step      head  baseline",
    ]
    for step, ours, theirs in zip(head.steps, head.held_loss, baseline.held_loss, strict=True):
        lines.append(f"    {step:6d}{ours:10.4f}{theirs:10.4f}")
    lines += ["", "  the place's name predicted right, held-out lines"]
    for name, run in (("head", head), ("baseline", baseline)):
        lines.append(f"    {name:<10}{run.places_named:6d} of {held}  ({run.place_accuracy:.1%})")
    return "\n".join(lines)


MODE = Mode(
    name="learn",
    help="a head and a baseline without one, trained on the chronicle",
    order=120,
    table=lambda seed, d_model, steps: table(Settings(seed=seed, d_model=d_model, steps=steps)),
    text=text,
    flags=(
        Flag("--seed", "where the weights and the batches start", from_zero, DEFAULTS.seed, "N"),
        Flag(
            "--width",
            f"d_model, an even number up to {MOST_WIDTH}; d_k is half of it",
            even_width,
            DEFAULTS.d_model,
            "D",
            keyword="d_model",
        ),
        Flag("--steps", f"Adam steps, at most {MOST_STEPS:,}", steps, DEFAULTS.steps, "N"),
    ),
    bound=f"learn trains at most {MOST_STEPS:,} steps at a width of at most {MOST_WIDTH}, "
    "about a quarter of a minute",
)
