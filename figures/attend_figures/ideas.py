"""The pictures that open the chapter's pages: each idea drawn before its arithmetic.

`diagrams` draws one token's moves; these draw what a page is about, for a reader who has not yet
read a number of it: the whole head as data flowing from tokens to outputs, a stored weight
against an attention weight, scaling keeping softmax from picking one key, the strip and
the square of the work, one token's attention weights in other company, and where a head sits
in a transformer block. Each is drawn from the package's own calls (the book's head, its
tokens, the counted cost, the published shapes in `attend.book.models`), so every number in a box or
a caption is one the package computed, and each keeps the rules of `attend_figures.pictures`:
panels drawn at their size on screen, none wider than `PANEL_WIDTH`, no text under 11 px.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt
from matplotlib import pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Rectangle

from attend import (
    WQ,
    Layer,
    chapter_embeddings,
    chapter_head,
    chapter_tokens,
    chronicle_ids,
    cost_sweep,
    embed,
    softmax,
    typed_embedding,
)
from attend.book.models import GPT2_SMALL, Model
from attend.core.tokenizer import load_tokenizer
from attend_figures.diagrams import INK, KEY, QUERY, VALUE, _arrow, _canvas, _listed, _number, _tint
from attend_figures.pictures import _STYLE, PANEL_WIDTH, SHARE_RANGE, Figure, _svg, label, written

BAR = "#1f6feb"  # an attention weight's bar
QUIET = "#8a8a8a"  # what a picture shows but does not build or use
FOLLOWED = "#e08a1e"  # the token a picture follows through every step
GRID_CELL, GRID_ROW = 30, 20  # CSS px: a cell of a small matrix, two places at 11 px


def _grid(
    ax: Axes,
    x: float,
    y: float,
    matrix: npt.NDArray[np.float64],
    edge: str,
    followed: int | None = None,
    shade: str | None = None,
    cell: float = GRID_CELL,
    darkest: float | None = None,
) -> None:
    """A small matrix as boxes from (x, y), a row per token; row `followed` (counted from 1)
    outlined. Each number is printed in its box, or, where `shade` is given, the box is tinted
    `shade` as deep as its size against `darkest` (the matrix's largest, if not given) and no
    number printed: a picture of where the large numbers are."""
    rows, cols = matrix.shape
    deepest = darkest if darkest is not None else float(np.abs(matrix).max()) or 1.0
    for i in range(rows):
        for j in range(cols):
            value = float(matrix[i, j])
            fill = _tint(shade, 0.9 * abs(value) / deepest) if shade is not None else "white"
            ax.add_patch(
                Rectangle(
                    (x + j * cell, y + i * GRID_ROW), cell, GRID_ROW, facecolor=fill, edgecolor=edge, lw=0.8
                )
            )
            if shade is None:
                ax.text(
                    x + (j + 0.5) * cell, y + (i + 0.5) * GRID_ROW, _number(value), ha="center", va="center"
                )
    if followed is not None:
        ax.add_patch(
            Rectangle(
                (x - 2, y + (followed - 1) * GRID_ROW - 2),
                cols * cell + 4,
                GRID_ROW + 4,
                fill=False,
                edgecolor=FOLLOWED,
                lw=2.2,
            )
        )


def _down(ax: Axes, x: float, top: float, bottom: float, words: str = "", colour: str = INK) -> None:
    """An arrow pointing down from `top` to `bottom` at `x`, with `words` to its right."""
    _arrow(ax, (x, top), (x, bottom), colour)
    if words:
        ax.text(x + 8, (top + bottom) / 2, words, va="center", color=colour)


@cache
def head_figure(followed: int = 2) -> Figure:
    """The whole head as data flowing: tokens, embeddings, queries, keys and values, then
    scores, attention weights and the outputs, every number the chapter's run made."""
    run = chapter_head().attend(chapter_embeddings())
    tokens = chapter_tokens()
    n, d, dk = len(tokens), run.x.shape[1], run.q.shape[1]
    t = followed - 1
    top_key = int(np.argmax(run.weights[t])) + 1
    words = [label(token, width=9) for token in tokens]
    with plt.rc_context(_STYLE):
        # Panel 1: the tokens alone, their embeddings, and what W_Q, W_K and W_V make of them.
        small = 26  # a cell of Q, K and V: three grids side by side fit the panel
        grid_w = dk * small
        gap = (PANEL_WIDTH - 3 * grid_w) / 4
        xs = [gap + i * (grid_w + gap) for i in range(3)]
        x_left = PANEL_WIDTH - d * GRID_CELL - 14
        y_x = 30
        bar_y = y_x + n * GRID_ROW + 18
        y_grids = bar_y + 44
        fig_one, one = _canvas(PANEL_WIDTH, y_grids + n * GRID_ROW + 30)
        one.text(8, 12, "each token on its own", va="center", fontweight="bold")
        for i, word in enumerate(words):
            y = y_x + (i + 0.5) * GRID_ROW
            one.text(8, y, f"{i + 1} {word}", va="center", color=FOLLOWED if i == t else INK)
            _arrow(one, (x_left - 34, y), (x_left - 6, y))
        _grid(one, x_left, y_x, run.x, INK, followed, INK)
        one.text(x_left + d * GRID_CELL / 2, y_x - 8, "embeddings X", ha="center", va="bottom")
        centre = x_left + d * GRID_CELL / 2
        middles = [x + grid_w / 2 for x in xs]
        one.plot([centre, centre], [y_x + n * GRID_ROW + 4, bar_y], color=INK, lw=1.2)
        one.plot([middles[0], centre], [bar_y, bar_y], color=INK, lw=1.2)
        made = (
            ("queries Q", "× W_Q", run.q, QUERY),
            ("keys K", "× W_K", run.k, KEY),
            ("values V", "× W_V", run.v, VALUE),
        )
        for x, middle, (name, times, values, colour) in zip(xs, middles, made, strict=True):
            _arrow(one, (middle, bar_y), (middle, y_grids - 4), colour)
            written(one, middle + 5, (bar_y + y_grids) / 2 + 5, times, color=colour)
            _grid(one, x, y_grids, values, colour, followed, colour, cell=small)
            one.text(middle, y_grids + n * GRID_ROW + 6, name, ha="center", va="top", color=colour)
        # Panel 2: every query meets every key; softmax makes weights; the weights mix the values.
        cell = 40
        width = n * cell
        x0 = (PANEL_WIDTH - width) / 2 - 30
        steps = (
            (f"scores Q·Kᵀ ÷ {run.div:g}", run.scaled, INK, None),
            ("attention weights", run.weights, BAR, SHARE_RANGE[1]),  # on their own scale, 0 to 1
            ("outputs, weights × V", run.out, VALUE, None),
        )
        arrows = ("softmax, row by row", "× V: mix the values")
        block = n * GRID_ROW + 22
        fig_two, two = _canvas(PANEL_WIDTH, 44 + 3 * block + 2 * 34 + 8)
        two.text(8, 12, "tokens meet", va="center", fontweight="bold")
        y = 44
        for s, (title, matrix, shade, deepest) in enumerate(steps):
            two.text(x0, y - 6, title, va="bottom")
            for i in range(n):
                two.text(
                    x0 - 6,
                    y + (i + 0.5) * GRID_ROW,
                    str(i + 1),
                    ha="right",
                    va="center",
                    color=FOLLOWED if i == t else INK,
                )
            _grid(two, x0, y, matrix, INK, followed, shade, cell=cell, darkest=deepest)
            y += n * GRID_ROW
            if s < len(arrows):
                _down(two, x0 + width / 2, y + 6, y + 40, arrows[s])
                y += 62
    panels = (_svg(fig_one, "head-alone"), _svg(fig_two, "head-meet"))
    alt = (
        f"{len(panels)} panels of boxes joined by arrows, each box shaded by its number, the darkest the "
        "largest in its grid. "
        f"First: the {n} tokens, each pointing to its row of "
        f"the embeddings X, {n} rows of {d}; from X {len(made)} arrows, marked × W_Q, × W_K and × W_V, lead "
        "to the "
        f"queries Q, the keys K and the values V, {n} rows of {dk} each. Second: the scores Q·Kᵀ divided by "
        f"{run.div:g}, a {n} by {n} grid; an arrow marked softmax leads to the attention weights, each row "
        f"adding to {run.weights[t].sum():g}; an arrow marked × V leads to the outputs, {n} rows of {dk}. "
        "Row "
        f"{followed}, the token {words[t]}, is outlined in every grid: embedding {_listed(run.x[t])}, query "
        f"{_listed(run.q[t])}, scores {_listed(run.scaled[t])}, weights {_listed(run.weights[t])}, "
        f"output {_listed(run.out[t])}."
    )
    caption = (
        f"The whole head on the book's {n} tokens, each box shaded by a number of its run, the darkest "
        "the largest in its grid (the attention weights on their own scale, "
        f"{SHARE_RANGE[0]:g} to {SHARE_RANGE[1]:g}). Each token's embedding is projected to its query, key "
        f"and value (first panel); every query meets every key in the scores, divided by {run.div:g}; "
        "softmax turns each row into attention weights; each output is the values added up in its "
        f"weights. Row {followed}, the {words[t]}, is outlined: its darkest weight, "
        f"{run.weights[t, top_key - 1]:.2f}, is on token {top_key}."
    )
    data = {
        "size": n,
        "widths": (d, dk),
        "followed": followed,
        "top key": top_key,
        "scale": SHARE_RANGE,
        "div": run.div,
        "row sum": float(run.weights[t].sum()),
        **{name: getattr(run, name).tolist() for name in ("x", "q", "k", "v", "scaled", "weights", "out")},
    }
    return Figure("head", panels, alt, caption, data)


@cache
def kinds_figure(digit: int = 2, twin: int = 4) -> Figure:
    """Two kinds of weight: a layer's stored weights give the `0` and the `7` one output, seeing
    nothing else; the head's attention weights for the `0` are worked out from the sequence."""
    run = chapter_head().attend(chapter_embeddings())
    tokens = chapter_tokens()
    n = len(tokens)
    words = [label(token, width=9) for token in tokens]
    layer = Layer(run.x.shape[1], WQ, (0.0,) * run.q.shape[1])  # W_Q as a layer of neurons, biases at zero
    outputs = [layer.forward(run.x[i - 1].tolist()) for i in (digit, twin)]
    weights = run.weights[digit - 1]
    top = int(np.argmax(weights)) + 1
    with plt.rc_context(_STYLE):
        fig_fixed, fixed = _canvas(PANEL_WIDTH, 180)
        fixed.text(8, 12, "stored weights: the same for every input", va="center", fontweight="bold")
        box_x, out_x = 136, 196
        for row, (i, out) in enumerate(zip((digit, twin), outputs, strict=True)):
            y = 44 + row * 74
            fixed.text(8, y - 6, f"token {i}, {words[i - 1]}, alone", va="bottom")
            for j, value in enumerate(run.x[i - 1]):
                fixed.add_patch(Rectangle((8 + j * 24, y), 24, 22, facecolor="white", edgecolor=INK, lw=0.8))
                fixed.text(8 + (j + 0.5) * 24, y + 11, _number(float(value)), ha="center", va="center")
            _arrow(fixed, (108, y + 11), (box_x - 2, y + 11))
            fixed.add_patch(
                FancyBboxPatch(
                    (box_x, y - 2),
                    36,
                    26,
                    boxstyle="round,pad=1",
                    facecolor=_tint(QUIET, 0.3),
                    edgecolor=QUIET,
                )
            )
            fixed.text(box_x + 18, y + 11, "W", ha="center", va="center")
            _arrow(fixed, (box_x + 38, y + 11), (out_x - 2, y + 11))
            for j, value in enumerate(out):
                fixed.add_patch(
                    Rectangle((out_x + j * 30, y), 30, 22, facecolor="white", edgecolor=INK, lw=0.8)
                )
                fixed.text(out_x + (j + 0.5) * 30, y + 11, _number(value), ha="center", va="center")
        fixed.text(8, 168, "the same numbers in, the same out", va="center", color=QUIET)
        fig_made, made = _canvas(PANEL_WIDTH, 180)
        made.text(8, 12, "attention weights: worked out each time", va="center", fontweight="bold")
        chip_y, chip_h = 124, 26
        widths = [max(30.0, 7.2 * len(word) + 10) for word in words]
        spare = (PANEL_WIDTH - 16 - sum(widths)) / (n - 1)
        lefts = [8 + sum(widths[:j]) + j * spare for j in range(n)]
        centres = [left + w / 2 for left, w in zip(lefts, widths, strict=True)]
        for j, (left, w, word) in enumerate(zip(lefts, widths, words, strict=True)):
            here = j == digit - 1
            made.add_patch(
                FancyBboxPatch(
                    (left, chip_y), w, chip_h, boxstyle="round,pad=1",
                    facecolor=_tint(FOLLOWED, 0.3) if here else "white", edgecolor=FOLLOWED if here else INK,
                )
            )  # fmt: skip
            made.text(left + w / 2, chip_y + chip_h / 2, word, ha="center", va="center")
            made.text(
                left + w / 2, chip_y + chip_h + 12, f"{weights[j]:.2f}", ha="center", va="center", color=BAR
            )
        for j in range(n):
            if j == digit - 1:
                continue
            start, end = (centres[digit - 1], chip_y - 2), (centres[j], chip_y - 2)
            rise = 0.5 if j < digit - 1 else -0.5  # arcs above the chips, whichever side
            made.add_patch(
                FancyArrowPatch(
                    start, end, arrowstyle="-|>", mutation_scale=10 + 12 * weights[j],
                    connectionstyle=f"arc3,rad={rise}", color=BAR, lw=0.8 + 9 * weights[j],
                    shrinkA=2, shrinkB=2,
                )
            )  # fmt: skip
        made.text(8, 32, f"from token {digit}: bolder for a larger weight", va="center", color=BAR)
    panels = (_svg(fig_fixed, "kinds-stored"), _svg(fig_made, "kinds-made"))
    alt = (
        f"{len(panels)} panels. First: token {digit}, {words[digit - 1]}, and token {twin}, "
        f"{words[twin - 1]}, "
        f"each alone, arrive as {_listed(run.x[digit - 1])} and pass through the same box W, a layer whose "
        f"stored weights are W_Q's; both come out as {_listed(outputs[0])}. Second: the {n} tokens in a row, "
        f"and arrows from token {digit} to the others, thicker for a larger attention weight; under the "
        f"tokens its weights, {_listed(weights)}, the largest on token {top}, {words[top - 1]}."
    )
    caption = (
        f"Stored weights and attention weights. A layer's stored weights treat token {digit}, "
        f"{words[digit - 1]}, and token "
        f"{twin}, {words[twin - 1]}, alike: each is read alone, and they arrive with the same numbers. The "
        f"head works its attention weights out from the sequence: token {digit} puts {weights[top - 1]:.2f} "
        f"of its weight on token {top}, {words[top - 1]}."
    )
    data = {
        "tokens": n,
        "digits": (digit, twin),
        "top": top,
        "embeddings": [run.x[digit - 1].tolist(), run.x[twin - 1].tolist()],
        "outputs": outputs,
        "weights": weights.tolist(),
        "digits read": [int(load_tokenizer().piece(tokens[i - 1])) for i in (digit, twin)],  # as labelled
    }
    return Figure("kinds", panels, alt, caption, data)


def _one_draw(width: int, keys: int, seed: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """A query and `keys` keys of `width` standard normal numbers each, and their dot products."""
    rng = np.random.default_rng(seed)
    query, drawn = rng.standard_normal(width), rng.standard_normal((keys, width))
    return query, drawn @ query


@cache
def saturation_figure(widths: Sequence[int] = (4, 64, 256), keys: int = 4, seed: int = 82) -> Figure:
    """One random query against a few keys at growing widths: the attention weights with the
    scores left as they are, and divided by √width."""
    scores = {w: _one_draw(w, keys, seed)[1] for w in widths}
    sides = (
        ("not scaled", {w: softmax(s) for w, s in scores.items()}),
        ("scaled: ÷ √d_k", {w: softmax(s / math.sqrt(w)) for w, s in scores.items()}),
    )
    panels = []
    with plt.rc_context(_STYLE):
        for name, weights in sides:
            fig, ax = _canvas(PANEL_WIDTH, 190)
            written(ax, 8, 16, name, fontweight="bold", color=QUIET if name == "not scaled" else BAR)
            group = (PANEL_WIDTH - 16) / len(widths)
            bar_w, base, tall = group / (keys + 2), 150, 110
            for g, w in enumerate(widths):
                left = 8 + g * group + bar_w
                ordered = np.sort(weights[w])[::-1]
                for b, value in enumerate(ordered):
                    height = tall * value
                    ax.add_patch(
                        Rectangle((left + b * bar_w, base - height), bar_w - 3, height, facecolor=BAR)
                    )
                ax.text(
                    left + bar_w / 2,
                    base - tall * ordered[0] - 4,
                    f"{ordered[0]:.2f}",
                    va="bottom",
                    ha="left",
                )
                written(ax, left + keys * bar_w / 2, base + 20, f"d_k = {w}", ha="center")
                ax.text(
                    left + keys * bar_w / 2,
                    base + 26,
                    f"spread {np.ptp(scores[w]) / (1 if name == 'not scaled' else math.sqrt(w)):.1f}",
                    ha="center",
                    va="top",
                    color=QUIET,
                )
            ax.plot([8, PANEL_WIDTH - 8], [base, base], color=INK, lw=0.8)
            panels.append(_svg(fig, f"saturation-{'raw' if name == 'not scaled' else 'scaled'}"))
    widest = widths[-1]
    raw_top = float(sides[0][1][widest].max())
    scaled_top = float(sides[1][1][widest].max())
    alt = (
        f"{len(panels)} bar charts, each with {len(widths)} groups of {keys} bars, a group per key width "
        f"({', '.join(map(str, widths))}): the attention weights of a random query against {keys} random "
        "keys, "
        f"largest first. Not scaled, the largest weight grows with the width, to {raw_top:.2f} at "
        f"{widest}; scaled by the square root of the width, it is {scaled_top:.2f} at {widest}. Under each "
        "group, the spread of its scores."
    )
    caption = (
        f"A query against {keys} keys, drawn at random at each key width. Left as they are, the scores "
        "spread "
        f"further apart the wider the keys, and softmax gives the top key {raw_top:.2f} of the weight at "
        "width "
        f"{widest}; divided by √{widest}, the same scores leave it {scaled_top:.2f}."
    )
    data = {
        "widths": list(widths),
        "keys": keys,
        "seed": seed,
        "scores": {w: s.tolist() for w, s in scores.items()},
        "spreads": {w: (float(np.ptp(s)), float(np.ptp(s) / math.sqrt(w))) for w, s in scores.items()},
        "weights": {name: {w: v.tolist() for w, v in weights.items()} for name, weights in sides},
        "top": (raw_top, scaled_top),
    }
    return Figure("saturation", tuple(panels), alt, caption, data)


@cache
def strip_figure(lengths: Sequence[int] = (4, 6, 16)) -> Figure:
    """The work at a few lengths as areas: a strip for the projections, a square for the
    query–key pairs, each cell one pair's multiply-adds, so the areas compare as the counts do."""
    costs = cost_sweep(lengths)
    pair = costs[0].quadratic // costs[0].length ** 2  # multiply-adds one query–key pair costs
    wide = [c.project // (c.length * pair) for c in costs]  # a token's projections, in pairs' cells
    cell = 9
    with plt.rc_context(_STYLE):
        height = 38 + sum(c.length * cell + 44 for c in costs)
        fig, ax = _canvas(PANEL_WIDTH, height)
        ax.text(8, 12, "a cell: a query–key pair's work", va="center")
        ax.text(60, 30, "q, k, v", va="center", color=QUERY)
        ax.text(60 + wide[0] * cell + 24, 30, "query–key pairs", va="center", color=KEY)
        y = 48
        for cost, w in zip(costs, wide, strict=True):
            n = cost.length
            ax.text(8, y + 2, f"n = {n}", va="top", fontweight="bold")
            left = 60
            ax.add_patch(
                Rectangle((left, y), w * cell, n * cell, facecolor=_tint(QUERY, 0.5), edgecolor=QUERY, lw=1)
            )
            for r in range(1, n):
                ax.plot([left, left + w * cell], [y + r * cell] * 2, color="white", lw=0.6)
            square_x = left + w * cell + 24
            ax.add_patch(
                Rectangle((square_x, y), n * cell, n * cell, facecolor=_tint(KEY, 0.5), edgecolor=KEY, lw=1)
            )
            ax.text(left, y + n * cell + 4, f"{cost.project:,}", va="top", color=QUERY)
            ax.text(square_x, y + n * cell + 4, f"{cost.quadratic:,}", va="top", color=KEY)
            y += n * cell + 44
    first, last = costs[0], costs[-1]
    level = next((c for c in costs if c.project == c.quadratic), None)
    alt = (
        f"For {', '.join(str(c.length) for c in costs)} tokens, a strip and a square of equal cells, each "
        "cell "
        f"a query–key pair's {pair} multiply-adds. The strip, the projections, is {wide[0]} cells wide and n "
        f"tall; the square, the pairs, is n by n. At {first.length} tokens the strip is larger, "
        f"{first.project:,} against {first.quadratic:,}"
        + (f"; at {level.length} they are equal, {level.project:,} each" if level else "")
        + f"; at {last.length} the square is larger, {last.quadratic:,} against {last.project:,}."
    )
    caption = (
        f"The head's counted work as areas: a token's projections are a row of {wide[0]} cells, so they "
        "make a "
        f"strip n long; the query–key pairs make an n by n square. As n grows the strip grows with n, the "
        f"square with n²: at {last.length} tokens the pairs cost {last.quadratic:,} multiply-adds, the "
        "projections "
        f"{last.project:,}."
    )
    data = {
        "pair": pair,
        "strip": wide,
        "rows": [(c.length, c.project, c.quadratic) for c in costs],
        "level": (level.length, level.project) if level else None,
    }
    return Figure("strip", (_svg(fig, "strip"),), alt, caption, data)


def _windows(token: int) -> tuple[tuple[int, ...], ...]:
    """The chapter's sequence and two more from the chronicle that end in the same token: the first
    four tokens in a row that carry no year but a count, and the first that carry neither."""
    ids = chronicle_ids()
    tokenizer = load_tokenizer()
    n = len(chapter_tokens())
    carries = [typed_embedding(tokenizer.piece(int(i)))[1:3] for i in ids]  # (a year, a count)

    def first(count: bool) -> tuple[int, ...]:
        for end in range(n - 1, len(ids)):
            window = range(end - n + 1, end + 1)
            if (
                ids[end] == token
                and not any(carries[i][0] for i in window)
                and any(carries[i][1] for i in window) == count
            ):
                return tuple(int(ids[i]) for i in window)
        raise LookupError("no such sequence in the chronicle")  # pragma: no cover - it holds many

    return (chapter_tokens(), first(count=True), first(count=False))


@cache
def company_figure(digit: int = 4) -> Figure:
    """The same token read by the same head in three sequences: its attention weights follow
    what the rest of the sequence holds."""
    sequences = _windows(chapter_tokens()[digit - 1])
    head = chapter_head()
    runs = [head.attend(embed(list(ids))) for ids in sequences]
    n = len(sequences[0])
    weights = [run.weights[digit - 1] for run in runs]
    names = ("a year among them", "a count, no year", "neither")
    panels = []
    with plt.rc_context(_STYLE):
        for s, (ids, w, name) in enumerate(zip(sequences, weights, names, strict=True)):
            words = [label(i, width=9) for i in ids]
            fig, ax = _canvas(PANEL_WIDTH, 140)
            ax.text(8, 12, f"{label(ids[digit - 1])} with {name}", va="center", fontweight="bold")
            slot = (PANEL_WIDTH - 16) / n
            base, tall = 100, 100
            for j, (value, word) in enumerate(zip(w, words, strict=True)):
                left = 8 + j * slot
                colour = FOLLOWED if j == digit - 1 else BAR
                ax.add_patch(
                    Rectangle((left + 8, base - tall * value), slot - 16, tall * value, facecolor=colour)
                )
                ax.text(left + slot / 2, base - tall * value - 3, f"{value:.2f}", ha="center", va="bottom")
                ax.text(left + slot / 2, base + 6, word, ha="center", va="top")
            ax.plot([8, PANEL_WIDTH - 8], [base, base], color=INK, lw=0.8)
            panels.append(_svg(fig, f"company-{s + 1}"))
    tops = [int(np.argmax(w)) + 1 for w in weights]
    read = int(load_tokenizer().piece(sequences[0][digit - 1]))  # the digit the token stands for
    alt = (
        f'{len(panels)} bar charts of the attention weights the token "{read}" gives, as token {digit} of '
        f"{len(panels)} sequences of {n} tokens, each bar under its token. With a year among them, in the "
        f"book's line, the largest is {weights[0].max():.2f}, on token {tops[0]}; with a count and no "
        f"year the largest is {weights[1].max():.2f}, on token {tops[1]}; with neither the weights lie "
        "between "
        f"{weights[2].min():.2f} and {weights[2].max():.2f}."
    )
    caption = (
        f"The same token, the same head, the same stored matrices, in {len(panels)} sequences of the "
        "chronicle: "
        f"its attention weights are {weights[0].max():.2f} on a year where there is a year, "
        f"{weights[1].max():.2f} "
        f"on a count where there is no year, and nearly even where there is neither."
    )
    data = {
        "digit": digit,
        "sequences": [list(ids) for ids in sequences],
        "weights": [w.tolist() for w in weights],
        "tops": tops,
        "digit read": read,
    }
    return Figure("company", tuple(panels), alt, caption, data)


@cache
def block_figure(model: Model = GPT2_SMALL) -> Figure:
    """Where a head sits: a transformer block around the residual stream, its attention heads
    beside the MLP, and the stack of blocks, at one published model's shapes."""
    stream_x, right = 44, PANEL_WIDTH - 8
    branch_x = 96
    built, told = QUERY, QUIET
    with plt.rc_context(_STYLE):
        fig, ax = _canvas(PANEL_WIDTH, 520)

        def box(
            y: float, h: float, words: str, colour: str, dashed: bool = False, x: float = branch_x
        ) -> None:
            ax.add_patch(
                FancyBboxPatch(
                    (x, y), right - x, h, boxstyle="round,pad=2", facecolor=_tint(colour, 0.18),
                    edgecolor=colour, lw=1.2, linestyle="--" if dashed else "-",
                )
            )  # fmt: skip
            ax.text(x + 8, y + h / 2, words, va="center")

        def add(y: float) -> None:
            ax.add_patch(Circle((stream_x, y), 9, facecolor="white", edgecolor=INK, lw=1.2))
            ax.text(stream_x, y, "+", ha="center", va="center")

        box(8, 26, f"tokens → embeddings, {model.d_model:,} wide", told, dashed=True, x=8)
        ax.text(stream_x + 8, 50, "+ positions", va="center", color=built)
        # the block, repeated
        ax.add_patch(
            FancyBboxPatch(
                (4, 66), PANEL_WIDTH - 8, 330, boxstyle="round,pad=2", fill=False, edgecolor=INK, lw=1.4
            )
        )
        ax.text(PANEL_WIDTH - 10, 80, f"× {model.layers} blocks", ha="right", va="center", fontweight="bold")
        ax.text(stream_x + 6, 94, "residual", va="center", color=told)
        ax.text(stream_x + 6, 108, "stream", va="center", color=told)
        ax.plot([stream_x, stream_x], [34, 420], color=INK, lw=2.4)
        # attention, on a copy of the stream
        y_norm, y_heads = 126, 162
        ax.plot([stream_x, branch_x], [y_norm + 11, y_norm + 11], color=INK, lw=1.2)
        box(y_norm, 22, "norm", told, dashed=True)
        _arrow(ax, (branch_x + 60, y_norm + 24), (branch_x + 60, y_heads - 4))
        ax.add_patch(
            FancyBboxPatch(
                (branch_x, y_heads),
                right - branch_x,
                86,
                boxstyle="round,pad=2",
                facecolor="white",
                edgecolor=built,
                lw=1.2,
            )
        )
        ax.text(branch_x + 8, y_heads + 12, f"{model.heads} heads, causal mask", va="center")
        cells = min(model.heads, 12)
        width = (right - branch_x - 16) / cells
        for h in range(cells):
            colour = FOLLOWED if h == 0 else _tint(built, 0.4)
            ax.add_patch(Rectangle((branch_x + 8 + h * width, y_heads + 26), width - 3, 24, facecolor=colour))
        written(ax, branch_x + 8, y_heads + 66, f"each d_k = {model.d_k}; this book: one", color=FOLLOWED)
        written(ax, branch_x + 8, y_heads + 80, "joined by W_O")
        _arrow(ax, (branch_x, y_heads + 50), (stream_x + 10, 262))
        add(266)
        # the MLP, on a copy of the stream
        y_norm2, y_mlp = 292, 330
        ax.plot([stream_x, branch_x], [y_norm2 + 11, y_norm2 + 11], color=INK, lw=1.2)
        box(y_norm2, 22, "norm", told, dashed=True)
        _arrow(ax, (branch_x + 60, y_norm2 + 24), (branch_x + 60, y_mlp - 4))
        box(y_mlp, 40, f"MLP: {model.d_model:,} → {model.mlp:,} → {model.d_model:,}", told, dashed=True)
        _arrow(ax, (branch_x, y_mlp + 20), (stream_x + 10, 374))
        add(378)
        # after the stack
        _arrow(ax, (stream_x, 420), (stream_x, 436))
        box(440, 26, f"norm → logits for {model.vocab:,} tokens", told, dashed=True, x=8)
        ax.add_patch(Rectangle((8, 488), 14, 14, facecolor=_tint(built, 0.4), edgecolor=built))
        ax.text(28, 495, "built on these pages", va="center")
        ax.add_patch(
            Rectangle((176, 488), 14, 14, facecolor=_tint(told, 0.18), edgecolor=told, linestyle="--")
        )
        ax.text(196, 495, "described only", va="center")
    alt = (
        f"A diagram of {model.name}, top to bottom. Tokens become embeddings {model.d_model:,} wide, "
        "positions are "
        f"added, and a thick line, the residual stream, runs down through a block repeated {model.layers} "
        "times. "
        f"In the block, a norm feeds {model.heads} attention heads of d_k = {model.d_k}, the first "
        "marked as this book's head, joined by W_O, and their result is added back into the stream; then a "
        "norm feeds an MLP "
        f"from {model.d_model:,} to {model.mlp:,} and back, added into the stream again. After the last "
        "block a "
        "norm "
        f"and an output table give logits for {model.vocab:,} tokens. The heads, the mask, W_O and the "
        "positions "
        "are drawn as built on these pages; the norms, the MLP and the rest as described only."
    )
    caption = (
        f"Where a head sits, at {model.name}'s shapes: {model.heads} heads of d_k = {model.d_k} side "
        f"by side, joined by W_O and added into the residual stream, then an MLP {model.mlp:,} wide, in "
        f"each of {model.layers} blocks. This book builds a head, then positions, the mask and several "
        "heads; it describes the rest."
    )
    data = {
        "model": model.name,
        "d": model.d_model,
        "heads": model.heads,
        "dk": model.d_k,
        "mlp": model.mlp,
        "layers": model.layers,
        "vocab": model.vocab,
        "in its name": [int(n) for n in re.findall(r"\d+", model.name)],  # GPT-2: the caption names it
    }
    return Figure("block", (_svg(fig, "block"),), alt, caption, data)
