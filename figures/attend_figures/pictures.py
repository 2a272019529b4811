"""The book's pictures, drawn at build from the package's own calls.

No image file is committed. Each function below runs the same `attend` call whose table the
page prints, draws what came back with matplotlib's SVG backend, and returns a `Figure`:
the inline SVG (with a title and an aria-label, so a screen reader gets the alt text), a
caption, and the numbers it plotted. `tests/docs/test_figures.py` holds those numbers
against the table `attend` prints, so a picture cannot drift from the page it sits on.

A page embeds one with a markdown-exec fence:

    ```python exec="on" html="1"
    from attend_figures import cost_figure
    print(cost_figure().html())
    ```

The numbers ride along in the printed HTML, in a comment after the `<figure>`; the book's
build lifts that comment out before the page is written and checks the caption against it,
so nothing here depends on the build. The SVG is made deterministic (a fixed hash salt per
figure, no date in the metadata), so building twice gives the same bytes.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.figure import Figure as MplFigure
from matplotlib.patches import ConnectionPatch, Rectangle

from attend import (
    chapter_head,
    chapter_row,
    chapter_tokens,
    cost_sweep,
    crossover,
    load_tokenizer,
    scale_experiment,
)

SCALE_WIDTHS = (4, 16, 64, 256)  # the widths `attend scale` prints by default
COST_ROWS = tuple(2**p for p in range(2, 13))  # 4, 8, ..., 4,096 tokens

DIVIDED, UNDIVIDED = "#1f6feb", "#d1495b"  # one colour per side of the divide, on every figure
LINEAR, QUADRATIC = "#1f6feb", "#d1495b"

_STYLE: Any = {  # matplotlib rcParams
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "svg.fonttype": "none",  # text stays text: small, selectable, searchable by the reader
    "figure.facecolor": "white",
    "axes.facecolor": "white",
}


@dataclass(frozen=True)
class Figure:
    """One picture: inline SVG, the words that stand in for it, and what it plotted."""

    name: str
    svg: str
    alt: str
    caption: str
    data: dict[str, Any] = field(repr=False)

    def data_text(self) -> str:
        """What the picture plotted, as text a check can read: one line per series, every
        float at four places as the tables print them, so a number in a caption or alt text
        can be traced to a value the figure drew."""
        return "\n".join(f"{key}: {_as_text(value)}" for key, value in self.data.items())

    def html(self, live: str = "") -> str:
        """The picture as a `<figure>` a page can print straight into its HTML, with `live` (a
        control, from `attend_figures.controls`) under the caption. The plotted data follows in
        a comment for the book's build, which takes it out before the page is written."""
        parts = [
            f'<figure class="attend-figure" id="figure-{self.name}">',
            self.svg,
            f"<figcaption>{html.escape(self.caption)}</figcaption>",
            *([live] if live else []),
            "</figure>",
            f"<!-- attend-figure-data\n{self.data_text()}\n-->",
        ]
        return "\n".join(parts)


def _as_text(value: Any) -> str:
    """Nested lists and tuples flattened to one line; floats at four places, the rest as is."""
    if isinstance(value, (list, tuple)):
        return " ".join(_as_text(v) for v in value)
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def label(token_id: int, width: int = 14) -> str:
    """A token as the tables show it: its bytes in quotes, cut short with an ellipsis."""
    text = load_tokenizer().piece(token_id).decode("utf-8", errors="replace")
    return f'"{text}"' if len(text) <= width else f'"{text[: width - 1]}…"'


@cache
def square_figure() -> Figure:
    """The score square as `attend square` prints it, before and after the divide."""
    run = chapter_head(divide=True).attend(chapter_row())
    labels = [label(t) for t in chapter_tokens()]
    fig, axes = _figure(2, width=8.6, height=3.9)
    _heat(axes[0], run.raw, labels, "every query dotted with every key", "magma_r")
    _heat(axes[1], run.scaled, labels, f"the same, divided by {run.div:.4f}", "magma_r")
    alt = (
        "Two heat maps of the 4 by 4 score square, token labels on both axes: the raw "
        "scores on the left and the same scores divided by 2 on the right. The darkest "
        f"cells are row 2 and row 4 against token 1, {run.raw[1, 0]:.4f} before the divide "
        f"and {run.scaled[1, 0]:.4f} after; rows 2 and 4 are the same colours cell for cell."
    )
    caption = (
        "The score square: row i is token i's query against every key. The divide by "
        f"{run.div:.0f} halves every cell and changes no pattern; rows 2 and 4 (outlined) "
        "match cell for cell."
    )
    data = {"labels": labels, "raw": run.raw.tolist(), "scaled": run.scaled.tolist()}
    return Figure("square", _svg(fig, "square", alt), alt, caption, data)


@cache
def shares_figure() -> Figure:
    """The shares as `attend scores` and `attend scores --no-scale` print them, side by side."""
    divided = chapter_head(divide=True).attend(chapter_row())
    undivided = chapter_head(divide=False).attend(chapter_row())
    labels = [label(t) for t in chapter_tokens()]
    fig, axes = _figure(2, width=8.6, height=3.9)
    _heat(
        axes[0],
        divided.attn,
        labels,
        f"shares, divided by {divided.div:.0f}",
        "viridis_r",
        vmin=0.0,
        vmax=1.0,
    )
    _heat(axes[1], undivided.attn, labels, "shares, the divide left off", "viridis_r", vmin=0.0, vmax=1.0)
    alt = (
        "Two heat maps of the 4 by 4 shares, token labels on both axes, each row adding to "
        f"one. With the divide, row 2's biggest share is {divided.attn[1, 0]:.4f} on token 1; "
        f"without it the same cell is {undivided.attn[1, 0]:.4f}. In both maps rows 2 and 4 "
        "are identical, because tokens 2 and 4 arrive with the same four numbers."
    )
    caption = (
        "Each row as shares of one, with the divide (left) and without it (right), on one "
        "colour scale from 0 to 1. Leaving the divide off sharpens every row; rows 2 and 4 "
        "(outlined) stay identical either way, because nothing here knows where a token sits."
    )
    data = {
        "labels": labels,
        "divided": divided.attn.tolist(),
        "undivided": undivided.attn.tolist(),
    }
    return Figure("shares", _svg(fig, "shares", alt), alt, caption, data)


@cache
def scale_figure(widths: Sequence[int] = SCALE_WIDTHS) -> Figure:
    """The divide experiment as `attend scale` prints it: spread and biggest share by width."""
    rows = scale_experiment(widths)
    w = [r.width for r in rows]
    fig, (spread, biggest) = _figure(2, width=8.6, height=3.4)
    spread.set_yscale("log", base=2)  # log-log: growth as √width is a line of slope ½
    for ax in (spread, biggest):
        ax.set_xscale("log", base=2)
        ax.set_xticks(w, [str(x) for x in w])
        ax.minorticks_off()
        ax.set_xlabel("key width (log scale)")
        ax.grid(True, color="#e5e5e5", linewidth=0.6)
    spread.plot(w, [r.divided.spread for r in rows], "o-", color=DIVIDED, label="divided by √width")
    spread.plot(
        w, [r.undivided.spread for r in rows], "s--", color=UNDIVIDED, label="the divide left off (slope ½)"
    )
    levels = [2, 4, 8, 16, 32]
    spread.set_yticks(levels, [str(y) for y in levels])
    spread.set_ylabel("spread of a row (log scale)")
    spread.set_title("how far apart a row's scores sit")
    spread.legend(frameon=False)
    biggest.plot(w, [r.divided.biggest for r in rows], "o-", color=DIVIDED, label="divided by √width")
    biggest.plot(w, [r.undivided.biggest for r in rows], "s--", color=UNDIVIDED, label="the divide left off")
    biggest.set_ylim(0.0, 1.0)
    biggest.axhline(1.0, color="#999999", linewidth=0.6)
    biggest.set_ylabel("biggest share in a row (mean)")
    biggest.set_title("how much the top token takes")
    biggest.legend(frameon=False, loc="lower right")
    first, last = rows[0], rows[-1]
    alt = (
        "Two line charts against key width on a log scale, the spread on a log scale too, "
        f"{', '.join(map(str, w))}. Divided by the square root of the width, the spread of a "
        f"row stays near {first.divided.spread:.1f} to {last.divided.spread:.1f} and the "
        f"biggest share near {first.divided.biggest:.2f} to {last.divided.biggest:.2f}. "
        f"Without the divide the spread climbs from {first.undivided.spread:.1f} to "
        f"{last.undivided.spread:.1f} and the biggest share from "
        f"{first.undivided.biggest:.2f} to {last.undivided.biggest:.2f}."
    )
    caption = (
        f"The same {1000:,} draws per width, divided and not. Left, on log-log axes: with the "
        "divide a row's scores keep one spread at every width; without it the spread is a "
        "straight line of slope ½, the square root of the width. Right: without the divide "
        "the softmax all but picks one token."
    )
    data = {
        "widths": w,
        "divided": [(r.divided.spread, r.divided.biggest, r.divided.confident) for r in rows],
        "undivided": [(r.undivided.spread, r.undivided.biggest, r.undivided.confident) for r in rows],
    }
    return Figure("scale", _svg(fig, "scale", alt), alt, caption, data)


@cache
def cost_figure(rows: Sequence[int] = COST_ROWS) -> Figure:
    """The counted cost as `attend cost --rows 4,...,4096` prints it, on log–log axes."""
    costs = cost_sweep(rows)
    n = [c.length for c in costs]
    where = crossover()
    fig, (ax,) = _figure(1, width=7.2, height=4.2)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=10)
    ax.set_xticks(n, [f"{x:,}" for x in n])
    ax.minorticks_off()
    ax.grid(True, color="#e5e5e5", linewidth=0.6)
    ax.plot(
        n, [c.project for c in costs], "o-", color=LINEAR, label="q, k and v: the projections (grow as n)"
    )
    ax.plot(
        n,
        [c.quadratic for c in costs],
        "s-",
        color=QUADRATIC,
        label="the pairs: scores and mixing (grow as n²)",
    )
    at = cost_sweep([where])[0]  # the row where the pairs first outgrow the projections
    ax.axvline(where, color="#333333", linewidth=0.8, linestyle="--")
    ax.plot([where, where], [at.project, at.quadratic], "D", color="#333333", markersize=4)
    ax.annotate(
        f"n = {where}: the pairs ({at.quadratic:,})\novertake the projections ({at.project:,})",
        xy=(where, at.quadratic),
        xytext=(where * 2.6, at.project * 0.42),
        fontsize=8,
        arrowprops={"arrowstyle": "-", "color": "#333333", "linewidth": 0.6},
    )
    ax.set_xlabel("tokens in the row (log scale)")
    ax.set_ylabel("multiply-adds, counted (log scale)")
    ax.set_title("one head's work against the length of the row")
    ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(0.12, 1.0))  # clear of n = 7
    last = costs[-1]
    alt = (
        f"A log-log line chart of multiply-adds against tokens, {n[0]:,} to {n[-1]:,}. "
        f"The projections rise as a straight line of slope one to {last.project:,} at "
        f"{last.length:,} tokens; the pairs rise twice as steeply to {last.quadratic:,}. "
        f"A dashed line at n = {where} marks where the pairs overtake the projections."
    )
    caption = (
        "Multiply-adds the head counted on the front of the chronicle, from "
        f"{n[0]:,} to {n[-1]:,} tokens. On log–log axes a line's slope is its power: the "
        f"projections climb with slope 1, the pairs with slope 2, and they cross at n = {where}."
    )
    data = {
        "crossover": where,
        "at_crossover": (at.length, at.project, at.quadratic),
        "rows": [(c.length, c.project, c.quadratic, c.total) for c in costs],
    }
    return Figure("cost", _svg(fig, "cost", alt), alt, caption, data)


@cache
def flow_figure() -> Figure:
    """One real run of the chapter's head drawn as it flows: rows, q/k/v, square, shares, out."""
    run = chapter_head(divide=True).attend(chapter_row())
    labels = [label(t, width=8) for t in chapter_tokens()]
    with plt.rc_context(_STYLE):
        fig = plt.figure(figsize=(8.6, 4.6), layout="constrained")
        grid = fig.add_gridspec(3, 5)
        x = fig.add_subplot(grid[1, 0])
        q, k, v = (fig.add_subplot(grid[r, 1]) for r in range(3))
        scores, shares, out = (fig.add_subplot(grid[1, c]) for c in (2, 3, 4))
    panels = [
        (x, run.x, "token rows (typed)"),
        (q, run.q, "queries  x·Wqᵀ"),
        (k, run.k, "keys  x·Wkᵀ"),
        (v, run.v, "values  x·Wvᵀ"),
        (scores, run.scaled, f"scores ÷ {run.div:.0f}"),
        (shares, run.attn, "shares (softmax)"),
        (out, run.out, "values mixed"),
    ]
    for ax, square, title in panels:
        _cells(ax, square, title, labels if ax is x else None)
    arrows = [(x, q), (x, k), (x, v), (q, scores), (k, scores), (scores, shares), (shares, out)]
    for start, end in arrows:
        fig.add_artist(
            ConnectionPatch(
                xyA=(1.02, 0.5),
                coordsA=start.transAxes,
                xyB=(-0.04, 0.5),
                coordsB=end.transAxes,
                arrowstyle="->",
                color="#666666",
                linewidth=0.8,
            )
        )
    fig.add_artist(
        ConnectionPatch(  # the values go round the square, straight to the mixing
            xyA=(1.02, 0.5),
            coordsA=v.transAxes,
            xyB=(0.5, -0.06),
            coordsB=out.transAxes,
            arrowstyle="->",
            color="#666666",
            linewidth=0.8,
            connectionstyle="angle,angleA=0,angleB=90",
        )
    )
    alt = (
        "A diagram of one run of the head, left to right, every cell printed. The four typed "
        "token rows feed three matrices, giving four queries, four keys and four values. "
        "Queries and keys meet in the 4 by 4 score square, divided by "
        f"{run.div:.0f}; softmax turns each of its rows into shares, and the shares mix the "
        f"values. Row 2, the 0, scores {run.scaled[1, 0]:.4f} against token 1, gives it a "
        f"share of {run.attn[1, 0]:.4f}, and leaves with {run.out[1, 1]:.4f} in its second "
        "slot, carries a year, where it arrived with 0."
    )
    caption = (
        "The whole head on the chapter's four tokens, drawn from one run: each token row "
        "becomes a query, a key and a value; every query meets every key in the score square; "
        "each row of the square becomes shares of one; the shares mix the values. Cells are "
        "rounded to two places; the tables print four."
    )
    data = {
        "labels": labels,
        **{name: getattr(run, name).tolist() for name in ("x", "q", "k", "v", "scaled", "attn", "out")},
    }
    return Figure("flow", _svg(fig, "flow", alt), alt, caption, data)


def _cells(ax: Axes, square: npt.NDArray[np.float64], title: str, labels: Sequence[str] | None) -> None:
    """A small matrix as a grid of pale cells, each value printed to two places."""
    with plt.rc_context(_STYLE):
        top = float(np.abs(square).max()) or 1.0
        _grid(ax, square, np.abs(square), "Blues", (0.0, top * 1.6), places=2, fontsize=6.5)
        ax.set_xticks([])
        if labels is None:
            ax.set_yticks([])
        else:
            ax.set_yticks(range(len(labels)), _numbered(labels), fontsize=7)
        ax.set_title(title, fontsize=8)


def _figure(panels: int, width: float, height: float) -> tuple[MplFigure, list[Axes]]:
    with plt.rc_context(_STYLE):
        fig, axes = plt.subplots(1, panels, figsize=(width, height), layout="constrained", squeeze=False)
    return fig, list(axes[0])


def _heat(
    ax: Axes,
    square: npt.NDArray[np.float64],
    labels: Sequence[str],
    title: str,
    cmap: str,
    vmin: float | None = None,
    vmax: float | None = None,
) -> None:
    """One square as a heat map, each cell printed to four places as the tables print it."""
    with plt.rc_context(_STYLE):
        lo = float(square.min()) if vmin is None else vmin
        hi = float(square.max()) if vmax is None else vmax
        _grid(ax, square, square, cmap, (lo, hi), places=4, fontsize=8, white_above=(lo + hi) / 2)
        n = len(labels)
        ticks = list(range(n))
        ax.set_xticks(ticks, [str(j + 1) for j in ticks])
        ax.set_yticks(ticks, _numbered(labels))
        ax.set_xlabel("key (token number)")
        ax.set_title(title)
        for row in (1, 3):  # rows 2 and 4: the bare digits, the same four numbers
            ax.add_patch(Rectangle((-0.5, row - 0.5), n, 1, fill=False, edgecolor="#00b3b3", linewidth=2.0))


def _grid(
    ax: Axes,
    square: npt.NDArray[np.float64],
    shade: npt.NDArray[np.float64],
    cmap: str,
    limits: tuple[float, float],
    places: int,
    fontsize: float,
    white_above: float | None = None,
) -> None:
    """Cells coloured by `shade`, each with its value of `square` printed in it (in white above
    `white_above`, to stay legible on dark cells). The printed numbers are the scale, so no tick
    marks and no frame."""
    ax.imshow(shade, cmap=cmap, vmin=limits[0], vmax=limits[1])
    rows, cols = square.shape
    for i in range(rows):
        for j in range(cols):
            value = float(square[i, j])
            colour = None if white_above is None else "white" if value > white_above else "black"
            ax.text(j, i, f"{value:.{places}f}", ha="center", va="center", fontsize=fontsize, color=colour)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)


def _numbered(labels: Sequence[str]) -> list[str]:
    """Row labels as the tables write them: the token's number, then the token."""
    return [f"{i + 1} {t}" for i, t in enumerate(labels)]


def _svg(fig: MplFigure, name: str, alt: str) -> str:
    """The figure as inline SVG: deterministic, scalable, with a title and an aria-label."""
    out = io.StringIO()
    with plt.rc_context({**_STYLE, "svg.hashsalt": f"attend-{name}"}):
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    svg = out.getvalue()
    svg = svg[svg.index("<svg") :]  # drop the XML declaration and DOCTYPE: this goes inline
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.DOTALL)
    svg = re.sub(r'\s(width|height)="[\d.]+pt"', "", svg, count=2)
    # Several figures share a page: give every id (and every reference to one) the figure's
    # name, so no two inline SVGs on a page claim the same id.
    prefix = f"figure-{name}-"
    svg = re.sub(r'\bid="([^"]+)"', rf'id="{prefix}\1"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", rf"url(#{prefix}\1)", svg)
    svg = re.sub(r'href="#([^"]+)"', rf'href="#{prefix}\1"', svg)
    svg = svg.replace(
        "<svg ",
        f'<svg role="img" aria-label="{html.escape(alt)}" class="attend-figure__svg" '
        'style="width: 100%; height: auto" ',
        1,
    )
    head_end = svg.index(">", svg.index("<svg")) + 1
    return f"{svg[:head_end]}\n<title>{html.escape(alt)}</title>{svg[head_end:]}"
