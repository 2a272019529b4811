"""Figures a reader can drive, every number in them computed by `attend` at build.

Each control wraps one of the static figures of `attend_figures.pictures` and adds a live part: a
control (a switch, a set of radio buttons, a slider) and one panel per state it can take,
every panel written out here in full, numbers formatted as the tables print them. The small
script `docs/javascripts/controls.js` only shows the panel whose state the control names:
it computes nothing, so a number on screen is always one the package produced, and nothing
is fetched from anywhere. Without JavaScript the live part stays hidden and the page shows
the static figure, complete, as before (and so does the printed book).

A page embeds one by handing the figure to `driven`:

    ```python exec="on" html="1"
    from attend_figures import cost_figure, driven

    print(driven(cost_figure()).html())
    ```
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np
import numpy.typing as npt
from matplotlib import colormaps
from matplotlib.colors import to_hex

from attend import chapter_head, chapter_row, chapter_tokens, cost_sweep, crossover, scale_experiment
from attend_figures.pictures import Figure, label

CONTROL_WIDTHS = tuple(2**p for p in range(2, 10))  # 4, 8, ..., 512: key widths to pick from
CONTROL_ROWS = (*range(1, 17), *(2**p for p in range(5, 13)))  # 1..16 token by token, then to 4,096

Kind = Literal["switch", "choice", "slider"]


@dataclass(frozen=True)
class State:
    """One position of a control: its value, the words that name it, and its panel's HTML."""

    value: str
    label: str
    panel: str


@dataclass(frozen=True)
class Drive:
    """How one figure is driven: the kind of control, its words, and every state it can take."""

    kind: Kind
    legend: str
    states: tuple[State, ...]
    start: int = 0  # the state shown first


@dataclass(frozen=True)
class Control:
    """A static figure plus a control whose every state was drawn at build."""

    figure: Figure
    drive: Drive

    def html(self) -> str:
        """The figure, then (hidden until the script runs) the control and its panels."""
        name, drive = self.figure.name, self.drive
        panels = "\n".join(
            f'<div class="attend-control__panel" data-state="{html.escape(s.value)}" '
            f'data-label="{html.escape(s.label)}"{"" if i == drive.start else " hidden"}>\n'
            f"{s.panel}\n</div>"
            for i, s in enumerate(drive.states)
        )
        live = (
            f'<div class="attend-control" data-control="{name}" hidden>\n'
            f"{self._input(name)}\n"
            f'<output class="attend-control__now" id="control-{name}-now" aria-live="polite">'
            f"{html.escape(drive.states[drive.start].label)}</output>\n{panels}\n</div>"
        )
        return self.figure.html(live)

    def _input(self, name: str) -> str:
        drive = self.drive
        legend = html.escape(drive.legend)
        if drive.kind == "switch":
            on, off = drive.states
            checked = " checked" if drive.start == 0 else ""
            return (
                f'<label class="attend-control__switch"><input type="checkbox" '
                f'data-control-input data-on="{html.escape(on.value)}" '
                f'data-off="{html.escape(off.value)}"{checked}> {legend}</label>'
            )
        if drive.kind == "choice":
            radios = "".join(
                f'<label><input type="radio" name="control-{name}" value="{html.escape(s.value)}"'
                f" data-control-input{' checked' if i == drive.start else ''}> "
                f"{html.escape(s.value)}</label>"
                for i, s in enumerate(drive.states)
            )
            return f'<fieldset class="attend-control__choice"><legend>{legend}</legend>{radios}</fieldset>'
        last = len(drive.states) - 1
        return (
            f'<label class="attend-control__slider" for="control-{name}-input">{legend}</label>'
            f'<input type="range" id="control-{name}-input" min="0" max="{last}" step="1" '
            f'value="{drive.start}" data-control-input aria-describedby="control-{name}-now" '
            f'aria-valuetext="{html.escape(drive.states[drive.start].label)}">'
        )


def _ink(colour: str) -> str:
    """Black or white, whichever reads better on `colour` (WCAG relative luminance)."""
    rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


def _heat_table(square: npt.NDArray[np.float64], labels: Sequence[str], caption: str) -> str:
    """A square of shares as a table whose cells are coloured as the heat map colours them."""
    cmap = colormaps["viridis_r"]
    head = "".join(f'<th scope="col">{j + 1}</th>' for j in range(len(labels)))
    rows = []
    for i, name in enumerate(labels):
        cells = []
        for j in range(len(labels)):
            value = float(square[i, j])
            ground = to_hex(cmap(value))
            cells.append(f'<td style="background:{ground};color:{_ink(ground)}">{value:.4f}</td>')
        rows.append(f'<tr><th scope="row">{i + 1} {html.escape(name)}</th>{"".join(cells)}</tr>')
    return (
        f'<table class="attend-heat"><caption>{html.escape(caption)}</caption>'
        f'<thead><tr><th scope="col">query \\ key</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _table(caption: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in header)
    body = "".join(
        f'<tr><th scope="row">{html.escape(r[0])}</th>'
        + "".join(f"<td>{html.escape(c)}</td>" for c in r[1:])
        + "</tr>"
        for r in rows
    )
    return (
        f'<table class="attend-readout"><caption>{html.escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


@cache
def shares_drive() -> Drive:
    """The shares heat map with a switch for the divide by √dk, both states run by the head."""
    labels = [label(t) for t in chapter_tokens()]
    states = []
    for divide in (True, False):
        run = chapter_head(divide=divide).attend(chapter_row())
        value, words = ("on", f"divided by {run.div:.0f}") if divide else ("off", "the divide left off")
        table = _heat_table(run.attn, labels, f"Each row's shares, {words}")
        states.append(State(value, f"shares, {words}", table))
    return Drive("switch", "Divide each score by √dk", tuple(states))


@cache
def scale_drive(widths: Sequence[int] = CONTROL_WIDTHS) -> Drive:
    """The divide experiment at one key width at a time, the reader's choice of width."""
    states = []
    for row in scale_experiment(widths):
        rows = [
            ("spread of a row", f"{row.divided.spread:.4f}", f"{row.undivided.spread:.4f}"),
            ("biggest share (mean)", f"{row.divided.biggest:.4f}", f"{row.undivided.biggest:.4f}"),
            ("rows near one token", f"{row.divided.confident}", f"{row.undivided.confident}"),
        ]
        table = _table(
            f"Key width {row.width}: the same draws, divided and not",
            ("", "divided by √width", "the divide left off"),
            rows,
        )
        states.append(State(str(row.width), f"key width {row.width}", table))
    return Drive("choice", "Key width", tuple(states))


@cache
def cost_drive(rows: Sequence[int] = CONTROL_ROWS) -> Drive:
    """The counted cost at one row length at a time, the length on a slider."""
    where = crossover()
    rows = sorted({*rows, where})  # the slider starts where the pairs overtake the projections
    states = []
    for cost in cost_sweep(rows):
        table = _table(
            f"One head over {cost.length:,} tokens of the chronicle, counted",
            ("", "multiply-adds"),
            [
                ("q, k and v: the projections", f"{cost.project:,}"),
                ("the pairs: scores and mixing", f"{cost.quadratic:,}"),
                ("total", f"{cost.total:,}"),
            ],
        )
        states.append(State(str(cost.length), f"n = {cost.length:,} tokens", table))
    start = rows.index(where)
    return Drive("slider", "Tokens in the row", tuple(states), start=start)


DRIVES = {"shares": shares_drive, "scale": scale_drive, "cost": cost_drive}


def driven(figure: Figure) -> Control:
    """`figure` (from `attend_figures.pictures`) with the control that drives it, for a page to print."""
    if figure.name not in DRIVES:
        raise KeyError(f"figure-{figure.name} has no control; these do: {', '.join(DRIVES)}")
    return Control(figure, DRIVES[figure.name]())
