"""Pictures of the ideas, not of a table: what happens to a token, drawn with its real numbers.

The other figures plot what a table prints. These draw the moves a reader has to picture before
any table makes sense: an embedding turned into its query, key and value; one query meeting every
key and the weights mixing the values; a matrix cut into heads and joined again by W_O; a pair of
a query's dimensions turned on the plane by its position; the KV cache growing a token at a time.
Each is drawn from the package's own call on the book's tokens, so every number in a box is one
the head computed, and each keeps the rules of `attend_figures.pictures`: panels drawn at their
size on screen, no text under 11 px, and a caption and alt text formatted from the data the
figure carries.

Boxes and arrows are placed on a canvas whose units are CSS pixels (`_canvas`), so a layout reads
as the page will show it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt
from matplotlib import pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure as MplFigure
from matplotlib.patches import Circle, FancyArrowPatch, Rectangle

from attend import chapter_embeddings, chapter_head, chapter_heads, chapter_tokens, modes, rotary
from attend.book.experiments import chronicle_embeddings
from attend.core.positions import angles
from attend_figures.pictures import _STYLE, PANEL_WIDTH, Figure, _panel, _svg, label, written

PLACES = 2  # numbers in boxes: two places fit a box a phone can show four of
QUERY, KEY, VALUE = "#1f6feb", "#d1495b", "#2a9d55"  # one colour per role, on every diagram
HEADS = ("#1f6feb", "#e08a1e", "#7b52ab", "#2a9d55")  # head 1, 2, ... of a cut matrix
MADE, READ = "#1f6feb", "#d9d9d9"  # the cache: made this step, read from what was kept
INK = "#333333"
HIDDEN = "#8c8c8c"  # a key the mask hides: its line dashed, in a grey that still reads on white
CELL = 36  # CSS px: a box for one number at two places
CELL_HEIGHT = 24
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _sub(n: int) -> str:
    """`n` as a subscript, the way the formulas index a token."""
    return str(n).translate(_SUBSCRIPT)


def _number(value: float) -> str:
    """A box's number: at most two places, no trailing zeros, a true minus sign."""
    return f"{round(value, PLACES):g}".replace("-", "−")


def _listed(values: npt.ArrayLike) -> str:
    """A vector as the alt text reads it out: its numbers at two places, in brackets."""
    return "(" + ", ".join(_number(float(v)) for v in np.ravel(values)) + ")"


def _canvas(width: float, height: float) -> tuple[MplFigure, Axes]:
    """A blank panel whose data units are CSS pixels, y growing downwards as on a page."""
    fig = plt.figure(figsize=(width / 72, height / 72))
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    return fig, ax


def _boxes(
    ax: Axes,
    x: float,
    y: float,
    values: Sequence[float],
    edge: str,
    fills: Sequence[str | tuple[float, float, float]] | None = None,
    width: float = CELL,
) -> None:
    """A vector as a row of boxes from (x, y), each with its number."""
    for i, value in enumerate(values):
        fill = "white" if fills is None else fills[i]
        ax.add_patch(
            Rectangle((x + i * width, y), width, CELL_HEIGHT, facecolor=fill, edgecolor=edge, lw=1.2)
        )
        ax.text(x + (i + 0.5) * width, y + CELL_HEIGHT / 2, _number(value), ha="center", va="center")


def _arrow(ax: Axes, start: tuple[float, float], end: tuple[float, float], colour: str = INK) -> None:
    ax.add_patch(
        FancyArrowPatch(
            start, end, arrowstyle="-|>", mutation_scale=10, color=colour, lw=1.2, shrinkA=0, shrinkB=0
        )
    )


def _tint(colour: str, amount: float = 0.22) -> tuple[float, float, float]:
    """A light shade of `colour` that black text stays readable on."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return (1 - amount * (1 - r), 1 - amount * (1 - g), 1 - amount * (1 - b))


@cache
def projection_figure(token: int = 2) -> Figure:
    """One token's embedding multiplied by W_Q, W_K and W_V: its query, key and value."""
    run = chapter_head().attend(chapter_embeddings())
    t = token - 1
    made = (
        ("query", "W_Q", run.q[t], QUERY),
        ("key", "W_K", run.k[t], KEY),
        ("value", "W_V", run.v[t], VALUE),
    )
    d, dk = run.x.shape[1], run.q.shape[1]
    left, spine, top, gap = 96, 40, 30, 46
    words = label(chapter_tokens()[t])
    height = top + CELL_HEIGHT + gap * len(made) + 8
    with plt.rc_context(_STYLE):
        fig, ax = _canvas(PANEL_WIDTH, height)
        ax.text(8, 10, f"token {token}, {words}: its embedding", va="center")
        ax.text(left - 8, top + CELL_HEIGHT / 2, f"x{_sub(token)}", ha="right", va="center")
        _boxes(ax, left, top, run.x[t].tolist(), INK)
        ax.plot(
            [left - 28, spine, spine],
            [top + CELL_HEIGHT / 2] * 2 + [top + gap * len(made) + 12],
            color=INK,
            lw=1.2,
        )
        for i, (role, matrix, vector, colour) in enumerate(made, start=1):
            y = top + gap * i
            _arrow(ax, (spine, y + CELL_HEIGHT / 2), (left - 2, y + CELL_HEIGHT / 2), colour)
            written(ax, (spine + left) / 2, y + CELL_HEIGHT / 2 - 6, matrix, ha="center", color=colour)
            _boxes(ax, left, y, vector.tolist(), colour)
            ax.text(
                left + dk * CELL + 6,
                y + CELL_HEIGHT / 2,
                f"{role} {role[0]}{_sub(token)}",
                va="center",
                color=colour,
            )
    alt = (
        f"Token {token}, {words}, arrives as its embedding x{_sub(token)} = {_listed(run.x[t])}, {d} numbers "
        f"in a row of boxes. A line runs from it to {len(made)} arrows, labelled W_Q, W_K and W_V, each "
        f"ending in a row of {dk} boxes: the query {_listed(run.q[t])}, the key {_listed(run.k[t])} "
        f"and the value {_listed(run.v[t])}."
    )
    caption = (
        f"Token {token}'s embedding, multiplied by each weight matrix in turn, becomes its query, key "
        "and value. The same matrices turn every token of the sequence; only the embedding differs."
    )
    data = {
        "token": token,
        "widths": (d, dk),
        "embedding": run.x[t].tolist(),
        "query": run.q[t].tolist(),
        "key": run.k[t].tolist(),
        "value": run.v[t].tolist(),
    }
    return Figure("projection", (_svg(fig, "projection"),), alt, caption, data)


@cache
def query_figure(token: int = 2) -> Figure:
    """One query against every key (scores, then attention weights), and the weighted values added."""
    run = chapter_head().attend(chapter_embeddings())
    t, n, dk = token - 1, len(run.x), run.q.shape[1]
    scores, weights, outcome = run.scaled[t], run.weights[t], run.out[t]
    left, top, step, bar = 58, 44, 34, 50
    cells = dk * CELL
    with plt.rc_context(_STYLE):
        fig_meet, meet = _canvas(PANEL_WIDTH, top + 8 + step * n)
        meet.text(left - 6, 8 + CELL_HEIGHT / 2, f"q{_sub(token)}", ha="right", va="center", color=QUERY)
        _boxes(meet, left, 8, run.q[t].tolist(), QUERY)
        score_x, bar_x = left + cells + 8, left + cells + 58
        meet.text(score_x, top + 2, "score", va="bottom")
        meet.text(bar_x, top + 2, "weight", va="bottom")
        for j in range(n):
            y = top + 8 + step * j
            meet.text(left - 6, y + CELL_HEIGHT / 2, f"k{_sub(j + 1)}", ha="right", va="center", color=KEY)
            _boxes(meet, left, y, run.k[j].tolist(), KEY)
            meet.text(score_x, y + CELL_HEIGHT / 2, _number(scores[j]), va="center")
            meet.add_patch(
                Rectangle((bar_x, y + 3), bar * weights[j], CELL_HEIGHT - 6, color=_tint(QUERY, 0.6))
            )
            meet.text(bar_x + bar * weights[j] + 3, y + CELL_HEIGHT / 2, _number(weights[j]), va="center")
        fig_mix, mix = _canvas(PANEL_WIDTH, top + 20 + step * n)
        mix.text(8, 8 + CELL_HEIGHT / 2, "each value times its weight", va="center")
        for j in range(n):
            y = top - 14 + step * j
            mix.text(left - 6, y + CELL_HEIGHT / 2, f"{_number(weights[j])} ×", ha="right", va="center")
            _boxes(mix, left, y, run.v[j].tolist(), VALUE)
            mix.text(left + cells + 6, y + CELL_HEIGHT / 2, f"v{_sub(j + 1)}", va="center", color=VALUE)
        y = top - 14 + step * n + 6
        mix.plot([left, left + cells], [y - 6, y - 6], color=INK, lw=1.2)
        mix.text(left - 6, y + CELL_HEIGHT / 2, "sum", ha="right", va="center")
        _boxes(mix, left, y, outcome.tolist(), INK)
        mix.text(left + cells + 6, y + CELL_HEIGHT / 2, "output", va="center")
    top_key = int(np.argmax(weights)) + 1
    panels = (_svg(fig_meet, "query-meet"), _svg(fig_mix, "query-mix"))
    alt = (
        f"{len(panels)} panels. Left: token {token}'s query {_listed(run.q[t])} above the {n} keys, "
        "each key's "
        f"scaled score beside it, {_listed(scores)}, and a bar for its attention weight, "
        f"{_listed(weights)}; key {top_key} gets the longest bar. Right: each value written beside "
        f"its weight, and under a rule their weighted sum, the output {_listed(outcome)}."
    )
    caption = (
        f"Token {token}'s query meets every key: each score is the dot product divided by "
        f"{run.div:g}, and softmax makes the scores weights that sum to {weights.sum():g}. The output "
        "is the values added up in those weights."
    )
    data = {
        "panels": len(panels),
        "token": token,
        "keys counted": n,
        "div": run.div,
        "top key": top_key,
        "query": run.q[t].tolist(),
        "keys": run.k.tolist(),
        "scores": scores.tolist(),
        "weights": weights.tolist(),
        "weight sum": float(weights.sum()),
        "values": run.v.tolist(),
        "output": outcome.tolist(),
    }
    return Figure("query", panels, alt, caption, data)


def _plane(ax: Axes, radius: float, reach: float) -> None:
    """Axes for a pair of dimensions as a plane: square, crossed at 0, a circle of `radius`."""
    ax.set_xlim(-reach, reach)
    ax.set_ylim(-reach, reach)
    ax.set_aspect("equal")
    ax.axhline(0, color="#cccccc", lw=0.8)
    ax.axvline(0, color="#cccccc", lw=0.8)
    ax.add_patch(Circle((0, 0), radius, fill=False, color="#bbbbbb", ls=":"))


def _reach(
    ax: Axes,
    weights: npt.NDArray[np.float64],
    seen: npt.NDArray[np.bool_],
    token: int,
    colour: str = QUERY,
) -> None:
    """Token `token`'s query above the sequence, a line to every key: solid, in `colour` and
    labelled with its attention weight where the query may see it, dashed and grey where it is
    hidden."""
    n = len(weights)
    labels = [label(t, width=9) for t in chapter_tokens()]
    box, gap, left = 72, 6, 8
    centre = [left + j * (box + gap) + box / 2 for j in range(n)]
    query = (centre[token - 1], 34)
    ax.add_patch(Rectangle((query[0] - 18, 8), 36, 24, facecolor=_tint(colour), edgecolor=colour, lw=1.2))
    ax.text(query[0], 20, f"q{_sub(token)}", ha="center", va="center", color=colour)
    keys_y = 112
    for j in range(n):
        shown = bool(seen[j])
        ax.plot(
            [query[0], centre[j]],
            [query[1], keys_y],
            color=colour if shown else HIDDEN,
            lw=1 + 5 * float(weights[j]),
            ls="-" if shown else "--",
            solid_capstyle="round",
        )
        mid = (0.45 * query[0] + 0.55 * centre[j], 0.45 * query[1] + 0.55 * keys_y)
        ax.text(
            mid[0],
            mid[1],
            f"{weights[j]:.2f}",
            ha="center",
            va="center",
            color=INK,
            bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none"},
        )
        ax.add_patch(
            Rectangle(
                (centre[j] - box / 2, keys_y),
                box,
                CELL_HEIGHT,
                facecolor=_tint(KEY) if shown else "white",
                edgecolor=KEY if shown else HIDDEN,
                lw=1.2,
                ls="-" if shown else "--",
            )
        )
        ax.text(centre[j], keys_y + CELL_HEIGHT / 2, labels[j], ha="center", va="center", color=INK)
        ax.text(centre[j], keys_y + CELL_HEIGHT + 12, f"k{_sub(j + 1)}", ha="center", va="center", color=INK)


@cache
def heads_figure(h: int = 2) -> Figure:
    """W_Q's rows cut into h heads, each head's own attention weights for the token the pages
    follow, and the heads' outputs joined side by side for W_O."""
    layer = chapter_heads(h)
    run = layer.attend(chapter_embeddings())
    d, dk, n = layer.d_model, layer.d_k, len(run.joined)
    wq = layer.wq.reshape(d, d)  # output dimension by input dimension, head after head
    head_of = [i // dk for i in range(d)]
    shown = 2  # the bare digit, the token the pages follow
    rows = run.attended.weights[:, shown - 1]  # (h, n): that token's weights in each head
    tops = [int(np.argmax(row)) + 1 for row in rows]
    left, top = 40, 30
    with plt.rc_context(_STYLE):
        fig_cut, cut = _canvas(PANEL_WIDTH, top + CELL_HEIGHT * d + 36)
        written(cut, left, 18, "W_Q, a row per query dimension")
        for i in range(d):
            colour = HEADS[head_of[i]]
            y = top + CELL_HEIGHT * i
            _boxes(cut, left, y, wq[i].tolist(), colour, [_tint(colour)] * d)
            cut.text(left - 6, y + CELL_HEIGHT / 2, str(i + 1), ha="right", va="center")
            if i % dk == 0:
                cut.text(
                    left + d * CELL + 10,
                    y + CELL_HEIGHT * dk / 2,
                    f"head {head_of[i] + 1}",
                    va="center",
                    color=colour,
                )
        written(cut, left, top + CELL_HEIGHT * d + 24, "W_K and W_V are cut alike")
        below = top + 16  # room for the heads' names over their columns
        fig_join, join = _canvas(PANEL_WIDTH, below + CELL_HEIGHT * n + 36)
        join.text(left, 12, "outputs joined, a row per token", va="center")
        for head in range(h):
            join.text(
                left + CELL * dk * (head + 0.5),
                below - 10,
                f"head {head + 1}",
                ha="center",
                va="center",
                color=HEADS[head],
            )
        for t in range(n):
            y = below + CELL_HEIGHT * t
            fills = [_tint(HEADS[head_of[i]]) for i in range(d)]
            _boxes(join, left, y, run.joined[t].tolist(), INK, fills)
            join.text(left - 6, y + CELL_HEIGHT / 2, str(t + 1), ha="right", va="center")
        written(join, left + d * CELL + 10, below + CELL_HEIGHT * n / 2 + 5, "× W_O")
        join.text(left, below + CELL_HEIGHT * n + 18, "each head fills its own columns", va="center")
        reads = []
        for head, row in enumerate(rows):
            fig_read, read = _canvas(PANEL_WIDTH, 112 + CELL_HEIGHT + 22)
            read.text(PANEL_WIDTH - 8, 20, f"head {head + 1}", ha="right", va="center", color=HEADS[head])
            _reach(read, row, np.ones(n, dtype=bool), shown, HEADS[head])
            reads.append(_svg(fig_read, f"heads-read-{head + 1}"))
    identity = bool(np.array_equal(layer.wo, np.eye(d)))
    panels = (_svg(fig_cut, "heads-cut"), *reads, _svg(fig_join, "heads-join"))
    each = "; ".join(
        f"in head {head + 1}, {_listed(row)}, the most on token {tops[head]}" for head, row in enumerate(rows)
    )
    alt = (
        f"{len(panels)} panels. First: W_Q as a {d} by {d} grid of its weights, each block of {dk} "
        f"rows shaded as a head, {h} heads in all. Then, for each head, token {shown}'s query above "
        f"the {n} keys, a line to each as thick as its attention weight: {each}. Last: the heads' "
        f"outputs for the {n} tokens side by side, "
        f"a row of {d} per token, each head's {dk} columns in its own shade, with × W_O beside them; "
        f"token {shown}'s row is {_listed(run.joined[shown - 1])}."
    )
    leads = " and ".join(
        f"{row[top - 1]:.2f} on token {top} in head {head + 1}"
        for head, (row, top) in enumerate(zip(rows, tops, strict=True))
    )
    caption = (
        f"Multi-head attention with {h} heads: W_Q, W_K and W_V are cut by rows, {dk} query "
        f"dimensions a head, and each head gives every token attention weights of its own (token "
        f"{shown} puts {leads}); the outputs are laid side by side for W_O to mix"
        + (". Here W_O is the identity, so the joined row is the layer's output." if identity else ".")
    )
    data = {
        "panels": len(panels),
        "heads": h,
        "widths": (d, dk),
        "tokens": n,
        "followed": shown,
        "heads' weights": rows.tolist(),
        "heads' tops": tops,
        "head numbers": list(range(1, h + 1)),
        "wq": wq.tolist(),
        "joined": run.joined.tolist(),
        "out": run.out.tolist(),
    }
    return Figure("heads", panels, alt, caption, data)


@cache
def rotation_figure(token: int = 2, positions: int = 4) -> Figure:
    """Token `token`'s query placed at positions 0 to positions − 1, each pair of its dimensions
    turned by RoPE: the first pair fast, the last slow."""
    q = chapter_head().attend(chapter_embeddings()).q[token - 1]
    placed, _ = rotary(np.tile(q, (positions, 1)))  # the same query at every position
    rates = angles(2, len(q))[1]  # radians a position, one per pair
    pairs = len(rates)
    panels = []
    with plt.rc_context(_STYLE):
        for pair in range(pairs):
            fig, ax = _panel(height=PANEL_WIDTH * 0.9)
            radius = float(np.hypot(*q[2 * pair : 2 * pair + 2]))  # a turn keeps a pair's length
            reach = radius * 1.35
            _plane(ax, radius, reach)
            for p in range(positions):
                x, y = placed[p, 2 * pair : 2 * pair + 2]
                shade = QUERY if p == 0 else _tint(QUERY, 0.35 + 0.65 * p / positions)
                ax.annotate(
                    "", xy=(x, y), xytext=(0, 0), arrowprops={"arrowstyle": "-|>", "color": shade, "lw": 1.6}
                )
                if pair == 0 or p in (0, positions - 1):
                    ax.text(
                        x * 1.12,
                        y * 1.12 + (0 if pair == 0 else reach * 0.08 * (1 if p else -1)),
                        f"p={p}",
                        ha="center",
                        va="center",
                    )
            ax.set_title(f"dimensions {2 * pair + 1} and {2 * pair + 2}: {rates[pair]:g} rad a position")
            ax.set_xlabel(f"dimension {2 * pair + 1}")
            ax.set_ylabel(f"dimension {2 * pair + 2}")
            panels.append(_svg(fig, f"rotation-{pair + 1}"))
    first, last = 0, positions - 1
    fast, slow = (1, 2), (2 * pairs - 1, 2 * pairs)
    alt = (
        f"{pairs} plots of a plane. Token {token}'s query, {_listed(q)}, is placed at positions "
        f"{first} to {last}, and an arrow from the centre shows each pair of its dimensions after the "
        f"turn. Dimensions {fast[0]} and {fast[1]} turn {rates[0]:g} radian per position, so the "
        f"{positions} arrows fan round the circle; dimensions {slow[0]} and {slow[1]} turn "
        f"{rates[-1]:g} radian per position, so their arrows nearly coincide."
    )
    caption = (
        f"Rotary position embedding on token {token}'s query: every pair of dimensions is turned by "
        "an angle that grows with the position, fast for the first pair and slow for the last. A "
        "query and a key turned this way score by how far apart they stand, not where."
    )
    data = {
        "token": token,
        "positions": list(range(positions)),
        "rates": rates.tolist(),
        "pairs": (fast, slow),
        "query": q.tolist(),
        "turned": placed.tolist(),
    }
    return Figure("rotation", tuple(panels), alt, caption, data)


def _pairs(tokens: int, kept: Sequence[int]) -> tuple[list[int], list[int]]:
    """The multiply-adds of scoring and mixing at each step, each way, from the layer's own
    counters: without a cache a step runs the layer on every token so far, t × t query–key pairs;
    with it, a step's work less what projecting its one token and mixing its output by W_O take."""
    layer, x = chapter_heads(1), chronicle_embeddings(tokens)
    again = [layer.attend(x[:t], causal=True).cost.heads.quadratic for t in range(1, tokens + 1)]
    wo = layer.join(np.zeros((layer.h, 1, layer.d_k)))[2]  # W_O on one token's joined output
    one = [layer.project(x[t : t + 1])[3] + wo for t in range(tokens)]  # the new token alone
    return again, [work - made for work, made in zip(kept, one, strict=True)]


@cache
def growth_figure(tokens: int = 8) -> Figure:
    """Generation step by step: without a cache every token so far is projected again and every
    pair so far scored; with the KV cache only the newest is projected, and its one query scored
    against the keys kept."""
    table = modes.kvcache.table(tokens, 1)
    pairs = dict(zip(("again", "kept"), _pairs(tokens, table.kept.work), strict=True))
    left, top, cell, height = 52, 42, 20, 22
    panels = []
    with plt.rc_context(_STYLE):
        for name, generation, title in (
            ("again", table.again, "no cache: every token projected again"),
            ("kept", table.kept, "KV cache: the newest token projected"),
        ):
            fig, ax = _canvas(PANEL_WIDTH, top + height * tokens + 52)
            ax.text(8, 12, title, va="center")
            ax.text(left + cell * tokens + 6, top - 12, "projected + pairs", va="center")
            for step in range(1, tokens + 1):
                y = top + height * (step - 1)
                ax.text(left - 6, y + height / 2, f"step {step}", ha="right", va="center")
                for j in range(1, step + 1):
                    fresh = generation is table.again or j == step
                    ax.add_patch(
                        Rectangle(
                            (left + cell * (j - 1), y + 1),
                            cell - 2,
                            height - 2,
                            facecolor=MADE if fresh else READ,
                            edgecolor="white",
                        )
                    )
                paired = pairs[name][step - 1]
                made = generation.work[step - 1] - paired
                ax.text(left + cell * tokens + 6, y + height / 2, f"{made:,} + {paired:,}", va="center")
            key_y = top + height * tokens + 14
            ax.add_patch(Rectangle((8, key_y), 14, 14, facecolor=MADE))
            ax.text(26, key_y + 7, "projected", va="center")
            if generation is table.kept:
                ax.add_patch(Rectangle((110, key_y), 14, 14, facecolor=READ))
                ax.text(128, key_y + 7, "read from the cache", va="center")
            panels.append(_svg(fig, f"growth-{name}"))
    again, kept = table.again, table.kept
    scored = {name: sum(p) for name, p in pairs.items()}
    alt = (
        f"{len(panels)} grids of {tokens} steps, a row per step and a square per token so far, and "
        "beside each row its multiply-adds, those that project tokens plus those that score and mix "
        "query–key pairs. Without a cache every square of step t is projected and all t × t pairs "
        f"scored: step {tokens} takes {again.work[-1] - pairs['again'][-1]:,} + {pairs['again'][-1]:,}. "
        "With the KV cache only the last square of each row is projected, the others read from the "
        f"cache, and a row of t pairs scored: step {tokens} takes "
        f"{kept.work[-1] - pairs['kept'][-1]:,} + {pairs['kept'][-1]:,}."
    )
    caption = (
        f"Writing {tokens} tokens in turn, a row per step. Without a cache, step t projects all t "
        f"tokens again and scores all t × t query–key pairs: {again.total - scored['again']:,} "
        f"+ {scored['again']:,} = {again.total:,} multiply-adds in all. With it, each step projects "
        "the newest token and scores its query against the keys kept so far: "
        f"{kept.total - scored['kept']:,} + {scored['kept']:,} = {kept.total:,}."
    )
    data = {
        "panels": len(panels),
        "tokens": tokens,
        "again": list(again.work),
        "kept": list(kept.work),
        "pairs again": pairs["again"],
        "pairs kept": pairs["kept"],
        "projected": (again.total - scored["again"], kept.total - scored["kept"]),
        "scored": (scored["again"], scored["kept"]),
        "totals": (again.total, kept.total),
    }
    return Figure("growth", tuple(panels), alt, caption, data)
