"""Include lines: a section whose markers are missing or repeated fails, naming the file and section."""

from __future__ import annotations

import html as html_lib
import re
import tempfile
from pathlib import Path

import markdown

from attend_book.snippets import check

ROOT = Path(__file__).resolve().parents[2]
SOURCE = "x = 1\n# --8<-- [start:part]\ny = 2\n# --8<-- [end:part]\nz = 3\n"


def problems(source: str, include: str = '--8<-- "src/m.py:part"') -> list[str]:
    root = Path(tempfile.mkdtemp())
    (root / "src").mkdir()
    (root / "src" / "m.py").write_text(source, encoding="utf-8")
    page = f"# t\n\n```python notest\n{include}\n```\n"
    return [p.render("docs/p.md") for p in check(page, root)]


def test_an_include_of_a_marked_section_has_no_problem() -> None:
    assert problems(SOURCE) == []


def test_a_missing_end_marker_is_reported_with_the_file_and_the_section() -> None:
    assert problems(SOURCE.replace("# --8<-- [end:part]\n", "")) == [
        "docs/p.md:4: src/m.py has 0 `[end:part]` markers where one belongs"
    ]


def test_a_repeated_start_marker_is_reported() -> None:
    assert problems(SOURCE + "# --8<-- [start:part]\n") == [
        "docs/p.md:4: src/m.py has 2 `[start:part]` markers where one belongs"
    ]


def test_an_include_of_a_file_that_is_not_there_is_reported() -> None:
    assert problems(SOURCE, '--8<-- "src/gone.py:part"') == [
        "docs/p.md:4: the include names src/gone.py, which is not there"
    ]


def test_an_escaped_include_line_is_shown_as_text_and_not_checked() -> None:
    assert problems(SOURCE, ';--8<-- "src/gone.py:part"') == []


def test_the_contributors_page_shows_its_example_include_line_as_written() -> None:
    page = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    html = markdown.markdown(
        page,
        extensions=["pymdownx.snippets", "pymdownx.superfences"],
        extension_configs={"pymdownx.snippets": {"base_path": [str(ROOT)], "check_paths": True}},
    )
    text = html_lib.unescape(re.sub(r"<[^>]+>", "", html))
    assert '--8<-- "src/attend/core/head.py:attend"' in text
    assert "def attend(" not in text
    # the sentence naming the section's markers, which the extension drops unless escaped
    assert "# --8<-- [start:attend] and # --8<-- [end:attend]" in text
