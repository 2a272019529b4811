"""Renumber never loses an edit: a page saved while renumber ran keeps what was saved, and no
temporary file outlives a run, however it was ended."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from bound_numbers import Asked, Sources, Value, check, text
from bound_numbers import Page as Source
from bound_numbers.declared import Declared
from bound_numbers.renumber import Page, renumber_pages

PAGE = "# P\n\nThe total is 3{= total}.\n"
SAVED = "A paragraph saved while renumber ran.\n"


class Saving:
    """A provider whose page's code takes a while, during which a person saves the page."""

    def __init__(self, page: Path) -> None:
        self.page = page

    def bound_values(self, page: Source, asked: Sequence[Asked]) -> Mapping[Asked, Value]:
        self.page.write_text(self.page.read_text(encoding="utf-8") + SAVED, encoding="utf-8")
        return {a: 4 for a in asked}

    def bound_sources(self) -> Sources:
        return {}


def test_a_page_saved_while_renumber_ran_keeps_the_edit_is_named_and_fails_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "p.md"
    page.write_text(PAGE, encoding="utf-8")
    status = renumber_pages([Page(page, "docs/p.md")], Saving(page), Declared(), check.check)
    assert page.read_text(encoding="utf-8") == PAGE + SAVED
    said = capsys.readouterr()
    assert status == 1
    assert said.err == (
        "docs/p.md: changed while renumber ran, so nothing was written and the edit saved meanwhile is "
        "kept: run renumber again\n"
    )
    assert "not renumbered" in said.out and [p.name for p in tmp_path.iterdir()] == ["p.md"]


class Given:
    """A provider that gives every binding one value."""

    def __init__(self, value: Value) -> None:
        self.value = value

    def bound_values(self, page: Source, asked: Sequence[Asked]) -> Mapping[Asked, Value]:
        return {a: self.value for a in asked}

    def bound_sources(self) -> Sources:
        return {}


def test_the_numbers_left_to_edit_by_hand_are_listed_once_each_by_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three numbers of one line that renumber cannot write were one `page:line` three times."""
    page = tmp_path / "p.md"
    page.write_text("Of 3{= a}, 4{= a} or 5{= a} rows.\n", encoding="utf-8")
    assert renumber_pages([Page(page, "docs/p.md")], Given(3.5), Declared(), check.check) == 1
    summary = capsys.readouterr().out.split("renumber: ")[1].splitlines()
    assert summary == [
        "0 numbers rewritten on 0 pages",
        "  to edit by hand (each said above):",
        *("    docs/p.md:1:4", "    docs/p.md:1:12", "    docs/p.md:1:22"),
    ]


def test_an_edit_saved_in_the_last_moment_before_the_rename_is_kept_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "p.md"
    page.write_text(PAGE, encoding="utf-8")
    fsync = os.fsync

    def save_then_sync(descriptor: int) -> None:
        page.write_text(PAGE + SAVED, encoding="utf-8")
        fsync(descriptor)

    monkeypatch.setattr(os, "fsync", save_then_sync)
    with pytest.raises(text.ChangedError):
        text.write_atomic(page, PAGE.replace("3", "4"), was=PAGE.encode())
    assert page.read_text(encoding="utf-8") == PAGE + SAVED
    assert [p.name for p in tmp_path.iterdir()] == ["p.md"]


# A process that rewrites `page` and is sent `SIGNAL` by itself while the new text is being written.
KILLED = """
import os, signal, sys
from pathlib import Path
from bound_numbers import text
page, sent = Path(sys.argv[1]), getattr(signal, sys.argv[2])
sync = os.fsync
def interrupted(descriptor):
    os.kill(os.getpid(), sent)
    sync(descriptor)
os.fsync = interrupted
text.write_atomic(page, page.read_text().replace("3", "4"))
"""


def _killed_while_writing(page: Path, sent: str) -> int:
    done = subprocess.run([sys.executable, "-c", KILLED, str(page), sent], capture_output=True, check=False)
    return done.returncode


@pytest.mark.parametrize("sent", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_signal_while_a_page_is_written_ends_the_run_after_it_with_no_temporary_file_left(
    tmp_path: Path, sent: str
) -> None:
    page = tmp_path / "p.md"
    page.write_text(PAGE, encoding="utf-8")
    status = _killed_while_writing(page, sent)
    assert status != 0  # the signal ended the process, once the page was whole
    assert page.read_text(encoding="utf-8") == PAGE.replace("3", "4")
    assert [p.name for p in tmp_path.iterdir()] == ["p.md"]


def test_what_sigkill_left_beside_a_page_is_removed_by_the_next_rewrite_and_a_live_ones_is_not(
    tmp_path: Path,
) -> None:
    page = tmp_path / "p.md"
    page.write_text(PAGE, encoding="utf-8")
    assert _killed_while_writing(page, "SIGKILL") == -signal.SIGKILL
    [left] = [p.name for p in tmp_path.iterdir() if p.name != "p.md"]
    assert left.startswith(".p.md.") and left.endswith(".tmp")  # hidden: mkdocs never publishes it
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as alive:
        living = tmp_path / f".p.md.{alive.pid}-writing.tmp"
        living.write_text("another run, writing now", encoding="utf-8")
        text.write_atomic(page, PAGE.replace("3", "5"))
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["p.md", living.name])
        alive.kill()
    assert page.read_text(encoding="utf-8") == PAGE.replace("3", "5")


def test_the_renumber_command_ends_cleanly_on_sigterm_between_pages(tmp_path: Path) -> None:
    """SIGTERM outside a write ends the command at once: nothing half-written, nothing beside."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(3):
        (docs / f"p{n}.md").write_text(PAGE, encoding="utf-8")
    script = textwrap.dedent(
        f"""
        import os, signal
        from pathlib import Path
        from bound_numbers import check
        from bound_numbers.declared import Declared
        from bound_numbers.renumber import Page, renumber_pages
        class Stopping:
            calls = 0
            def bound_values(self, page, asked):
                self.calls += 1
                if self.calls == 2:
                    os.kill(os.getpid(), signal.SIGTERM)
                return {{a: 4 for a in asked}}
        pages = [Page(p, p.name) for p in sorted(Path({str(docs)!r}).glob("*.md"))]
        renumber_pages(pages, Stopping(), Declared(), check.check)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, check=False)
    assert done.returncode == -signal.SIGTERM
    texts = [(docs / f"p{n}.md").read_text(encoding="utf-8") for n in range(3)]
    assert texts == [PAGE.replace("3", "4"), PAGE, PAGE]
    assert sorted(p.name for p in docs.iterdir()) == ["p0.md", "p1.md", "p2.md"]
