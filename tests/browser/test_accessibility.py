"""Every page read by axe-core (WCAG 2.1 A and AA) in both palettes, and walked by keyboard.

The session's visits (conftest.py) do the reading and the walking; these tests judge what they found.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_axe_finds_no_wcag_violation_on_any_page_in_the_light_palette(visits: dict[str, Any]) -> None:
    verdicts = {path: visit.axe for path, visit in visits.items()}
    assert all(v is not None and v.rules > 0 for v in verdicts.values()), "axe ran no rule on a page"
    found = {path: v.violations for path, v in verdicts.items() if v is not None and v.violations}
    assert not found, f"axe-core violations in the light palette: {found}"


def test_axe_finds_no_wcag_violation_on_any_page_in_the_dark_palette(dark_visits: dict[str, Any]) -> None:
    palettes = {path: visit.palette for path, visit in dark_visits.items()}
    assert set(palettes.values()) == {"slate"}, f"pages not in the dark palette: {palettes}"
    assert all(visit.axe.rules > 0 for visit in dark_visits.values()), "axe ran no rule on a page"
    found = {path: visit.axe.violations for path, visit in dark_visits.items() if visit.axe.violations}
    assert not found, f"axe-core violations in the dark palette: {found}"


def test_every_control_is_reached_by_tab_with_a_visible_focus(visits: dict[str, Any]) -> None:
    walks = {path: visit.keyboard for path, visit in visits.items()}
    assert all(walk is not None for walk in walks.values()), "a page was not walked"
    unseen = {path: walk.missed for path, walk in walks.items() if walk.missed}
    no_ring = {path: walk.no_ring for path, walk in walks.items() if walk.no_ring}
    assert not unseen, f"controls Tab never reaches: {unseen}"
    assert not no_ring, f"focused without a visible ring: {no_ring}"
