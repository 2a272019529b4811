"""The site as built: strict, offline, every page present, math and transcripts rendered.

`nox -s docs` builds the site with `properdocs build --strict` and passes its folder in
BOOK_SITE, and `nox -s browser` opens that same folder; anywhere else (a plain `pytest`) the
site is built here the same way, by a `properdocs` process (`book_build`).
"""

from __future__ import annotations

import json
import os
import re
from html import unescape
from pathlib import Path

import pytest
from book_build import properdocs_build
from tree import DOCS, nav_pages

from attend import chapter_embeddings, chapter_head
from attend_book.searched import FIGURE

ROOT = DOCS.parent
PAGES = nav_pages()  # every page of the nav, as mkdocs.yml lists them


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if built := os.environ.get("BOOK_SITE"):
        return (ROOT / built).resolve()
    folder = tmp_path_factory.mktemp("site")
    done = properdocs_build(ROOT, folder)  # strict: a warning fails it
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


def html(site: Path, page: str) -> str:
    return (site / ("index.html" if page == "index" else f"{page}/index.html")).read_text(encoding="utf-8")


def test_every_page_is_built(site: Path) -> None:
    for page in PAGES:
        assert "<article" in html(site, page)
    assert "No page here" in (site / "404.html").read_text(encoding="utf-8")


def test_no_page_shows_a_traceback(site: Path) -> None:
    for page in site.rglob("*.html"):
        assert "Traceback (most recent call last)" not in page.read_text(encoding="utf-8"), page


BINDING = re.compile(r"\{(?:=|given:)")


def test_no_binding_reaches_a_reader_on_a_page_or_in_a_notebook(site: Path) -> None:
    """Bindings are the build's: the site and the notebooks show them only as code, where the
    contributors' page explains them."""
    for page in site.rglob("*.html"):
        text = re.sub(r"<(pre|code)\b.*?</\1\s*>", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
        assert not BINDING.search(text), page
    for notebook in site.rglob("*.ipynb"):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        prose = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
        shown = [
            re.sub(r"(`+).*?\1", "", re.sub(r"^(```+|~~~+).*?^\1", "", p, flags=re.M | re.S), flags=re.S)
            for p in prose
        ]
        assert not any(BINDING.search(p) for p in shown), notebook


EXTERNAL = [
    re.compile(r"<script[^>]+src=\"(?:https?:)?//", re.I),
    re.compile(
        r"<link[^>]+href=\"(?:https?:)?//[^\"]*\"[^>]*rel=\"(?:stylesheet|preload|preconnect|icon|modulepreload)",
        re.I,
    ),
    re.compile(
        r"<link[^>]+rel=\"(?:stylesheet|preload|preconnect|icon|modulepreload)\"[^>]+href=\"(?:https?:)?//",
        re.I,
    ),
    re.compile(r"<(?:img|iframe|source|video|audio)[^>]+src=\"(?:https?:)?//", re.I),
]


def test_no_page_loads_anything_from_outside_the_site(site: Path) -> None:
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for pattern in EXTERNAL:
            assert not pattern.search(text), f"{page}: {pattern.search(text)}"
        assert "fonts.googleapis" not in text and "_markdown_exec_pyodide" not in text, page
    for sheet in site.rglob("*.css"):
        text = sheet.read_text(encoding="utf-8")
        assert not re.search(r"@import\s+url\(\s*['\"]?(?:https?:)?//", text), sheet
        assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", text), sheet


def test_math_is_mathml_and_no_tex_is_left_for_a_script(site: Path) -> None:
    for page in PAGES:
        text = html(site, page)
        assert 'class="arithmatex"' not in text, page
    assert "<math" in html(site, "score-square") and "<msqrt>" in html(site, "score-square")
    assert "<math" in html(site, "longer-rows")


def text_of(page_html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", page_html))


def test_transcripts_and_blocks_show_their_real_output(site: Path) -> None:
    square = text_of(html(site, "score-square"))
    run = chapter_head().attend(chapter_embeddings())  # worked out here: a weight change moves both
    assert "$ attend scores" in square and f"{run.weights[1, 0]:.4f}" in square
    assert f"token 2's scores: ({', '.join(f'{v:.4f}' for v in run.raw[1])})" in square
    assert "9728" in text_of(html(site, "longer-rows"))


def test_the_theme_has_both_palettes_an_edit_link_and_a_footer(site: Path) -> None:
    text = html(site, "score-square")
    assert 'data-md-color-scheme="slate"' in text and 'data-md-color-scheme="default"' in text
    # The repository's address comes from the environment (BOOK_REPO_URL, BOOK_EDIT_URI).
    assert re.search(r'<a href="[^"]+/docs/score-square\.md"[^>]*class="md-content__button', text)
    assert "md-footer__link--next" in text and "md-footer__link--prev" in text
    assert "md-clipboard" in text or "content.code.copy" in text


def test_the_reading_path_reads_in_under_an_hour_as_the_index_says(site: Path) -> None:
    """The index promises the path's prose in under an hour at the reading rate it names: counted
    on the built pages as scripts/reading_words.py counts them."""
    import importlib.util

    import yaml

    spec = importlib.util.spec_from_file_location("reading_words", ROOT / "scripts" / "reading_words.py")
    assert spec is not None and spec.loader is not None
    counter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(counter)
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    rate = yaml.safe_load(index.split("---\n")[1])["givens"]["reading_rate"][0]
    assert "under an hour of prose" in index
    pages = counter.reading_path(ROOT / "mkdocs.yml")
    words = sum(counter.words(html(site, page.removesuffix(".md"))) for page in pages)
    assert words / rate < 60, f"{words:,} words of prose: {words / rate:.0f} minutes at {rate} a minute"


def test_every_link_in_a_figures_caption_leads_to_a_built_page(site: Path) -> None:
    """A caption is printed as HTML by its figure, which the build's link check never reads."""
    linked = 0
    for page in PAGES:
        folder = site if page == "index" else site / page
        for caption in re.findall(r"<figcaption>(.*?)</figcaption>", html(site, page), re.DOTALL):
            for href in re.findall(r'<a href="([^"#]+)"', caption):
                assert (folder / href / "index.html").is_file(), f"{page}: a caption links to {href}"
                linked += 1
    assert linked, "no figure caption links anywhere: the first picture's links to the page that trains it"


def test_search_finds_the_figures_captions_but_not_the_labels_they_draw(site: Path) -> None:
    """A figure's drawing is hidden from screen readers, and from search: its labels and ticks
    would lead a search to every plot that prints "0.5"."""
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    unsearched = captions = 0
    for page in PAGES:
        shown = html(site, page)
        url = "" if page == "index" else f"{page}/"
        searched = " ".join(doc["text"] for doc in docs if doc["location"].split("#")[0] == url)
        prose = text_of(FIGURE.sub("", shown))
        drawn = {
            unescape(label)
            for svg in FIGURE.findall(shown)
            for label in re.findall(r"<text\b[^>]*>([^<]+)</text>", svg)
        }
        only_drawn = [label for label in drawn if len(label) > 8 and label not in prose]
        assert not [label for label in only_drawn if label in searched], page
        unsearched += len(only_drawn)
        for caption in re.findall(r"<figcaption>(.*?)</figcaption>", shown, re.DOTALL):
            assert " ".join(text_of(caption).split()[:4]) in searched, (page, caption)
            captions += 1
    assert unsearched and captions
