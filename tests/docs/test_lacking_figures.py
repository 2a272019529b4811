"""The pictures of what the chapter's head lacked plot exactly what `attend mask` and
`attend positions` print, carry words for a reader without sight, and sit after their tables.

The same rules `test_figures.py` holds the chapter's own pictures to, for
`figures/attend_figures/lacking.py`: the figure's data against the table as data (never the
printed text read back), a caption whose decimals are all values the figure drew, the same
bytes on every build, and the page that draws a figure printing its table first.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from attend import tables
from attend_book.run import run_page
from attend_figures import lacking

DOCS = Path(__file__).resolve().parents[2] / "docs"
DECIMAL = re.compile(r"-?\d+\.\d+")
ALL = [lacking.mask_figure, lacking.parting_figure]
HOMES = {"mask_figure": "$ attend mask", "parting_figure": "$ attend positions"}


def test_the_mask_figure_plots_the_scores_and_shares_attend_mask_prints() -> None:
    masked = tables.mask().masked
    data = lacking.mask_figure().data
    assert data["scores"] == masked.scores.tolist()
    assert data["shares"] == masked.shares.tolist()


def test_the_parting_figure_plots_rows_two_and_four_under_every_scheme_attend_positions_runs() -> None:
    partings = tables.positions().partings
    data = lacking.parting_figure().data
    assert data["schemes"] == [p.scheme for p in partings]
    assert data["row 2"] == [p.attended.shares[1].tolist() for p in partings]
    assert data["row 4"] == [p.attended.shares[3].tolist() for p in partings]
    assert data["largest share apart"] == [p.share_gap for p in partings]


@pytest.mark.parametrize("draw", ALL, ids=lambda f: f.__name__)
def test_every_decimal_in_a_caption_or_alt_text_is_a_value_the_figure_drew(draw: object) -> None:
    figure = draw()  # type: ignore[operator]
    drawn = set(DECIMAL.findall(figure.data_text()))
    for words in (figure.caption, figure.alt):
        for number in DECIMAL.findall(words):
            assert number in drawn, (figure.name, number)


@pytest.mark.parametrize("draw", ALL, ids=lambda f: f.__name__)
def test_every_lacking_figure_carries_alt_text_a_title_and_a_caption(draw: object) -> None:
    figure = draw()  # type: ignore[operator]
    assert figure.html().startswith(f'<figure class="attend-figure" id="figure-{figure.name}">')
    assert figure.caption.strip() and "<title>" in figure.svg
    assert 'role="img"' in figure.svg[: figure.svg.index(">") + 1]
    assert len(figure.alt) > 80, "alt text should say what the picture shows, not name it"


@pytest.mark.parametrize("draw", ALL, ids=lambda f: f.__name__)
def test_a_lacking_figure_draws_the_same_bytes_every_build(draw: object) -> None:
    fresh = draw.__wrapped__  # type: ignore[attr-defined]  # around the cache
    assert fresh().svg == fresh().svg


@pytest.mark.parametrize("draw", ALL, ids=lambda f: f.__name__)
def test_a_page_shows_a_lacking_figure_and_the_number_check_gets_what_it_plotted(draw: object) -> None:
    name = draw.__name__  # type: ignore[attr-defined]
    code = f"from attend_figures.lacking import {name}\n\nprint({name}().html())"
    [block] = run_page("docs/p.md", f'```python exec="1" html="1"\n{code}\n```\n').blocks
    assert block.text.endswith("</figure>\n") and "attend-figure-data" not in block.text
    assert block.data == draw().data_text()  # type: ignore[operator]


@pytest.mark.parametrize("name", list(HOMES))
def test_each_lacking_figure_sits_after_the_table_it_pictures(name: str) -> None:
    pages = {p.name: p.read_text(encoding="utf-8") for p in sorted(DOCS.glob("*.md"))}
    homes = [page for page, text in pages.items() if f"{name}()" in text]
    assert len(homes) == 1, f"{name} is drawn on {homes}, not on one page"
    text = pages[homes[0]]
    assert HOMES[name] in text, f"{homes[0]} draws {name} but never prints `{HOMES[name]}`"
    assert text.index(HOMES[name]) < text.index(f"{name}()"), "the table comes before its picture"
