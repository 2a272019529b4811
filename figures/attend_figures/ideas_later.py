"""Pictures of the ideas of the pages after the chapter: positions, the causal mask, a real layer.

Each opens its page: the move the page makes, drawn with the numbers the package computes for it,
before any table. `placed_figure` puts the two bare digits, which arrive alike, in their places
(a position's vector added, or a query turned); `looking_back_figure` shows one query reaching
every key, and then only the keys at or before it; `layer_figure` splits a real layer's work
into the part that grows with the sequence's length and the part that grows with its square.
They keep the rules of `attend_figures.pictures`: panels drawn at their size on screen, no text
under 11 px, and captions and alt text formatted from the data the figure carries, never typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt
from matplotlib import pyplot as plt

from attend import (
    attention,
    causal_mask,
    chapter_embeddings,
    chapter_head,
    chapter_tokens,
    load_tokenizer,
    modes,
    rotary,
)
from attend.book.models import LLAMA31_8B, MODELS, square_share
from attend_figures.diagrams import (
    CELL,
    CELL_HEIGHT,
    INK,
    KEY,
    QUERY,
    _boxes,
    _canvas,
    _listed,
    _plane,
    _reach,
    _sub,
    _tint,
)
from attend_figures.pictures import _STYLE, LINEAR, PANEL_WIDTH, QUADRATIC, Figure, _panel, _svg

PLACE = "#c06a00"  # a position's vector, added: neither a query's, a key's nor a value's colour
Colour = str | tuple[float, float, float]  # a name, or red, green and blue from 0 to 1
TWINS = (2, 4)  # the bare digits, tokens that arrive with the same embedding (counted from 1)
YEAR = 1  # the dimension, from 0, that says a token carries a year
DOUBLINGS = (1, 2, 4, 16)  # Llama-3.1-8B's layer at these multiples of Llama-3-8B's window


def _digit(token: int) -> int:
    """The digit a bare-digit token of the chapter's sequence stands for (counted from 1)."""
    return int(load_tokenizer().piece(chapter_tokens()[token - 1]))


@cache
def placed_figure() -> Figure:
    """Tokens 2 and 4, the same four numbers, put in their places: a sinusoidal position's vector
    added to each, and the first pair of each one's query turned by its position (rotary)."""
    added = modes.positions.table().table
    run = chapter_head().attend(chapter_embeddings())
    x = run.x
    first, second = TWINS
    places = tuple(t - 1 for t in TWINS)  # positions count from 0
    year = int(np.argmax(x[:, YEAR]))  # the token that carries a year, from 0: its own position
    q_turned, _ = rotary(run.q)
    k_turned, _ = rotary(run.k)
    left, top, gap, block = 70, 34, 28, 3 * 28 + 16
    with plt.rc_context(_STYLE):
        fig_add, add = _canvas(PANEL_WIDTH, top + 2 * block)
        add.text(8, 12, "sinusoidal: each place's vector added", va="center")
        for i, (token, place) in enumerate(zip(TWINS, places, strict=True)):
            y = top + i * block
            rows = (
                (f"x{_sub(token)}", x[token - 1], INK),
                (f"+ p{_sub(place)}", added[place], PLACE),
                ("=", x[token - 1] + added[place], INK),
            )
            for j, (name, vector, colour) in enumerate(rows):
                yj = y + j * gap
                add.text(left - 8, yj + CELL_HEIGHT / 2, name, ha="right", va="center", color=colour)
                _boxes(add, left, yj, vector.tolist(), colour)
            add.text(left + x.shape[1] * CELL + 8, y + CELL_HEIGHT / 2, f"token {token}", va="center")
        fig_turn, turn = _panel(height=PANEL_WIDTH * 0.92)
        radius = float(np.hypot(*run.q[first - 1, :2]))
        reach = radius * 1.4
        _plane(turn, radius, reach)
        arrows: tuple[tuple[npt.NDArray[np.float64], Colour, str], ...] = (
            (k_turned[year, :2], KEY, f"k{_sub(year + 1)}, place {year}"),
            (q_turned[places[0], :2], QUERY, f"q{_sub(first)}, place {places[0]}"),
            (q_turned[places[1], :2], _tint(QUERY, 0.55), f"q{_sub(second)}, place {places[1]}"),
        )
        for (px, py), shade, tip in arrows:
            turn.annotate(
                "", xy=(px, py), xytext=(0, 0), arrowprops={"arrowstyle": "-|>", "color": shade, "lw": 1.8}
            )
            length = float(np.hypot(px, py))
            turn.text(  # just past the arrow's tip
                px + px / length * reach * 0.16,
                py + py / length * reach * 0.1,
                tip,
                ha="center",
                va="center",
                color=INK,
            )
        turn.set_title("rotary: each query turned by its place")
        turn.set_xlabel("dimension 1")
        turn.set_ylabel("dimension 2")
    unturned = float(run.raw[first - 1, year])
    scores = tuple(float(q_turned[t - 1] @ k_turned[year]) for t in TWINS)
    digits = tuple(_digit(t) for t in TWINS)
    panels = (_svg(fig_add, "placed-added"), _svg(fig_turn, "placed-turned"))
    alt = (
        f"{len(panels)} panels. Left: tokens {first} and {second}, the digits {digits[0]} and "
        f"{digits[1]}, each arrive as {_listed(x[first - 1])}; token {first} gains position "
        f"{places[0]}'s vector {_listed(added[places[0]])} and token {second} position {places[1]}'s "
        f"{_listed(added[places[1]])}, so they leave as {_listed(x[first - 1] + added[places[0]])} and "
        f"{_listed(x[second - 1] + added[places[1]])}. Right, on a plane: the first pair of their "
        f"shared query, {_listed(run.q[first - 1, :2])}, turned by {places[0]} and by {places[1]} "
        f"radians, beside the key of token {year + 1}, at place {year} and so not turned, "
        f"{_listed(k_turned[year, :2])}."
    )
    caption = (
        f"Tokens {first} and {second}, the digits {digits[0]} and {digits[1]}, arrive as the same "
        "numbers, so the head cannot tell them apart. Sinusoidal positions add a vector for each "
        "place: they enter W_Q, W_K and W_V as different rows. Rotary positions turn each query "
        f"and key by its place: against token {year + 1}'s key, where both queries scored "
        f"{unturned:g} unturned, token {first}'s now scores {scores[0]:.4f} and token {second}'s "
        f"{scores[1]:.4f} (before scaling)."
    )
    data = {
        "tokens": TWINS,
        "digits": digits,
        "places": places,
        "key token": year + 1,
        "key place": year,
        "embedding": x[first - 1].tolist(),
        "added": [added[p].tolist() for p in places],
        "entering": [(x[t - 1] + added[p]).tolist() for t, p in zip(TWINS, places, strict=True)],
        "query pair": run.q[first - 1, :2].tolist(),
        "turned pairs": [q_turned[p, :2].tolist() for p in places],
        "key pair": k_turned[year, :2].tolist(),
        "unturned score": unturned,
        "turned scores": scores,
    }
    return Figure("placed", panels, alt, caption, data)


@cache
def looking_back_figure(token: int = 2) -> Figure:
    """Token `token`'s query against every key, then under the causal mask: only the keys at or
    before it, with the attention weights each gets."""
    run = chapter_head().attend(chapter_embeddings())
    n = len(run.x)
    seen = causal_mask(n, n)
    masked = attention(run.q, run.k, run.v, seen=seen)
    before, after = run.weights[token - 1], masked.weights[token - 1]
    hidden = [j + 1 for j in range(n) if not seen[token - 1, j]]
    top = int(np.argmax(after)) + 1
    height = 112 + CELL_HEIGHT + 22
    panels = []
    with plt.rc_context(_STYLE):
        for name, weights, mask in (
            ("every key", before, np.ones(n, dtype=bool)),
            ("causal mask", after, seen[token - 1]),
        ):
            fig, ax = _canvas(PANEL_WIDTH, height)
            ax.text(PANEL_WIDTH - 8, 20, name, ha="right", va="center")
            _reach(ax, weights, mask, token)
            panels.append(_svg(fig, f"looking-back-{name.replace(' ', '-')}"))
    alt = (
        f"{len(panels)} panels, each with token {token}'s query above the {n} tokens' keys and a line "
        "from the query to each key, as thick as the attention weight written on it. Without a mask "
        f"the weights are {_listed(before)}. Under the causal mask the lines to tokens "
        f"{' and '.join(map(str, hidden))} are grey and dashed, their keys hidden, their weights "
        f"{after[hidden[0] - 1]:g}; the weights are {_listed(after)}."
    )
    caption = (
        f"Token {token}'s query reaches every key, then, under the causal mask, only the keys at or "
        f"before it. The hidden keys get an attention weight of exactly {after[hidden[0] - 1]:g}, "
        f"and token {top} takes {after[top - 1]:.4f} where it took {before[top - 1]:.4f}."
    )
    data = {
        "token": token,
        "tokens": n,
        "hidden": hidden,
        "top": top,
        "every key": before.tolist(),
        "masked": after.tolist(),
    }
    return Figure("looking-back", tuple(panels), alt, caption, data)


def _shares_panel(name: str, rows: Sequence[tuple[str, float]], title: str, height: float) -> str:
    """One bar a row: first the part of a layer's work that is quadratic in the length, then
    the rest, and the square's percentage written past the bar's end."""
    with plt.rc_context(_STYLE):
        fig, ax = _panel(height=height)
        y = np.arange(len(rows))
        square = np.array([share for _, share in rows])
        ax.barh(y, square, color=QUADRATIC, label="grows with n²")
        ax.barh(y, 1 - square, left=square, color=_tint(LINEAR, 0.55), label="grows with n")
        for i, share in enumerate(square):
            ax.text(1.03, i, f"{share:.0%}", ha="left", va="center", color=INK, fontweight="bold")
        ax.set_yticks(y, [name for name, _ in rows])
        ax.invert_yaxis()
        ax.set_xlim(0, 1.2)
        ax.set_xticks([0, 0.5, 1], ["0%", "50%", "100%"])
        ax.spines["bottom"].set_bounds(0, 1)
        ax.tick_params(axis="y", length=0)
        ax.set_title(title)
        ax.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.45, -0.12), ncol=2)
    return _svg(fig, name)


@cache
def layer_figure() -> Figure:
    """One layer of each published model at its full context window, its work split into what
    grows with the length and what grows with its square; then Llama-3.1-8B's layer as the
    sequence it reads doubles towards its window."""
    windows = [(m.name, square_share(m, m.context)) for m in MODELS]
    base = LLAMA31_8B.context // max(DOUBLINGS)
    lengths = [base * k for k in DOUBLINGS]
    growing = [(f"{n:,}", square_share(LLAMA31_8B, n)) for n in lengths]
    panels = (
        _shares_panel("layer-windows", windows, "one layer at its model's full window", 230),
        _shares_panel("layer-growing", growing, f"{LLAMA31_8B.name}'s layer, by tokens read", 200),
    )
    under = [name for name, share in windows if share < 0.5]
    over = [name for name, share in windows if share >= 0.5]
    low, high = min(s for _, s in windows if s < 0.5), max(s for _, s in windows if s < 0.5)
    alt = (
        f"{len(panels)} bar charts, each bar a layer's work split in {len(panels)} colours: the part "
        "that grows in step with the tokens read, and the part that grows with their square, "
        "labelled with its percentage. At each model's full window the square is "
        + ", ".join(f"{share:.0%} for {name}" for name, share in windows)
        + f". The second chart: {LLAMA31_8B.name}'s layer at "
        + ", ".join(f"{n} tokens, {share:.0%}" for n, share in growing)
        + "."
    )
    caption = (
        f"Where a layer's work goes at its model's full window: the square is {low:.0%} to "
        f"{high:.0%} of it for {', '.join(under[:-1])} and {under[-1]}, the MLP and the "
        "projections the rest; "
        f"only {', '.join(over)}, whose window is {LLAMA31_8B.context:,} tokens, reads far enough for the "
        f"square to lead. The second chart: {LLAMA31_8B.name}'s layer as the tokens read grow from "
        f"{lengths[0]:,} to {lengths[-1]:,}."
    )
    data = {
        "panels": len(panels),
        "models": [m.name for m in MODELS],
        "windows": [m.context for m in MODELS],
        "square at window": [share for _, share in windows],
        "percent": [round(100 * share) for _, share in windows + growing],
        "lengths": lengths,
        "square growing": [share for _, share in growing],
    }
    return Figure("layer", panels, alt, caption, data)
