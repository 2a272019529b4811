"""The book as a reader gets it: built, served on 127.0.0.1, opened in headless Chromium.

Run with `nox -s browser`. Each test reads the record the session fixture `visits` made while
opening every page once (see conftest.py); the search tests drive the search box themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def _failures(visits: dict[str, Any], attr: str) -> dict[str, list[Any]]:
    return {path: getattr(v, attr) for path, v in visits.items() if getattr(v, attr)}


def test_the_site_has_the_pages_a_reader_follows(site: Any) -> None:
    assert "" in site.pages, "no front page"
    assert "404.html" in site.pages, "no 404 page"
    assert any(p.startswith("workbench") for p in site.pages), "no workbench page"
    assert len(site.pages) >= 4, site.pages


def test_every_page_answers(visits: dict[str, Any]) -> None:
    wrong = {p: v.status for p, v in visits.items() if v.status != 200}
    assert not wrong, f"pages that did not answer 200: {wrong}"


def test_no_page_logs_a_console_error(visits: dict[str, Any]) -> None:
    assert not _failures(visits, "console_errors"), _failures(visits, "console_errors")
    assert not _failures(visits, "page_errors"), _failures(visits, "page_errors")


def test_no_request_fails_or_goes_missing(visits: dict[str, Any]) -> None:
    assert not _failures(visits, "failed_requests"), _failures(visits, "failed_requests")
    assert not _failures(visits, "bad_responses"), _failures(visits, "bad_responses")


def test_no_request_leaves_the_machine(site: Any, visits: dict[str, Any]) -> None:
    assert visits, "no page was visited"
    assert not site.outside, f"requests to somewhere other than 127.0.0.1: {sorted(set(site.outside))}"


def test_every_formula_is_rendered_as_math(visits: dict[str, Any]) -> None:
    formulas = sum(len(v.math) for v in visits.values())
    assert formulas > 0, "no page has a single formula rendered as <math>"
    flat = {
        p: [m for m in v.math if m["w"] <= 0 or m["h"] <= 0 or "math" not in m["display"]]
        for p, v in visits.items()
    }
    flat = {p: bad for p, bad in flat.items() if bad}
    assert not flat, f"<math> elements with no size or not laid out as math: {flat}"
    assert not _failures(visits, "raw_tex"), f"TeX left raw on the page: {_failures(visits, 'raw_tex')}"


def test_every_figure_loads_with_a_size_and_alt_text(visits: dict[str, Any]) -> None:
    figures = [f for v in visits.values() for f in v.figures]
    assert len(figures) >= 4, f"expected the book's four figures, found {len(figures)}"
    bad = {
        p: [
            f
            for f in v.figures
            if not f["kind"]
            or f["w"] <= 0
            or f["h"] <= 0
            or not f["loaded"]
            or not f["alt"].strip()
            or not f["caption"].strip()
        ]
        for p, v in visits.items()
    }
    bad = {p: figs for p, figs in bad.items() if figs}
    assert not bad, f"figures empty, unloaded, or without alt text or caption: {bad}"
    broken = {p: [i for i in v.images if not i["ok"]] for p, v in visits.items()}
    assert not {p: i for p, i in broken.items() if i}, broken


@pytest.mark.parametrize("figure", ["square", "weights", "scale", "cost"])
def test_each_figure_is_drawn_on_a_page(figure: str, visits: dict[str, Any]) -> None:
    homes = [p for p, v in visits.items() if any(f["id"] == f"figure-{figure}" for f in v.figures)]
    assert homes, f"figure-{figure} is on no page"


def test_every_chapter_page_offers_its_code_as_a_notebook_that_downloads(
    site: Any, visits: dict[str, Any]
) -> None:
    import json
    import urllib.request

    offered = {p: v.notebook for p, v in visits.items() if v.notebook}
    assert len(offered) >= 7, f"pages with a notebook to download: {sorted(offered)}"
    assert any(p.startswith("workbench") for p in offered), "the workbench has no download button"
    for path, url in offered.items():
        assert url.startswith(site.url), f"{path}: {url} is not on this site"
        with urllib.request.urlopen(url, timeout=10) as answer:
            notebook = json.load(answer)
        assert notebook["nbformat"] == 4, path
        assert any(c["cell_type"] == "code" for c in notebook["cells"]), f"{path}: no code cells"


def test_every_page_is_screenshotted(visits: dict[str, Any]) -> None:
    missing = [
        p
        for p, v in visits.items()
        if v.screenshot is None or not v.screenshot.exists() or v.screenshot.stat().st_size == 0
    ]
    assert not missing, f"no screenshot for {missing}"


@pytest.mark.parametrize("term", ["softmax", "positional"])
def test_search_finds_the_term(term: str, site: Any, page: Any, screenshots: Path) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(site.url, wait_until="load")
    box = page.locator("input[data-md-component='search-query']")
    box.click()  # the header's search box, as a reader would
    box.press_sequentially(term, delay=30)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(state="visible", timeout=15_000)
    text = page.locator(".md-search-result").inner_text().lower()
    found = results.count()
    page.screenshot(path=str(screenshots / f"search-{term}.png"))
    assert found > 0
    assert term in text, f"search results for {term!r} never mention it: {text[:300]}"
    assert not errors, errors


def test_figures_stay_legible_in_the_dark_palette(
    visits: dict[str, Any], dark_visits: dict[str, Any]
) -> None:
    with_figures = [p for p, v in visits.items() if v.figures]
    assert with_figures
    for path in with_figures:
        dark = dark_visits[path]
        assert dark.palette == "slate", f"{path}: the dark palette did not apply ({dark.palette})"
        assert dark.grounds and all(g == "rgb(255, 255, 255)" for g in dark.grounds), (path, dark.grounds)
        assert len(dark.screenshots) == len(visits[path].figures), path
