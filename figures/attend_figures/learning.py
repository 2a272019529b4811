"""Pictures for the page on learning the matrices: the training curve, and the learned head's
attention weights beside the typed head's.

Both are drawn from `attend.book.modes.learning`, the call whose table `attend learn` prints, with
the panels and the `Figure` record of `attend_figures.pictures`: panels at their size on
screen, no text under 11 px, and every number of a caption or alt text formatted from the
data the figure carries.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from matplotlib import pyplot as plt

from attend import modes
from attend.core.training import DEFAULTS, Settings, corpus, line_weights
from attend_figures.pictures import (
    _STYLE,
    DIVIDED,
    SHARE_RANGE,
    UNDIVIDED,
    WEIGHTS_MAP,
    Figure,
    _heat_panel,
    _panel,
    _svg,
    label,
)


@cache
def curve_figure(settings: Settings = DEFAULTS) -> Figure:
    """The held-out loss by step, the head's and the baseline's, as `attend learn` prints it."""
    table = modes.learn.table(settings)
    head, baseline = table.head, table.baseline
    with plt.rc_context(_STYLE):
        fig, ax = _panel(height=300)
        ax.plot(head.steps, head.held_loss, "o-", color=DIVIDED, markersize=3, label="with the head")
        ax.plot(
            baseline.steps,
            baseline.held_loss,
            "s--",
            color=UNDIVIDED,
            markersize=3,
            label="baseline, no head",
        )
        ax.set_xlabel("training step")
        ax.set_ylabel("held-out loss (nats)")
        ax.set_title("loss on the lines held out")
        ax.grid(True, color="#e5e5e5", linewidth=0.6)
        ax.legend(frameon=False)
    steps = head.steps[-1]
    alt = (
        f"A line chart of the held-out loss against the training step, {head.steps[0]} to {steps}. The model "
        f"with the head starts at {head.held_loss[0]:.2f} and the baseline without a head at "
        f"{baseline.held_loss[0]:.2f}. The baseline levels off at {baseline.final_loss:.4f}; "
        f"the model with the head goes on down to {head.final_loss:.4f}."
    )
    caption = (
        f"Mean cross-entropy on the {table.held} held-out lines, measured every "
        f"{settings.every} steps, with the head and without it. The gap at the end, "
        f"{baseline.final_loss - head.final_loss:.4f} nats a token, is what looking back at "
        "earlier tokens is worth."
    )
    data = {
        "held": table.held,
        "every": settings.every,
        "steps": head.steps,
        "head": head.held_loss,
        "baseline": baseline.held_loss,
        "gap": baseline.final_loss - head.final_loss,
    }
    return Figure("learning-curve", (_svg(fig, "learning-curve"),), alt, caption, data)


@cache
def learned_figure(settings: Settings = DEFAULTS) -> Figure:
    """The typed head's attention weights under the causal mask, beside the learned head's on
    the first held-out line, from its first token to " in"."""
    typed = modes.mask.table()
    typed_labels = [label(t.id) for t in typed.tokens]
    run = modes.learn.table(settings).head
    line = int(corpus().held[0])
    names, weights = line_weights(run.params, line, " in")
    n = len(names)
    learned_labels = [f'"{w}"' for w in names]
    panels = (
        _heat_panel(
            "learned-typed",
            typed.masked.weights,
            typed_labels,
            "typed: the chapter's tokens",
            WEIGHTS_MAP,
            (),
            SHARE_RANGE,
        ),
        _heat_panel(
            "learned-found",
            weights,
            learned_labels,
            "learned: a held-out line",
            WEIGHTS_MAP,
            (),
            SHARE_RANGE,
            places=None,  # too many cells to print: the colour bar carries the values
            height=360,
        ),
    )
    standing, inn = weights[-2], weights[-1]
    top_standing, top_in = int(np.argmax(standing)), int(np.argmax(inn))
    alt = (
        f"Heat maps of attention weights side by side, on a shared colour scale from {SHARE_RANGE[0]:g} "
        f"to {SHARE_RANGE[1]:g}, empty above the diagonal. Left, the typed head on the chapter's "
        f"{len(typed_labels)} tokens. Right, the learned head on the first {n} tokens of a held-out "
        f"line, to {learned_labels[-1]}: from {learned_labels[-2]} the largest weight, "
        f"{standing[top_standing]:.4f}, is on token {top_standing + 1}, {learned_labels[top_standing]}; "
        f"from {learned_labels[-1]} the largest, {inn[top_in]:.4f}, is on token {top_in + 1}, "
        f"{learned_labels[top_in]}."
    )
    caption = (
        "Attention weights under the causal mask: each row is a query, each column a key. Left, "
        "the weights typed by hand; right, the weights training found, on a line it never saw "
        f"(line {line + 1} of the chronicle), up to the token {learned_labels[-1]} that must "
        "predict the place."
    )
    data = {
        "scale": SHARE_RANGE,
        "typed size": len(typed_labels),
        "size": n,
        "line": line + 1,
        "labels": learned_labels,
        "learned": weights.tolist(),
        "typed": typed.masked.weights.tolist(),
        "top": (top_standing + 1, top_in + 1),
    }
    return Figure("learned", panels, alt, caption, data)
