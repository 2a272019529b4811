"""Every page read by axe-core (WCAG 2.1 A and AA) in both palettes, and walked by keyboard."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_wcag_violation_on_any_page(scheme: str, site: Any, open_context: Any) -> None:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    context = open_context(color_scheme=scheme)
    found: dict[str, list[str]] = {}
    checked = 0
    for path in site.pages:
        page = context.new_page()
        page.goto(site.url + path, wait_until="load")
        palette = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
        assert palette == ("slate" if scheme == "dark" else "default"), (path, palette)
        results = axe.run(
            page,
            # Every node of a violation in full; of the rules that passed, one node each is enough
            # to show they ran, and skipping the rest halves the time axe takes.
            options={"runOnly": {"type": "tag", "values": WCAG}, "resultTypes": ["violations"]},
        )
        checked += len(results.response["passes"])
        for rule in results.response["violations"]:
            targets = [" ".join(map(str, n["target"])) for n in rule["nodes"][:5]]
            found.setdefault(path, []).append(f"{rule['id']} ({len(rule['nodes'])}): {targets}")
        page.close()
    assert checked > 0, "axe ran no rule at all"
    assert not found, f"axe-core violations in the {scheme} palette: {found}"


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
