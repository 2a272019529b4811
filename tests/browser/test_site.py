"""The book as a reader gets it: built, served on 127.0.0.1, opened in headless Chromium.

Run with `nox -s browser`. Each test reads the record the session fixture `visits` made while
opening every page once (see conftest.py); the search tests drive the search box themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

Site = Visit = Any  # the records conftest.py makes; fixtures hand them over


def _failures(visits: dict[str, Visit], attr: str) -> dict[str, list[Any]]:
    return {path: getattr(v, attr) for path, v in visits.items() if getattr(v, attr)}


def test_the_site_has_the_pages_a_reader_follows(site: Site) -> None:
    assert "" in site.pages, "no front page"
    assert "404.html" in site.pages, "no 404 page"
    assert any(p.startswith("workbench") for p in site.pages), "no workbench page"
    assert len(site.pages) >= 4, site.pages


def test_every_page_answers(visits: dict[str, Visit]) -> None:
    wrong = {p: v.status for p, v in visits.items() if v.status != 200}
    assert not wrong, f"pages that did not answer 200: {wrong}"


def test_no_page_logs_a_console_error(visits: dict[str, Visit]) -> None:
    assert not _failures(visits, "console_errors"), _failures(visits, "console_errors")
    assert not _failures(visits, "page_errors"), _failures(visits, "page_errors")


def test_no_request_fails_or_goes_missing(visits: dict[str, Visit]) -> None:
    assert not _failures(visits, "failed_requests"), _failures(visits, "failed_requests")
    assert not _failures(visits, "bad_responses"), _failures(visits, "bad_responses")


def test_no_request_leaves_the_machine(site: Site, visits: dict[str, Visit]) -> None:
    assert visits, "no page was visited"
    assert not site.outside, f"requests to somewhere other than 127.0.0.1: {sorted(set(site.outside))}"


def test_every_formula_is_rendered_as_math(visits: dict[str, Visit]) -> None:
    formulas = sum(len(v.math) for v in visits.values())
    assert formulas > 0, "no page has a single formula rendered as <math>"
    flat = {
        p: [m for m in v.math if m["w"] <= 0 or m["h"] <= 0 or "math" not in m["display"]]
        for p, v in visits.items()
    }
    flat = {p: bad for p, bad in flat.items() if bad}
    assert not flat, f"<math> elements with no size or not laid out as math: {flat}"
    assert not _failures(visits, "raw_tex"), f"TeX left raw on the page: {_failures(visits, 'raw_tex')}"


def test_every_figure_loads_with_a_size_and_alt_text(visits: dict[str, Visit]) -> None:
    figures = [f for v in visits.values() for f in v.figures]
    assert len(figures) >= 4, f"expected the book's four figures, found {len(figures)}"
    bad = {
        p: [f for f in v.figures if not f["kind"] or f["w"] <= 0 or f["h"] <= 0
            or not f["loaded"] or not f["alt"].strip() or not f["caption"].strip()]
        for p, v in visits.items()
    }
    bad = {p: figs for p, figs in bad.items() if figs}
    assert not bad, f"figures empty, unloaded, or without alt text or caption: {bad}"
    broken = {p: [i for i in v.images if not i["ok"]] for p, v in visits.items()}
    assert not {p: i for p, i in broken.items() if i}, broken


@pytest.mark.parametrize("figure", ["square", "shares", "scale", "cost"])
def test_each_figure_is_drawn_on_a_page(figure: str, visits: dict[str, Visit]) -> None:
    homes = [p for p, v in visits.items() if any(f["id"] == f"figure-{figure}" for f in v.figures)]
    assert homes, f"figure-{figure} is on no page"


def test_every_page_is_screenshotted(visits: dict[str, Visit]) -> None:
    missing = [p for p, v in visits.items()
               if v.screenshot is None or not v.screenshot.exists() or v.screenshot.stat().st_size == 0]
    assert not missing, f"no screenshot for {missing}"


@pytest.mark.parametrize("term", ["softmax", "positional"])
def test_search_finds_the_term(term: str, site: Site, browser_context: Any,
                               screenshots: Path) -> None:
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(site.url, wait_until="networkidle")
    page.locator("label.md-search__icon, label[for='__search']").first.click()
    box = page.locator("input[data-md-component='search-query']")
    box.fill(term)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(state="visible", timeout=15_000)
    text = page.locator(".md-search-result").inner_text().lower()
    page.screenshot(path=str(screenshots / f"search-{term}.png"))
    page.close()
    assert results.count() > 0
    assert term in text, f"search results for {term!r} never mention it: {text[:300]}"
    assert not errors, errors
