"""The built-in provider, `values: fences`: a page's own python fences give its numbers' values.

A site that shows its code with markdown-exec has no runner of its own to ask. This provider
takes the python fences of a page that markdown-exec would execute (`exec="on"`, or any other
value markdown-exec reads as true; every fence of a language MARKDOWN_EXEC_AUTO names), runs
them in page order in one namespace, and then evaluates each bound expression there. Unlike
markdown-exec, whose fences share names only through a `session`, the page's fences share one
namespace whatever their session: a number in the prose may quote any of them.

They run in a fresh Python process, this module (`python -P -m bound_numbers.fences`), handed
the page on standard input and reporting on its standard output, one JSON line per step: a
fence that changes a module, the working directory or the environment changes nothing for the
build or the next page, and a page that hangs, exits or dies is stopped and named in one line
(`Unavailable`) instead of stopping the build. What a fence prints is dropped: markdown-exec
shows it. `-P` keeps the working directory off the page's import path, as it is off the
build's, so that a page imports here what markdown-exec's fences import in the build.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import traceback
import types
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bound_numbers.evaluation import evaluate, said
from bound_numbers.values import Unavailable, Value

if TYPE_CHECKING:
    from bound_numbers.markdown import Fence

TIME_LIMIT = 30.0  # seconds a page's fences and bindings may take together, unless configured
PYTHON = frozenset({"python", "py"})  # the languages markdown-exec runs as Python
ENDING = 1.0  # seconds the page's process has to hand its report over once it is stopped
# What a page's process reports with, taken before any fence runs: a fence that replaces
# json.dumps or os.write changes nothing of how its page is reported.
_ENCODE = json.JSONEncoder().encode
_WRITE, _EXIT = os.write, os._exit
LOST = 113  # how the page's process exits when a fence closed what it reports on


def runs(fence: Fence, auto: Iterable[str] | None = None) -> bool:
    """Whether markdown-exec executes this fence as Python: its language is python or py, and
    `exec` is set to a value it reads as true, or the language is one it executes unasked
    (`auto`, default: the MARKDOWN_EXEC_AUTO environment variable, comma-separated)."""
    if auto is None:
        auto = os.environ.get("MARKDOWN_EXEC_AUTO", "").split(",")
    automatic = fence.language in {language.strip() for language in auto}
    return fence.language in PYTHON and (automatic or fence.switched_on("exec"))


class FenceValues:
    """The provider: each page's executed python fences run in a process of its own, with at
    most `time_limit` seconds for all its fences and bindings, in `folder` (default: the build's
    working directory, where markdown-exec runs them too)."""

    def __init__(self, time_limit: float = TIME_LIMIT, folder: str | Path | None = None) -> None:
        self.time_limit = time_limit
        self.folder = folder

    def bound_values(self, page: str, markdown: str, expressions: Sequence[str]) -> Mapping[str, Value]:
        """Each expression's value after the page's fences ran, or the one-line reason it has
        none; `Unavailable` if a fence failed, or the page ran past the time limit or died."""
        from bound_numbers.markdown import fences  # here, not above: the page's process never reads
        # Markdown, and the reader's imports would add 60 ms to every page's start

        ran = [(f.line, f.body, f.options.get("workdir")) for f in fences(markdown) if runs(f)]
        if not ran and not expressions:
            return {}
        given = json.dumps({"page": page, "fences": ran, "expressions": list(expressions)})
        try:
            process = subprocess.Popen(
                (sys.executable, "-P", "-m", __name__),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=self.folder,
                start_new_session=True,  # so that what the page started ends with it
            )
        except OSError as error:  # no such folder, no process left to start
            raise Unavailable(f"{page}:1: the page's process cannot start: {said(error)}") from None
        with process:
            try:
                reported, _ = process.communicate(given.encode(), timeout=self.time_limit)
                late = False
            except subprocess.TimeoutExpired:
                _end(process)
                reported, late = _rest(process), True
            finally:
                _end(process)
        return _heard(reported, page, late, process.returncode, self.time_limit)


def _end(process: subprocess.Popen[bytes]) -> None:
    """End the page's process and everything it started in its session."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def _rest(process: subprocess.Popen[bytes]) -> bytes:
    """What the stopped process reported before it was stopped: a copy of it a fence detached
    may keep its pipe open, so this waits a moment, not for the pipe's end."""
    try:
        return process.communicate(timeout=ENDING)[0]
    except subprocess.TimeoutExpired as error:
        return error.output or b""


def _heard(reported: bytes, page: str, late: bool, status: int | None, limit: float) -> dict[str, Value]:
    """The values the page's process reported last, or `Unavailable` saying how it ended."""
    where = f"{page}:1: the page's process"
    for line in reported.splitlines():
        with contextlib.suppress(ValueError):  # a line cut short by the process's end
            event = json.loads(line)
            if isinstance(event, dict) and "values" in event:
                return dict(event["values"])
            if isinstance(event, dict) and "failed" in event:
                raise Unavailable(str(event["failed"]))
            if isinstance(event, dict) and "at" in event:
                where = str(event["at"])
    if late:
        raise Unavailable(
            f"{where} ran past the time limit of {limit:g} seconds (`time_limit` under bound-numbers)"
        )
    raise Unavailable(f"{where} ended the page's process (exit status {status})")


def run_fence(page: str, line: int, body: str, namespace: dict[str, Any]) -> str | None:
    """Run one fence (its opening line `line`) in the namespace: None, or the one line that says
    where it failed and what it raised."""
    name = f"<{page}:{line}>"
    try:
        exec(compile(body, name, "exec"), namespace)
    except BaseException as error:  # exit() and Ctrl-C too: the page failed, not the build
        if isinstance(error, SyntaxError) and error.filename == name:
            inside = error.lineno or 1
        else:
            frames = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == name]
            inside = (frames or [1])[-1] or 1
        lines = body.splitlines() or [""]
        inside = min(inside, len(lines))  # a SyntaxError may point past the last line
        failing = lines[inside - 1].strip()
        shown = failing if len(failing) <= 60 else f"{failing[:59]}…"
        stopped = " (a page's code may not end its process)" if isinstance(error, SystemExit) else ""
        return f"{page}:{line + inside}: a python fence failed at `{shown}`: {said(error)}{stopped}"
    return None


def run_page(page: str, ran: list[tuple[int, str, str | None]], expressions: list[str], report: int) -> None:
    """The page's process: each fence in order in one namespace (in its `workdir`, if it names
    one, as markdown-exec runs it), then each expression; each step and the end reported."""

    def send(event: dict[str, Any]) -> None:
        try:
            _WRITE(report, (_ENCODE(event) + "\n").encode())
        except OSError:  # a fence closed the report's descriptor: the parent says the process ended
            _EXIT(LOST)

    page_module = types.ModuleType("__bound_page__")
    sys.modules[page_module.__name__] = page_module  # so classes a fence defines know their module
    namespace = page_module.__dict__
    for line, body, workdir in ran:
        send({"at": f"{page}:{line}: this python fence"})
        try:
            with contextlib.chdir(workdir or "."):
                failed = run_fence(page, line, body, namespace)
        except OSError as error:  # the folder it names is not there
            failed = f"{page}:{line}: this python fence's workdir cannot be entered: {said(error)}"
        if failed:
            send({"failed": failed})
            return
    values: dict[str, Value] = {}
    for expression in expressions:
        send({"at": f"{page}: the binding {{= {expression}}}"})
        values |= evaluate([expression], namespace)
    send({"values": values})


def main() -> None:
    """Read the page from standard input; report on what was standard output, which the page's
    fences never see (theirs is the null device, their standard input closed)."""
    report = os.dup(1)  # not inherited by what a fence starts
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 1)
    page = "a page"
    try:
        given = json.load(sys.stdin)
        os.dup2(quiet, 0)  # a fence that reads its input reads nothing, and waits for nothing
        page = given["page"]
        run_page(page, given["fences"], given["expressions"], report)
    except BaseException as error:  # never a traceback in the build's log
        failed = {"failed": f"{page}:1: the page's process failed: {said(error)}"}
        with contextlib.suppress(OSError):
            _WRITE(report, (_ENCODE(failed) + "\n").encode())
    _EXIT(0)  # nothing a fence registered to run at exit runs, nor waits


if __name__ == "__main__":
    main()
