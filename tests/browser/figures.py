"""The figures of a page as the tests read them: the size every piece of their text is rendered
at (and what is wider than the screen), and a screenshot of each.

The text is measured on the laptop by the session's visit of each page (conftest.py, `visits`,
whose viewport is 1280 px wide) and on the phone by test_figure_text.py, which holds the rule
they are held to.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

SMALLEST = 11.0  # CSS px: no letter or digit inside a figure is drawn smaller, at either width
PHONE, LAPTOP = 390, 1280
WIDTHS = (PHONE, LAPTOP)

# Each visible run of text in a figure with its rendered size: SVG text by its font size times
# the scale its drawing is shown at, HTML text by its computed font size.
MEASURE = """() => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const found = [];
  document.querySelectorAll('article figure').forEach((fig) => {
    fig.querySelectorAll('svg text').forEach((t) => {
      if (!shown(t) || !t.textContent.trim()) return;
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      found.push({figure: fig.id, text: t.textContent.trim().slice(0, 30), px});
    });
    const walker = document.createTreeWalker(fig, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (el.closest('svg') || !node.textContent.trim() || !shown(el)) continue;
      found.push({figure: fig.id, text: node.textContent.trim().slice(0, 30),
                  px: parseFloat(getComputedStyle(el).fontSize)});
    }
  });
  const wide = (el) => el.scrollWidth - el.clientWidth > 1;
  const column = document.querySelector('article').clientWidth;
  const overflowing = [...document.querySelectorAll('article figure')]
    .filter((fig) => fig.scrollWidth > column + 1).map((fig) => fig.id);
  const listings = [...document.querySelectorAll('article pre')]
    .filter((pre) => !pre.closest('.jupyter-wrapper, .language-console, .language-text'))
    .filter((pre) => wide(pre) || wide(pre.querySelector('code') || pre))
    .map((pre) => (pre.textContent.split('\\n').find((line) => line.length > 40) || '').slice(0, 60));
  const tables = [...document.querySelectorAll('article table')]
    .filter((t) => !t.closest('.jupyter-wrapper'))
    .filter((t) => t.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                   || wide(t.closest('.md-typeset__table') || t))
    .map((t) => t.textContent.trim().slice(0, 40));
  return {found, overflowing, listings, tables};
}"""


# On a phone, with every folded section opened as a reader would: what is wider than its box (a
# table, its scrolling wrapper, or a transcript, whose lines run to 80 characters) and each word
# of prose in a table that the browser cut across two lines ("sch/em/e"). Code may break anywhere.
PHONE_FIT = """() => {
  document.querySelectorAll('article details').forEach((d) => { d.open = true; });
  const wide = (el) => el.scrollWidth - el.clientWidth > 1;
  const screen = document.documentElement.clientWidth;
  const tables = [...document.querySelectorAll('article table')]
    .filter((t) => !t.closest('.jupyter-wrapper'))
    .filter((t) => t.getBoundingClientRect().right > screen + 1
                   || wide(t.closest('.md-typeset__scrollwrap') || t)
                   || wide(t.closest('.md-typeset__table') || t))
    .map((t) => t.textContent.trim().slice(0, 40));
  const transcripts = [...document.querySelectorAll(
    'article .language-console pre, article .language-text pre')]
    .filter((pre) => !pre.closest('.jupyter-wrapper'))
    .filter((pre) => wide(pre) || wide(pre.querySelector('code') || pre))
    .map((pre) => pre.textContent.split('\\n')[0].slice(0, 60));
  const cut = [];
  document.querySelectorAll('article table').forEach((table) => {
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('code, math, svg')) continue;
      for (const word of node.textContent.matchAll(/[^\\s\u2013\u2014\\/-]+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
          .map((r) => Math.round(r.top)));
        if (lines.size > 1) cut.push(word[0]);
      }
    }
  });
  return {tables, transcripts, cut};
}"""


def measured_page(path: str) -> bool:
    """Every page but the whole-book one (its copies are the pages) and the 404 page."""
    return path != "print_page/" and not path.endswith("404.html")


# The page's header stays at the top of the window, over whatever is scrolled beneath it: the top of
# a figure, once the figure is scrolled into view for its screenshot.
UNDER_THE_HEADER = ".md-header { visibility: hidden; }"


def shoot_figures(page: Any, folder: Path, name: str) -> list[Path]:
    """A screenshot of each figure on the page, with its caption, into `folder`: `name` with the
    figure's id for {}. What a reader checking the figures looks at, for a fraction of the cost of
    the whole page, which is longest on a phone. Folded sections are opened first, as a reader
    opens them: a figure in one is hidden until then, and cannot be shot."""
    page.evaluate("() => document.querySelectorAll('article details').forEach((d) => { d.open = true; })")
    shots = []
    figures = page.locator("article figure")
    for i in range(figures.count()):
        figure = figures.nth(i)
        shot = folder / name.format(figure.get_attribute("id") or i)
        figure.screenshot(path=str(shot), style=UNDER_THE_HEADER)
        shots.append(shot)
    return shots
