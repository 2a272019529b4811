"""Every figure readable on a phone and on a laptop: no letter or digit under 11 CSS px.

Each page that holds a figure is opened at 390 px wide (a phone) and at 1280 px (a laptop),
its controls running; every piece of text inside a figure (SVG text scaled by its drawing's
transform, HTML text at its computed size) is measured as the browser rendered it. The same
visit checks that no figure and no listing but a transcript is wider than the screen.
Screenshots of each page at each width land in artifacts/screenshots/widths/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

SMALLEST = 11.0  # CSS px
WIDTHS = (390, 1280)

# Each visible run of text in a figure with its rendered size: SVG text by its font size times
# the scale its drawing is shown at, HTML text by its computed font size.
MEASURE = """() => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const found = [];
  document.querySelectorAll('article figure').forEach((fig) => {
    fig.querySelectorAll('svg text').forEach((t) => {
      if (!shown(t) || !t.textContent.trim()) return;
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      found.push({figure: fig.id, text: t.textContent.trim().slice(0, 30), px});
    });
    const walker = document.createTreeWalker(fig, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (el.closest('svg') || !node.textContent.trim() || !shown(el)) continue;
      found.push({figure: fig.id, text: node.textContent.trim().slice(0, 30),
                  px: parseFloat(getComputedStyle(el).fontSize)});
    }
  });
  const wide = (el) => el.scrollWidth - el.clientWidth > 1;
  const column = document.querySelector('article').clientWidth;
  const overflowing = [...document.querySelectorAll('article figure')]
    .filter((fig) => fig.scrollWidth > column + 1).map((fig) => fig.id);
  const listings = [...document.querySelectorAll('article pre')]
    .filter((pre) => !pre.closest('.jupyter-wrapper, .language-console, .language-text'))
    .filter((pre) => wide(pre) || wide(pre.querySelector('code') || pre))
    .map((pre) => (pre.textContent.split('\\n').find((line) => line.length > 40) || '').slice(0, 60));
  const tables = [...document.querySelectorAll('article table')]
    .filter((t) => !t.closest('.jupyter-wrapper'))
    .filter((t) => t.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                   || wide(t.closest('.md-typeset__table') || t))
    .map((t) => t.textContent.trim().slice(0, 40));
  return {found, overflowing, listings, tables};
}"""


@pytest.fixture(scope="module")
def measured(site: Any, browser: Any, screenshots: Path) -> dict[int, dict[str, Any]]:
    """Every page but the whole-book one (its copies are the pages), measured at each width."""
    folder = screenshots / "widths"
    folder.mkdir(parents=True, exist_ok=True)
    pages = [p for p in site.pages if p != "print_page/" and not p.endswith("404.html")]
    out: dict[int, dict[str, Any]] = {}
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900}, service_workers="block")
        try:
            page = context.new_page()
            out[width] = {}
            for path in pages:
                page.goto(site.url + path, wait_until="load")
                page.evaluate("document.fonts.ready")
                out[width][path] = page.evaluate(MEASURE)
                name = path.strip("/").replace("/", "__") or "index"
                page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)
        finally:
            context.close()
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_no_figure_text_is_smaller_than_eleven_pixels(
    width: int, measured: dict[int, dict[str, Any]]
) -> None:
    runs = [run for page in measured[width].values() for run in page["found"]]
    assert len(runs) > 100, f"only {len(runs)} runs of figure text found at {width} px"
    small = [run for run in runs if run["px"] < SMALLEST - 0.05]
    smallest = min(run["px"] for run in runs)
    print(f"smallest figure text at {width} px: {smallest:.2f} px")  # the note quotes it (pytest -s)
    assert not small, f"at {width} px, {len(small)} pieces of figure text under {SMALLEST} px: {small[:8]}"


@pytest.mark.parametrize("width", WIDTHS)
def test_every_figure_fits_the_column(width: int, measured: dict[int, dict[str, Any]]) -> None:
    wide = {path: page["overflowing"] for path, page in measured[width].items() if page["overflowing"]}
    assert not wide, f"at {width} px, figures wider than the column: {wide}"


def test_on_a_phone_only_transcripts_scroll_sideways(measured: dict[int, dict[str, Any]]) -> None:
    phone = measured[min(WIDTHS)]
    listings = {path: page["listings"] for path, page in phone.items() if page["listings"]}
    tables = {path: page["tables"] for path, page in phone.items() if page["tables"]}
    assert not listings, f"code that scrolls sideways on a phone: {listings}"
    assert not tables, f"tables wider than a phone: {tables}"
