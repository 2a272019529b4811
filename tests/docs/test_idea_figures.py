"""The pictures that open the chapter's pages draw what the package computes.

`attend_figures.ideas` draws ideas rather than tables, so each test here holds a picture's data
against the call the picture stands for: the chapter's run, the layer of neurons, the counted
cost, the head on other sequences of the chronicle, a published model's shapes.
"""

from __future__ import annotations

import math

import numpy as np

from attend import (
    WQ,
    Layer,
    chapter_embeddings,
    chapter_head,
    chapter_tokens,
    cost_sweep,
    embed,
    load_tokenizer,
    modes,
    typed_embedding,
)
from attend.book.models import GPT2_SMALL
from attend_figures import ideas


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
    assert "softmax, row by row" in panels[1] and "× WQ" in panels[0]


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
    raw, scaled = data["weights"]["not scaled"], data["weights"]["scaled: ÷ √dk"]
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
