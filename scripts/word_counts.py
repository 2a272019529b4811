"""Count the field's words and the house words in the running text of the book's pages.

Issue 24 asks the pages to speak the field's vocabulary (docs/contributing.md names the words,
/work/notes/words.md gives the list) and to keep a house word only as a gloss. This counts each
term in the prose a reader reads: the front matter, fenced blocks, code spans, HTML comments
and the number bindings (`{= ...}`, `{given: ...}`) are left out; math stays in, since `$d_k$` is
read. A term matches case-insensitively as a whole word, with or without a plural `s`.

    python3 scripts/word_counts.py                     # every page under docs/
    python3 scripts/word_counts.py docs/index.md docs/bare-digit.md
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

# What the reader should meet, and the house words that should at most gloss it.
FIELD = {
    "sequence": r"sequences?",
    "attention weights": r"attention weights?",
    "attention scores": r"attention scores?",
    "scaled dot-product attention": r"scaled dot-product attention",
    "self-attention": r"self-attention",
    "multi-head attention": r"multi-head attention",
    "d_model": r"d_\{\\text\{model\}\}|d_model|d_\{model\}",
    "d_k": r"d_k|d_\{k\}",
    "d_v": r"d_v|d_\{v\}",
    "context window": r"context windows?",
    "logits": r"logits?",
}
HOUSE = {
    "shares": r"shares?",
    "slot": r"slots?",
    "blend": r"blend(?:s|ed)?",
    "the divide": r"the (?:square-root )?divide",
    "the pairs": r"the pairs",
    "run": r"runs?",
}
# A space in a term matches any run of white space: the prose wraps anywhere.
TERMS = {
    name: re.compile(r"(?<![\w-])" + pattern.replace(" ", r"\s+") + r"(?![\w-])", re.IGNORECASE)
    for name, pattern in {**FIELD, **HOUSE}.items()
}

_NOT_PROSE = [
    re.compile(r"\A---\n.*?\n---\n", re.DOTALL),  # front matter
    re.compile(r"^(?P<mark>`{3,}|~{3,}).*?^(?P=mark)[ \t]*$", re.DOTALL | re.MULTILINE),  # fences
    re.compile(r"<!--.*?-->", re.DOTALL),  # comments (the picture notes among them)
    re.compile(r"\{(?:=|given:)[^}]*\}"),  # bindings
    re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL),  # code spans
]


def running_text(markdown: str) -> str:
    """What a reader reads of a page, as Markdown: everything but code, comments and bindings."""
    for pattern in _NOT_PROSE:
        markdown = pattern.sub(" ", markdown)
    return markdown


def counts(markdown: str) -> dict[str, int]:
    text = running_text(markdown)
    return {name: len(pattern.findall(text)) for name, pattern in TERMS.items()}


def main(argv: list[str]) -> int:
    pages = [Path(a) for a in argv] or sorted(Path("docs").glob("*.md"))
    missing = [str(p) for p in pages if not p.is_file()]
    if missing:
        print(f"word_counts: no such page: {', '.join(missing)}", file=sys.stderr)
        return 2
    table = {page.stem: counts(page.read_text(encoding="utf-8")) for page in pages}
    width = max(map(len, TERMS))
    print(f"{'':<{width}}  " + "  ".join(table))
    for name in TERMS:
        if name == next(iter(HOUSE)):
            print("house words:")
        cells = (f"{row[name]:>{len(page)}}" for page, row in table.items())
        print(f"{name:<{width}}  " + "  ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
