"""The figures search does not read (`attend_book.searched`): set aside whole, put back exactly."""

from __future__ import annotations

from attend_book.searched import SetAside

HIDDEN = '<svg aria-hidden="true" class="attend-figure__svg"><text>0.5</text></svg>'
SHOWN = '<svg role="img" aria-label="an icon"><path d="M 0 0"/></svg>'


def test_every_hidden_svg_is_set_aside_and_put_back_where_it_was() -> None:
    page = f"<p>before</p>{HIDDEN}<p>between</p>{HIDDEN.replace('0.5', '0.25')}{SHOWN}<p>after</p>"
    figures = SetAside()
    searched = figures.set_aside(page)
    assert "0.5" not in searched and "0.25" not in searched and SHOWN in searched
    assert figures.put_back(searched) == page


def test_a_page_that_writes_the_placeholder_itself_keeps_its_own_text() -> None:
    figures = SetAside()
    written = f'<code>&lt;svg data-{figures.mark}="0"&gt;</code><svg data-set-aside-0="0"></svg>'
    page = written + HIDDEN
    assert figures.put_back(figures.set_aside(page)) == page


def test_a_page_without_figures_is_handed_on_unchanged() -> None:
    figures = SetAside()
    page = f"<p>words</p>{SHOWN}"
    assert figures.set_aside(page) == page and figures.put_back(page) == page and not figures.figures
