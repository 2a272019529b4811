"""Every `$ attend …` transcript on a page is the real command's output."""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest
from tree import pages

from attend.book.cli import parser
from attend_book.execution import run_transcript
from attend_book.page import commands
from bound_numbers import Page, Unavailable

COMMANDS = sorted(
    {
        command.text
        for page in pages()
        for fence in Page(page.name, page.read_text(encoding="utf-8")).fences
        if fence.language == "console"
        for command in commands(fence.body)
    }
)


def test_the_book_runs_every_mode_of_the_command() -> None:
    modes = {shlex.split(c)[1] for c in COMMANDS}
    [subcommands] = [a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert modes == set(subcommands.choices)
    assert {
        "attend scale --widths 64,96,128,160,192",
        "attend cost --lengths 4,8,16,32,64,128,256,512,1024,2048,4096",
    } <= set(COMMANDS)


@pytest.fixture(scope="module")
def installed() -> dict[str, str]:
    """Each command's output from the installed `attend` script, run in parallel."""
    attend = shutil.which("attend")
    assert attend is not None, "the attend command is not installed"

    def run(command: str) -> str:
        done = subprocess.run([attend, *shlex.split(command)[1:]], capture_output=True, text=True, check=True)
        return done.stdout

    with ThreadPoolExecutor(max_workers=8) as pool:
        return dict(zip(COMMANDS, pool.map(run, COMMANDS), strict=True))


@pytest.mark.parametrize("command", COMMANDS)
def test_a_transcript_shows_what_the_installed_command_prints(
    command: str, installed: dict[str, str]
) -> None:
    assert run_transcript(f"$ {command}") == installed[command]


def test_a_transcript_may_run_nothing_but_attend() -> None:
    with pytest.raises(Unavailable, match="may only run `attend`"):
        run_transcript("$ rm -rf /tmp/nothing-here")


def test_a_transcript_whose_command_fails_stops_the_build() -> None:
    with pytest.raises(Unavailable, match="exited with status 2"):
        run_transcript("$ attend cost --lengths 0")
