"""The whole book as one PDF, printed from print_page/ by the same headless Chromium.

`nox -s pdf` runs these tests: they print the book (with scripts/print_book.py's functions)
into the site under test, where the home page's link expects it, reading the print page on
the way, and then read the PDF back.
"""

from __future__ import annotations

import html
import os
import re
import unicodedata
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from scripts.print_book import MARGIN_MM, PDF_NAME, open_print_page, refuse_outside, save_pdf

POINTS_PER_MM = 72 / 25.4
HEADING_PT = 12.0  # the body is printed at about 10 pt, code at 9: anything from 12 up is a heading
TITLE_PT = 20.0  # a chapter's title (h1)

pytestmark = pytest.mark.browser


@dataclass
class Printed:
    """The book printed to `pdf`, and what its print page was while it printed: how many of the
    book's pages it holds, the web fonts it declares, and the requests that would have left
    127.0.0.1 (each refused)."""

    pdf: Path
    sections: int
    fonts: list[str]
    outside: list[str]


@pytest.fixture(scope="module")
def printed(site: Any, browser: Any) -> Printed:
    """The book printed into the site under test from one load of its print page, which is read
    before it goes to the printer: a load of that page is most of a print's cost."""
    outside: list[str] = []
    context = refuse_outside(browser.new_context(service_workers="block"), outside)
    try:
        page = open_print_page(context, site.url)
        sections = page.locator("section.print-page").count()
        fonts = page.evaluate("() => [...document.fonts].map((f) => f.family)")
        out = Path(site.root) / PDF_NAME
        save_pdf(page, out)
    finally:
        context.close()
    return Printed(out, sections, fonts, outside)


@pytest.fixture(scope="module")
def pdf(printed: Printed) -> Path:
    assert not printed.outside, f"printing asked for {printed.outside}"
    return printed.pdf


@pytest.fixture(scope="module")
def sheets(laid_out: list[Sheet]) -> list[str]:
    """The text of each sheet of the PDF, as pypdf extracts it (in the one reading `laid_out`
    makes: pypdf reads a long PDF slowly, and its text is the same with the visitors or without)."""
    return [sheet.text for sheet in laid_out]


@pytest.fixture(scope="module")
def text(sheets: list[str]) -> str:
    return "\n".join(sheets)


@dataclass
class Line:
    """One line of text on a sheet: its baseline (points up from the sheet's foot), size, words."""

    y: float
    size: float
    text: str

    @property
    def heading(self) -> bool:
        return self.size >= HEADING_PT


@dataclass
class Sheet:
    """A sheet's lines from top to bottom, the spans images cover, its printable band, and its
    text as pypdf extracts it."""

    number: int
    lines: list[Line]
    text: str = ""
    images: list[tuple[float, float]] = field(default_factory=list)  # (bottom, top) in points
    foot: float = 0.0  # the lowest point the book's text may sit at
    head: float = 0.0  # the highest

    @property
    def fill(self) -> float:
        """How much of the printable band holds text or pictures, top to bottom."""
        tops = [line.y + line.size for line in self.lines] + [top for _, top in self.images]
        bottoms = [line.y for line in self.lines] + [bottom for bottom, _ in self.images]
        return (max(tops) - min(bottoms)) / (self.head - self.foot) if tops else 0.0

    @property
    def opens_a_chapter(self) -> bool:
        return bool(self.lines) and self.lines[0].size >= TITLE_PT


def _laid_out(pdf: Path) -> list[Sheet]:
    """Every sheet's lines, read from the positions pypdf reports for each run of text."""
    from pypdf import PdfReader

    return [_sheet(number, page) for number, page in enumerate(PdfReader(pdf).pages, start=1)]


def _sheet(number: int, page: Any) -> Sheet:
    height = float(page.mediabox.height)
    foot, head = MARGIN_MM["bottom"] * POINTS_PER_MM, height - MARGIN_MM["top"] * POINTS_PER_MM
    runs: list[Line] = []
    images: list[tuple[float, float]] = []

    def text(words: str, cm: list[float], tm: list[float], _font: Any, size: float) -> None:
        y = cm[5] + tm[5] * cm[3]
        if words.strip() and foot - 1 <= y <= head + 1:  # the margins hold only the page number
            runs.append(Line(y, size * (tm[3] or 1.0) * cm[3], words.strip()))

    def operator(op: bytes, _args: Any, cm: list[float], _tm: Any) -> None:
        if op == b"Do":  # an image is drawn into the unit square the matrix maps
            images.append((cm[5], cm[5] + cm[3]))

    extracted = page.extract_text(visitor_text=text, visitor_operand_before=operator)
    lines: dict[float, Line] = {}
    for run in runs:  # runs on one baseline make one line
        key = next((y for y in lines if abs(y - run.y) < 1.5), run.y)
        line = lines.setdefault(key, Line(run.y, 0.0, ""))
        line.size, line.text = max(line.size, run.size), f"{line.text} {run.text}".strip()
    ordered = sorted(lines.values(), key=lambda line: -line.y)
    return Sheet(number, ordered, extracted, images, foot, head)


@pytest.fixture(scope="module")
def laid_out(pdf: Path) -> list[Sheet]:
    return _laid_out(pdf)


def test_the_sheets_are_read_with_their_headings(laid_out: list[Sheet]) -> None:
    assert sum(sheet.opens_a_chapter for sheet in laid_out) >= 7
    assert sum(line.heading for sheet in laid_out for line in sheet.lines) >= 30


def test_no_heading_is_left_in_the_last_fifth_of_a_sheet_without_text_after_it(laid_out: list[Sheet]) -> None:
    stranded = []
    for sheet in laid_out:
        low = sheet.foot + (sheet.head - sheet.foot) / 5
        for i, line in enumerate(sheet.lines):
            after = [below for below in sheet.lines[i + 1 :] if not below.heading]
            if line.heading and line.y < low and len(after) < 2:
                stranded.append(f"sheet {sheet.number}: {line.text!r} then {len(after)} line(s)")
    assert not stranded, stranded


def test_no_lead_in_ending_in_a_colon_is_parted_from_what_it_introduces(laid_out: list[Sheet]) -> None:
    parted = [
        f"sheet {sheet.number}: {sheet.lines[-1].text!r}"
        for sheet in laid_out[:-1]
        if sheet.lines and sheet.lines[-1].text.endswith(":")
    ]
    assert not parted, parted


def test_no_sheet_is_under_a_quarter_full_but_a_chapters_last(laid_out: list[Sheet]) -> None:
    last = {s.number for s, after in pairwise(laid_out) if after.opens_a_chapter}
    last.add(laid_out[-1].number)
    sparse = [
        f"sheet {s.number}: {s.fill:.0%} full, ending {s.lines[-1].text[:40]!r}"
        if s.lines
        else f"sheet {s.number}"
        for s in laid_out[1:]  # the cover stands alone
        if s.number not in last and s.fill < 0.25
    ]
    assert not sparse, sparse


def test_no_sheet_holds_only_a_spilled_line_or_a_lone_picture(laid_out: list[Sheet]) -> None:
    """A chapter's last sheet may be short, but not a line or two run over, nor a picture
    parted from the words and code that made it."""
    thin = [
        f"sheet {s.number}: {[line.text[:40] for line in s.lines]}" for s in laid_out[1:] if len(s.lines) < 3
    ]
    assert not thin, thin


def test_the_cover_names_the_real_repository_or_none(laid_out: list[Sheet]) -> None:
    cover = " ".join(line.text for line in laid_out[0].lines)
    assert ".invalid" not in cover, cover
    real = os.environ.get("BOOK_REPO_URL", "")
    if real and ".invalid" not in real:
        assert _squeeze(real) in _squeeze(cover), f"the cover does not name {real}: {cover}"
    else:
        assert "Repository" not in cover, cover


def _squeeze(words: str) -> str:
    """Text with every space and line break taken out: a PDF breaks lines where it likes."""
    return re.sub(r"\s+", "", words)


def test_the_book_prints_to_a_pdf_of_a_sane_length(sheets: list[str], site: Any) -> None:
    pages = len(sheets)
    chapters = len([p for p in site.pages if p and not p.endswith(".html") and p != "print_page/"])
    assert chapters + 1 <= pages <= 150, f"{pages} pages for {chapters} chapters"


def test_every_chapter_starts_on_a_new_sheet(sheets: list[str], site: Any) -> None:
    # Each tag on the whole-book page may end its line before its `>` (attend_book.printed).
    printed = (site.root / "print_page" / "index.html").read_text(encoding="utf-8")
    # A page may open with its notebook's download button, which print CSS hides, then its title.
    button = r"(?:<a [^>]*attend-notebook[^>]*>.*?</a\s*>\s*)?"
    opening = rf'<section class="print-page" id="[^"]+"[^>]*>\s*{button}<h1[^>]*>(.*?)</h1\s*>'
    words = r'(?s)<a class="headerlink".*?</a\s*>|<[^>]+>'  # the heading's words, without its ¶ link
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
    captions = [
        html.unescape(c) for c in re.findall(r"<figcaption\s*>(.*?)</figcaption\s*>", printed, re.DOTALL)
    ]
    assert len(captions) >= 4, captions

    def letters(words: str) -> str:  # a formula prints in math italic: 𝑊𝑂 reads as W, O; n² as n2
        return _squeeze(unicodedata.normalize("NFKC", words))

    flat = letters(text)
    missing = [c for c in captions if letters(re.sub(r"<[^>]+>", "", c)) not in flat]
    assert not missing, f"captions missing from the PDF: {missing}"
    assert "softmax" in text and "√" in text, "the attention formula did not print as text"


def test_the_pdf_prints_every_exercise_answer_open(text: str, site: Any) -> None:
    printed = (site.root / "print_page" / "index.html").read_text(encoding="utf-8")
    found = re.findall(r'<details class="success"\s*>.*?<p\s*>(.*?)</p\s*>', printed, re.DOTALL)
    assert len(found) >= 8, found
    answers = [a for a in found if "<math" not in a]  # MathML prints as glyphs, not its source
    flat = _squeeze(text)
    folded = [a for a in answers if _squeeze(html.unescape(re.sub(r"<[^>]+>", "", a)))[:60] not in flat]
    assert not folded, f"answers the PDF left folded: {folded}"


def test_the_print_page_fetches_nothing_from_outside(printed: Printed) -> None:
    assert printed.sections >= 7
    assert printed.outside == [], f"the print page asked for {printed.outside}"
    assert not printed.fonts, f"web fonts declared on the print page: {printed.fonts}"


def test_the_home_page_links_to_the_pdf_and_the_link_answers(site: Any, page: Any, pdf: Path) -> None:
    page.goto(site.url, wait_until="networkidle")
    link = page.locator("article a[href$='.pdf']")
    assert link.count() == 1, "the home page has no link to the PDF"
    answer = page.request.get(link.evaluate("(a) => a.href"))
    assert answer.status == 200, answer.status
    assert answer.body()[:5] == b"%PDF-"
    assert answer.body() == pdf.read_bytes(), "the link serves another file than the one tested"
