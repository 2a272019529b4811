"""The build's side of a page's process: `run_page` starts the page in a process of its own
(`runner`), hands it the page, and hears what it reports, holding each step to the time limit.

One runner serves the build (the plugin hands its blocks to markdown-exec to show), the number
check, the tests and any tool that needs a page's outputs without mkdocs. Each page runs in a
process of its own, started afresh with the build's environment and working directory: a fence
that changes a module, `os.environ` or the working directory changes nothing for the pages
after it, and the cache can trust that a page's outputs follow from its code.

The page goes to that process on its standard input with where the prose binds each expression
(line and column, read here), so the page's process reads no prose. Its reports come back on a
pipe of its own, one JSON line per event (`runner` says which); they are read in time linear in
their size, and each fence, and each binding, is held to the time limit from its start while
output flows. A process that dies, hangs, writes on the pipe what is no report or sends more
than a page can is a `FenceError` naming where it was.
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
from collections.abc import Iterable, Mapping
from typing import Any

from attend_book import processes
from attend_book.inputs import Read
from attend_book.page import LOST, OUTPUT_LIMIT, TIME_LIMIT, FenceError, PageRun, Place, blocks_of
from bound_numbers.reading import read


def run_page(
    path: str,
    markdown: str,
    expressions: Iterable[str] = (),
    *,
    limit: float = TIME_LIMIT,
    most: int = OUTPUT_LIMIT,
    environment: Mapping[str, str] | None = None,
    folder: str | None = None,
) -> PageRun:
    """Every executed fence of a page, run in page order in a fresh process of its own, with
    `environment` (default: this process's) in `folder` (default: this working directory); then
    each of `expressions` evaluated in the namespace they left.

    Nothing another page did can reach that process; `path` names the page in errors. A fence
    that runs past `limit` seconds, prints past `most` characters (the page's fences together),
    ends the process or leaves a process running is a `FenceError` naming its line. The process
    is in a session of its own, so that Ctrl-C stops the build, which then ends the page's
    process and all it started. (Measured: starting each page's process one page ahead, its
    modules loaded while the page before it ran, saved no time the noise of a two-core machine
    did not hide.)
    """
    reports, writing = os.pipe()
    try:
        process = subprocess.Popen(  # -P: the page's folder is not on its sys.path
            (sys.executable, "-P", "-m", "attend_book.runner", str(writing)),
            stdin=subprocess.PIPE,
            stdout=2,  # what a fence writes past Python (a child process's output): the log
            pass_fds=(writing,),
            env=environment,
            cwd=folder,
            start_new_session=True,
        )
    except BaseException:
        os.close(reports)
        raise
    finally:
        os.close(writing)
    with process:
        assert process.stdin is not None
        try:
            with contextlib.suppress(BrokenPipeError):  # it died at start: told below
                wanted = [*expressions]
                places = {e: place for e, place in places_of(markdown).items() if e in wanted}
                page = [path, markdown, wanted, places, most]
                process.stdin.write(json.dumps(page).encode())
                process.stdin.close()
            return _heard(reports, process, path, markdown, limit, most)
        finally:  # everything below the page's process, then its session, then the pipe
            try:
                processes.end_below(process.pid)
            finally:  # whatever the search met: else leaving `with` would wait on the holder for ever
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                os.close(reports)


def _heard(
    reports: int, process: subprocess.Popen[bytes], path: str, markdown: str, limit: float, most: int
) -> PageRun:
    """The page's run as its process reports it on the pipe `reports`: each line is read once,
    however it arrives, and each fence has `limit` seconds from its start."""
    where = f"{path}:1: the page's process"
    deadline = time.monotonic() + limit
    longest = 8 * most + (1 << 20)  # a report of `most` characters, escaped, and the values
    line = bytearray()  # a report still being written
    while (left := deadline - time.monotonic()) > 0 and select.select([reports], [], [], left)[0]:
        if not (chunk := os.read(reports, 1 << 16)):  # the holder too is gone: killed outright
            raise FenceError(f"{where} ended the page's process (exit status {process.wait()})")
        *ends, rest = chunk.split(b"\n")
        for end in ends:
            event = _event(bytes(line + end), where)
            line.clear()
            if "failed" in event:
                raise FenceError(event["failed"])
            if "values" in event:
                return PageRun(blocks_of(markdown, event["blocks"]), event["values"], Read.of(event["read"]))
            if "gone" in event:
                raise FenceError(f"{where} {_ended(event['gone'])}")
            where, deadline = event["at"], time.monotonic() + limit
        line += rest
        if len(line) > longest:
            raise FenceError(f"{where} sent the build a report of more than {longest >> 20} MB")
    raise FenceError(
        f"{where} ran past the time limit of {limit:g} seconds (`time_limit` under attend-book in mkdocs.yml)"
    )


def _ended(status: int) -> str:
    """How the runner ended, said as what the fence it was in did."""
    if status == LOST:
        return "closed the pipe the page's process reports on (a page's code may close only what it opened)"
    return f"ended the page's process (exit status {status})"


def _event(line: bytes, where: str) -> dict[str, Any]:
    """One report, or a `FenceError` if it is not one: something wrote on the page's pipe."""
    try:
        event = json.loads(line)
    except ValueError:
        event = None
    if not isinstance(event, dict) or not {"at", "failed", "values", "gone"} & event.keys():
        raise FenceError(f"{where} wrote on the page's report pipe: {line[:60]!r}")
    return event


def places_of(markdown: str) -> dict[str, Place]:
    """Where the page's prose first binds a number to each expression: what a report names when
    evaluating that binding hangs or ends the page's process."""
    return {
        b.expression: (b.numerals[0].line, b.numerals[0].column + 1)
        for b in reversed(read(markdown).bindings)
    }
