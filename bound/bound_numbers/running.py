"""The build's side of a page's process: `run` starts the page in a process of its own
(`runner`), hands it the plan, and hears what it reports, holding each step to the time limit.

One runner serves every provider: the built-in one (`fences.FenceValues`) and a plugin that runs
its pages its own way, which names an `executor.Executor` of its own for what it runs beyond
markdown-exec's python fences and keeps beyond their output. Each page runs in a process of its
own, started afresh with the given environment and working directory: a fence that changes a
module, `os.environ` or the working directory changes nothing for the pages after it, and a
cache can trust that a page's outputs follow from its code.

The process reports on a pipe of its own, one JSON line per event (`runner` says which); the
lines are read in time linear in their size, and each fence, and each binding, is held to the
time limit from its start while output flows. A process that dies, hangs, writes on the pipe
what is no report, or sends more than a page can is `Unavailable`, naming where it was, with
the values of the bindings evaluated before.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bound_numbers import processes
from bound_numbers.evaluation import said
from bound_numbers.executor import Executor, steps
from bound_numbers.plan import Plan
from bound_numbers.runner import LOST, REPLACED
from bound_numbers.values import Unavailable, Value

TIME_LIMIT = 30.0  # seconds one fence (or one binding) may run, unless the provider says otherwise
# How many characters one page may print, all its fences together.
OUTPUT_LIMIT = 8 << 20
EXECUTOR = "bound_numbers.executor:Executor"  # markdown-exec's python fences, nothing more
SETTING = "`time_limit` under bound-numbers"  # what a page past the time limit is told to raise


@dataclass(frozen=True)
class Ran:
    """A page's run: what each fence of the plan printed, the value of each of its points (the
    asked values are `plan.values_of(ran.values)`), and what the executor kept beside them
    (`Executor.kept`)."""

    printed: tuple[str, ...]
    values: dict[int, Value]  # each point's, by its index in `plan.points`
    kept: Mapping[str, Any] = field(default_factory=dict)


def run(
    plan: Plan,
    *,
    executor: str = EXECUTOR,
    limit: float = TIME_LIMIT,
    most: int = OUTPUT_LIMIT,
    environment: Mapping[str, str] | None = None,
    folder: str | os.PathLike[str] | None = None,
    setting: str = SETTING,
) -> Ran:
    """The plan run in a fresh process of its own, with `environment` (default: this process's)
    in `folder` (default: this working directory), its fences by `executor` (`module:Class`).

    Nothing another page did can reach that process. A fence or binding that runs past `limit`
    seconds (`setting` is where that is set), a page that prints past `most` characters, ends
    the process or leaves a process running is `Unavailable`, naming its line. The process is in
    a session of its own, so that Ctrl-C stops the build, which then ends the page's process and
    all it started."""
    reports, writing = os.pipe()
    try:
        process = subprocess.Popen(  # -P: the page's folder is not on its sys.path
            (sys.executable, "-P", "-m", "bound_numbers.runner", str(writing)),
            stdin=subprocess.PIPE,
            stdout=2,  # what a fence writes past Python (a child process's output): the log
            pass_fds=(writing,),
            env=environment,
            cwd=folder,
            start_new_session=True,
        )
    except OSError as error:  # no such folder, no process left to start
        os.close(reports)
        raise Unavailable(f"{plan.page}:1: the page's process cannot start: {said(error)}") from None
    except BaseException:
        os.close(reports)
        raise
    finally:
        os.close(writing)
    with process:
        assert process.stdin is not None
        try:
            with contextlib.suppress(BrokenPipeError):  # it died at start: told below
                given = {**plan.given(), "executor": executor, "most": most}
                process.stdin.write(json.dumps(given).encode())
                process.stdin.close()
            return _heard(reports, process, plan, limit, most, setting)
        finally:  # everything below the page's process, then its session, then the pipe
            try:
                processes.end_below(process.pid)
            finally:  # whatever the search met: else leaving `with` would wait on the holder for ever
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                os.close(reports)


def run_here(plan: Plan, executor: Executor) -> Ran:
    """The plan run in this process by `executor`, with no time limit and nothing guarded: for a
    test that changes the package in its own process on purpose and runs a page under the change,
    or a page that runs a small page of its own as an example. The process's modules are left as
    they were (`Executor.close`). A fence that fails is `Unavailable`, with the values of the
    bindings above it."""
    heard = Heard(plan)
    given = plan.given()
    try:
        points, places = given["points"], given["places"]
        printed = steps(executor, plan.fences, points, evaluated=heard.value, fell=heard.fall, places=places)
    except Unavailable as error:
        raise heard.unavailable(str(error)) from None
    finally:
        executor.close()
    heard.done()
    return Ran(tuple(printed), heard.values)


class Heard:
    """What a page's run has said so far: the values of its points, those given after a fence
    that failed kept apart, and that fence's message."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.values: dict[int, Value] = {}
        self.after: dict[int, Value] = {}
        self.fell = ""  # the first fence that failed, said; "": none

    def value(self, found: list[tuple[int, Value]]) -> None:
        (self.after if self.fell else self.values).update(found)

    def fall(self, message: str) -> None:
        self.fell = self.fell or message

    def unavailable(self, message: str) -> Unavailable:
        """The page's failure: that of its first fence that failed, if one did, else `message`."""
        above, after = self.plan.values_of(self.values), self.plan.values_of(self.after)
        return Unavailable(self.fell or message, above, after)

    def done(self) -> None:
        """The run is over: `Unavailable` if a fence failed on the way."""
        if self.fell:
            raise self.unavailable(self.fell)


def _heard(
    reports: int, process: subprocess.Popen[bytes], plan: Plan, limit: float, most: int, setting: str
) -> Ran:
    """The page's run as its process reports it on the pipe `reports`: each line is read once,
    however it arrives, and each step has `limit` seconds from its start."""
    where = f"{plan.page}:1: the page's process"
    deadline = time.monotonic() + limit
    longest = 8 * most + (1 << 20)  # a report of `most` characters, escaped, and the values
    line = bytearray()  # a report still being written
    heard = Heard(plan)
    while (left := deadline - time.monotonic()) > 0 and select.select([reports], [], [], left)[0]:
        if not (chunk := os.read(reports, 1 << 16)):  # the holder too is gone: killed outright
            raise heard.unavailable(f"{where} ended the page's process (exit status {process.wait()})")
        *ends, rest = chunk.split(b"\n")
        for end in ends:
            event = _event(bytes(line + end), where)
            line.clear()
            if "values" in event:
                heard.value(event["values"])
            elif "fell" in event:
                heard.fall(event["fell"])
            elif "done" in event:
                heard.done()
                done = event["done"]
                return Ran(tuple(done.pop("printed")), heard.values, done)
            elif "at" in event:
                where, deadline = event["at"], time.monotonic() + limit
            else:
                raise heard.unavailable(
                    event["failed"] if "failed" in event else f"{where} {_ended(event['gone'])}"
                )
        line += rest
        if len(line) > longest:
            raise heard.unavailable(f"{where} sent the build a report of more than {longest >> 20} MB")
    raise heard.unavailable(f"{where} ran past the time limit of {limit:g} seconds ({setting})")


def _ended(status: int) -> str:
    """How the runner ended, said as what the step it was in did."""
    if status == LOST:
        return "closed the pipe the page's process reports on (a page's code may close only what it opened)"
    if status == REPLACED:
        return (
            "put a file of its own in place of the pipe the page's process reports on (os.dup2 onto its "
            "descriptor; a page's code may replace only what it opened)"
        )
    return f"ended the page's process (exit status {status})"


def _event(line: bytes, where: str) -> dict[str, Any]:
    """One report, or `Unavailable` if it is not one: something wrote on the page's pipe."""
    try:
        event = json.loads(line)
    except ValueError:
        event = None
    if not isinstance(event, dict) or not {"at", "values", "fell", "failed", "done", "gone"} & event.keys():
        raise Unavailable(f"{where} wrote on the page's report pipe: {line[:60]!r}")
    return event
