"""The chapter's tests shown on the reading path: one test run where a page shows it.

`attend_book.chapter_tests.run_test` runs one test with pytest in the page's own process and
says how it ended; anything but a pass raises, so the page, and the build, fail with it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from attend_book.chapter_tests import ChapterTestError, run_test
from attend_book.run import run_page
from bound_numbers import Unavailable

ROOT = Path(__file__).resolve().parents[2]
F = "```"


@pytest.fixture
def failing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A test file of one failing test, in a folder of its own: the test's node."""
    (tmp_path / "test_one.py").write_text("def test_two_is_three():\n    assert 2 == 3\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return "test_one.py::test_two_is_three"


def test_a_passing_chapter_test_is_reported_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    node = "tests/test_chapter.py::test_every_score_is_a_query_times_a_key_divided_by_two"
    assert run_test(node) == "test_every_score_is_a_query_times_a_key_divided_by_two PASSED"


def test_a_failing_test_raises_with_pytests_reason(failing: str) -> None:
    with pytest.raises(ChapterTestError, match=r"test_one.py:2: AssertionError assert 2 == 3$"):
        run_test(failing)


def test_a_test_that_is_not_there_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    with pytest.raises(ChapterTestError, match="exit status 4"):
        run_test("tests/test_chapter.py::test_that_was_never_written")


@pytest.mark.parametrize("node", ["", "tests", "tests/test_chapter.py", "::test_one", "nowhere.py::test_one"])
def test_a_node_that_names_no_test_is_refused_before_pytest_collects_anything(
    node: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`run_test("")` once had pytest collect the whole repository inside a page."""
    monkeypatch.chdir(ROOT)
    collected: list[object] = []

    def collecting(*args: object, **kwargs: object) -> int:
        collected.append(args)
        return 0

    monkeypatch.setattr(pytest, "main", collecting)
    with pytest.raises(ChapterTestError, match=r"names no test: write `file.py::test_name`"):
        run_test(node)
    assert collected == []


def test_a_page_that_runs_a_failing_test_fails_naming_its_line(failing: str) -> None:
    page = (
        f'Prose.\n\n{F}python exec="1" result="text" book_only\n'
        f'from attend_book.chapter_tests import run_test\n\nprint(run_test("{failing}"))\n{F}\n'
    )
    with pytest.raises(Unavailable, match=r"^docs/p.md:6: a python fence failed at `print\(run_test"):
        run_page("docs/p.md", page, folder=str(Path.cwd()))


CHAPTER_TESTS = [
    line.split("(")[0].removeprefix("def ")
    for line in (ROOT / "tests" / "test_chapter.py").read_text(encoding="utf-8").splitlines()
    if line.startswith("def test_")
]


def test_each_of_the_chapters_tests_is_marked_for_a_page_to_include() -> None:
    text = (ROOT / "tests" / "test_chapter.py").read_text(encoding="utf-8")
    sections = text.split("# --8<-- [start:")[1:]
    assert len(sections) == len(CHAPTER_TESTS) == 8
    for section in sections:
        name, _, body = section.partition("]\n")
        assert body.startswith("def test_") and f"# --8<-- [end:{name}]" in body


def test_the_chapters_tests_are_run_on_the_pages_each_where_its_story_is_reached() -> None:
    def run_on(page: str) -> set[str]:
        text = (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
        return {name for name in CHAPTER_TESTS if f'run_test("tests/test_chapter.py::{name}")' in text}

    assert run_on("three-matrices") == {
        "test_a_projection_is_a_weighted_sum_and_nothing_else",
        "test_a_matrix_of_the_wrong_size_is_refused",
        "test_a_token_of_the_wrong_width_is_refused",
    }
    assert run_on("score-square") == {
        "test_every_score_is_a_query_times_a_key_divided_by_two",
        "test_every_row_of_attention_weights_sums_to_one",
        "test_two_tokens_with_the_same_numbers_get_the_same_row",
    }
    assert run_on("square-root-divide") == {"test_softmax_survives_a_score_nothing_can_raise_e_to"}
