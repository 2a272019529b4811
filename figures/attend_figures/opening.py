"""The book's first picture: a trained head reading a line of the chronicle, its attention drawn
as lines from one word back to the words before it, as thick as the weight it gives each.

It is the picture a reader knows from The Illustrated Transformer and BertViz, drawn before any
matrix, and it is honest only because the head is a trained one: the page on learning the
matrices trains it (`attend.core.training.train`, the same settings and seed that page's
`modes.learn.table` runs), and the line is the first of the chronicle's lines that training
held out. Every number of the caption and the alt text is formatted from the weights the
figure drew, which `tests/docs/test_idea_figures.py` holds against the learning page's run.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from matplotlib import pyplot as plt
from matplotlib.patches import FancyArrowPatch

from attend.core.learn import Params
from attend.core.training import DEFAULTS, Settings, corpus, line_weights, place_of, train, weights_from
from attend_figures.diagrams import INK, _canvas
from attend_figures.ideas import BAR, FOLLOWED, QUIET
from attend_figures.pictures import _STYLE, PANEL_WIDTH, SMALLEST_TEXT, Figure, _svg, written

QUERY_WORD = " in"  # the token that must predict the place: what the head reads from
THICKEST = 9.0  # CSS px: the line of a weight of 1
WORD_SIZE = 14  # CSS px: the line's words, the picture's subject, larger than its labels
SEEN = 0.01  # a weight under this draws no line of its own, only the hairline every key has
WORD_GAP, JOINED_GAP = 7.0, 1.5  # CSS px between tokens, with a space before them or without
TRAINED_ON = ("Learning the matrices", "learning/")  # the page that trains the head, as the index links it


def _animal(names: list[str]) -> str:
    """The animal a line of the chronicle is about: the token before " standing"."""
    return names[names.index(" standing") - 1]


def chosen_line(params: Params) -> tuple[int, float]:
    """The line the picture reads, and why: of the animals whose held-out lines the head reads
    from " in", the one it reads most by the animal itself (the rest it reads mostly by the
    count, as the learning page shows), and that animal's first held-out line. Returned with the
    mean weight from " in" on the animal over that animal's held-out lines."""
    data = corpus()
    by_animal: dict[str, list[int]] = {}
    for line in data.held:
        by_animal.setdefault(_animal([data.names[i] for i in data.ids[line]]), []).append(int(line))
    on_animal = {
        animal: weights_from(params, QUERY_WORD, np.array(lines))["the animal"]
        for animal, lines in by_animal.items()
    }
    animal = max(on_animal, key=on_animal.__getitem__)
    return by_animal[animal][0], on_animal[animal]


def places_of(animal: str) -> set[str]:
    """Every place the chronicle's lines stand `animal` in."""
    data = corpus()
    return {
        place_of(n) for n in range(len(data.ids)) if _animal([data.names[i] for i in data.ids[n]]) == animal
    }


@cache
def line_figure(settings: Settings = DEFAULTS) -> Figure:
    """Where the trained head looks from " in" on a held-out line (`chosen_line`): a line from
    " in" to each token before it, as thick as its attention weight, and the place it must
    predict next."""
    params = train(settings).params
    line, mean_on_animal = chosen_line(params)
    names, square = line_weights(params, line, QUERY_WORD)
    weights = square[-1]
    top = int(np.argmax(weights))
    place, n = place_of(line), len(names)
    words = [name.strip() for name in names]
    with plt.rc_context({**_STYLE, "font.size": WORD_SIZE}):
        fig, ax = _canvas(PANEL_WIDTH, 136)
        ax.text(8, 12, f'reading "{words[-1]}", a trained head looks back', va="center", fontweight="bold",
                fontsize=SMALLEST_TEXT + 1)  # fmt: skip
        # The words in a row, each token with its own rule under it; the place to come, greyed.
        base, x = 98.0, 8.0
        centres: list[float] = []
        rules: list[tuple[float, float]] = []
        for name, word in zip(names, words, strict=True):
            x += (WORD_GAP if name.startswith(" ") else JOINED_GAP) if centres else 0
            here = len(centres)
            bold = "bold" if here in (top, n - 1) else "normal"
            end = written(ax, x, base, word, color=FOLLOWED if here == n - 1 else INK, fontweight=bold)
            centres.append((x + end) / 2)
            rules.append((x, end))
            x = end
        place_x = x + WORD_GAP
        place_end = written(ax, place_x, base, place, color=QUIET, style="italic")
        place_wide = place_end - place_x
        for left, right in rules:
            ax.plot([left, right], [base + 5] * 2, color="#c8c8c8", lw=1)
        ax.plot([place_x, place_x + place_wide], [base + 5] * 2, color=QUIET, lw=1, ls=(0, (2, 2)))
        ax.text(place_x + place_wide, base + 20, "to predict", ha="right", va="center", color=QUIET,
                fontsize=SMALLEST_TEXT)  # fmt: skip
        ax.text(8, base + 20, "thicker line: more attention", va="center", color=BAR, fontsize=SMALLEST_TEXT)
        # From the word read, a hairline to every token it may look at, and over it a line as
        # thick as the weight it gives that token.
        start = (centres[-1], base - 16)
        for key, weight in enumerate(weights[:-1]):
            reach = (centres[key], base - 16)
            arc = "arc3,rad=0.55"  # above the words: the canvas's y grows downwards
            ax.add_patch(
                FancyArrowPatch(start, reach, connectionstyle=arc, arrowstyle="-", color="#cccccc", lw=0.7)
            )
            if weight >= SEEN:
                ax.add_patch(
                    FancyArrowPatch(
                        start, reach, connectionstyle=arc, arrowstyle="-", color=BAR,
                        lw=THICKEST * float(weight), capstyle="round",
                    )
                )  # fmt: skip
    animal = words[names.index(_animal(names))]
    on_animal = float(weights[names.index(_animal(names))])
    places = places_of(_animal(names))
    back = n - 1 - names.index(_animal(names))
    seen = sorted((k for k, w in enumerate(weights[:-1]) if w >= SEEN), key=lambda k: -weights[k])
    thin = n - 1 - len(seen)
    lines = "; ".join(f'to "{words[k]}", token {k + 1}, {weights[k]:.4f}' for k in seen)
    alt = (
        f'A line of the chronicle written out as its {n} tokens, "{" ".join(words)}", and after them, '
        f'greyed, "{place}", the place the model must name next. From "{words[-1]}" curved lines reach '
        "back to each earlier token, each as thick as the attention weight the trained head gives it: "
        f"{lines}; to each of the other {thin}, a hairline, its weight under {SEEN:g}."
    )
    where = f"only in {place}" if len(places) == 1 else f"in {len(places)} places, {place} among them"
    caption = (
        f'A head trained on the chronicle, on a line it never trained on. From "{words[-1]}", which must '
        f'predict the place, it puts {on_animal:.4f} of its attention on "{animal}", {back} tokens back: '
        f"{animal} stand {where}. Of the animals, {animal} are those whose lines the head reads most "
        f"by the animal, {mean_on_animal:.3f} on average; on other animals' lines it often reads the "
        "count instead. Nobody typed where to look: training found it, on the path's last page,"
    )
    data = {
        "line": line + 1,
        "tokens": names,
        "place": place,
        "places": len(places),
        "weights": weights.tolist(),
        "animal": names.index(_animal(names)) + 1,
        "on animal": on_animal,
        "mean on animal": mean_on_animal,
        "top": top + 1,
        "back": back,
        "hairline under": SEEN,
        "drawn": [k + 1 for k in seen],  # the tokens given a line of their own
        "digits": [int(word) for word in words if word.isdigit()],  # as the line's words show them
        "hairlines": thin,
        "size": n,
    }
    return Figure("line", (_svg(fig, "line"),), alt, caption, data, link=TRAINED_ON)
