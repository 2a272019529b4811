"""The reader on the book's own pages: what it keeps of each is what markdown-it reads as text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tree import pages

from bound_numbers import Page
from bound_numbers.reading import _passages


def digit_runs(text: str) -> list[str]:
    """The runs of digits in `text`, bindings and attribute lists left out."""
    return re.findall(r"\d+", re.sub(r"\{(?:=|given:|\s*[:#.])[^{}]*\}", " ", text))


@pytest.mark.parametrize("page", pages(), ids=lambda page: page.name)
def test_the_reader_blanks_on_every_page_what_markdown_it_says_is_not_text(page: Path) -> None:
    """markdown-it's inline tokens carry no column, so the reader blanks code spans, tags, link
    targets and inline math's markup by pattern, in the file's own lines. On every page, what it
    keeps holds the very digits markdown-it's text and math tokens hold, in the same order."""
    source = Page(page.name, page.read_text(encoding="utf-8"))
    said = []
    for token in source.tokens:
        if token.type == "math_block":
            said.append(token.content)
        elif token.type == "inline":
            said += [child.content for child in token.children or [] if child.type in ("text", "math_inline")]
    after = source.front  # the front matter is not markdown-it's
    kept = [p.text for p in _passages(source) if p.kind != "html" and p.line > after]
    assert digit_runs(" ".join(kept)) == digit_runs(" ".join(said))
