"""The checks can fail: change a number in a copy of the docs and the check names it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from tree import DOCS

from attend_book.numerals import check_page
from attend_book.plugin import BookPlugin
from attend_book.run import run_page

# (page, the text as it stands, the same text with one number changed, what the report must say)
MUTATIONS = [
    (
        "score-square.md",
        "The products total 3.125.",
        "The products total 3.126.",
        "3.126 is written here but nothing on the page computes it (nearest computed: 3.1250)",
    ),
    (
        "score-square.md",
        "puts 0.5800 of its attention",
        "puts 0.5801 of its attention",
        "0.5801 is written here but nothing on the page computes it (nearest computed: 0.5800)",
    ),
    (
        "longer-rows.md",
        "the head counted 9728 multiply-adds",
        "the head counted 9729 multiply-adds",
        "9729 is written here but nothing on the page computes it (nearest computed: 9728)",
    ),
    (
        "score-square.md",
        "0.5×1.5 = 0.75",
        "0.5×1.5 = 0.76",
        "0.5×1.5 = 0.76 does not hold (0.5×1.5 is 0.75)",
    ),
]


@pytest.fixture(scope="module")
def mutated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of docs/ with every mutation applied."""
    copy = tmp_path_factory.mktemp("book") / "docs"
    shutil.copytree(DOCS, copy)
    for page, before, after, _ in MUTATIONS:
        path = copy / page
        text = path.read_text(encoding="utf-8")
        assert text.count(before) == 1, f"{page} no longer says {before!r}; update this test"
        path.write_text(text.replace(before, after), encoding="utf-8")
    return copy


@pytest.fixture(scope="module")
def reports(mutated: Path) -> dict[str, list[str]]:
    found = {}
    for page in {m[0] for m in MUTATIONS}:
        text = (mutated / page).read_text(encoding="utf-8")
        outputs = [block.text for block in run_page(page, text) if not block.html]
        found[page] = [p.render(f"docs/{page}") for p in check_page(text, outputs)]
    return found


@pytest.mark.parametrize(
    ("page", "before", "after", "message"), MUTATIONS, ids=["3.125", "0.5800", "9728", "equation"]
)
def test_a_changed_number_is_named_with_its_page_and_line(
    mutated: Path, reports: dict[str, list[str]], page: str, before: str, after: str, message: str
) -> None:
    line = next(
        n
        for n, text in enumerate((mutated / page).read_text(encoding="utf-8").splitlines(), 1)
        if after in text
    )
    assert f"docs/{page}:{line}: {message}" in reports[page]


def test_the_copied_pages_report_nothing_but_the_mutations(reports: dict[str, list[str]]) -> None:
    assert sum(len(r) for r in reports.values()) == len(MUTATIONS)


def test_the_plugin_reports_each_problem_naming_page_and_line(mutated: Path) -> None:
    """The same check, as the build makes it: each line a warning, which --strict counts."""
    text = (mutated / "longer-rows.md").read_text(encoding="utf-8")
    blocks = run_page("docs/longer-rows.md", text)
    meta = {"title": "t", "description": "d"}
    problems = BookPlugin().check_numbers("docs/longer-rows.md", text, blocks, meta)
    assert any(p.startswith("docs/longer-rows.md:") and "9729 is written here" in p for p in problems)
