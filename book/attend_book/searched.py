"""What the search index reads of a page: its words and its code, not the markup around them.

Material's search plugin reads each page's HTML tag by tag in Python, and two kinds of markup
are most of the book's tags while adding nothing to what it finds:

- A figure's inline SVG (a fifth of the tags): paths, groups, labels and axis ticks, which the
  figure hides from screen readers (`aria-hidden`: they read its description, `aria-label`),
  and which a search should not find either ("0.5" leading to every plot with that tick).
- The highlighting of a listing (three tags in five): a `<span>` for each token, whose text the
  index keeps and whose tags it drops. Search is handed each `<pre>` with its spans taken out,
  the same text in the same `<pre>` and `<code>`, so the index is the one it would have made.

The plugin sets both aside before search reads the page and puts them back, as they were,
before the page is written; a figure's caption, outside its SVG, stays searchable.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field

# An SVG hidden from screen readers, whole (a figure's SVG holds no other SVG); not one that
# closes itself (`<svg …/>`), whose end would be another SVG's.
FIGURE = re.compile(r"<svg\b[^>]*\baria-hidden=\"true\"[^>]*(?<!/)>.*?</svg>", re.DOTALL)
# A listing, whole (a <pre> holds no other), its start tag apart; and a highlighting tag.
LISTING = re.compile(r"(<pre\b[^>]*>)(.*?)</pre>", re.DOTALL)
SPAN = re.compile(r"</?span\b[^>]*>")


@dataclass
class SetAside:
    """One page's figures and listings, each replaced (`set_aside`) by what search is to read
    of it, marked by a name no page writes, and put back (`put_back`)."""

    mark: str = field(default_factory=lambda: f"set-aside-{secrets.token_hex(8)}")
    figures: list[str] = field(default_factory=list)
    listings: list[str] = field(default_factory=list)

    def set_aside(self, html: str) -> str:
        return LISTING.sub(self._plain, FIGURE.sub(self._numbered, html))

    def _numbered(self, found: re.Match[str]) -> str:
        self.figures.append(found[0])
        return f'<svg data-{self.mark}="{len(self.figures) - 1}"></svg>'

    def _plain(self, found: re.Match[str]) -> str:
        self.listings.append(found[0])
        start = found[1].replace("<pre", f'<pre data-{self.mark}="{len(self.listings) - 1}"', 1)
        return f"{start}{SPAN.sub('', found[2])}</pre>"

    def put_back(self, html: str) -> str:
        if self.listings:
            listing = re.compile(rf'<pre data-{self.mark}="(\d+)"[^>]*>.*?</pre>', re.DOTALL)
            html = listing.sub(lambda found: self.listings[int(found[1])], html)
        if self.figures:
            figure = re.compile(rf'<svg data-{self.mark}="(\d+)"></svg>')
            html = figure.sub(lambda found: self.figures[int(found[1])], html)
        return html
