"""Display math as a reader sees it: brackets stretch around what they hold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

# Each stretchy fence of each display formula that holds a fraction, against the formula's
# ordinary letters.
FENCES = """() => [...document.querySelectorAll('article .math-block math')]
  .filter((math) => math.querySelector('mfrac'))
  .map((math) => {
    const height = (el) => el.getBoundingClientRect().height;
    const letters = [...math.querySelectorAll('mi')].filter((mi) => !mi.closest('mfrac, msub, msup'));
    return {
      text: math.textContent.slice(0, 40),
      fences: [...math.querySelectorAll('mo[stretchy="true"]')]
        .filter((mo) => mo.parentElement.querySelector(':scope > mfrac')).map(height),
      letter: Math.max(...letters.map(height)), fraction: height(math.querySelector('mfrac')),
    };
  })"""


def test_the_brackets_of_the_attention_formula_stretch_around_the_fraction(
    site: Any, page: Any, screenshots: Path
) -> None:
    formulas = []
    for path in site.pages:
        page.goto(site.url + path, wait_until="load")
        page.evaluate("document.fonts.ready")
        for formula in page.evaluate(FENCES):
            formulas.append((path, formula))
        if path == "":  # the home page opens with softmax(QKᵀ/√d_k)V: keep a picture of it
            page.locator(".math-block").first.screenshot(path=str(screenshots / "math-softmax.png"))
    fenced = [(p, f) for p, f in formulas if f["fences"]]
    assert fenced, f"no display formula with a fraction inside stretchy brackets: {formulas}"
    short = [
        (p, f)
        for p, f in fenced
        if min(f["fences"]) < 1.5 * f["letter"] or min(f["fences"]) < 0.9 * f["fraction"]
    ]
    assert not short, f"brackets no taller than the letters beside them: {short}"
    assert (screenshots / "math-softmax.png").stat().st_size > 0
