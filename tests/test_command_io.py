"""The command as a real process, where the output cannot be written or cannot hold a √.

A closed standard output and a full disk are I/O failures: one line on stderr, status 1.
A terminal whose encoding has no √ gets "sqrt" instead, and every other character it
cannot show as "?", rather than a UnicodeEncodeError.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ATTEND = [sys.executable, "-m", "attend"]
RUNS = [["embeddings"], ["cost"], ["scores", "--help"], ["--help"], ["--version"]]


def one_line(stderr: str) -> bool:
    return stderr.startswith("attend: ") and stderr.count("\n") == 1 and "Traceback" not in stderr


@pytest.mark.parametrize("argv", RUNS, ids=" ".join)
def test_a_closed_standard_output_is_one_line_and_status_1(argv: list[str]) -> None:
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", *ATTEND, *argv],
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert one_line(done.stderr) and "standard output is closed" in done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("argv", RUNS, ids=" ".join)
def test_a_full_disk_is_one_line_and_status_1(argv: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([*ATTEND, *argv], stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert done.returncode == 1, done.stderr
    assert one_line(done.stderr) and "No space left on device" in done.stderr


def test_a_reader_who_stops_reading_ends_the_run_quietly() -> None:
    # `true` exits without reading, so the command's write meets a broken pipe
    done = subprocess.run(
        ["bash", "-c", 'set -o pipefail; "$@" | true', "bash", *ATTEND, "cost"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stderr == ""


@pytest.mark.parametrize("encoding", ["latin-1", "ascii", "cp1252"])
@pytest.mark.parametrize(
    "argv",
    [["--help"], ["scores", "--help"], ["square", "--help"], ["embeddings"], ["scores"], ["cost"]],
    ids=" ".join,
)
def test_a_terminal_without_utf_8_gets_every_table_and_help(encoding: str, argv: list[str]) -> None:
    done = subprocess.run(
        [*ATTEND, *argv],
        capture_output=True,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": encoding},
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    text = done.stdout.decode(encoding)
    if argv[-1] == "--help" and argv[0] in ("scores", "square"):
        assert "leave the scaling by 1/sqrt d_k off" in text


@pytest.mark.parametrize("encoding", ["latin-1", "ascii", "cp1252"])
def test_a_refusal_naming_a_character_the_terminal_lacks_is_still_one_line(encoding: str) -> None:
    done = subprocess.run(
        [*ATTEND, "cost", "--lengths", "４"],
        capture_output=True,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": encoding},
    )
    assert done.returncode == 2
    assert one_line(done.stderr.decode(encoding))


# The command with its table work held open: it says so on stdout, then waits for the signal.
# Holding the work, rather than racing a real heavy row, puts the interrupt inside `main`'s
# work on every run, however busy the machine is.
HELD = """
import dataclasses, sys, time
from attend.book import cli, registry

def held(*args, **kwargs):
    print("working", flush=True)
    time.sleep(60)

modes = registry.modes()
modes["cost"] = dataclasses.replace(modes["cost"], table=held)
sys.exit(cli.main(["cost"]))
"""


def test_an_interrupted_run_says_so_in_one_line_without_a_traceback() -> None:
    run = subprocess.Popen(
        [sys.executable, "-c", HELD],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # as a terminal starts it: a job started in the background (CI's streams) ignores
        # Ctrl-C, and a child inherits that, so Ctrl-C is given back its default first
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert run.stdout is not None and run.stdout.readline() == "working\n"
    run.send_signal(signal.SIGINT)
    _, stderr = run.communicate(timeout=60)
    assert (run.returncode, stderr) == (130, "attend: interrupted\n")


@pytest.mark.parametrize("stderr", ["closed", "/dev/full"])
def test_a_usage_error_with_nowhere_to_say_it_still_exits_2(stderr: str) -> None:
    if stderr == "/dev/full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    redirect = "2>&-" if stderr == "closed" else "2>/dev/full"
    done = subprocess.run(
        ["sh", "-c", f'"$@" {redirect}', "sh", *ATTEND, "cost", "--lengths", "x"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
