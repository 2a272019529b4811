"""What search reads of a page (`attend_book.searched`): figures set aside whole, listings without
their highlighting, the index the same, and the page put back exactly as it was."""

from __future__ import annotations

from material.plugins.search.plugin import Parser  # type: ignore[import-untyped]

from attend_book.searched import SetAside

HIDDEN = '<svg aria-hidden="true" class="attend-figure__svg"><text>0.5</text></svg>'
SHOWN = '<svg role="img" aria-label="an icon"><path d="M 0 0"/></svg>'
LISTING = (
    '<div class="language-python highlight"><pre><span></span><code><span id="__span-0-1">'
    '<span class="k">def</span><span class="w"> </span><span class="nf">show</span><span class="p">(</span>'
    '<span class="n">row</span><span class="p">):</span>\n</span><span id="__span-0-2">    '
    '<span class="k">return</span> <span class="n">row</span>\n</span></code></pre></div>'
)
EXCLUDED = '<pre data-search-exclude><code><span class="n">secret</span></code></pre>'
PAGE = (
    f'<h1 id="top">Scores</h1><p>before</p>{HIDDEN}<h2 id="code">The code</h2>{LISTING}'
    f"<p>between {HIDDEN.replace('0.5', '0.25')}</p>{EXCLUDED}{SHOWN}<p>after</p>"
)


def indexed(html: str) -> list[tuple[str, str, str | None]]:
    """The sections Material's search makes of `html`: title, text and id of each."""
    parser = Parser()
    parser.feed(html)
    parser.close()
    return [("".join(s.title), "".join(s.text), s.id) for s in parser.data]


def test_every_hidden_svg_and_every_listing_is_set_aside_and_put_back_where_it_was() -> None:
    figures = SetAside()
    searched = figures.set_aside(PAGE)
    assert "0.5" not in searched and "0.25" not in searched and SHOWN in searched
    assert '<span class="k">' not in searched and "def show(row):" in searched
    assert figures.put_back(searched) == PAGE


def test_search_indexes_the_listings_as_it_would_have_and_the_figures_not_at_all() -> None:
    searched = indexed(SetAside().set_aside(PAGE))
    assert searched == indexed(PAGE.replace("0.5", "").replace("0.25", ""))
    assert "def show(row):" in searched[1][1] and "secret" not in str(searched)


def test_a_page_that_writes_the_placeholder_itself_keeps_its_own_text() -> None:
    figures = SetAside()
    written = f'<code>&lt;svg data-{figures.mark}="0"&gt;</code><svg data-set-aside-0="0"></svg>'
    page = written + HIDDEN + LISTING
    assert figures.put_back(figures.set_aside(page)) == page


def test_a_hidden_svg_that_closes_itself_hides_nothing_after_it_from_search() -> None:
    page = f'<p>a <svg aria-hidden="true"/> b</p><h2 id="x">Heading</h2><p>prose</p>{HIDDEN}'
    figures = SetAside()
    assert [title for title, _, _ in indexed(figures.set_aside(page))] == ["", "Heading"]
    assert figures.put_back(figures.set_aside(page)) == page


def test_a_page_without_figures_or_listings_is_handed_on_unchanged() -> None:
    figures = SetAside()
    page = f"<p>words</p>{SHOWN}"
    assert figures.set_aside(page) == page and figures.put_back(page) == page
