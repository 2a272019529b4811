"""The book's pictures, drawn at build from the package's own calls.

No image file is committed. Each function below runs the same `attend` call whose table the
page prints, draws what came back with matplotlib's SVG backend, and returns a `Figure`:
one or more panels of inline SVG, the alt text and caption that stand in for them, and the
numbers they plotted. `tests/docs/test_figures.py` holds those numbers against the table
`attend` prints, so a picture cannot drift from the page it sits on, and holds every number
of the caption and alt text against those same numbers: the words below format computed
values and never type one.

Every panel is drawn at its size on screen, one SVG unit to one CSS pixel, and is never
scaled to its column: a label set at 11 stays 11 px tall on a phone and on a laptop. A panel
is at most `PANEL_WIDTH` wide, so a figure's panels sit side by side where the column has
room and stack where it has not (docs/stylesheets/book.css).

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
import math
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
from matplotlib.colors import Colormap
from matplotlib.figure import Figure as MplFigure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from attend import (
    chapter_embeddings,
    chapter_head,
    chapter_tokens,
    cost_sweep,
    crossover,
    load_tokenizer,
    scale_experiment,
)

SCALE_WIDTHS = (4, 16, 64, 256)  # the widths `attend scale` prints by default
SCALE_DRAWS = 1000  # draws per width, as `attend scale` makes them
COST_ROWS = tuple(2**p for p in range(2, 13))  # 4, 8, ..., 4,096 tokens

TABLE_PLACES = 4  # the places the tables print, and the heat maps with them
SHARE_RANGE = (0.0, 1.0)  # every attention weight lies here: one colour scale, scaled or not
WEIGHTS_MAP = "viridis_r"  # the colours of every attention-weight map of the book

PANEL_WIDTH = 330  # CSS px: two panels side by side in a laptop's column, one on a phone
SMALLEST_TEXT = 11  # CSS px: the least size of any letter or digit drawn
INCH = 72  # SVG units per inch of a matplotlib figure, each drawn as one CSS pixel

DIVIDED, UNDIVIDED = "#1f6feb", "#d1495b"  # one colour for scaled, one for not, on every figure
LINEAR, QUADRATIC = "#1f6feb", "#d1495b"
MARKER = "#333333"

_STYLE: Any = {  # matplotlib rcParams
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": SMALLEST_TEXT,
    "axes.titlesize": SMALLEST_TEXT + 1,
    "axes.labelsize": SMALLEST_TEXT,
    "xtick.labelsize": SMALLEST_TEXT,
    "ytick.labelsize": SMALLEST_TEXT,
    "legend.fontsize": SMALLEST_TEXT,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "svg.fonttype": "none",  # text stays text: selectable, searchable, and measured by the tests
    "figure.facecolor": "white",
    "axes.facecolor": "white",
}

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
# A weight matrix or a width as the pages write them, $W_Q$ and $d_k$, in matplotlib's mathtext:
# set large enough that the subscript, which mathtext draws at 0.7 of the size, is still SMALLEST_TEXT.
SYMBOL = re.compile(r"(W)_([QKVOU])|(d)_([kv])")
MATH_SIZE = math.ceil(SMALLEST_TEXT / 0.7)


@dataclass(frozen=True)
class Figure:
    """One picture: its SVG panels, the words that stand in for them, and what they plotted."""

    name: str
    panels: tuple[str, ...]
    alt: str
    caption: str
    data: dict[str, Any] = field(repr=False)
    link: tuple[str, str] | None = None  # (words, address): a page the caption ends by linking to

    def drawing(self) -> str:
        """The panels in one box that a screen reader reads as one image, by its alt text."""
        return (
            f'<div class="attend-figure__panels" role="img" aria-label="{html.escape(self.alt)}">\n'
            + "\n".join(self.panels)
            + "\n</div>"
        )

    def html(self, live: str = "") -> str:
        """The picture as a `<figure>` a page can print straight into its HTML, with `live` (a
        control, from `attend_figures.controls`) under the caption."""
        link = f' <a href="{html.escape(self.link[1])}">{html.escape(self.link[0])}</a>.' if self.link else ""
        caption = SYMBOL.sub(_mathml, html.escape(self.caption))
        parts = [
            f'<figure class="attend-figure" id="figure-{self.name}">',
            self.drawing(),
            f"<figcaption>{caption}{link}</figcaption>",
            *([live] if live else []),
            "</figure>",
        ]
        return "\n".join(parts)


def _parts(symbol: re.Match[str]) -> tuple[str, str]:
    """A symbol's letter and its subscript: W and Q of `W_Q`, d and k of `d_k`."""
    letter, under = symbol[1] or symbol[3], symbol[2] or symbol[4]
    return letter, under


def _mathml(symbol: re.Match[str]) -> str:
    """A symbol of a caption (`W_Q`, `d_k`) as the pages' math renders it: MathML, the letter and
    its subscript."""
    letter, under = _parts(symbol)
    return (
        '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">'
        f"<mrow><msub><mi>{letter}</mi><mi>{under}</mi></msub></mrow></math>"
    )


def label(token_id: int, width: int = 14) -> str:
    """A token as the tables show it: its bytes in quotes, cut short with an ellipsis."""
    text = load_tokenizer().piece(token_id).decode("utf-8", errors="replace")
    return f'"{text}"' if len(text) <= width else f'"{text[: width - 1]}…"'


def slope(x: Sequence[float], y: Sequence[float]) -> float:
    """The slope of y against x on log–log axes, fitted: a power law's power."""
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def twins(square: npt.NDArray[np.float64]) -> tuple[int, ...]:
    """The rows (counted from 1) equal cell for cell to another row: tokens that arrived alike."""
    rows = [tuple(r) for r in square.tolist()]
    return tuple(i + 1 for i, r in enumerate(rows) if rows.count(r) > 1)


def _rows_words(rows: Sequence[int]) -> str:
    """Row labels as a sentence writes them."""
    return " and ".join(map(str, rows))


@cache
def square_figure() -> Figure:
    """The score matrix as `attend square` prints it, before and after scaling."""
    run = chapter_head(divide=True).attend(chapter_embeddings())
    labels = [label(t) for t in chapter_tokens()]
    same = twins(run.raw)
    n = len(labels)
    top_row, top_key = (int(i) + 1 for i in np.unravel_index(np.argmax(run.raw), run.raw.shape))
    panels = (
        _heat_panel("square-raw", run.raw, labels, "every query dotted with every key", "magma_r", same),
        _heat_panel(
            "square-scaled", run.scaled, labels, f"the same, scaled: divided by {run.div:g}", "magma_r", same
        ),
    )
    alt = (
        f"{len(panels)} heat maps of the {n} by {n} score matrix, token labels on both axes, each with its "
        f"colour bar: the raw scores on the left and the same scores divided by {run.div:g} on "
        f"the right. The darkest cells are rows {_rows_words(same)} against token {top_key}, "
        f"{run.raw[top_row - 1, top_key - 1]:.4f} before scaling and "
        f"{run.scaled[top_row - 1, top_key - 1]:.4f} after; rows {_rows_words(same)} are the "
        "same colours cell for cell."
    )
    caption = (
        "The score matrix: row i is token i's query against every key. Dividing by "
        f"{run.div:g} scales every score by the same factor, so each row keeps its order and each "
        "panel, on its own colour bar, looks the same; the attention weights do change, since "
        f"softmax sees the differences between scores shrink. Rows {_rows_words(same)} (outlined) "
        "match cell for cell."
    )
    data = {
        "labels": labels,
        "size": n,
        "div": run.div,
        "twins": same,
        "top": (top_row, top_key),
        "raw": run.raw.tolist(),
        "scaled": run.scaled.tolist(),
    }
    return Figure("square", panels, alt, caption, data)


@cache
def weights_figure() -> Figure:
    """The attention weights as `attend scores` and `attend scores --no-scale` print them."""
    divided = chapter_head(divide=True).attend(chapter_embeddings())
    undivided = chapter_head(divide=False).attend(chapter_embeddings())
    labels = [label(t) for t in chapter_tokens()]
    same = twins(divided.weights)
    n = len(labels)
    lo, hi = SHARE_RANGE
    row = same[0]  # the first of the rows that arrived alike
    key = int(np.argmax(divided.weights[row - 1])) + 1
    panels = (
        _heat_panel(
            "weights-divided",
            divided.weights,
            labels,
            f"weights, scores divided by {divided.div:g}",
            WEIGHTS_MAP,
            same,
            SHARE_RANGE,
        ),
        _heat_panel(
            "weights-undivided",
            undivided.weights,
            labels,
            "weights, scores not scaled",
            WEIGHTS_MAP,
            same,
            SHARE_RANGE,
        ),
    )
    sums = divided.weights.sum(axis=1)
    alt = (
        f"{len(panels)} heat maps of the {n} by {n} attention weights, token labels on both axes, each row "
        f"adding to {sums.min():g}, under a colour bar from {lo:g} to {hi:g}. With scaling, row "
        f"{row}'s largest weight is {divided.weights[row - 1, key - 1]:.4f} on token {key}; without it "
        f"the same cell is {undivided.weights[row - 1, key - 1]:.4f}. In both maps rows "
        f"{_rows_words(same)} are identical, because those tokens arrive with the same embedding."
    )
    caption = (
        "Each row's attention weights, with the scores scaled (left) and not (right), on "
        f"a shared colour scale from {lo:g} to {hi:g}. Leaving the scaling out sharpens every row; "
        f"rows {_rows_words(same)} (outlined) stay identical either way, because nothing here "
        "knows where a token sits."
    )
    data = {
        "labels": labels,
        "size": n,
        "scale": SHARE_RANGE,
        "row sums": sums.tolist(),
        "twins": same,
        "top": (row, key),
        "divided": divided.weights.tolist(),
        "undivided": undivided.weights.tolist(),
    }
    return Figure("weights", panels, alt, caption, data)


@cache
def scale_figure(widths: Sequence[int] = SCALE_WIDTHS) -> Figure:
    """The scaling experiment as `attend scale` prints it: spread and largest weight by width."""
    rows = scale_experiment(widths, count=SCALE_DRAWS)
    w = [r.width for r in rows]
    steep = slope(w, [r.undivided.spread for r in rows])
    flat = slope(w, [r.divided.spread for r in rows])
    with plt.rc_context(_STYLE):
        fig_spread, spread = _panel(height=320)
        fig_biggest, biggest = _panel(height=320)
        for ax in (spread, biggest):
            ax.set_xscale("log", base=2)
            ax.set_xticks(w, [f"{x:,}" for x in w])
            ax.minorticks_off()
            ax.set_xlabel("key width (log scale)")
            ax.grid(True, color="#e5e5e5", linewidth=0.6)
        spread.set_yscale("log", base=2)  # log-log: growth as a power of the width is a line
        spread.plot(
            w, [r.divided.spread for r in rows], "o-", color=DIVIDED, label=f"scaled (slope {flat:.2f})"
        )
        spread.plot(
            w,
            [r.undivided.spread for r in rows],
            "s--",
            color=UNDIVIDED,
            label=f"not scaled (slope {steep:.2f})",
        )
        levels = 2.0 ** np.arange(
            np.floor(np.log2(min(r.divided.spread for r in rows))),
            np.ceil(np.log2(max(r.undivided.spread for r in rows))) + 1,
        )
        spread.set_yticks(levels, [f"{y:g}" for y in levels])
        spread.set_ylabel("spread of a row (log scale)")
        spread.set_title("how far apart a row's scores sit")
        spread.legend(frameon=False)
        biggest.plot(w, [r.divided.biggest for r in rows], "o-", color=DIVIDED, label="scaled by 1/√width")
        biggest.plot(w, [r.undivided.biggest for r in rows], "s--", color=UNDIVIDED, label="not scaled")
        lo, hi = SHARE_RANGE
        biggest.set_ylim(lo, hi)
        biggest.axhline(hi, color="#999999", linewidth=0.6)
        biggest.set_ylabel("largest weight in a row (mean)")
        biggest.set_title("how much the top token takes")
        biggest.legend(frameon=False, loc="lower right")
    panels = (_svg(fig_spread, "scale-spread"), _svg(fig_biggest, "scale-biggest"))
    first, last = rows[0], rows[-1]
    alt = (
        f"{len(panels)} line charts against key width on a log scale, the spread on a log scale too, "
        f"{', '.join(f'{x:,}' for x in w)}. Divided by the square root of the width, the spread of a "
        f"row stays near {first.divided.spread:.1f} to {last.divided.spread:.1f} and the "
        f"largest weight near {first.divided.biggest:.2f} to {last.divided.biggest:.2f}. "
        f"Not scaled, the spread climbs from {first.undivided.spread:.1f} to "
        f"{last.undivided.spread:.1f}, a line of slope {steep:.2f}, and the largest weight from "
        f"{first.undivided.biggest:.2f} to {last.undivided.biggest:.2f}."
    )
    caption = (
        f"The same {SCALE_DRAWS:,} draws per width, scaled and not. Left, on log-log axes: scaled, "
        f"a row's scores keep the same spread at every width (slope {flat:.2f}); not scaled, "
        f"the spread is a straight line of slope {steep:.2f}: it grows as the square root of the width. "
        "Right: not scaled, the softmax puts nearly all of a row's weight on its top token."
    )
    data = {
        "draws": SCALE_DRAWS,
        "slopes": (flat, steep),
        "widths": w,
        "divided": [(r.divided.spread, r.divided.biggest, r.divided.confident) for r in rows],
        "undivided": [(r.undivided.spread, r.undivided.biggest, r.undivided.confident) for r in rows],
    }
    return Figure("scale", panels, alt, caption, data)


def mark_id(length: int) -> str:
    """The name the cost figure gives its marker at `length`."""
    return f"mark-{length}"


def marker_ids(length: int) -> tuple[str, str]:
    """The ids the page holds for the cost figure's marker at `length` (`_svg` prefixes them)."""
    return f"{_prefix('cost')}{mark_id(length)}", f"{_prefix('cost')}{mark_id(length)}-line"


def _powers_of_ten(value: float, _: float) -> str:
    """A log axis's tick as 10 to a power, the power a superscript of the same text size."""
    return f"10{str(round(np.log10(value))).translate(_SUPERSCRIPT)}"


@cache
def cost_figure(rows: Sequence[int] = COST_ROWS, marked: Sequence[int] = ()) -> Figure:
    """The counted cost as `attend cost --lengths 4,...,4096` prints it, on log–log axes.

    Each length in `marked` gets a marker of its own (a line and the two counts at that
    length), hidden until the cost control shows the one its slider names.
    """
    costs = cost_sweep(rows)
    n = [c.length for c in costs]
    where = crossover()
    at = cost_sweep([where])[0]  # the length where the pairs first outgrow the projections
    before = cost_sweep([where - 1])[0] if where > 1 else None
    level = before is not None and before.quadratic == before.project  # a tie just before
    grows = (slope(n, [c.project for c in costs]), slope(n, [c.quadratic for c in costs]))
    with plt.rc_context(_STYLE):
        fig, ax = _panel(height=360)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=10)
        ax.set_xticks(n[::2], [f"{x:,}" for x in n[::2]])
        ax.minorticks_off()
        ax.yaxis.set_major_formatter(_powers_of_ten)
        ax.grid(True, color="#e5e5e5", linewidth=0.6)
        ax.plot(n, [c.project for c in costs], "o-", color=LINEAR, label=f"q, k, v (slope {grows[0]:.2f})")
        ax.plot(
            n, [c.quadratic for c in costs], "s-", color=QUADRATIC, label=f"q–k pairs (slope {grows[1]:.2f})"
        )
        ax.axvline(where, color=MARKER, linewidth=0.8, linestyle="--")
        ax.plot([where, where], [at.project, at.quadratic], "D", color=MARKER, markersize=4)
        ax.annotate(
            f"n = {where}: the\npairs overtake",
            xy=(where, at.quadratic),
            xytext=(where * 8, at.project * 0.75),  # below the projections, clear of both lines
            va="center",
            arrowprops={"arrowstyle": "-", "color": MARKER, "linewidth": 0.6},
        )
        for length, cost in zip(marked, cost_sweep(marked) if marked else [], strict=True):
            ax.axvline(length, color=MARKER, linewidth=1.6, gid=f"{mark_id(length)}-line")
            ax.plot(
                [length] * 2,
                [cost.project, cost.quadratic],
                "o",
                color=MARKER,
                markersize=7,
                gid=mark_id(length),
            )
        ax.set_xlim(n[0] / 1.3, n[-1] * 1.3)
        ax.set_xlabel("tokens in the sequence, n (log scale)")
        ax.set_ylabel("multiply-adds (log scale)")
        ax.set_title("one head's work against n")
        ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(0.14, 1.0))  # clear of the crossover
    last = costs[-1]
    alt = (
        f"A log-log line chart of multiply-adds against tokens, {n[0]:,} to {n[-1]:,}. "
        f"The projections rise as a straight line of slope {grows[0]:.2f} to {last.project:,} at "
        f"{last.length:,} tokens; the query–key pairs rise with slope {grows[1]:.2f} to {last.quadratic:,}. "
        f"A dashed line at n = {where} marks where the pairs ({at.quadratic:,}) overtake the "
        f"projections ({at.project:,})."
    )
    caption = (
        "Multiply-adds the head counted on the front of the chronicle, from "
        f"{n[0]:,} to {n[-1]:,} tokens. On log–log axes a line's slope is its power: the "
        f"projections climb with slope {grows[0]:.2f}, the query–key pairs with slope {grows[1]:.2f}; "
        + (
            f"they are level at n = {where - 1} and the pairs lead from n = {where} on."
            if level
            else f"the pairs lead from n = {where} on."
        )
    )
    data = {
        "crossover": where,
        "slopes": grows,
        "at_crossover": (at.length, at.project, at.quadratic),
        "level": (before.length, before.project) if level and before is not None else None,
        "rows": [(c.length, c.project, c.quadratic, c.total) for c in costs],
    }
    return Figure("cost", (_svg(fig, "cost"),), alt, caption, data)


def written(ax: Axes, x: float, y: float, text: str, ha: str = "left", **style: Any) -> float:
    """`text` on one baseline at `y`, each weight matrix in it (`W_Q`) written as the pages write
    it, in mathtext at `MATH_SIZE`; the rest as given. Returns where the text ends, in the
    canvas's units (CSS px on a `diagrams._canvas`)."""
    renderer = ax.get_figure().canvas.get_renderer()  # type: ignore[union-attr]
    to_units = ax.transData.inverted()

    def width(shown: Text) -> float:
        box = shown.get_window_extent(renderer=renderer)
        (left, _), (right, _) = to_units.transform([(box.x0, box.y0), (box.x1, box.y0)])
        return float(abs(right - left))

    def space() -> float:  # an SVG text drops a space at either end: each is a gap instead
        with_space, without = ax.text(0, y, "x x", **style), ax.text(0, y, "xx", **style)
        wide = width(with_space) - width(without)
        with_space.remove()
        without.remove()
        return wide

    gap = space()
    drawn: list[tuple[Text, float, float, float]] = []  # a text, the gap before it, its width, the gap after
    for piece in (piece for piece in re.split(r"(W_[QKVOU]|d_[kv])", text) if piece):
        symbol = SYMBOL.fullmatch(piece)
        core = piece.strip()
        size = {"fontsize": MATH_SIZE} if symbol else {}
        math = "${}_{}$".format(*_parts(symbol)) if symbol else core
        shown = ax.text(0, y, math, va="baseline", **{**style, **size})
        lead, trail = len(piece) - len(piece.lstrip()), len(piece) - len(piece.rstrip())
        drawn.append((shown, lead * gap, width(shown) if core else 0.0, trail * gap))
    at = x - {"left": 0.0, "center": 0.5, "right": 1.0}[ha] * sum(b + w + a for _, b, w, a in drawn)
    for shown, before, wide, after in drawn:
        shown.set_x(at + before)
        at += before + wide + after
    return at


def _panel(height: float, width: float = PANEL_WIDTH) -> tuple[MplFigure, Axes]:
    """One panel, `width` by `height` CSS px (call inside the style's rc_context)."""
    fig, ax = plt.subplots(figsize=(width / INCH, height / INCH), layout="constrained")
    return fig, ax


def _heat_panel(
    name: str,
    square: npt.NDArray[np.float64],
    labels: Sequence[str],
    title: str,
    cmap: str | Colormap,
    outlined: Sequence[int],
    limits: tuple[float, float] | None = None,
    *,
    places: int | None = TABLE_PLACES,
    height: float = 330,
) -> str:
    """One square as a heat map under its colour bar, each cell printed as the tables print it
    (`places`), or, for a square with too many cells to print (`places=None`), the colour bar
    alone carrying the values."""
    lo, hi = limits if limits is not None else (float(square.min()), float(square.max()))
    n = len(labels)
    with plt.rc_context(_STYLE):
        fig, ax = _panel(height=height)
        image = ax.imshow(square, cmap=cmap, vmin=lo, vmax=hi)
        if places is not None:
            _print_cells(ax, square, places, white_above=(lo + hi) / 2)
        ticks = list(range(n))
        ax.set_xticks(ticks, [str(j + 1) for j in ticks])
        ax.set_yticks(ticks, _numbered(labels))
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.set_xlabel("key (token number)")
        ax.set_title(title)
        for row in outlined:  # rows that arrived alike, drawn alike
            ax.add_patch(Rectangle((-0.5, row - 1.5), n, 1, fill=False, edgecolor="#00b3b3", linewidth=2.0))
        bar = fig.colorbar(image, ax=ax, orientation="horizontal", fraction=0.06, pad=0.02, aspect=30)
        bar_ticks = [float(t) for t in np.linspace(lo, hi, 3)]
        shown = [f"{t:.{places}f}" if places is not None else f"{t:g}" for t in bar_ticks]  # as cells read
        bar.set_ticks(bar_ticks, labels=shown)
        bar.outline.set_visible(False)
    return _svg(fig, name)


def _print_cells(
    ax: Axes, square: npt.NDArray[np.float64], places: int, white_above: float | None = None
) -> None:
    """Each cell's value printed in it (in white above `white_above`, legible on dark cells)."""
    rows, cols = square.shape
    for i in range(rows):
        for j in range(cols):
            value = float(square[i, j])
            colour = "black" if white_above is None or value <= white_above else "white"
            text = f"{value:.{places}f}".replace("-", "−")
            ax.text(j, i, text, ha="center", va="center", fontsize=SMALLEST_TEXT, color=colour)


def _numbered(labels: Sequence[str]) -> list[str]:
    """Row labels as the tables write them: the token's number, then the token."""
    return [f"{i + 1} {t}" for i, t in enumerate(labels)]


def _prefix(panel: str) -> str:
    return f"figure-{panel}-"


def _svg(fig: MplFigure, name: str) -> str:
    """A panel as inline SVG at its own size: deterministic, hidden from screen readers (the
    figure's box carries the alt text), one SVG unit to one CSS pixel."""
    out = io.StringIO()
    with plt.rc_context({**_STYLE, "svg.hashsalt": f"attend-{name}"}):
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    svg = out.getvalue()
    svg = svg[svg.index("<svg") :]  # drop the XML declaration and DOCTYPE: this goes inline
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.DOTALL)
    svg = re.sub(r'\s(width|height)="([\d.]+)pt"', r' \1="\2"', svg, count=2)  # units to CSS px
    # Several panels share a page: give every id (and every reference to one) the panel's
    # name, so no two inline SVGs on a page claim the same id.
    prefix = _prefix(name)
    svg = re.sub(r'\bid="([^"]+)"', rf'id="{prefix}\1"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", rf"url(#{prefix}\1)", svg)
    svg = re.sub(r'href="#([^"]+)"', rf'href="#{prefix}\1"', svg)
    return svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" class="attend-figure__svg" ', 1)
