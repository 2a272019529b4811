"""The figures a reader can drive, driven by mouse and by keyboard.

Every number a control shows must be the one the `attend` package computes for the state the
control is in; the expected numbers are computed here, with the package, for the state read
off the page. Each control is screenshotted in two states into artifacts/controls/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from attend import chapter_embeddings, chapter_head, cost_sweep, scale_experiment

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def shots(screenshots: Path) -> Path:
    folder = screenshots.parent / "controls"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _home(figure: str, visits: dict[str, Any]) -> str:
    homes = [p for p, v in visits.items() if any(f["id"] == f"figure-{figure}" for f in v.figures)]
    assert homes, f"figure-{figure} is on no page"
    return homes[0]


def _open(page: Any, site: Any, visits: dict[str, Any], figure: str) -> Any:
    page.goto(site.url + _home(figure, visits), wait_until="load")
    live = page.locator(f"#figure-{figure} .attend-control")
    assert live.is_visible(), f"the control of figure-{figure} is not shown"
    return live


def _shown(live: Any) -> list[str]:
    """The numbers of the one panel the control shows now."""
    panels = live.locator(".attend-control__panel:visible")
    assert panels.count() == 1, f"{panels.count()} panels shown at once"
    return [t.strip() for t in panels.first.locator("td").all_inner_texts()]


def _scores_handed(divide: bool) -> list[str]:
    """What the switch shows: the scores softmax is handed (the weights are the figure above)."""
    return [f"{v:.4f}" for v in chapter_head(divide=divide).attend(chapter_embeddings()).scaled.ravel()]


def test_the_divide_switch_shows_the_scores_softmax_is_handed_with_and_without_it(
    site: Any, page: Any, visits: dict[str, Any], shots: Path
) -> None:
    live = _open(page, site, visits, "weights")
    switch = live.locator("input[type=checkbox]")
    assert switch.is_checked()
    assert _shown(live) == _scores_handed(True)
    live.screenshot(path=str(shots / "weights-divided.png"))
    live.locator("label.attend-control__switch").click()  # the mouse, on the switch's words
    assert not switch.is_checked()
    assert _shown(live) == _scores_handed(False)
    assert "left off" in live.locator("output").inner_text()
    live.screenshot(path=str(shots / "weights-undivided.png"))
    switch.focus()
    page.keyboard.press("Space")  # and the keyboard turns it back
    assert switch.is_checked()
    assert _shown(live) == _scores_handed(True)


def _scale(width: int) -> list[str]:
    row = scale_experiment([width])[0]
    d, u = row.divided, row.undivided
    return [
        f"{d.spread:.4f}",
        f"{u.spread:.4f}",
        f"{d.biggest:.4f}",
        f"{u.biggest:.4f}",
        str(d.confident),
        str(u.confident),
    ]


def _checked_width(live: Any) -> int:
    return int(live.locator("input[type=radio]:checked").get_attribute("value"))


def test_the_width_choice_shows_the_experiment_at_that_width(
    site: Any, page: Any, visits: dict[str, Any], shots: Path
) -> None:
    live = _open(page, site, visits, "scale")
    radios = live.locator("input[type=radio]")
    widths = [int(v) for v in radios.evaluate_all("(rs) => rs.map((r) => r.value)")]
    assert len(widths) >= 4, widths
    assert _shown(live) == _scale(_checked_width(live))
    live.screenshot(path=str(shots / f"scale-width-{_checked_width(live)}.png"))
    live.get_by_label(str(widths[-1]), exact=True).click()  # the mouse, on the widest
    assert _checked_width(live) == widths[-1]
    assert _shown(live) == _scale(widths[-1])
    live.screenshot(path=str(shots / f"scale-width-{widths[-1]}.png"))
    page.keyboard.press("ArrowLeft")  # the keyboard, one width narrower
    assert _checked_width(live) == widths[-2]
    assert _shown(live) == _scale(widths[-2])


def _n(live: Any) -> int:
    words = live.locator("output").inner_text()
    found = re.search(r"n = ([\d,]+) tokens?$", words)
    assert found, words
    return int(found.group(1).replace(",", ""))


def _marked(page: Any) -> list[str]:
    """The ids of the cost plot's markers a reader can see."""
    return list(
        page.evaluate("""() => [...document.querySelectorAll('#figure-cost svg g[id*="-mark-"]')]
            .filter((g) => getComputedStyle(g).visibility === 'visible').map((g) => g.id)""")
    )


def _marks_at(n: int) -> list[str]:
    return [f"figure-cost-mark-{n}", f"figure-cost-mark-{n}-line"]


def _cost(n: int) -> list[str]:
    cost = cost_sweep([n])[0]
    return [f"{cost.project:,}", f"{cost.quadratic:,}", f"{cost.total:,}"]


def test_the_row_length_slider_shows_the_counted_cost_at_that_length(
    site: Any, page: Any, visits: dict[str, Any], shots: Path
) -> None:
    live = _open(page, site, visits, "cost")
    slider = live.locator("input[type=range]")
    start = _n(live)
    assert _shown(live) == _cost(start)
    assert sorted(_marked(page)) == _marks_at(start)
    live.screenshot(path=str(shots / f"cost-n-{start}.png"))
    slider.focus()
    page.keyboard.press("Home")
    first = _n(live)
    assert _shown(live) == _cost(first)
    page.keyboard.press("ArrowRight")
    assert _n(live) > first
    assert _shown(live) == _cost(_n(live))
    assert sorted(_marked(page)) == _marks_at(_n(live)), "the marker did not follow the slider"
    page.keyboard.press("End")
    last = _n(live)
    assert last > start
    assert _shown(live) == _cost(last)
    assert slider.get_attribute("aria-valuetext") == live.locator("output").inner_text()
    box = slider.bounding_box()
    slider.click(position={"x": box["width"] * 0.8, "y": box["height"] / 2})  # the mouse
    clicked = _n(live)
    assert first < clicked < last
    assert _shown(live) == _cost(clicked)
    assert sorted(_marked(page)) == _marks_at(clicked)
    scale = live.locator(".attend-control__scale span").all_inner_texts()
    assert scale[0] == f"{first:,}" and scale[-1] == f"{last:,}", scale
    live.screenshot(path=str(shots / f"cost-n-{clicked}.png"))


def test_without_javascript_each_driven_figure_is_still_a_whole_static_figure(
    site: Any, open_context: Any, visits: dict[str, Any]
) -> None:
    page = open_context(java_script_enabled=False).new_page()
    for figure in ("weights", "scale", "cost"):
        page.goto(site.url + _home(figure, visits), wait_until="load")
        fig = page.locator(f"#figure-{figure}")
        assert fig.locator("svg").first.is_visible(), figure
        assert fig.locator("figcaption").inner_text().strip(), figure
        assert not fig.locator(".attend-control").is_visible(), f"{figure}: a dead control is shown"


def test_the_controls_script_computes_nothing_and_fetches_nothing() -> None:
    script = Path(__file__).resolve().parents[2] / "docs" / "javascripts" / "controls.js"
    code = "\n".join(line.split("//")[0] for line in script.read_text(encoding="utf-8").splitlines())
    code = re.sub(r'"[^"\n]*"|\'[^\'\n]*\'', '""', code)  # selectors and names are not sums
    arithmetic = re.findall(r"[\w)\]]\s*[-+*/%]=?\s*[\w(]|\+\+|--|Math\.|parseFloat|Number\(", code)
    assert not arithmetic, f"controls.js does arithmetic: {arithmetic}"
    assert not re.search(r"fetch\(|XMLHttpRequest|import\(|https?:", code), "controls.js fetches"
