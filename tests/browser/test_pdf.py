"""The whole book as one PDF, printed from print_page/ by the same headless Chromium.

`nox -s pdf` prints it (scripts/print_book.py) into the built site and runs these tests on it
with ATTEND_PDF naming the file; without ATTEND_PDF the book is printed here, into the site
under test, where the home page's link expects it.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from typing import Any

import pytest

from scripts.print_book import PDF_NAME, print_pdf

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pdf(site: Any, browser: Any) -> Path:
    given = os.environ.get("ATTEND_PDF")
    if given:
        return Path(given)
    out = Path(site.root) / PDF_NAME
    outside = print_pdf(browser, site.url, out)
    assert not outside, f"printing asked for {outside}"
    return out


@pytest.fixture(scope="module")
def sheets(pdf: Path) -> list[str]:
    """The text of each sheet of the PDF (pypdf reads a long PDF slowly: once is enough)."""
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(pdf).pages]


@pytest.fixture(scope="module")
def text(sheets: list[str]) -> str:
    return "\n".join(sheets)


def _squeeze(words: str) -> str:
    """Text with every space and line break taken out: a PDF breaks lines where it likes."""
    return re.sub(r"\s+", "", words)


def test_the_book_prints_to_a_pdf_of_a_sane_length(sheets: list[str], site: Any) -> None:
    pages = len(sheets)
    chapters = len([p for p in site.pages if p and not p.endswith(".html") and p != "print_page/"])
    assert chapters + 1 <= pages <= 150, f"{pages} pages for {chapters} chapters"


def test_every_chapter_starts_on_a_new_sheet(sheets: list[str], site: Any) -> None:
    printed = (site.root / "print_page" / "index.html").read_text(encoding="utf-8")
    # A page may open with its notebook's download button, which print CSS hides, then its title.
    button = r"(?:<a [^>]*attend-notebook[^>]*>.*?</a>\s*)?"
    opening = rf'<section class="print-page" id="[^"]+"[^>]*>\s*{button}<h1[^>]*>(.*?)</h1>'
    words = r'<a class="headerlink".*?</a>|<[^>]+>'  # the heading's words, without its ¶ link
    titles = [html.unescape(re.sub(words, "", t)).strip() for t in re.findall(opening, printed, re.DOTALL)]
    assert len(titles) >= 7, titles
    tops = [_squeeze(sheet)[:400] for sheet in sheets]
    missing = [
        t
        for t in titles
        if not any(top.startswith(_squeeze(t)) or _squeeze(t) in top[: len(_squeeze(t)) + 40] for top in tops)
    ]
    assert not missing, f"chapters that do not open a sheet: {missing}"


@pytest.mark.parametrize("number", ["3.125", "0.5800", "9728"])
def test_the_pdf_carries_the_books_numbers(number: str, text: str) -> None:
    grouped = f"{int(number):,}" if number.isdigit() else number
    assert number in text or grouped in text, f"{number} is not in the printed book"


def test_the_pdf_carries_every_figure_caption_and_its_math(text: str, site: Any) -> None:
    printed = (site.root / "print_page" / "index.html").read_text(encoding="utf-8")
    captions = [html.unescape(c) for c in re.findall(r"<figcaption>(.*?)</figcaption>", printed, re.DOTALL)]
    assert len(captions) >= 4, captions
    flat = _squeeze(text)
    missing = [c for c in captions if _squeeze(re.sub(r"<[^>]+>", "", c)) not in flat]
    assert not missing, f"captions missing from the PDF: {missing}"
    assert "softmax" in text and "√" in text, "the attention formula did not print as text"


def test_the_print_page_fetches_nothing_from_outside(site: Any, page: Any) -> None:
    before = len(site.outside)
    page.goto(site.url + "print_page/", wait_until="networkidle")
    assert page.locator("section.print-page").count() >= 7
    assert site.outside[before:] == [], f"the print page asked for {site.outside[before:]}"
    fonts = page.evaluate("() => [...document.fonts].map((f) => f.family)")
    assert not fonts, f"web fonts declared on the print page: {fonts}"


def test_the_home_page_links_to_the_pdf_and_the_link_answers(site: Any, page: Any, pdf: Path) -> None:
    page.goto(site.url, wait_until="networkidle")
    link = page.locator("article a[href$='.pdf']")
    assert link.count() == 1, "the home page has no link to the PDF"
    answer = page.request.get(link.evaluate("(a) => a.href"))
    assert answer.status == 200, answer.status
    assert answer.body()[:5] == b"%PDF-"
    assert answer.body() == pdf.read_bytes(), "the link serves another file than the one tested"
