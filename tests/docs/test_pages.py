"""Every page, held to the book's rules without building the site, by the build's own check.

Each page's outputs come from the build's own execution cache (`.cache/attend-book`), as a build
takes them: a page whose code, package and versions did not change since a build or a test
ran it is not run again, and a page run here is not run again by the next build.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.utils.meta import get_data
from tree import DOCS, book, number_check, options, pages, plugin

from attend_book import rules
from attend_book.cache import FOLDER, Cache, build_versions, fingerprint, source_roots
from attend_book.run import plan_of
from bound_numbers import Page
from bound_numbers.reading import read

PAGES = pages()
PACKAGE = options("attend-book")["first_import"]  # what a page's first fence imports from
CACHE = Cache(DOCS.parent / FOLDER, fingerprint(source_roots(), build_versions()))


def name(page: Path) -> str:
    return page.relative_to(DOCS.parent).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_page_passes_the_builds_own_check_of_its_rules_numbers_and_includes(page: Path) -> None:
    source = Page(name(page), page.read_text(encoding="utf-8"))
    reading = read(source, book())
    values = CACHE.page(plan_of(source, reading.asked)).values
    meta = get_data(source.text)[1]
    problems = [*number_check().problems(reading, values, meta), *plugin().check_page(source)]
    assert [p.render(name(page)) for p in problems] == []


F = "```"
FIRST = f'{F}python exec="1"\nfrom attend import chapter_head\n{F}\n'
LATER = f'{F}python exec="1" continuation\nprint(1)\n{F}\n'
LISTING = f'{F}python notest\n;--8<-- "src/attend/core/head.py:attend"\n{F}\n'
FRONT = "---\ntitle: t\ndescription: d\n---\n"


def broken(*parts: str, front: str = FRONT) -> list[str]:
    """The problems of a page of `parts` under `front` with its front matter and its fences
    (it binds no number), each as the build logs it."""
    text = front + "\n".join(parts)
    front_matter = number_check().problems(read(text, book()), {}, get_data(text)[1])
    return [p.render("docs/p.md") for p in [*front_matter, *rules.check(Page("docs/p.md", text), PACKAGE)]]


def test_a_page_that_keeps_every_rule_has_no_problem() -> None:
    assert broken(FIRST, LATER, LISTING, LATER) == []


SEE = f"; {rules.CHECKLIST}"
BROKEN = {
    "no title": (("",), "---\ndescription: d\n---\n", "docs/p.md:1: the front matter has no title"),
    "no description": (("",), "---\ntitle: t\n---\n", "docs/p.md:1: the front matter has no description"),
    "a later fence without continuation": (
        (FIRST, LATER.replace(" continuation", "")),
        FRONT,
        "docs/p.md:9: this python fence runs after the page's first but does not say continuation",
    ),
    "a first fence with continuation": (
        (FIRST.replace('"1"', '"1" continuation'),),
        FRONT,
        "docs/p.md:5: the page's first python fence says continuation",
    ),
    "a first fence without the package": (
        (LATER.replace(" continuation", ""),),
        FRONT,
        "docs/p.md:5: the page's first python fence imports nothing from attend",
    ),
    "an include pytest would run": (
        (FIRST, LISTING.replace(" notest", "")),
        FRONT,
        "docs/p.md:9: this fence holds an include line, so it must be a listing marked notest, not executed",
    ),
    "notest on code": (
        (FIRST, f"{F}python notest\nprint(2)\n{F}\n"),
        FRONT,
        "docs/p.md:9: notest hides this fence's code from the tests; "
        "it is for a listing of include lines only",
    ),
    "a transcript typed by hand": (
        (f"{F}console\n$ attend scores\n{F}\n",),
        FRONT,
        'docs/p.md:5: this transcript is not marked exec="1": typed by hand, nothing checks it',
    ),
    "a transcript with its output pasted": (
        (f'{F}console exec="1"\n$ attend scores\n0.58\n{F}\n',),
        FRONT,
        "docs/p.md:5: this transcript holds a line that is not a `$ ` command, "
        "which the build would not show",
    ),
}


@pytest.mark.parametrize(("parts", "front", "said"), BROKEN.values(), ids=BROKEN.keys())
def test_each_rule_a_page_breaks_is_one_line_pointing_to_the_checklist(
    parts: tuple[str, ...], front: str, said: str
) -> None:
    assert broken(*parts, front=front) == [said + SEE]


def test_the_checklist_the_rules_point_to_is_on_the_contributors_page() -> None:
    assert "\n## Add a page\n" in (DOCS / "contributing.md").read_text(encoding="utf-8")


def test_the_contributors_page_is_kept_only_while_the_tests_it_runs_and_the_files_it_quotes_stand() -> None:
    """A pinned test broken, score-square.md reworded or the browser tests' sizes changed: each
    is a file this page read, so its cached outputs are not used again (tests/docs/test_cache.py)."""
    page = DOCS / "contributing.md"
    source = Page(name(page), page.read_text(encoding="utf-8"))
    followed = {Path(p).resolve() for p in CACHE.page(plan_of(source, read(source, book()).asked)).read}
    tests = DOCS.parent / "tests"
    assert {tests / "test_chapter.py", tests / "browser" / "figures.py", DOCS / "score-square.md"} <= followed
