"""A page walked by keyboard: every control a mouse could use, reached by Tab, with a visible focus.

The session's visit of each page (conftest.py, `visits`) walks it last, once it has read and
photographed the page as it loaded: a walk moves the focus and the scroll. Loading every page
again for the walk alone was a page load each, for the same page in the same viewport.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Number every control a reader could use with a mouse, as the page shows it now.
CONTROLS = """() => {
  const all = [...document.querySelectorAll(
      'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')]
    .filter((el) => {
      const box = el.getBoundingClientRect(); const style = getComputedStyle(el);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden'
        && !el.closest('[hidden], [inert], [aria-hidden="true"]') && el.tabIndex >= 0
        && !el.closest('details:not([open]) > :not(summary)')  // a folded answer, until opened
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


@dataclass
class KeyboardWalk:
    """What pressing Tab from the top of a page reached: the controls it never got to, and those
    it focused without a ring a reader could see."""

    missed: list[str] = field(default_factory=list)
    no_ring: set[str] = field(default_factory=set)


def walk_by_tab(page: Any) -> KeyboardWalk:
    """Press Tab until every control has had the focus, or twice as many times as there are
    controls (and ten more); note each focus without a visible ring."""
    controls = page.evaluate(CONTROLS)
    walk = KeyboardWalk()
    reached: set[int] = set()
    for _ in range(2 * len(controls) + 10):
        page.keyboard.press("Tab")
        now = page.evaluate(FOCUSED)
        if now is None or now["control"] is None:
            continue
        reached.add(int(now["control"]))
        if not now["ring"]:
            walk.no_ring.add(now["what"])
        if len(reached) == len(controls):
            break
    walk.missed = [c for i, c in enumerate(controls) if i not in reached]
    return walk
