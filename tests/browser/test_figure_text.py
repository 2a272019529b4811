"""Every figure readable on a phone and on a laptop: no letter or digit under 11 CSS px.

Each page that holds a figure is opened at 390 px wide (a phone) and at 1280 px (a laptop),
its controls running; every piece of text inside a figure (SVG text scaled by its drawing's
transform, HTML text at its computed size) is measured as the browser rendered it
(figures.MEASURE). The same reading checks that no figure and no listing but a transcript
is wider than the screen; on the phone, with every folded section opened (figures.PHONE_FIT),
no table and no transcript either, and no word of prose in a table is cut across two lines.
The laptop's reading is taken by the session's visit of each page (conftest.py), which opens
it at 1280 px; the phone's here. In artifacts/screenshots/widths/:
each page at 1280 px (the visit's full-page screenshot) and each figure at 390 px.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.browser.figures import (
    LAPTOP,
    MEASURE,
    PHONE,
    PHONE_FIT,
    SMALLEST,
    WIDTHS,
    measured_page,
    shoot_figures,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def measured(
    site: Any, browser: Any, visits: dict[str, Any], browser_context_args: dict[str, Any], screenshots: Path
) -> dict[int, dict[str, Any]]:
    """Every page but the whole-book one (its copies are the pages), measured at each width: on
    the laptop by the session's visits, whose full-page screenshots are the laptop's; on the
    phone here, with a screenshot of each figure."""
    assert browser_context_args["viewport"] == {"width": LAPTOP, "height": 900}  # the visits' viewport
    folder = screenshots / "widths"
    folder.mkdir(parents=True, exist_ok=True)
    pages = [p for p in site.pages if measured_page(p)]
    out: dict[int, dict[str, Any]] = {LAPTOP: {}, PHONE: {}}
    for path in pages:
        out[LAPTOP][path] = visits[path].figure_text
        shot = visits[path].screenshot
        shutil.copyfile(shot, folder / f"{shot.stem}-{LAPTOP}.png")
    context = browser.new_context(viewport={"width": PHONE, "height": 900}, service_workers="block")
    try:
        page = context.new_page()
        for path in pages:
            page.goto(site.url + path, wait_until="load")
            page.evaluate("document.fonts.ready")
            out[PHONE][path] = page.evaluate(MEASURE)
            shoot_figures(page, folder, f"{{}}-{PHONE}.png")
            out[PHONE][path]["fit"] = page.evaluate(PHONE_FIT)  # last: it opens every folded section
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


def test_on_a_phone_nothing_scrolls_sideways(measured: dict[int, dict[str, Any]]) -> None:
    phone = measured[PHONE]
    listings = {path: page["listings"] for path, page in phone.items() if page["listings"]}
    fits = {path: page["fit"] for path, page in phone.items()}
    tables = {path: fit["tables"] for path, fit in fits.items() if fit["tables"]}
    transcripts = {path: fit["transcripts"] for path, fit in fits.items() if fit["transcripts"]}
    assert not listings, f"code that scrolls sideways on a phone: {listings}"
    assert not tables, f"tables wider than a phone, folded sections opened: {tables}"
    assert not transcripts, f"transcripts that scroll sideways on a phone: {transcripts}"


def test_on_a_phone_no_word_in_a_table_is_cut_across_two_lines(measured: dict[int, dict[str, Any]]) -> None:
    phone = measured[PHONE]
    cut = {path: page["fit"]["cut"] for path, page in phone.items() if page["fit"]["cut"]}
    assert not cut, f"words of prose in a table cut across two lines on a phone: {cut}"
