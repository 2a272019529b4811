"""The book's pictures plot exactly the numbers the book's tables print.

Each figure in `figures/attend_figures/pictures.py` returns the data it drew. These tests take
the table that `attend MODE` prints as data (`attend.tables`, the very function the command
renders) and hold the figure's data against it, with no printed text read back. They also check
what a reader without sight gets (alt text, a title, a caption), that a build draws the same
bytes twice, that the data reaches the build's number check but not the reader, and that each
figure sits on the page whose table it pictures.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from attend import tables
from attend_book.run import run_page
from attend_figures import pictures
from attend_figures.controls import DRIVES

DOCS = Path(__file__).resolve().parents[2] / "docs"
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def test_the_square_figure_plots_the_numbers_attend_square_prints() -> None:
    run = tables.square().run
    data = pictures.square_figure().data
    assert data["raw"] == run.raw.tolist()
    assert data["scaled"] == run.scaled.tolist()


def test_the_shares_figure_plots_the_numbers_attend_scores_prints_with_and_without_the_divide() -> None:
    data = pictures.shares_figure().data
    assert data["divided"] == tables.scores().run.attn.tolist()
    assert data["undivided"] == tables.scores(divide=False).run.attn.tolist()


def test_the_shares_figure_shows_rows_two_and_four_identical() -> None:
    data = pictures.shares_figure().data
    for side in ("divided", "undivided"):
        assert data[side][1] == data[side][3], side


def test_the_scale_figure_plots_the_numbers_the_scale_table_prints() -> None:
    table = tables.scale(pictures.SCALE_WIDTHS, count=1000, seed=82)
    data = pictures.scale_figure().data
    assert [m.width for m in table.measured] == data["widths"] == list(pictures.SCALE_WIDTHS)
    for m, divided, undivided in zip(table.measured, data["divided"], data["undivided"], strict=True):
        assert divided == (m.divided.spread, m.divided.biggest, m.divided.confident)
        assert undivided == (m.undivided.spread, m.undivided.biggest, m.undivided.confident)


def test_the_cost_figure_plots_the_numbers_the_cost_table_prints() -> None:
    table = tables.cost(pictures.COST_ROWS)
    data = pictures.cost_figure().data
    assert [(c.length, c.project, c.quadratic, c.total) for c in table.costs] == data["rows"]
    assert [row[0] for row in data["rows"]] == list(pictures.COST_ROWS)
    assert data["rows"][0][0] == 4 and data["rows"][-1][0] == 4096


def test_the_cost_figure_marks_the_crossover_the_cost_table_names() -> None:
    named = tables.cost([4, 8, 16, 32]).crossover
    data = pictures.cost_figure().data
    assert data["crossover"] == named == 7
    length, project, pairs = data["at_crossover"]
    assert length == named and pairs > project
    assert f"n = {named}" in pictures.cost_figure().svg


def test_the_flow_figure_draws_the_shares_and_the_mixed_values_attend_scores_prints() -> None:
    run = tables.scores().run
    data = pictures.flow_figure().data
    assert data["attn"] == run.attn.tolist()
    assert data["out"] == run.out.tolist()


ALL = [
    pictures.square_figure,
    pictures.shares_figure,
    pictures.scale_figure,
    pictures.cost_figure,
    pictures.flow_figure,
]


@pytest.mark.parametrize("draw", ALL, ids=lambda f: f.__name__)
def test_every_figure_carries_alt_text_a_title_and_a_caption(draw: object) -> None:
    figure = draw()  # type: ignore[operator]
    html = figure.html()
    assert html.startswith(f'<figure class="attend-figure" id="figure-{figure.name}">')
    assert "<figcaption>" in html and figure.caption.strip()
    svg_open = figure.svg[: figure.svg.index(">") + 1]
    assert 'role="img"' in svg_open and 'aria-label="' in svg_open
    assert len(figure.alt) > 80, "alt text should say what the picture shows, not name it"
    assert "<title>" in figure.svg


@pytest.mark.parametrize("draw", ALL, ids=lambda f: f.__name__)
def test_a_figure_draws_the_same_bytes_every_build(draw: object) -> None:
    fresh = draw.__wrapped__  # type: ignore[attr-defined]  # around the cache
    small = {"rows": (4, 8, 16)} if draw is pictures.cost_figure else {}  # 4,096 tokens is slow
    first, second = fresh(**small).svg, fresh(**small).svg
    assert first == second
    assert "<dc:date>" not in first and "<metadata>" not in first
    assert not first.startswith("<?xml"), "inline SVG needs no XML declaration"


@pytest.mark.parametrize("draw", ALL, ids=lambda f: f.__name__)
def test_a_figures_data_text_holds_every_number_it_plotted_at_four_places(draw: object) -> None:
    figure = draw()  # type: ignore[operator]
    text = figure.data_text()

    def numbers(value: object) -> list[str]:
        if isinstance(value, (list, tuple)):
            return [n for v in value for n in numbers(v)]
        if isinstance(value, float):
            return [f"{value:.4f}"]
        return [str(value)] if isinstance(value, int) else []

    written = NUMBER.findall(text)
    for number in numbers(list(figure.data.values())):
        assert number in written, (figure.name, number)
    assert not re.search(r"\d\.\d{5,}", text), "a raw float repr leaked into the text"


# Each figure as a page prints it, alone or with the control that drives it.
SHOWN = [f"{draw.__name__}()" for draw in ALL] + [f"driven({n}_figure())" for n in DRIVES]


@pytest.mark.parametrize("shown", SHOWN)
def test_a_page_shows_the_figure_and_the_number_check_gets_what_it_plotted(shown: str) -> None:
    names = re.findall(r"(\w+)\(", shown)
    code = f"from attend_figures import {', '.join(names)}\n\nprint({shown}.html())"
    [block] = run_page("docs/p.md", f'```python exec="1" html="1"\n{code}\n```\n').blocks
    figure = getattr(pictures, names[-1])()
    assert block.text.startswith(f'<figure class="attend-figure" id="figure-{figure.name}">')
    assert block.text.endswith("</figure>\n") and "attend-figure-data" not in block.text
    assert block.data == figure.data_text()


def test_no_two_figures_share_an_id() -> None:
    ids = [i for draw in ALL for i in re.findall(r'\bid="([^"]+)"', draw().svg)]
    assert len(ids) == len(set(ids))


# Which page each figure belongs on: the one whose console fence prints its table.
HOMES = {
    "square_figure": "$ attend square",
    "shares_figure": "chapter_head(divide=False)",  # the undivided shares, printed by a fence
    "scale_figure": "$ attend scale",
    "cost_figure": "$ attend cost --rows " + ",".join(map(str, pictures.COST_ROWS)),
}


def _pages() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(DOCS.glob("*.md"))}


@pytest.mark.parametrize("name", list(HOMES))
def test_each_figure_sits_on_the_page_that_prints_its_table(name: str) -> None:
    homes = [page for page, text in _pages().items() if f"{name}()" in text]
    assert homes, f"no page draws {name}"
    assert len(homes) == 1, f"{name} is drawn on more than one page: {homes}"
    text = _pages()[homes[0]]
    assert HOMES[name] in text, f"{homes[0]} draws {name} but never prints `{HOMES[name]}`"
    assert text.index(HOMES[name]) < text.index(f"{name}()"), "the table comes before its picture"


def test_no_image_file_is_committed_under_docs() -> None:
    pictures = [
        p
        for p in DOCS.rglob("*")
        if p.suffix.lower() in {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ipynb"}
    ]
    assert not pictures, pictures
