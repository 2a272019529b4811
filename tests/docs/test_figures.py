"""The book's pictures plot exactly the numbers the book's tables print.

Each figure in `figures/attend_figures` (the chapter's own in `pictures.py`, those of what its
head lacked in `lacking.py`) returns the data it drew. These tests take the table that
`attend MODE` prints as data (`attend.book.modes`, the very function the command renders) and
hold the figure's data against it, with no printed text read back. They also check
what a reader without sight gets (alt text, a title, a caption), that a build draws the same
bytes twice, and that each figure sits on the page whose table it pictures.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

import attend
import attend_figures
from attend import chapter_embeddings, chapter_head, modes
from attend.book.models import LLAMA31_8B, MODELS, square_share
from attend.core.training import DEFAULTS, corpus, line_weights
from attend.core.years import pairs, weights_to_year, windows, year_runs, year_settings
from attend_book.page import Block
from attend_book.run import run_page
from attend_figures import diagrams, ideas, ideas_later, lacking, learning, opening, pictures
from attend_figures.controls import DRIVES, cost_drive, driven

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_square_figure_plots_the_numbers_attend_square_prints() -> None:
    run = modes.square.table().run
    data = pictures.square_figure().data
    assert data["raw"] == run.raw.tolist()
    assert data["scaled"] == run.scaled.tolist()


def test_the_weights_figure_plots_the_numbers_attend_scores_prints_with_and_without_the_divide() -> None:
    data = pictures.weights_figure().data
    assert data["divided"] == modes.scores.table().run.weights.tolist()
    assert data["undivided"] == modes.scores.table(divide=False).run.weights.tolist()


def test_the_weights_figure_shows_rows_two_and_four_identical() -> None:
    data = pictures.weights_figure().data
    for side in ("divided", "undivided"):
        assert data[side][1] == data[side][3], side


def test_the_scale_figure_plots_the_numbers_the_scale_table_prints() -> None:
    table = modes.scale.table(pictures.SCALE_WIDTHS, count=1000, seed=82)
    data = pictures.scale_figure().data
    assert [m.width for m in table.measured] == data["widths"] == list(pictures.SCALE_WIDTHS)
    for m, divided, undivided in zip(table.measured, data["divided"], data["undivided"], strict=True):
        assert divided == (m.divided.spread, m.divided.biggest, m.divided.confident)
        assert undivided == (m.undivided.spread, m.undivided.biggest, m.undivided.confident)


def test_the_cost_figure_plots_the_numbers_the_cost_table_prints() -> None:
    table = modes.cost.table(pictures.COST_ROWS)
    data = pictures.cost_figure().data
    assert [(c.length, c.project, c.quadratic, c.total) for c in table.costs] == data["rows"]
    assert [row[0] for row in data["rows"]] == list(pictures.COST_ROWS)
    assert data["rows"][0][0] == 4 and data["rows"][-1][0] == 4096


def test_the_cost_figure_marks_the_crossover_the_cost_table_names() -> None:
    named = modes.cost.table([4, 8, 16, 32]).crossover
    data = pictures.cost_figure().data
    assert data["crossover"] == named == 7
    length, project, pairs = data["at_crossover"]
    assert length == named and pairs > project
    assert any(f"n = {named}" in panel for panel in pictures.cost_figure().panels)


def test_the_cost_caption_names_the_tie_one_token_before_the_pairs_lead() -> None:
    figure = pictures.cost_figure()
    tie = modes.cost.table([6]).costs[0]
    assert tie.project == tie.quadratic == 288  # 3·6·4·4 = 2·6·6·4
    assert figure.data["level"] == (6, 288)
    assert "they are level at n = 6 and the pairs lead from n = 7" in figure.caption


def test_the_driven_cost_figure_holds_a_marker_at_every_length_the_slider_offers() -> None:
    control = driven(pictures.cost_figure())
    [plot] = control.figure.panels
    for state in control.drive.states:
        assert state.marks == pictures.marker_ids(int(state.value))
        for mark in state.marks:
            assert f'id="{mark}"' in plot, (state.value, mark)
    assert not any("-mark-" in panel for panel in pictures.cost_figure().panels), (
        "the static figure marks nothing"
    )


def test_the_cost_slider_names_a_length_in_the_singular_and_its_steps_on_its_scale() -> None:
    drive = cost_drive((1, 2, 4))
    assert [s.label for s in drive.states[:2]] == ["n = 1 token", "n = 2 tokens"]
    offered = [int(s.value) for s in cost_drive().states]
    assert set(cost_drive().scale) <= set(offered)
    assert cost_drive().scale[0] == offered[0] and cost_drive().scale[-1] == offered[-1]


def test_the_mask_figure_plots_the_scores_and_weights_attend_mask_prints() -> None:
    masked = modes.mask.table().masked
    data = lacking.mask_figure().data
    assert data["scores"] == masked.scores.tolist()
    assert data["weights"] == masked.weights.tolist()


def test_the_mask_figure_outlines_the_twins_it_parts_and_the_last_keeps_its_unmasked_weights() -> None:
    data = lacking.mask_figure().data
    assert data["twins"] == pictures.weights_figure().data["twins"] == (2, 4)
    row, last = data["twins"]
    assert data["weights"][row - 1] != data["weights"][last - 1]
    assert last == data["size"], "the alt text says the last twin sees every key"
    assert data["weights"][last - 1] == pytest.approx(modes.mask.table().run.weights[last - 1].tolist())


def test_the_parting_figure_plots_rows_two_and_four_under_every_scheme_attend_positions_runs() -> None:
    partings = modes.positions.table().partings
    data = lacking.parting_figure().data
    assert data["schemes"] == [p.scheme for p in partings]
    assert data["rows"] == (2, 4)
    assert data["weights"] == [
        [p.attended.weights[1].tolist(), p.attended.weights[3].tolist()] for p in partings
    ]
    assert data["largest share apart"] == [p.weight_gap for p in partings]


def test_the_projection_diagram_draws_token_twos_embedding_query_key_and_value() -> None:
    run = modes.scores.table().run
    data = diagrams.projection_figure().data
    assert data["embedding"] == run.x[1].tolist()
    assert (data["query"], data["key"], data["value"]) == (
        run.q[1].tolist(),
        run.k[1].tolist(),
        run.v[1].tolist(),
    )


def test_the_query_diagram_draws_row_two_of_the_scores_the_weights_and_the_output() -> None:
    run = modes.scores.table().run
    data = diagrams.query_figure().data
    assert data["keys"] == run.k.tolist() and data["values"] == run.v.tolist()
    assert data["scores"] == run.scaled[1].tolist()
    assert data["weights"] == run.weights[1].tolist()
    assert data["output"] == run.out[1].tolist()
    assert data["top key"] == 1


def test_the_heads_diagram_cuts_wq_by_rows_and_joins_what_attend_heads_prints() -> None:
    run = modes.heads.table(2).run
    data = diagrams.heads_figure().data
    assert data["joined"] == run.joined.tolist() and data["out"] == run.out.tolist()
    assert [w for row in data["wq"] for w in row] == list(attend.WQ)
    assert data["widths"] == (4, 2)
    assert "W_O is the identity" in diagrams.heads_figure().caption
    assert tuple(float(i == j) for i in range(4) for j in range(4)) == attend.WO


def test_the_heads_diagram_draws_each_heads_own_attention_weights_for_token_two() -> None:
    run = modes.heads.table(2).run
    data = diagrams.heads_figure().data
    assert data["heads' weights"] == run.attended.weights[:, 1].tolist()
    assert data["heads' tops"] == [1, 3], "head 1 reads the year, head 2 the count token"
    assert data["panels"] == 4, "the cut, a panel for each head's weights, the join"


def test_the_rotation_diagram_turns_each_pair_by_its_position_and_keeps_its_length() -> None:
    data = diagrams.rotation_figure().data
    turned, query = np.array(data["turned"]), np.array(data["query"])
    assert turned[0].tolist() == query.tolist(), "position 0 is not turned"
    for pair in range(2):
        lengths = np.hypot(turned[:, 2 * pair], turned[:, 2 * pair + 1])
        assert np.allclose(lengths, np.hypot(*query[2 * pair : 2 * pair + 2]))
        turns = np.unwrap(np.arctan2(turned[:, 2 * pair + 1], turned[:, 2 * pair]))
        assert np.allclose(np.diff(turns), data["rates"][pair])
    assert data["rates"] == [1.0, 0.01]


def test_the_growth_diagram_draws_the_work_attend_kvcache_prints() -> None:
    table = modes.kvcache.table(8, 1)
    data = diagrams.growth_figure().data
    assert data["again"] == list(table.again.work) and data["kept"] == list(table.kept.work)
    assert data["totals"] == (table.again.total, table.kept.total)


def test_the_growth_diagram_splits_each_steps_work_into_projections_and_query_key_pairs() -> None:
    data = diagrams.growth_figure().data
    dk, steps = modes.kvcache.table(8, 1).d_k, range(1, data["tokens"] + 1)
    # a pass from scratch scores and mixes every pair of the t tokens so far; a kept step, one row
    assert data["pairs again"] == [2 * t * t * dk for t in steps]
    assert data["pairs kept"] == [2 * t * dk for t in steps]
    for way, i in (("again", 0), ("kept", 1)):
        assert data["projected"][i] + data["scored"][i] == data["totals"][i] == sum(data[way])
    assert "1,632" in diagrams.growth_figure().caption, "the caption shows the scoring it counts"


def test_the_placed_diagram_adds_each_digits_position_and_turns_its_query() -> None:
    data = ideas_later.placed_figure().data
    x, added = chapter_embeddings(), modes.positions.table().table
    assert data["tokens"] == (2, 4) and data["places"] == (1, 3) and data["digits"] == (0, 7)
    assert x[1].tolist() == x[3].tolist() == data["embedding"], "the twins arrive alike"
    assert data["entering"] == [(x[1] + added[1]).tolist(), (x[3] + added[3]).tolist()]
    run = chapter_head().attend(x)
    q, k = attend.rotary(run.q)[0], attend.rotary(run.k)[0]
    assert data["turned scores"] == (float(q[1] @ k[0]), float(q[3] @ k[0]))
    assert data["unturned score"] == run.raw[1, 0] == run.raw[3, 0]
    assert data["turned scores"][1] < 0 < data["turned scores"][0] < data["unturned score"]


def test_the_looking_back_diagram_draws_row_two_of_attend_mask_and_of_the_unmasked_head() -> None:
    table = modes.mask.table()
    data = ideas_later.looking_back_figure().data
    assert data["masked"] == table.masked.weights[1].tolist()
    assert data["every key"] == table.run.weights[1].tolist()
    assert data["hidden"] == [3, 4] and data["top"] == 1
    assert all(data["masked"][j - 1] == 0 for j in data["hidden"])


def test_the_layer_diagram_draws_the_square_share_of_every_published_model_at_its_window() -> None:
    data = ideas_later.layer_figure().data
    assert data["square at window"] == [square_share(m, m.context) for m in MODELS]
    assert data["lengths"][-1] == LLAMA31_8B.context
    assert data["square growing"] == [square_share(LLAMA31_8B, n) for n in data["lengths"]]
    assert data["square growing"] == sorted(data["square growing"]), "the square's part grows with n"


def test_the_clue_figure_draws_the_weights_each_trained_head_gives_from_its_query() -> None:
    data = learning.clue_figure().data
    names, square = line_weights(modes.learn.table(DEFAULTS).head.params, int(corpus().held[0]), " in")
    year_names, year_row = weights_to_year(
        year_runs(year_settings(DEFAULTS)).head.params, int(pairs().text.held[0])
    )
    assert data["place"]["weights"] == square[-1].tolist() and len(data["place"]["labels"]) == len(names)
    assert data["year"]["weights"] == year_row.tolist() and len(data["year"]["labels"]) == len(year_names)
    assert data["window"] == windows().place.index(max(windows().place))
    assert data["year"]["back"] > data["window"] > data["place"]["back"]  # the year's clue is out of reach


def test_the_window_figure_plots_the_table_of_counts_and_both_runs() -> None:
    data, lines, years = (
        learning.window_figure().data,
        modes.learn.table(DEFAULTS),
        year_runs(year_settings(DEFAULTS)),
    )
    assert (data["place"], data["year"]) == (windows().place, windows().year)
    assert data["head"] == (lines.head.places_named, years.head_years)
    assert data["baseline"] == (lines.baseline.places_named, years.baseline_years)
    assert data["held"] == (lines.held, years.held)


ALL = [
    opening.line_figure,
    pictures.square_figure,
    pictures.weights_figure,
    pictures.scale_figure,
    pictures.cost_figure,
    ideas.head_figure,
    ideas.kinds_figure,
    ideas.saturation_figure,
    ideas.strip_figure,
    ideas.company_figure,
    ideas.block_figure,
    lacking.mask_figure,
    lacking.parting_figure,
    diagrams.projection_figure,
    diagrams.query_figure,
    diagrams.heads_figure,
    diagrams.rotation_figure,
    diagrams.growth_figure,
    ideas_later.placed_figure,
    ideas_later.looking_back_figure,
    ideas_later.layer_figure,
    learning.curve_figure,
    learning.learned_figure,
    learning.clue_figure,
    learning.window_figure,
]


@pytest.mark.parametrize("draw", ALL, ids=lambda f: f.__name__)
def test_every_figure_carries_alt_text_a_title_and_a_caption(draw: object) -> None:
    figure = draw()  # type: ignore[operator]
    html = figure.html()
    assert html.startswith(f'<figure class="attend-figure" id="figure-{figure.name}">')
    assert "<figcaption>" in html and figure.caption.strip()
    box = figure.drawing()[: figure.drawing().index(">") + 1]
    assert 'role="img"' in box and 'aria-label="' in box
    assert len(figure.alt) > 80, "alt text should say what the picture shows, not name it"
    assert all('aria-hidden="true"' in panel[: panel.index(">")] for panel in figure.panels)


@pytest.mark.parametrize("draw", ALL, ids=lambda f: f.__name__)
def test_every_panel_is_drawn_at_its_size_with_no_text_under_eleven_pixels(draw: object) -> None:
    for panel in draw().panels:  # type: ignore[operator]
        width, height = (float(v) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', panel).groups())  # type: ignore[union-attr]
        assert f'viewBox="0 0 {width:g} {height:g}"' in panel, "one SVG unit to one CSS pixel"
        assert width <= pictures.PANEL_WIDTH, width
        sizes = [float(px) for px in re.findall(r"font-size: ([\d.]+)px", panel)]
        assert sizes and min(sizes) >= pictures.SMALLEST_TEXT, sorted(set(sizes))


@pytest.mark.parametrize("draw", ALL, ids=lambda f: f.__name__)
def test_a_figure_draws_the_same_bytes_every_build(draw: object) -> None:
    fresh = draw.__wrapped__  # type: ignore[attr-defined]  # around the cache
    small = {"rows": (4, 8, 16)} if draw is pictures.cost_figure else {}  # 4,096 tokens is slow
    # the cached drawing, which the tests after this one use too, against a fresh one
    first, second = draw(**small).panels, fresh(**small).panels  # type: ignore[operator]
    assert first == second
    assert all("<dc:date>" not in panel and "<metadata>" not in panel for panel in first)
    assert all(panel.startswith("<svg") for panel in first), "inline SVG needs no XML declaration"


# Each figure as a page prints it, alone or with the control that drives it.
SHOWN = [f"{draw.__name__}()" for draw in ALL] + [f"driven({n}_figure())" for n in DRIVES]


@pytest.fixture(scope="module")
def shown_page() -> list[Block]:
    """One page that prints every figure of SHOWN, a fence each, run once as the build runs it."""
    fences = []
    for shown in SHOWN:
        names = re.findall(r"(\w+)\(", shown)
        code = f"from attend_figures import {', '.join(names)}\n\nprint({shown}.html())"
        fences.append(f'```python exec="1" html="1"\n{code}\n```\n')
    return run_page("docs/p.md", "\n".join(fences)).blocks


@pytest.mark.parametrize("shown", SHOWN)
def test_a_page_shows_the_figure_whole(shown: str, shown_page: list[Block]) -> None:
    block = shown_page[SHOWN.index(shown)]
    figure = getattr(attend_figures, re.findall(r"(\w+)\(", shown)[-1])()
    assert block.text.startswith(f'<figure class="attend-figure" id="figure-{figure.name}">')
    assert block.text.endswith("</figure>\n")


def test_no_two_figures_share_an_id() -> None:
    ids = [i for draw in ALL for panel in draw().panels for i in re.findall(r'\bid="([^"]+)"', panel)]
    assert len(ids) == len(set(ids))


# Which page each figure belongs on: the one whose console fence prints its table.
HOMES = {
    "square_figure": "$ attend square",
    "weights_figure": "chapter_head(divide=False)",  # the undivided weights, printed by a fence
    "scale_figure": "$ attend scale",
    "cost_figure": "$ attend cost --lengths " + ",".join(map(str, pictures.COST_ROWS)),
    "mask_figure": "$ attend mask",
    "parting_figure": "$ attend positions",
    "curve_figure": "$ attend learn",
    "learned_figure": "$ attend learn",
    "window_figure": "counted = windows()",  # the table of counts at every window, and the runs
}


def _pages() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(DOCS.glob("*.md"))}


@pytest.mark.parametrize("name", list(HOMES))
def test_each_figure_sits_on_the_page_that_prints_its_table(name: str) -> None:
    drawn = re.compile(rf"\b{name}\(")  # with its defaults, or with the settings a page gives it
    homes = [page for page, text in _pages().items() if drawn.search(text)]
    assert homes, f"no page draws {name}"
    assert len(homes) == 1, f"{name} is drawn on more than one page: {homes}"
    text = _pages()[homes[0]]
    # before or after its picture: a page shows the idea before its arithmetic, and may keep the
    # command's whole table folded beside the path (issue 32)
    assert HOMES[name] in text, f"{homes[0]} draws {name} but never prints `{HOMES[name]}`"


# The pictures of ideas picture no table: each belongs where its page first needs it.
DIAGRAM_HOMES = {
    "projection_figure": "three-matrices.md",
    "query_figure": "score-square.md",
    "heads_figure": "several-heads.md",
    "rotation_figure": "positions.md",
    "growth_figure": "kv-cache.md",
    "head_figure": "index.md",
    "line_figure": "index.md",
    "kinds_figure": "bare-digit.md",
    "saturation_figure": "square-root-divide.md",
    "strip_figure": "longer-rows.md",
    "company_figure": "weights-are-data.md",
    "block_figure": "weights-are-data.md",
    "placed_figure": "positions.md",
    "looking_back_figure": "causal-mask.md",
    "layer_figure": "real-models.md",
    "clue_figure": "learning.md",
}


@pytest.mark.parametrize("name", list(DIAGRAM_HOMES))
def test_each_picture_of_an_idea_is_drawn_once_on_the_page_that_builds_the_idea(name: str) -> None:
    homes = [page for page, text in _pages().items() if f"{name}()" in text]
    assert homes == [DIAGRAM_HOMES[name]]


def test_no_image_file_is_committed_under_docs() -> None:
    pictures = [
        p
        for p in DOCS.rglob("*")
        if p.suffix.lower() in {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ipynb"}
    ]
    assert not pictures, pictures


# ---- Captions and alt text: every number formatted from a computed value ----

# a number joined by a hyphen to a name (GPT-2, Llama-3.1-8B) is part of the name, as the number
# check of the prose reads it; a number's minus sign may be a true one, −
WRITTEN = re.compile(r"(?<![\w.-])(?<!\w-)[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])")
NUMBER_WORDS = re.compile(
    r"\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|"
    r"ninety|hundred|thousand|million|billion|half|halves|halved|twice|double[sd]?|triple|single|"
    r"once|quarter)\b",
    re.IGNORECASE,
)
SOURCES = sorted((Path(pictures.__file__).parent).glob("*.py"))
WORDED = {"alt", "caption", "legend"}  # the names every caption, alt text and legend is built in


def _plotted(value: object) -> list[float]:
    """Every number a figure's data holds, however deep."""
    if isinstance(value, dict):
        return [n for v in value.values() for n in _plotted(v)]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in _plotted(v)]
    return [float(value)] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


def _is_plotted(written: str, plotted: list[float]) -> bool:
    """Whether `written` is one of `plotted` at the places it is written to."""
    digits = written.replace(",", "").replace("−", "-")  # a true minus sign is a minus
    places = len(digits.partition(".")[2])
    return any(f"{v:.{places}f}" == digits for v in plotted)


@pytest.mark.parametrize("draw", ALL, ids=lambda f: f.__name__)
def test_every_number_in_a_caption_or_alt_text_is_one_the_figure_plotted(draw: object) -> None:
    figure = draw()  # type: ignore[operator]
    plotted = _plotted(figure.data)
    for words in (figure.caption, figure.alt):
        written = WRITTEN.findall(words)
        assert written, f"{figure.name}: no number in {words!r}"
        stray = [w for w in written if not _is_plotted(w, plotted)]
        assert not stray, f"{figure.name}: {stray} written in {words!r} but not among the numbers it plotted"
        assert not NUMBER_WORDS.search(words), f"{figure.name}: a number word in {words!r}"


def test_a_caption_number_that_drifts_from_the_data_is_caught() -> None:
    figure = pictures.cost_figure()
    slope = f"{figure.data['slopes'][1]:.2f}"
    assert _is_plotted(slope, _plotted(figure.data))
    assert not _is_plotted(f"{figure.data['slopes'][1] + 1:.2f}", _plotted(figure.data))


def _typed(node: ast.AST) -> list[str]:
    """The text typed into a caption's template: its string constants, format specs left out."""
    if isinstance(node, ast.FormattedValue):
        return _typed(node.value)
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) else []
    return [text for child in ast.iter_child_nodes(node) for text in _typed(child)]


def _templates(tree: ast.AST) -> list[ast.expr]:
    """Every expression a caption, alt text or legend is built from."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id in WORDED for t in node.targets
        ):
            found.append(node.value)
        if isinstance(node, ast.keyword) and node.arg in WORDED:
            found.append(node.value)
    return found


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_no_caption_template_in_figures_types_a_number(source: Path) -> None:
    templates = _templates(ast.parse(source.read_text(encoding="utf-8")))
    captioned = ("pictures.py", "controls.py", "lacking.py", "learning.py", "ideas.py", "ideas_later.py")
    # opening.py holds one figure: its caption and its alt text
    if source.name in captioned:
        assert len(templates) >= 4, f"{source.name}: the captions were not found"
    for template in templates:
        for text in _typed(template):
            assert not re.search(r"\d", text), f"{source.name}:{template.lineno}: a typed digit in {text!r}"
            found = NUMBER_WORDS.search(text)
            assert not found, f"{source.name}:{template.lineno}: a typed number word in {text!r}"
