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
from itertools import pairwise
from typing import Literal

from attend import chapter_embeddings, chapter_head, chapter_tokens, cost_sweep, crossover, scale_experiment
from attend.book.experiments import CONFIDENT
from attend_figures.pictures import COST_ROWS, Figure, cost_figure, label, marker_ids

CONTROL_WIDTHS = tuple(2**p for p in range(2, 10))  # 4, 8, ..., 512: key widths to pick from
BY_ONE_TO = 16  # the slider adds a token a step up to here, then doubles: the plot's axis is log
CONTROL_ROWS = (*range(COST_ROWS[0], BY_ONE_TO + 1), *(n for n in COST_ROWS if n > BY_ONE_TO))

Kind = Literal["switch", "choice", "slider"]


@dataclass(frozen=True)
class State:
    """One position of a control: its value, the words that name it, its panel's HTML, and the
    ids of what it marks on the figure (shown only while this state is chosen)."""

    value: str
    label: str
    panel: str
    marks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Drive:
    """How one figure is driven: the kind of control, its words, and every state it can take."""

    kind: Kind
    legend: str
    states: tuple[State, ...]
    start: int = 0  # the state shown first
    scale: tuple[int, ...] = ()  # the states a slider's scale names under it


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
            f'data-label="{html.escape(s.label)}" data-marks="{" ".join(s.marks)}"'
            f"{'' if i == drive.start else ' hidden'}>\n{s.panel}\n</div>"
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
            f"{self._scale(last)}"
        )

    def _scale(self, last: int) -> str:
        """The slider's scale: the named states written under the track where they sit."""
        values = [s.value for s in self.drive.states]
        ticks = "".join(
            f'<span style="left:{100 * values.index(str(v)) / last:.2f}%">{v:,}</span>'
            for v in self.drive.scale
        )
        return f'<div class="attend-control__scale" aria-hidden="true">{ticks}</div>'


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
def weights_drive() -> Drive:
    """What softmax is handed, scaled by 1/√d_k and not: the figure above shows the
    attention weights that come out, this shows the scores that go in, the gaps scaling narrows."""
    labels = [label(t) for t in chapter_tokens()]
    keys = [str(j + 1) for j in range(len(labels))]
    states = []
    for divide in (True, False):
        run = chapter_head(divide=divide).attend(chapter_embeddings())
        value, words = ("on", f"divided by {run.div:g}") if divide else ("off", "scaling left off")
        rows = [
            (f"{i + 1} {name}", *(f"{s:.4f}" for s in row))
            for i, (name, row) in enumerate(zip(labels, run.scaled, strict=True))
        ]
        caption = f"The scores softmax is handed, {words}"
        table = _table(caption, ("query \\ key", *keys), rows)
        states.append(State(value, f"scores, {words}", table))
    return Drive("switch", "Divide each score by √dₖ", tuple(states))


@cache
def scale_drive(widths: Sequence[int] = CONTROL_WIDTHS) -> Drive:
    """The scaling experiment at one key width at a time, the reader's choice of width."""
    states = []
    for row in scale_experiment(widths):
        rows = [
            ("spread of a row", f"{row.divided.spread:.4f}", f"{row.undivided.spread:.4f}"),
            ("largest weight (mean)", f"{row.divided.biggest:.4f}", f"{row.undivided.biggest:.4f}"),
            (
                f"draws with a weight ≥ {CONFIDENT:g}",
                f"{row.divided.confident}",
                f"{row.undivided.confident}",
            ),
        ]
        caption = f"Key width {row.width}: the same draws, scaled and not"
        table = _table(caption, ("", "scaled by 1/√width", "not scaled"), rows)
        states.append(State(str(row.width), f"key width {row.width}", table))
    return Drive("choice", "Key width", tuple(states))


def _tokens(n: int) -> str:
    return f"n = {n:,} token{'' if n == 1 else 's'}"


@cache
def cost_drive(rows: Sequence[int] = CONTROL_ROWS) -> Drive:
    """The counted cost at one row length at a time, the length on a slider, marked on the plot."""
    where = crossover()
    rows = sorted({*rows, where})  # the slider starts where the pairs overtake the projections
    states = []
    for cost in cost_sweep(rows):
        caption = f"The head over {cost.length:,} tokens of the chronicle, counted"
        table = _table(
            caption,
            ("", "multiply-adds"),
            [
                ("q, k and v: the projections", f"{cost.project:,}"),
                ("query–key pairs: scores and mixing", f"{cost.quadratic:,}"),
                ("total", f"{cost.total:,}"),
            ],
        )
        states.append(State(str(cost.length), _tokens(cost.length), table, marker_ids(cost.length)))
    legend = f"Tokens in the sequence, marked on the plot: {_steps(rows)}"
    turn = _even_until(rows)
    scale = tuple(sorted({rows[0], where, turn, rows[-1]}))
    return Drive("slider", legend, tuple(states), start=rows.index(where), scale=scale)


def _even_until(rows: Sequence[int]) -> int:
    """The last length the slider reaches by even steps from its first."""
    step = rows[1] - rows[0] if len(rows) > 1 else 0
    return next((a for a, b in pairwise(rows) if b - a != step), rows[-1])


def _steps(rows: Sequence[int]) -> str:
    """The slider's uneven steps in words: even to a point, then by a ratio where there is one."""
    turn = _even_until(rows)
    even = f"steps of {rows[1] - rows[0]:,} from {rows[0]:,} to {turn:,}" if len(rows) > 1 else f"{rows[0]:,}"
    rest = list(rows[rows.index(turn) :])
    if len(rest) < 2:
        return even
    ratios = {b / a for a, b in pairwise(rest)}
    by = f"×{ratios.pop():g} a step" if len(ratios) == 1 else "longer steps"
    return f"{even}, then {by} to {rows[-1]:,}"


DRIVES = {"weights": weights_drive, "scale": scale_drive, "cost": cost_drive}


def driven(figure: Figure) -> Control:
    """`figure` (from `attend_figures.pictures`) with the control that drives it, for a page to print.

    The cost figure is drawn again with a marker at every length the slider offers, each
    hidden until the slider names it.
    """
    if figure.name not in DRIVES:
        raise KeyError(f"figure-{figure.name} has no control; these do: {', '.join(DRIVES)}")
    drive = DRIVES[figure.name]()
    if figure.name == "cost":
        figure = cost_figure(marked=tuple(int(s.value) for s in drive.states))
    return Control(figure, drive)
