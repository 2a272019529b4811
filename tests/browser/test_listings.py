"""Listings fit the column: no code block scrolls sideways on a 1,280-pixel-wide screen."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_no_listing_scrolls_sideways_at_1280_pixels(
    visits: dict[str, Any], browser_context_args: dict[str, Any]
) -> None:
    # the visits' context has this viewport
    assert browser_context_args["viewport"] == {"width": 1280, "height": 900}
    assert sum(v.listings for v in visits.values()) > 0, "no listing on any page"
    wide = {path: v.sideways for path, v in visits.items() if v.sideways}
    count = sum(len(v) for v in wide.values())
    assert not wide, f"{count} listings scroll sideways at 1280 px: {wide}"
