"""Pictures for the pages on what the chapter's head lacked: positions and the causal mask.

Each is drawn from the same `attend.book.modes` call whose table the page prints (`attend mask`,
`attend positions`), with the panels and the `Figure` record of `attend_figures.pictures`, so
these keep the same rules: panels drawn at their size on screen with no text under 11 px, a
colour bar wherever colour carries a value, and a caption and alt text whose every number is
formatted from the data the figure carries.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt
from matplotlib import colormaps
from matplotlib import pyplot as plt

from attend import modes
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
    twins,
)

PAIRED = (DIVIDED, UNDIVIDED)  # the two rows a parting compares, one colour each, on every panel
PARTING_WIDTH = 220  # CSS px: the three schemes side by side in a laptop's column
HIDDEN = "#d9d9d9"  # a score the mask hid has no colour on the scale: grey, not the scale's end
# The scores' colours, with HIDDEN for a masked cell: a colormap object, not a registered name,
# so importing this module again (a rebuild under serve) registers nothing twice.
HIDDEN_SCORES = colormaps["magma_r"].with_extremes(bad=HIDDEN)
SCHEME_NAMES = {"none": "no positions", "sinusoidal": "sinusoidal", "rotary": "rotary"}


@cache
def mask_figure() -> Figure:
    """The score matrix under the causal mask as `attend mask` prints it: the scores with the
    later keys hidden, and the attention weights they leave, each under its colour bar."""
    table = modes.mask.table()
    scores, weights, div = table.masked.scores, table.masked.weights, table.run.div
    labels = [label(t.id) for t in table.tokens]
    n = len(labels)
    seen = np.isfinite(scores)
    scale = (float(scores[seen].min()), float(scores[seen].max()))
    row, last = twins(table.run.weights)  # alike without the mask: the rows it tells apart
    key = int(np.argmax(weights[row - 1])) + 1
    sums = weights.sum(axis=1)
    hidden, hidden_share = int((~seen).sum()), float(weights[~seen].max())
    panels = (
        _heat_panel(
            "mask-scores",
            scores,
            labels,
            f"scores ÷ {div:g}, later keys hidden",
            HIDDEN_SCORES,
            (row, last),
            scale,
        ),
        _heat_panel(
            "mask-weights",
            weights,
            labels,
            "attention weights, by row",
            WEIGHTS_MAP,
            (row, last),
            SHARE_RANGE,
        ),
    )
    alt = (
        f"{len(panels)} heat maps of the {n} by {n} score matrix under the causal mask, token labels on "
        f"both axes, each under its colour bar. On the left the scores divided by {div:g}: the "
        f"{hidden} cells above the diagonal are grey and read −inf, keys their query "
        f"may not see. On the right the attention weights, each row adding to {sums.min():g}: the first row "
        f"gives itself {weights[0, 0]:.4f}; row {row} gives {weights[row - 1, key - 1]:.4f} to token {key} "
        f"and {weights[row - 1, row - 1]:.4f} to itself; row {last}, which sees every key, gives "
        f"token {key} the {weights[last - 1, key - 1]:.4f} it gave without the mask."
    )
    caption = (
        "The score matrix with each query kept from the keys after it. A hidden score is "
        f"−inf, so its attention weight is exactly {hidden_share:g} and the rest of the row still "
        f"adds to {sums.min():g}. Rows {row} and {last} (outlined) no longer match: token {row} gives "
        f"{weights[row - 1, key - 1]:.4f} to token {key}, token {last} {weights[last - 1, key - 1]:.4f}."
    )
    data = {
        "labels": labels,
        "size": n,
        "div": div,
        "twins": (row, last),
        "top": (row, key),
        "hidden": hidden,
        "scale": scale,
        "row sums": sums.tolist(),
        "scores": scores.tolist(),
        "weights": weights.tolist(),
    }
    return Figure("mask", panels, alt, caption, data)


@cache
def parting_figure() -> Figure:
    """Tokens 2 and 4's attention weights under each scheme of `attend positions`, a panel each."""
    table = modes.positions.table()
    rows = table.partings[0].rows
    keys = table.partings[0].attended.weights.shape[1]
    panels = tuple(
        _pair_panel(
            f"parting-{part.scheme}",
            part.attended.weights,
            part.rows,
            f"{SCHEME_NAMES[part.scheme]}: {part.weight_gap:.4f} apart",
        )
        for part in table.partings
    )
    none, sines, turns = table.partings
    first, second = rows
    alt = (
        f"{len(panels)} bar charts, a chart per scheme of positions, each giving tokens {first} and "
        f"{second}'s attention weights on each of the {keys} keys as bars side by side. With no "
        f"positions both tokens' bars are the same height everywhere, "
        f"{none.weight_gap:.4f} apart at most. Sinusoidal positions part them by at most "
        f"{sines.weight_gap:.4f}, rotary positions by {turns.weight_gap:.4f}."
    )
    caption = (
        f"How far tokens {first} and {second} part under each scheme: the largest difference between "
        f"their attention weights is {none.weight_gap:.4f} with no positions, {sines.weight_gap:.4f} "
        f"with sinusoidal ones and {turns.weight_gap:.4f} with rotary ones, on the book's tokens "
        "and hand-typed matrices."
    )
    data = {
        "schemes": [p.scheme for p in table.partings],
        "charts": len(panels),
        "rows": rows,
        "keys": keys,
        "weights": [[p.attended.weights[r - 1].tolist() for r in p.rows] for p in table.partings],
        "largest share apart": [p.weight_gap for p in table.partings],
    }
    return Figure("parting", panels, alt, caption, data)


def _pair_panel(name: str, weights: npt.NDArray[np.float64], rows: Sequence[int], title: str) -> str:
    """Two tokens' attention weights on every key as bars side by side, on the one scale they share."""
    keys = np.arange(1, weights.shape[1] + 1)
    width = 0.8 / len(rows)
    with plt.rc_context(_STYLE):
        fig, ax = _panel(height=260, width=PARTING_WIDTH)
        for i, (row, colour) in enumerate(zip(rows, PAIRED, strict=True)):
            offset = (i - (len(rows) - 1) / 2) * width
            ax.bar(keys + offset, weights[row - 1], width=width, color=colour, label=f"token {row}")
        ax.set_ylim(*SHARE_RANGE)
        ax.set_xticks(keys, [str(k) for k in keys])
        ax.set_xlabel("key (token number)")
        ax.set_ylabel("attention weight")
        ax.set_title(title)
        ax.grid(True, axis="y", color="#e5e5e5", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.legend(frameon=False, loc="upper right")
    return _svg(fig, name)
