"""Pictures for the page on learning the matrices: where the trained heads look, beside the
window a table of counts reads; the training curve; the learned head's attention weights beside
the typed head's; and the table of counts at every window beside the head.

The runs are `attend.book.modes.learn.table` (the call whose table `attend learn` prints)
and `attend.core.years.year_runs`, and the table of counts `attend.core.ngram.named_by_window`,
drawn with the panels and the `Figure` record of `attend_figures.pictures`: panels at their size on
screen, no text under 11 px, and every number of a caption or alt text formatted from the
data the figure carries.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from matplotlib import pyplot as plt

from attend import modes
from attend.core.training import DEFAULTS, Settings, corpus, line_weights
from attend.core.years import pairs, weights_to_year, windows, year_runs, year_settings
from attend_figures.pictures import (
    _STYLE,
    DIVIDED,
    MARKER,
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
        f"{baseline.final_loss - head.final_loss:.4f} nats a token, is what this head, "
        f"trained {head.steps[-1]} steps, adds to the same model without it."
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


LABEL_INSIDE = 0.55  # a bar at least this long has room for its label inside it


def _token(name: str) -> str:
    """A token as the pictures of a line show it: quoted, its line break written out."""
    return '"' + name.replace("\n", "\\n") + '"'


def _bars(name: str, labels: list[str], weights: list[float], window: int, title: str) -> str:
    """One query's attention weights over the tokens up to it, a bar per token from the top, the
    largest printed with how far back it stands, and the last `window` tokens shaded: what a
    table of counts with that window reads."""
    n, top = len(labels), int(np.argmax(weights))
    with plt.rc_context(_STYLE):
        fig, ax = _panel(height=16 * n + 70)
        rows = np.arange(n)
        ax.axhspan(n - window - 0.5, n - 0.5, color="#e8e8e8", zorder=0)
        ax.text(0.98, n - 1, f"last {window} tokens", ha="right", va="center", color="#555555")
        ax.barh(rows, weights, color=DIVIDED, height=0.7, zorder=2)
        inside = weights[top] > LABEL_INSIDE  # a long bar holds its label, in white
        ax.text(
            0.02 if inside else weights[top] + 0.02,
            top,
            f"{weights[top]:.4f}, {n - 1 - top} back",
            va="center",
            color="white" if inside else "black",
            zorder=3,
        )
        ax.set_yticks(rows, labels)
        ax.invert_yaxis()
        ax.set_xlim(*SHARE_RANGE)
        ax.set_xticks([SHARE_RANGE[0], sum(SHARE_RANGE) / 2, SHARE_RANGE[1]])
        ax.tick_params(axis="y", length=0)
        ax.set_xlabel(f"attention weight from {labels[-1]}")
        ax.set_title(title)
    return _svg(fig, name)


@cache
def clue_figure(settings: Settings = DEFAULTS) -> Figure:
    """Where the trained heads look from the token that must predict: on the first held-out
    line, from " in" to the place's clue; on the pair it starts, from the second "year" to the
    first line's year. The window a table of counts needs for the place is shaded on both."""
    place_run, years = modes.learn.table(settings).head, year_runs(year_settings(settings))
    line = int(corpus().held[0])
    names, square = line_weights(place_run.params, line, " in")
    row = int(pairs().text.held[0])
    year_names, year_row = weights_to_year(years.head.params, row)
    by_window = windows().place
    window = by_window.index(max(by_window))  # the narrowest window at the table's best
    place_labels, year_labels = [_token(w) for w in names], [_token(w) for w in year_names]
    in_row, place_top = square[-1], int(np.argmax(square[-1]))
    year_top = int(np.argmax(year_row))
    panels = (
        _bars("clues-place", place_labels, in_row.tolist(), window, "the place: the clue is near"),
        _bars("clues-year", year_labels, year_row.tolist(), window, "the year: the clue is a line back"),
    )
    back = len(year_labels) - 1 - year_top
    alt = (
        f"{len(panels)} bar charts of attention weights, a bar per token, the last {window} tokens "
        f"shaded. Left, the {len(place_labels)} tokens of a held-out line up to {place_labels[-1]}: "
        f"from it the head puts {in_row[place_top]:.4f} of its weight on {place_labels[place_top]}, "
        f"token {place_top + 1}, inside the shaded window. Right, the same line followed by the next "
        f"line's {year_labels[-1]}, {len(year_labels)} tokens: from that {year_labels[-1]} the head "
        f"puts {year_row[year_top]:.4f} on token {year_top + 1}, the digit the year begins with, {back} "
        "tokens back, far outside the window."
    )
    caption = (
        "Where a trained head looks from the token that must predict the next. Left: from "
        f"{place_labels[-1]}, on the animal that names the place. Right: from the next line's "
        f"{year_labels[-1]}, on the digit its year begins with, {back} tokens back. Shaded: the last "
        f"{window} tokens, the window at which a table of counts names the most places. The head was "
        "told neither where to look."
    )
    data = {
        "panels": len(panels),
        "sizes": (len(place_labels), len(year_labels)),
        "window": window,
        "line": line + 1,
        "place": {
            "labels": place_labels,
            "weights": in_row.tolist(),
            "top": place_top + 1,
            "back": len(place_labels) - 1 - place_top,
        },
        "year": {"labels": year_labels, "weights": year_row.tolist(), "top": year_top + 1, "back": back},
    }
    return Figure("learning-clues", panels, alt, caption, data)


def _sweep(name: str, named: tuple[int, ...], held: int, head: int, baseline: int, title: str) -> str:
    """Held-out lines named by a table of counts at each window, beside the head and the baseline."""
    widths, percent = np.arange(len(named)), 100 * np.array(named) / held
    with plt.rc_context(_STYLE):
        fig, ax = _panel(height=260)
        ax.axhline(100 * head / held, color=DIVIDED, linewidth=5, alpha=0.45, label="the head")
        ax.plot(widths, percent, "o-", color=MARKER, markersize=3, label="table of counts")
        ax.axhline(
            100 * baseline / held, color=UNDIVIDED, linestyle="--", linewidth=1.4, label="no look back"
        )
        ax.set_ylim(0, 105)
        ax.set_xlabel("window (tokens before the guess)")
        ax.set_ylabel(f"named, % of {held} held out")
        ax.set_title(title)
        ax.grid(True, color="#e5e5e5", linewidth=0.6)
        ax.legend(frameon=False, loc="center right")
    return _svg(fig, name)


@cache
def window_figure(settings: Settings = DEFAULTS) -> Figure:
    """The table of counts at every window up to the longest sequence, on the place and on the
    year, beside the head and the baseline trained on each."""
    lines, years = modes.learn.table(settings), year_runs(year_settings(settings))
    place, year = windows().place, windows().year
    held, year_held = lines.held, years.held
    head, baseline = (
        (lines.head.places_named, years.head_years),
        (lines.baseline.places_named, years.baseline_years),
    )
    panels = (
        _sweep("windows-place", place, held, head[0], baseline[0], "the place"),
        _sweep("windows-year", year, year_held, head[1], baseline[1], "the year's first digit"),
    )
    first_best = place.index(max(place))
    alt = (
        f"{len(panels)} line charts of how many held-out lines a table of counts names right against "
        f"its window, up to {len(place) - 1} tokens for the place and {len(year) - 1} for the year, "
        "with the head and the model that cannot look back as level lines. The place: the table "
        f"reaches its most, {max(place)} of {held}, at a window of {first_best}; the head names "
        f"{head[0]}, the baseline {baseline[0]}. The year's first digit: the table never names more "
        f"than {max(year)} of {year_held}; the head names {head[1]}, the baseline {baseline[1]}."
    )
    caption = (
        "A table of counts at every window. Where the clue stands a fixed few tokens back (the "
        f"place), a window of {first_best} names {max(place)} of {held}, the head {head[0]}. Where it "
        f"stands a whole line back (the year), no window names more than {max(year)} of {year_held}, "
        f"the head {head[1]}."
    )
    data = {
        "panels": len(panels),
        "place": place,
        "year": year,
        "held": (held, year_held),
        "head": head,
        "baseline": baseline,
        "best": (max(place), first_best, max(year)),
        "ends": (len(place) - 1, len(year) - 1),
    }
    return Figure("learning-windows", panels, alt, caption, data)
