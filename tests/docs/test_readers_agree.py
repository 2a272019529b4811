"""A page's fences as the book's reader (markdown-it: what the book runs, checks and makes
notebooks of) and SuperFences (what shows them) read them: the same code, or the build refuses
the page in one line naming it and the fence's line."""

from __future__ import annotations

from pathlib import Path

from book_build import MINIMAL, properdocs_build

from attend_book.plugin import UNREAD, UNSHOWN

F = "```"
# The smallest book with folded blocks, as the book's own mkdocs.yml renders them.
FOLDING = MINIMAL + "  - admonition\n  - pymdownx.details\ntheme:\n  name: material\n"
TWO_FUNCTIONS = ["def a():", "    return 1", "", "", "def b():", "    return 41", "", "", "print(a() + b())"]


def built(folder: Path, page: str) -> tuple[int, str]:
    """The strict build of a one-page book: its exit status and what it said."""
    (folder / "docs").mkdir()
    (folder / "mkdocs.yml").write_text(FOLDING, encoding="utf-8")
    (folder / "docs" / "index.md").write_text(f"---\ntitle: t\ndescription: d\n---\n\n{page}", "utf-8")
    done = properdocs_build(folder, folder / "site")
    return done.returncode, done.stderr


def test_a_fence_in_a_folded_block_runs_and_shows_all_its_code_past_a_double_blank_line(
    tmp_path: Path,
) -> None:
    """Python style puts two blank lines between functions; the book's reader ended a folded
    block there, ran the fence cut short, and the build stopped on a fence it did not know."""
    code = "\n".join(f"    {line}" if line else "" for line in [f'{F}python exec="1"', *TWO_FUNCTIONS, F])
    status, said = built(tmp_path, f'??? note "In depth: two functions"\n\n{code}\n\nAfter.\n')
    assert status == 0, said
    shown = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "<p>42</p>" in shown.replace("\n", "")  # the output of the whole code, the last line's
    notebook = (tmp_path / "site" / "index.ipynb").read_text(encoding="utf-8")
    assert "return 41" in notebook and "print(a() + b())" in notebook


def test_a_fence_only_superfences_reads_refuses_the_page_in_one_line_naming_it(tmp_path: Path) -> None:
    """A fence indented four spaces in no container is an indented code block to CommonMark, and
    a fence SuperFences shows and the book would have to run."""
    status, said = built(tmp_path, f'An aside.\n\n    {F}python exec="1"\n    print(7)\n    {F}\n')
    assert status == 1
    assert f"docs/index.md:8: {UNREAD}\n" in said
    assert "Traceback" not in said and "print(7)" not in said


def test_a_fence_only_the_books_reader_reads_refuses_the_page_in_one_line_naming_it(tmp_path: Path) -> None:
    """A fence closed by a longer line of backticks is closed to CommonMark, and to SuperFences
    runs on to the page's end: the book would run code no reader is shown. (It was said as a
    fence markdown-exec never ran, which runs none of the book's.)"""
    status, said = built(tmp_path, f'{F}python exec="1"\nprint(7)\n`````\n')
    assert status == 1
    assert f"docs/index.md:6: {UNSHOWN}\n" in said
    assert "Traceback" not in said
