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
    # held by what it means, the failing line and the values compared, not by its wording
    with pytest.raises(ChapterTestError, match=r"test_one\.py:2: .*\b2 == 3\b"):
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


def test_a_file_whose_name_reads_as_an_option_or_a_node_split_over_lines_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`-p.py::test_x` was handed to pytest as `-p .py::test_x`: it printed nothing on its output
    and run_test raised IndexError; a node with a newline was a message of two lines."""
    (tmp_path / "-p.py").write_text("def test_x():\n    pass\n", encoding="utf-8")
    (tmp_path / "test_one.py").write_text("def test_x():\n    pass\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run_test("-p.py::test_x") == "test_x PASSED"
    with pytest.raises(ChapterTestError, match=r"names no test") as refused:
        run_test("test_one.py::test_x\n")
    assert "\n" not in str(refused.value)


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


def test_the_chapters_tests_run_once_as_one_transcript_at_the_end_of_the_cost_page() -> None:
    """The chapter ran its eight tests at the end of its cost page: the book runs them there, all
    in one transcript, and on no other page of the reading path (their code is on the
    contributors' page)."""
    path = [p for p in (ROOT / "docs").glob("*.md") if p.name != "contributing.md"]
    running = [p.name for p in path if "run_test(" in p.read_text(encoding="utf-8")]
    assert running == ["longer-rows.md"]
    page = ROOT / "docs" / "longer-rows.md"
    text = page.read_text(encoding="utf-8")
    assert text.index("## The chapter's tests") > text.index("$ attend cost")
    assert text.index("## The chapter's tests") < text.index("## Exercises")
    printed = "".join(b.text for b in run_page("docs/longer-rows.md", text, folder=str(ROOT)).blocks)
    lines = printed.splitlines()
    at = lines.index("tests/test_chapter.py")
    assert lines[at + 1 : at + 1 + len(CHAPTER_TESTS)] == [f"  PASSED {name}" for name in CHAPTER_TESTS]
    assert f"{len(CHAPTER_TESTS)} passed" in printed


def test_the_contributors_page_shows_the_code_of_every_one_of_the_chapters_tests() -> None:
    text = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    sections = [
        line.split("[start:")[1].rstrip("]")
        for line in (ROOT / "tests" / "test_chapter.py").read_text(encoding="utf-8").splitlines()
        if "--8<-- [start:" in line
    ]
    assert len(sections) == len(CHAPTER_TESTS)
    for section in sections:
        assert f'--8<-- "tests/test_chapter.py:{section}"' in text, section
