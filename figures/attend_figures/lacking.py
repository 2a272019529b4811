"""Pictures for the pages on what the chapter's head lacked: positions and the causal mask.

Each is drawn from the same `attend.tables` call whose table the page prints (`attend mask`,
`attend positions`), with the helpers and the `Figure` record of `attend_figures.pictures`,
so these follow the same rules: inline SVG with alt text and a title, a caption whose numbers
are formatted from the values drawn, and the data plotted carried along for the build.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure as MplFigure

from attend import tables
from attend_figures.pictures import DIVIDED, UNDIVIDED, Figure, _figure, _heat, _svg, label

ROW_TWO, ROW_FOUR = DIVIDED, UNDIVIDED  # the two bare digits, one colour each, on every panel
HIDDEN = "#d9d9d9"  # a cell the mask hides: no colour on the scale, because it has no score
TEXT = 10  # points: the smallest text these pictures print


@cache
def mask_figure() -> Figure:
    """The chapter's square under the causal mask as `attend mask` prints it: the scores with
    the later keys hidden, and the shares they leave, each with its colour scale."""
    table = tables.mask()
    scores, shares = table.masked.scores, table.masked.shares
    labels = [label(t.id) for t in table.tokens]
    seen = np.isfinite(scores)
    fig, (left, right) = _figure(2, width=9.2, height=4.2)
    _heat(
        left,
        scores,
        labels,
        f"scores ÷ {table.run.div:.0f}, later keys hidden",
        "magma_r",
        vmin=float(scores[seen].min()),
        vmax=float(scores[seen].max()),
    )
    _heat(right, shares, labels, "each row as shares of one", "viridis_r", vmin=0.0, vmax=1.0)
    _scale(fig, left, "score")
    _scale(fig, right, "share")
    alt = (
        "Two heat maps of the 4 by 4 square under the causal mask, token labels on both axes, "
        "each with a colour bar. On the left the divided scores: every cell above the diagonal "
        "is grey and reads -inf, a key the query may not see. On the right the shares: token 1 "
        f"gives itself {shares[0, 0]:.4f}, row 2 gives token 1 {shares[1, 0]:.4f} and itself "
        f"{shares[1, 1]:.4f}, and row 4, which sees every key, keeps the chapter's "
        f"{shares[3, 0]:.4f} on token 1."
    )
    caption = (
        "The chapter's square with each query kept from the keys after it. A hidden score is "
        "-inf, so its share is exactly 0 and the rest of the row still adds to one. Rows 2 and "
        f"4 (outlined) no longer match: row 2 gives token 1 {shares[1, 0]:.4f}, row 4 "
        f"{shares[3, 0]:.4f}."
    )
    data = {"labels": labels, "scores": scores.tolist(), "shares": shares.tolist()}
    return Figure("mask", _svg(fig, "mask", alt), alt, caption, data)


@cache
def parting_figure() -> Figure:
    """Rows 2 and 4's shares under each scheme of `attend positions`, side by side."""
    table = tables.positions()
    fig, axes = _figure(len(table.partings), width=9.2, height=3.6)
    for ax, part in zip(axes, table.partings, strict=True):
        name = "no positions" if part.scheme == "none" else part.scheme
        _pair(ax, part.attended.shares, part.rows, f"{name}: {part.share_gap:.4f} apart")
    axes[0].set_ylabel("share of the row", fontsize=TEXT)
    axes[0].legend(frameon=False, fontsize=TEXT, loc="upper right")
    none, sines, turns = table.partings
    alt = (
        "Three bar charts, one per scheme of positions, each giving rows 2 and 4's shares of "
        "keys 1 to 4 as two bars side by side. With no positions the two rows' bars are the "
        f"same height everywhere, {none.share_gap:.4f} apart at most. Sinusoidal positions "
        f"part them by at most {sines.share_gap:.4f}, rotary positions by {turns.share_gap:.4f}."
    )
    caption = (
        "How far rows 2 and 4 part under each scheme: the largest difference between their "
        f"shares is {none.share_gap:.4f} with no positions, {sines.share_gap:.4f} with "
        f"sinusoidal ones and {turns.share_gap:.4f} with rotary ones, on the chapter's line "
        "and hand-typed matrices."
    )
    data = {
        "schemes": [p.scheme for p in table.partings],
        "row 2": [p.attended.shares[p.rows[0] - 1].tolist() for p in table.partings],
        "row 4": [p.attended.shares[p.rows[1] - 1].tolist() for p in table.partings],
        "largest share apart": [p.share_gap for p in table.partings],
    }
    return Figure("parting", _svg(fig, "parting", alt), alt, caption, data)


def _scale(fig: MplFigure, ax: Axes, name: str) -> None:
    """A colour bar beside a heat map drawn by `_heat`, grey kept for the hidden cells."""
    image = ax.images[0]
    image.set_cmap(image.get_cmap().with_extremes(bad=HIDDEN))
    bar = fig.colorbar(image, ax=ax, shrink=0.8)
    bar.set_label(name, fontsize=TEXT)
    bar.ax.tick_params(labelsize=TEXT)


def _pair(ax: Axes, shares: np.ndarray, rows: tuple[int, int], title: str) -> None:
    """Two rows' shares of every key as bars side by side, on one scale from 0 to 1."""
    keys = np.arange(1, shares.shape[1] + 1)
    for offset, row, colour in ((-0.2, rows[0], ROW_TWO), (0.2, rows[1], ROW_FOUR)):
        ax.bar(keys + offset, shares[row - 1], width=0.4, color=colour, label=f"row {row}")
    ax.set_ylim(0.0, 1.0)
    ax.set_xticks(keys, [str(k) for k in keys], fontsize=TEXT)
    ax.tick_params(axis="y", labelsize=TEXT)
    ax.set_xlabel("key (token number)", fontsize=TEXT)
    ax.set_title(title, fontsize=TEXT + 1)
    ax.grid(True, axis="y", color="#e5e5e5", linewidth=0.6)
    ax.set_axisbelow(True)
