"""Listings fit the column: no code block scrolls sideways on a 1,280-pixel-wide screen."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

# Every listing wider than its box, with its longest line, at the context's 1280 x 900 viewport.
SIDEWAYS = """() => [...document.querySelectorAll('article pre')]
  .filter((pre) => !pre.closest('.jupyter-wrapper'))
  .map((pre) => {
    const code = pre.querySelector('code') || pre;
    const lines = code.textContent.split('\\n');
    const longest = lines.reduce((a, b) => (b.length > a.length ? b : a), '');
    return {over: Math.max(pre.scrollWidth - pre.clientWidth, code.scrollWidth - code.clientWidth),
            chars: longest.length, line: longest.slice(0, 90)};
  }).filter((listing) => listing.over > 1)"""


def test_no_listing_scrolls_sideways_at_1280_pixels(site: Any, page: Any) -> None:
    assert page.viewport_size == {"width": 1280, "height": 900}
    wide: dict[str, list[dict[str, Any]]] = {}
    listings = 0
    for path in site.pages:
        page.goto(site.url + path, wait_until="load")
        listings += page.locator("article pre").count()
        found = page.evaluate(SIDEWAYS)
        if found:
            wide[path] = found
    assert listings > 0, "no listing on any page"
    count = sum(len(v) for v in wide.values())
    assert not wide, f"{count} listings scroll sideways at 1280 px: {wide}"
