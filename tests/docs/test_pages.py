"""Every page, held to the book's rules without building the site."""

from __future__ import annotations

from pathlib import Path

import pytest

from book.numerals import check_page
from book.pages import DOCS, fences, front_matter, outputs, pages

PAGES = pages()


def name(page: Path) -> str:
    return page.relative_to(DOCS.parent).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_numeral_in_the_prose_is_printed_by_the_pages_own_code(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    givens = front_matter(text).get("givens") or {}
    assert isinstance(givens, dict)
    problems = check_page(text, outputs(text), {str(k): str(v) for k, v in givens.items()})
    assert [p.render(name(page)) for p in problems] == []


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_page_has_a_title_and_a_description(page: Path) -> None:
    meta = front_matter(page.read_text(encoding="utf-8"))
    assert str(meta.get("title", "")).strip(), f"{name(page)} has no title"
    assert str(meta.get("description", "")).strip(), f"{name(page)} has no description"


def test_the_chapter_is_six_pages_in_its_order_between_home_and_contributors() -> None:
    from mkdocs.utils.yaml import yaml_load  # mkdocs.yml reads addresses with !ENV

    config = yaml_load((DOCS.parent / "mkdocs.yml").read_text(encoding="utf-8"))
    chapter = [next(iter(entry.values())) for entry in config["nav"] if isinstance(entry, dict)]
    chapter = [page for page in chapter if page.endswith(".md")]
    assert chapter == [
        "index.md",
        "bare-digit.md",
        "three-matrices.md",
        "score-square.md",
        "square-root-divide.md",
        "longer-rows.md",
        "weights-are-data.md",
        "contributing.md",
    ]


def test_the_declared_givens_are_few_and_each_has_a_reason() -> None:
    givens = {
        (page.name, key): reason
        for page in PAGES
        for key, reason in (front_matter(page.read_text(encoding="utf-8")).get("givens") or {}).items()  # type: ignore[union-attr]
    }
    assert len(givens) <= 5, givens
    assert all(str(reason).strip() for reason in givens.values())


def test_every_python_block_imports_from_attend_or_continues_a_page_that_did() -> None:
    for page in PAGES:
        blocks = [
            f for f in fences(page.read_text(encoding="utf-8")) if f.executed and f.language == "python"
        ]
        if blocks:
            assert "from attend" in blocks[0].body or "import attend" in blocks[0].body, name(page)
