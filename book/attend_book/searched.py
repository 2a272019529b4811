"""What the search index reads of a page: its words, not the drawing of its figures.

Material's search plugin reads each page's HTML tag by tag in Python, and a figure's inline SVG
is a fifth of the book's tags: paths, groups, labels and axis ticks, which the figure hides
from screen readers (`aria-hidden`: they read its description, `aria-label`), and which a
search should not find either ("0.5" leading to every plot with that tick). The plugin sets
aside each SVG hidden so before search reads the page, and puts it back before the page is
written; a figure's caption, outside it, stays searchable."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field

# An SVG hidden from screen readers, whole (a figure's SVG holds no other SVG).
FIGURE = re.compile(r"<svg\b[^>]*\baria-hidden=\"true\"[^>]*>.*?</svg>", re.DOTALL)


@dataclass
class SetAside:
    """The figures of one page, each replaced by an empty SVG that names it by a mark no page
    writes (`set_aside`), to be put back (`put_back`)."""

    mark: str = field(default_factory=lambda: f"set-aside-{secrets.token_hex(8)}")
    figures: list[str] = field(default_factory=list)

    def set_aside(self, html: str) -> str:
        return FIGURE.sub(self._numbered, html)

    def _numbered(self, found: re.Match[str]) -> str:
        self.figures.append(found[0])
        return f'<svg data-{self.mark}="{len(self.figures) - 1}"></svg>'

    def put_back(self, html: str) -> str:
        if not self.figures:
            return html
        placed = re.compile(rf'<svg data-{self.mark}="(\d+)"></svg>')
        return placed.sub(lambda found: self.figures[int(found[1])], html)
