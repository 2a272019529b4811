"""Every page read by axe-core (WCAG 2.1 A and AA) in both palettes, and walked by keyboard."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_axe_finds_no_wcag_violation_on_any_page_in_the_light_palette(visits: dict[str, Any]) -> None:
    verdicts = {path: visit.axe for path, visit in visits.items()}
    assert all(v is not None and v.rules > 0 for v in verdicts.values()), "axe ran no rule on a page"
    found = {path: v.violations for path, v in verdicts.items() if v is not None and v.violations}
    assert not found, f"axe-core violations in the light palette: {found}"


def test_axe_finds_no_wcag_violation_on_any_page_in_the_dark_palette(
    site: Any, open_context: Any, axe: Callable[[Any], Any]
) -> None:
    context = open_context(color_scheme="dark")
    found: dict[str, list[str]] = {}
    for path in site.pages:
        page = context.new_page()
        page.goto(site.url + path, wait_until="load")
        palette = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
        assert palette == "slate", (path, palette)
        verdict = axe(page)
        assert verdict.rules > 0, f"axe ran no rule on {path}"
        if verdict.violations:
            found[path] = verdict.violations
        page.close()
    assert not found, f"axe-core violations in the dark palette: {found}"


# Number every control a reader could use with a mouse, as the page shows it now.
CONTROLS = """() => {
  const all = [...document.querySelectorAll(
      'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')]
    .filter((el) => {
      const box = el.getBoundingClientRect(); const style = getComputedStyle(el);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden'
        && !el.closest('[hidden], [inert], [aria-hidden="true"]') && el.tabIndex >= 0
        && !el.disabled && !(el.type === 'radio' && !el.checked);
    });
  all.forEach((el, i) => { el.dataset.control = String(i); });
  return all.map((el) => el.outerHTML.slice(0, 100));
}"""

# The control the keyboard is on, and whether a reader can see that it is.
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
    || (style.boxShadow && style.boxShadow !== 'none');
  return {control: el.dataset.control ?? null, ring, what: el.outerHTML.slice(0, 100)};
}"""


def test_every_control_is_reached_by_tab_with_a_visible_focus(site: Any, page: Any) -> None:
    unseen: dict[str, list[str]] = {}
    no_ring: dict[str, set[str]] = {}
    for path in site.pages:
        page.goto(site.url + path, wait_until="load")
        controls = page.evaluate(CONTROLS)
        reached: set[int] = set()
        for _ in range(2 * len(controls) + 10):
            page.keyboard.press("Tab")
            now = page.evaluate(FOCUSED)
            if now is None or now["control"] is None:
                continue
            reached.add(int(now["control"]))
            if not now["ring"]:
                no_ring.setdefault(path, set()).add(now["what"])
            if len(reached) == len(controls):
                break
        missed = [c for i, c in enumerate(controls) if i not in reached]
        if missed:
            unseen[path] = missed
    assert not unseen, f"controls Tab never reaches: {unseen}"
    assert not no_ring, f"focused without a visible ring: {no_ring}"
