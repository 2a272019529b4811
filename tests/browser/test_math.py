"""Display math as a reader sees it: brackets stretch around what they hold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_the_brackets_of_the_attention_formula_stretch_around_the_fraction(
    site: Any, visits: dict[str, Any], page: Any, screenshots: Path
) -> None:
    formulas = [(path, formula) for path, v in visits.items() for formula in v.fences]
    fenced = [(p, f) for p, f in formulas if f["fences"]]
    assert fenced, f"no display formula with a fraction inside stretchy brackets: {formulas}"
    short = [
        (p, f)
        for p, f in fenced
        if min(f["fences"]) < 1.5 * f["letter"] or min(f["fences"]) < 0.9 * f["fraction"]
    ]
    assert not short, f"brackets no taller than the letters beside them: {short}"
    # the home page opens with softmax(QKᵀ/√d_k)V: keep a picture of it
    page.goto(site.url, wait_until="load")
    page.evaluate("document.fonts.ready")
    page.locator(".math-block").first.screenshot(path=str(screenshots / "math-softmax.png"))
    assert (screenshots / "math-softmax.png").stat().st_size > 0
