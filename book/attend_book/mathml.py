"""The book's math as MathML, which the browser draws itself.

pymdownx.arithmatex (generic mode) leaves TeX that needs a script to typeset it; MathML, made by
latex2mathml at build, needs no script and no font from anywhere.
"""

from __future__ import annotations

import functools
import re
from html import unescape

from latex2mathml.converter import convert

_MATH = re.compile(r'<(?P<tag>span|div) class="arithmatex">\\[(\[](?P<tex>.*?)\\[)\]]</(?P=tag)>', re.DOTALL)


def converted(page: str) -> str:
    """The page with every arithmatex span (inline) and div (a block) replaced by MathML."""
    return _MATH.sub(lambda math: _converted(math["tag"], unescape(math["tex"]).strip()), page)


@functools.lru_cache(maxsize=1024)  # the same formulas, rebuild after rebuild under `nox -s serve`
def _converted(tag: str, tex: str) -> str:
    if tag == "span":
        return str(convert(tex, display="inline"))
    return f'<div class="math-block">{convert(tex, display="block")}</div>'
