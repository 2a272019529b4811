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


def tex_to_mathml(tex: str, display: bool = False) -> str:
    """One TeX formula as a MathML element; `display` makes it a centred block."""
    mathml: str = convert(tex.strip(), display="block" if display else "inline")
    return mathml


def render_math(page_html: str) -> str:
    """The page with every arithmatex span and div replaced by MathML."""

    def block(match: re.Match[str]) -> str:
        tex = html.unescape(match.group("tex"))
        return f'<div class="math-block">{tex_to_mathml(tex, display=True)}</div>'

    def inline(match: re.Match[str]) -> str:
        return tex_to_mathml(html.unescape(match.group("tex")))

    return _INLINE.sub(inline, _BLOCK.sub(block, page_html))
