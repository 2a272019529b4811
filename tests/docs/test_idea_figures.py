"""The pictures that open the chapter's pages draw what the package computes.

`attend_figures.ideas` draws ideas rather than tables, so each test here holds a picture's data
against the call the picture stands for: the chapter's run, the layer of neurons, the counted
cost, the head on other sequences of the chronicle, a published model's shapes.
"""

from __future__ import annotations

import math
import re

import numpy as np

from attend import (
    WQ,
    Layer,
    chapter_embeddings,
    chapter_head,
    chapter_tokens,
    cost_sweep,
    embed,
    entries,
    load_tokenizer,
    modes,
    typed_embedding,
)
from attend.book.models import GPT2_SMALL
from attend.core.training import corpus, line_weights, place_correct, place_of, weights_from
from attend_figures import ideas, opening


def test_the_head_figure_draws_every_step_of_the_run_attend_scores_prints() -> None:
    run = modes.scores.table().run
    data = ideas.head_figure().data
    for name in ("x", "q", "k", "v", "scaled", "weights", "out"):
        assert data[name] == getattr(run, name).tolist(), name
    assert data["followed"] == 2 and data["top key"] == 1
    assert len(ideas.head_figure().panels) == 2


def test_the_head_figure_draws_arrows_between_its_steps() -> None:
    panels = ideas.head_figure().panels
    # matplotlib draws each arrow head as a filled path of its own: at least one per step taken
    assert all(panel.count("<path") >= 4 for panel in panels)
    assert "softmax, row by row" in panels[1] and "$W_Q$" in panels[0]  # mathtext, as the pages write it


def test_the_head_figure_shades_its_boxes_and_prints_no_number_in_them() -> None:
    figure = ideas.head_figure()
    shown = [
        re.sub(r"<[^>]+>", "", text)
        for panel in figure.panels
        for text in re.findall(r"<text\b.*?</text>", panel, re.DOTALL)
    ]
    names = ("x", "q", "k", "v", "weights", "out")
    boxed = {f"{round(float(v), 2):g}" for name in names for v in np.ravel(figure.data[name])}
    boxed -= {str(i) for i in range(1, figure.data["size"] + 1)}  # the rows' numbers beside the boxes
    stray = [t.strip() for t in shown if t.strip() in boxed]
    assert not stray, f"numbers printed in the head figure's boxes: {stray}"
    assert "shaded" in figure.caption and "0 to 1" in figure.caption


def test_the_line_figure_draws_the_head_the_learning_page_trains_on_a_line_it_held_out() -> None:
    figure = opening.line_figure()
    data = corpus()
    head = modes.learn.table().head  # the run learning.md prints with `attend learn`
    line = figure.data["line"] - 1
    assert line in data.held.tolist() and figure.data["place"] == place_of(line)
    names, square = line_weights(head.params, line, " in")
    assert figure.data["tokens"] == names and figure.data["weights"] == square[-1].tolist()
    assert place_correct(head.params, np.array([line])).all(), "the head names this line's place"
    animal = names[figure.data["animal"] - 1]
    assert figure.data["top"] == figure.data["animal"], "its largest weight is on the animal"
    assert figure.data["back"] == len(names) - names.index(animal) - 1


def test_the_line_figure_reads_the_animal_the_head_reads_most_by_the_animal_which_has_one_place() -> None:
    figure = opening.line_figure()
    data = corpus()
    head = modes.learn.table().head
    by_animal: dict[str, list[int]] = {}
    for entry, n in ((entries()[n], int(n)) for n in data.held):
        by_animal.setdefault(" " + entry.split(" standing")[0].split()[-1], []).append(n)
    on_animal = {
        a: weights_from(head.params, " in", np.array(lines))["the animal"] for a, lines in by_animal.items()
    }
    animal = max(on_animal, key=on_animal.__getitem__)
    assert figure.data["tokens"][figure.data["animal"] - 1] == animal
    assert figure.data["line"] - 1 == by_animal[animal][0]
    assert figure.data["mean on animal"] == on_animal[animal]
    places = {e.split(" standing in ")[1].split(",")[0] for e in entries() if f"{animal} standing in" in e}
    assert figure.data["places"] == len(places) == 1


def test_the_line_figure_draws_a_line_as_thick_as_each_weight_and_links_to_the_page_that_trains_it() -> None:
    figure = opening.line_figure()
    [panel] = figure.panels
    weights = figure.data["weights"][:-1]
    drawn = sorted(float(w) for w in re.findall(r"stroke-width: ([\d.]+)", panel))
    for weight in weights:  # each weight seen gets a line of its own, THICKEST px for a weight of 1
        if weight >= opening.SEEN:
            assert any(math.isclose(w, opening.THICKEST * weight, rel_tol=1e-3) for w in drawn), weight
    assert '<a href="learning/">Learning the matrices</a>' in figure.html()
    assert "trained" in figure.caption


def test_the_kinds_figure_gives_the_two_digits_one_output_and_the_zero_its_attention_weights() -> None:
    run = chapter_head().attend(chapter_embeddings())
    data = ideas.kinds_figure().data
    layer = Layer(4, WQ, (0.0,) * 4)
    zero, seven = data["outputs"]
    assert zero == seven == layer.forward(run.x[1].tolist()) == run.q[1].tolist()
    assert data["embeddings"][0] == data["embeddings"][1]
    assert data["weights"] == run.weights[1].tolist() and data["top"] == 1


def test_the_saturation_figure_piles_the_weight_on_one_key_only_without_the_divide() -> None:
    data = ideas.saturation_figure().data
    raw, scaled = data["weights"]["not scaled"], data["weights"]["scaled: ÷ √d_k"]
    tops = [max(raw[w]) for w in data["widths"]]
    assert tops == sorted(tops) and tops[-1] > 0.99, tops
    assert max(scaled[data["widths"][-1]]) < 0.7
    for width, (spread, divided) in data["spreads"].items():
        assert math.isclose(spread / divided, math.sqrt(width))
        assert np.allclose(np.exp(data["scores"][width]) / np.exp(data["scores"][width]).sum(), raw[width])


def test_the_strip_figure_draws_the_counted_cost_as_areas_of_equal_cells() -> None:
    data = ideas.strip_figure().data
    counted = cost_sweep([n for n, _, _ in data["rows"]])
    assert data["rows"] == [(c.length, c.project, c.quadratic) for c in counted]
    for (n, project, pairs), wide in zip(data["rows"], data["strip"], strict=True):
        assert wide * n * data["pair"] == project  # the strip's area is the projections' count
        assert n * n * data["pair"] == pairs  # the square's is the pairs'
    assert data["level"] == (6, 288)


def test_the_company_figure_runs_the_same_head_on_three_sequences_ending_in_the_seven() -> None:
    data = ideas.company_figure().data
    tokenizer, head = load_tokenizer(), chapter_head()
    chapter, counted, neither = data["sequences"]
    assert chapter == list(chapter_tokens())
    seven = chapter_tokens()[3]
    for ids, weights in zip(data["sequences"], data["weights"], strict=True):
        assert ids[-1] == seven
        assert weights == head.attend(embed(ids)).weights[3].tolist()
    carries = [[typed_embedding(tokenizer.piece(i))[1:3] for i in ids] for ids in (counted, neither)]
    assert not any(year for year, _ in carries[0]) and any(count for _, count in carries[0])
    assert not any(year or count for year, count in carries[1])
    assert data["tops"][:2] == [1, 2]  # the year in the first, the count token in the second


def test_the_block_figure_draws_gpt2_smalls_published_shapes() -> None:
    data = ideas.block_figure().data
    shapes = (GPT2_SMALL.d_model, GPT2_SMALL.heads, GPT2_SMALL.d_k, GPT2_SMALL.mlp, GPT2_SMALL.layers)
    assert (
        (data["d"], data["heads"], data["dk"], data["mlp"], data["layers"])
        == shapes
        == (768, 12, 64, 3072, 12)
    )
