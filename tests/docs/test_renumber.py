"""`bound-numbers renumber`: moved values rewritten from their bindings, nothing else touched or lost."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from book_build import MINIMAL

from attend_book.run import run_page
from attend_book.workbench import prose_of
from bound_numbers import Asked, Page, Value, cli
from bound_numbers import renumber as tool
from bound_numbers.check import check
from bound_numbers.reading import read

F = "```"
PAGE = f"""---
title: t
labels: {{slot: "len(q)", token: "n"}}
givens: {{power: [2, "the power of n"]}}
---

{F}python exec="1"
q = [0.0, 3.0, 0.5, 0.0]
k = [0.0, 1.0, 0.25, 0.5]
n = 16
{F}

The query is (0, 3, 0.5, 0){{= q}}; slot 3: 0.5{{= q[2]}}×0.25{{= k[2]}} = 0.125{{= q[2] * k[2]}}.
Sixteen{{= n}} scores in all, token 2's among them, slope 2{{= power}}.
The key's last slot is 0.5{{= k[3]}}.
"""
MOVED = PAGE.replace("q = [0.0, 3.0, 0.5, 0.0]", "q = [0.0, 3.0, 0.6, 0.0]").replace("n = 16", "n = 25")


def site(folder: Path) -> Path:
    """A site in `folder` as the book's plugins build it, its pages to come in docs/."""
    (folder / "mkdocs.yml").write_text(MINIMAL, encoding="utf-8")
    (folder / "docs").mkdir()
    return folder / "docs"


def values(markdown: str) -> dict[Asked, Value]:
    return run_page("docs/p.md", markdown, read(markdown).asked).values


def everywhere(
    text: str, given: Mapping[str, Value], prose: Callable[[str], str] = str
) -> dict[Asked, Value]:
    """Each expression's value in `given`, wherever the page asks for it."""
    return {
        a: given[a.expression] for a in read(Page("docs/p.md", text, prose)).asked if a.expression in given
    }


def test_moved_numbers_are_rewritten_at_their_precision_words_as_words_and_nothing_else() -> None:
    new, changes, left = tool.renumber("docs/p.md", PAGE, values(MOVED))
    assert changes == [
        "docs/p.md:13:21 0.5 → 0.6",
        "docs/p.md:13:43 0.5 → 0.6",
        "docs/p.md:13:70 0.125 → 0.150",
        "docs/p.md:14:1 Sixteen → Twenty-five",
    ]
    assert left == []
    old_lines, new_lines = PAGE.split("\n"), new.split("\n")
    assert [n for n, (a, b) in enumerate(zip(old_lines, new_lines, strict=True), 1) if a != b] == [13, 14]
    assert new_lines[12].startswith("The query is (0, 3, 0.6, 0){= q};")
    assert "0.6{= q[2]}×0.25{= k[2]} = 0.150{= q[2] * k[2]}" in new_lines[12]
    assert check(read(new), values(MOVED)) == []


def test_renumbering_twice_changes_nothing_the_second_time() -> None:
    once, _, _ = tool.renumber("docs/p.md", PAGE, values(MOVED))
    again, changes, left = tool.renumber("docs/p.md", once, values(MOVED))
    assert (again, changes, left) == (once, [], [])


def test_a_value_the_written_form_cannot_show_is_left_with_one_line() -> None:
    page = "It is 3{= a}, half{= b} and ½{= b}.\n"
    new, changes, left = tool.renumber("docs/p.md", page, everywhere(page, {"a": 3.125, "b": 0.6}))
    assert new == page and changes == []
    assert left == [  # each as the build says it
        "docs/p.md:1:7: 3 is written, 3.125 is computed now, bound to {= a}: a whole number quotes its "
        "value exactly: write ≈ or “about” before it to quote the value rounded, or show its decimals",
        "docs/p.md:1:15: half is written, 0.6 is computed now, bound to {= b}: renumber cannot write it "
        "in this form: edit it",
        "docs/p.md:1:29: ½ is written, 0.6 is computed now, bound to {= b}: renumber cannot write it in "
        "this form: edit it",
    ]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_the_command_rewrites_a_page_in_place_keeping_its_line_endings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, newline: str
) -> None:
    monkeypatch.chdir(tmp_path)
    site(tmp_path)
    page = tmp_path / "docs" / "p.md"
    page.write_bytes(MOVED.replace("\n", newline).encode())
    assert cli.main(["renumber"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "docs/p.md:13:21 0.5 → 0.6"
    text = page.read_bytes().decode()
    assert text.count(newline) == PAGE.count("\n") and ("\r\n" in text) == (newline == "\r\n")
    assert cli.main(["check"]) == 0
    assert [p.name for p in (tmp_path / "docs").iterdir()] == ["p.md"]  # no temporary file left


def test_a_page_that_cannot_be_read_stops_the_command_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    site(tmp_path)
    (tmp_path / "docs" / "p.md").write_bytes("It is 3{= a}, caf\xe9.\n".encode("latin-1"))
    assert cli.main(["renumber"]) == 1
    error = capsys.readouterr().err
    assert error == "docs/p.md:1:18: byte 0xe9 is not UTF-8; save the file as UTF-8\n"


def test_a_page_whose_code_fails_is_one_line_and_the_pages_after_it_are_still_renumbered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    site(tmp_path)
    (tmp_path / "docs" / "a.md").write_text(f'{F}python exec="1"\nassert False, "a pin"\n{F}\n')
    (tmp_path / "docs" / "b.md").write_text(MOVED)
    assert cli.main(["renumber"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("docs/a.md:2:") and error.count("\n") == 1
    assert cli.main(["renumber", "--check", "docs/b.md"]) == 0


def test_the_workbenchs_markdown_cells_are_renumbered_in_its_script_and_its_code_is_not() -> None:
    script = "# %% [markdown]\n# Of four{= n} rows.\n\n# %%\nn = 4  # four{= n}\n"
    new, changes, _ = tool.renumber("docs/w.py", script, everywhere(script, {"n": 5}, prose_of), prose_of)
    assert changes == ["docs/w.py:2:6 four → five"]
    assert new == script.replace("# Of four", "# Of five")


def test_a_fence_left_open_stops_renumber_before_it_writes_anything() -> None:
    page = "It is 3{= a}.\n\n```text\nnever closed\n\nAnd 4{= a}.\n"
    with pytest.raises(tool.RefusedError, match=r"^docs/p\.md:3:1: .*never closes"):  # where, and why
        tool.renumber("docs/p.md", page, everywhere(page, {"a": 5}))


PINS = """\
import pytest

pytestmark = pytest.mark.pins_page


def test_a_pin_that_still_holds():
    assert True


def test_a_pin_the_new_value_breaks():
    assert 3 == 4
"""


def test_the_command_ends_with_a_summary_of_what_it_rewrote_what_is_left_and_the_failing_pins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    pins_page: a pin\n")
    (tmp_path / "test_pins.py").write_text(PINS)
    site(tmp_path)
    (tmp_path / "docs" / "a.md").write_text(f'{F}python exec="1"\nassert False, "a pin"\n{F}\n')
    (tmp_path / "docs" / "b.md").write_text(MOVED)
    (tmp_path / "docs" / "c.md").write_text(MOVED.replace("n = 25", "n = 25\na = 3.5") + "\nIt is 3{= a}.\n")
    assert cli.main(["renumber", "--pins", "pins_page", "--pins-command", "nox -s pins"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[out.index("renumber: 8 numbers rewritten on 2 pages") :] == [
        "renumber: 8 numbers rewritten on 2 pages",
        "  to edit by hand (each said above):",
        "    docs/c.md:18:7",
        "  renumbered past a fence that fails (each said above; run again once it passes):",
        "    docs/a.md:2",
        "  pinned tests that fail now (give them the new values; `nox -s pins` runs them):",
        "    test_pins.py::test_a_pin_the_new_value_breaks",
    ]


def test_a_page_whose_pinned_fence_fails_is_renumbered_above_and_below_it_and_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a weight change a page's pinned test fails until a person edits it; the numbers
    below that fence once waited for the edit and a second renumber (issue 34, item 12)."""
    monkeypatch.chdir(tmp_path)
    site(tmp_path)
    pin = (
        f'\n{F}python exec="1" continuation\nassert q[2] == 0.5, "the pin"\n{F}\n\nBelow it, 0.5{{= q[2]}}.\n'
    )
    (tmp_path / "docs" / "p.md").write_text(MOVED.replace("The key's last", pin + "\nThe key's last"))
    assert cli.main(["renumber"]) == 1
    said = capsys.readouterr()
    assert "docs/p.md:17: a python fence failed at `assert q[2] == 0.5" in said.err
    assert said.out.splitlines()[-2:] == [
        "  renumbered past a fence that fails (each said above; run again once it passes):",
        "    docs/p.md:17",
    ]
    text = (tmp_path / "docs" / "p.md").read_text(encoding="utf-8")
    assert "slot 3: 0.6{= q[2]}" in text and "Below it, 0.6{= q[2]}" in text  # above the pin and below it


def test_a_page_whose_code_fails_with_a_long_message_is_one_short_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the contributors' page fails when a weight moved: its message joins every broken pin."""
    monkeypatch.chdir(tmp_path)
    site(tmp_path)
    fence = "failed = [f'tests/test_chapter.py::test_number_{k}_holds' for k in range(20)]\n"
    fence += 'assert not failed, ", ".join(failed)'
    (tmp_path / "docs" / "a.md").write_text(f'{F}python exec="1"\n{fence}\n{F}\n')
    assert cli.main(["renumber"]) == 1
    said = capsys.readouterr().err
    assert said.startswith(
        'docs/a.md:3: a python fence failed at `assert not failed, ", ".join(failed)`: '
        "AssertionError: tests/test_chapter.py::test_number_0_holds, "
    )
    assert said.endswith(" … (the build prints the rest)\n") and said.count("\n") == 1 and len(said) < 360


def test_a_run_with_nothing_moved_and_nothing_left_exits_0_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    site(tmp_path)
    (tmp_path / "docs" / "p.md").write_text(PAGE)
    assert cli.main(["renumber"]) == 0
    assert capsys.readouterr().out == "renumber: 0 numbers rewritten on 0 pages\n"


def test_the_check_command_prints_each_problem_as_the_build_says_it_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    page = site(tmp_path) / "p.md"
    page.write_text(MOVED)
    assert cli.main(["check"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "docs/p.md:13:21: 0.5 is written, 0.6 is computed now, bound to {= q}",
        "docs/p.md:13:43: 0.5 is written, 0.6 is computed now, bound to {= q[2]}",
        "docs/p.md:13:70: 0.125 is written, 0.150 is computed now, bound to {= q[2] * k[2]}",
        "docs/p.md:14:1: Sixteen is written, Twenty-five is computed now, bound to {= n}",
    ]
    assert page.read_text() == MOVED
