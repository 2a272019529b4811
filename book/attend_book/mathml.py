"""Math rendered at build: pymdownx.arithmatex's generic output turned into MathML.

Arithmatex in generic mode leaves `<span class="arithmatex">\\(…\\)</span>` and
`<div class="arithmatex">\\[…\\]</div>` in the page, which a browser shows as raw TeX unless a
script typesets it. Replacing them with MathML at build needs no script and no font from
anywhere: the conversion is done by `latex2mathml`, and Chromium
and Firefox draw MathML natively.
"""

from __future__ import annotations

import html
import re

from latex2mathml.converter import convert

_INLINE = re.compile(r'<span class="arithmatex">\\\((?P<tex>.*?)\\\)</span>', re.DOTALL)
_BLOCK = re.compile(r'<div class="arithmatex">\\\[(?P<tex>.*?)\\\]</div>', re.DOTALL)


def render_math(page_html: str) -> str:
    """The page with every arithmatex span and div replaced by MathML."""

    def block(match: re.Match[str]) -> str:
        tex = html.unescape(match.group("tex")).strip()
        return f'<div class="math-block">{convert(tex, display="block")}</div>'

    def inline(match: re.Match[str]) -> str:
        return str(convert(html.unescape(match.group("tex")).strip(), display="inline"))

    return _INLINE.sub(inline, _BLOCK.sub(block, page_html))
