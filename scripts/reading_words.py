"""Count the words of the reading path as a reader sees them: the built pages' prose only.

The reading path is the nav from the first page to the learning page. What is counted is the
text of each page's article as rendered, leaving out code and its output (every `pre`, `code`
and highlighted block), folded sections (`details`, the "in depth" parts and exercise answers),
figures (`figure`, `svg`), math (`math`) and the heading anchors. What is left is the prose a
reader must read to follow the argument: the issue's target is at most 10,000 words.

    python3 scripts/reading_words.py            # site/ as `nox -s docs` built it
    python3 scripts/reading_words.py --site DIR
"""

from __future__ import annotations

import argparse
import re
from html.parser import HTMLParser
from pathlib import Path

import yaml

SKIPPED = {"pre", "code", "details", "figure", "svg", "math", "script", "style", "nav"}
VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "source", "col", "area", "base", "embed"}
WORD = re.compile(r"\S*[^\W_]\S*")  # a run of non-space holding a letter or digit
LAST_ON_PATH = "learning.md"


class _Prose(HTMLParser):
    """Collect the text of a page's <article> outside the skipped elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth_in_article = 0
        self.skipping = 0
        self.stack: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        if tag == "article":
            self.depth_in_article += 1
        skip = tag in SKIPPED or "highlight" in classes or "headerlink" in classes
        self.stack.append(tag if not skip else f"!{tag}")
        if skip:
            self.skipping += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        while self.stack:
            top = self.stack.pop()
            if top.startswith("!"):
                self.skipping -= 1
            if top.lstrip("!") == tag:
                break
        if tag == "article":
            self.depth_in_article -= 1

    def handle_data(self, data: str) -> None:
        if self.depth_in_article and not self.skipping:
            self.text.append(data)


def reading_path(config: Path) -> list[str]:
    """The pages of the nav, in order, from the first through the learning page."""
    # YAML's base loader reads mkdocs.yml's `!ENV` tags as plain values, which the nav holds none of.
    loader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    nav = yaml.load(config.read_text(encoding="utf-8"), Loader=loader)["nav"]
    pages = [next(iter(item.values())) for item in nav]
    return pages[: pages.index(LAST_ON_PATH) + 1]


# Elements skipped whole that hold no element of their own kind: cut before parsing, they are
# most of a page's tags (a highlighted listing is a span a token).
UNNESTED = re.compile(r"<(svg|pre|math)\b.*?</\1\s*>", re.DOTALL)


def words(html: str) -> int:
    """The words of the page's prose. Only its <article> is parsed, figures, listings and math
    taken out first: what else the page holds is never counted, and parsing it is most of the
    time taken."""
    start, end = html.find("<article"), html.rfind("</article>")
    if start < 0 or end < start:
        return 0
    parser = _Prose()
    parser.feed(UNNESTED.sub("", html[start : end + len("</article>")]))
    return len(WORD.findall(" ".join(parser.text)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--config", type=Path, default=Path("mkdocs.yml"))
    args = parser.parse_args()
    total = 0
    for page in reading_path(args.config):
        folder = "" if page == "index.md" else page.removesuffix(".md") + "/"
        count = words((args.site / folder / "index.html").read_text(encoding="utf-8"))
        total += count
        print(f"{page:24} {count:6,}")
    print(f"{'reading path':24} {total:6,}")


if __name__ == "__main__":
    main()
