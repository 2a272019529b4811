"""A page's own process: started by the build (`run.run_page`) as `python -m attend_book.runner`,
it runs the page's fences (`execution`) and reports on a pipe, guarding the build against what
the page's code does to its process.

It reads the page from its standard input, then closes it, so a fence that reads from it
(`input()`) fails at once instead of waiting on a terminal. It imports nothing of mkdocs: a
page's code runs beside only what it needs. It reports to its parent on a pipe of its own,
kept at a high descriptor, one JSON line per event, written with references to `json` and
`os` taken before any fence runs, so nothing a fence prints, replaces or closes can pass for a
report: `{"at": WHERE}` as each fence starts and as each binding is evaluated, at the place
the build sent for it (the parent's clock for the time limit, and what it names if the process
dies or hangs there), then `PageRun.kept()` with the files it read (`inputs`) when all is done,
or `{"failed": MESSAGE}`.

The process is two: a holder, which adopts every process the page's code starts however it
detaches (`processes`), and under it the runner, which runs the page. The holder says how the
runner ended (`{"gone": STATUS}`) and stays until the build ends it and all below it, so
nothing a page started outlives its page. The runner fails a page that leaves a process
running, naming the fence it was first seen after, or that prints more than the most the build
allows, naming the fence that passed it; a copy of the runner (`os.fork()`) that runs on into
the page is stopped as it reaches the next fence.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from attend_book import inputs, processes
from attend_book.execution import run_here
from attend_book.page import LOST, FenceError, Place

# What a page's process reports with, taken before any fence runs: a fence that replaces
# json.dumps, os.write or os._exit changes nothing of how its page is reported.
_ENCODE = json.JSONEncoder().encode
_WRITE, _EXIT, _GETPID = os.write, os._exit, os.getpid
ENDING = 1.0  # seconds a process the page started may take to end after the page is done


class Channel:
    """The pipe a page's process reports on, moved to a descriptor high above those a program
    opens (which `os.closerange(3, 256)` leaves alone), not inherited by what a fence starts."""

    def __init__(self, descriptor: int) -> None:
        ceiling = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        high = min(ceiling if ceiling > 0 else 1024, 1024) - 1
        self.descriptor = fcntl.fcntl(descriptor, fcntl.F_DUPFD_CLOEXEC, high)
        os.close(descriptor)

    def send(self, event: dict[str, Any]) -> None:
        """Write one report whole; if the pipe is gone (closed by a fence, or the build ended),
        end this process with the status that says so, and nothing on the terminal."""
        data = memoryview((_ENCODE(event) + "\n").encode())
        try:
            while data:
                data = data[_WRITE(self.descriptor, data) :]
        except OSError:
            _EXIT(LOST)


class Room:
    """How many more characters a page may print, all its fences together, and what is done
    when a fence prints past them: in a page's process, `full` reports the fence and ends the
    process, so no `except` in the fence can let the output grow on."""

    def __init__(self, most: int, full: Callable[[], None]) -> None:
        self.left, self.full = most, full

    def printed(self) -> io.StringIO:
        """A new fence's output, counted against the room."""
        return _Counted(self)


class _Counted(io.StringIO):
    def __init__(self, room: Room) -> None:
        super().__init__()
        self.room = room

    def write(self, text: str) -> int:
        self.room.left -= len(text)
        if self.room.left < 0:
            self.room.full()
        return super().write(text)


def _hold(runner: int, build: int, channel: Channel) -> None:
    """The holder's part: say how the runner ended, then wait for the build to end this process
    and all below it; if the build is killed outright, end them itself."""
    threading.Thread(target=_end_with, args=(build,), daemon=True).start()
    status = os.waitpid(runner, 0)[1]
    channel.send({"gone": os.waitstatus_to_exitcode(status)})
    threading.Event().wait()


def _end_with(build: int) -> None:
    """End this process and all below it once `build`, its parent, is gone: a build killed
    outright leaves no page running on, past any time limit."""
    while os.getppid() == build:
        time.sleep(0.5)
    processes.end_below(os.getpid())
    os.killpg(0, signal.SIGKILL)


def _run(
    path: str, markdown: str, expressions: list[str], places: Mapping[str, Place], most: int, channel: Channel
) -> None:
    """The runner's part: run the page, report each step, and fail it for a process it leaves
    running (named by the fence it was first seen after) or output past `most` characters."""
    inputs.record()
    runner, holder = _GETPID(), os.getppid()
    where = f"{path}:1: the page's process"
    seen: dict[int, str] = {}  # each process below the holder, and the step it was first seen after

    def look() -> list[int]:
        running = [pid for pid in processes.below(holder) if pid != runner]
        for pid in running:
            seen.setdefault(pid, where)
        return running

    def report(event: dict[str, Any]) -> None:
        nonlocal where
        if _GETPID() != runner:  # a copy of the runner, forked by a fence, ran on into the page
            said = "forked the page's process (os.fork()) and the copy ran on into the page"
            channel.send({"failed": f"{where} {said}; a forked copy must end with os._exit()"})
            _EXIT(1)
        if "at" in event:
            look()
            where = event["at"]
        channel.send(event)

    def full() -> None:
        said = f"printed more than {most / (1 << 20):g} MB, the most one page may print (its fences together)"
        channel.send({"failed": f"{where} {said}"})
        _EXIT(1)

    try:
        ran = run_here(path, markdown, expressions, report, Room(most, full).printed, places)
        deadline = time.monotonic() + ENDING  # one ending as the page ends is not left running
        while (left := look()) and time.monotonic() < deadline:
            time.sleep(0.02)
        if left:
            started = seen[left[0]]
            ended = ", ".join(map(processes.named, left))
            raise FenceError(f"{started} left processes running when its page was done, now ended: {ended}")
        channel.send({**ran.kept(), "read": inputs.read()})
    except FenceError as error:
        channel.send({"failed": str(error)})
    _EXIT(0)


def main() -> None:
    """A page's own process: read the page, close standard input, keep the report pipe, adopt
    whatever the page starts; then the runner runs the page while this process holds on."""
    channel = Channel(int(sys.argv[1]))
    path, markdown, expressions, places, most = json.load(sys.stdin)
    sys.stdin.close()  # Python's reads fail; the descriptor, at its end, gives a child process nothing
    processes.adopt()
    build = os.getppid()
    if runner := os.fork():
        _hold(runner, build, channel)
    else:
        _run(path, markdown, expressions, places, most, channel)


if __name__ == "__main__":
    main()
