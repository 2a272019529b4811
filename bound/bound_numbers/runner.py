"""A page's own process: started by the build (`running.run`) as `python -P -m bound_numbers.runner
FD`, it runs the page's fences and evaluates its bindings, each at its stage (`plan`), and
reports on the descriptor FD, guarding the build against what the page's code does to its process.

It reads the plan from its standard input, then closes it, so a fence that reads from it
(`input()`) fails at once instead of waiting on a terminal. It imports nothing of mkdocs or the
Markdown reader: a page's code runs beside only what it needs. Its report channel is moved to a
descriptor high above those a program opens (`Channel`: 1023 under the usual limit of 1024), and
is not inherited by what a fence starts, so a fence that closes descriptors and opens a file
never gets the channel's number, and one that puts a file of its own at that number (`os.dup2`)
is named, nothing written into its file; reports are written with references to `json` and `os` taken
before any fence runs, so nothing a fence prints, replaces or closes can pass for a report. One
JSON line per event: `{"at": WHERE}` as each fence starts and as each binding is evaluated (the
build's clock for the time limit, and what it names if the process dies or hangs there), then
`{"values": […]}` once the bindings between two fences are evaluated, `{"fell": MESSAGE}` for
the first fence that fails (the page goes on past it), and at the end `{"done": …}` with what
each fence printed and what the executor keeps, or `{"failed": MESSAGE}` when the page cannot
go on.

The process is two: a holder, which adopts every process the page's code starts however it
detaches (`processes`), and under it the runner, which runs the page. The holder says how the
runner ended (`{"gone": STATUS}`) and stays until the build ends it and all below it, so
nothing a page started outlives its page. The runner fails a page that leaves a process
running, naming the fence it was first seen after, or that prints more than the most the build
allows, naming the fence that passed it; a copy of the runner (`os.fork()`) that runs on into
the page is stopped as it reaches the next step, and one that its fence ends (`sys.exit()`) or
fails in ends there with its own status, as in Python, reporting nothing.
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
from collections.abc import Callable
from typing import Any

from bound_numbers import processes
from bound_numbers.evaluation import said
from bound_numbers.executor import Executor, loaded, steps
from bound_numbers.page import Fence
from bound_numbers.values import Unavailable

# What a page's process reports with, taken before any fence runs: a fence that replaces
# json.dumps, os.write or os._exit changes nothing of how its page is reported.
_ENCODE = json.JSONEncoder().encode
_WRITE, _EXIT, _GETPID, _FSTAT = os.write, os._exit, os.getpid, os.fstat
LOST = 113  # how the runner exits when its channel is gone: closed by a fence, or the build ended
REPLACED = 114  # how it exits when a fence put a file of its own at the channel's number (dup2)
ENDING = 1.0  # seconds a process the page started may take to end after the page is done


class Channel:
    """The descriptor a page's process reports on, moved as high as the process may open one (at
    most 1023), which a program opening files never gets and `os.closerange(3, 256)` leaves
    alone, and not inherited by what a fence starts."""

    def __init__(self, descriptor: int) -> None:
        ceiling = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        high = min(ceiling if ceiling > 0 else 1024, 1024) - 1
        self.descriptor = fcntl.fcntl(descriptor, fcntl.F_DUPFD_CLOEXEC, high)
        os.close(descriptor)
        self.pipe = self.identity()

    def identity(self) -> tuple[int, int]:
        """What the descriptor refers to now (device and inode): a fence that puts a file of its
        own at the channel's number (`os.dup2(f.fileno(), 1023)`) changes it."""
        found = _FSTAT(self.descriptor)
        return found.st_dev, found.st_ino

    def send(self, event: dict[str, Any]) -> None:
        """Write one report whole; if the channel is gone (closed by a fence, or the build ended)
        or replaced by a file of the fence's, end this process with the status that says so,
        nothing on the terminal and nothing written into that file."""
        data = memoryview((_ENCODE(event) + "\n").encode())
        try:
            if self.identity() != self.pipe:
                _EXIT(REPLACED)
            while data:
                data = data[_WRITE(self.descriptor, data) :]
        except OSError:
            _EXIT(LOST)


class Room:
    """How many more characters a page may print, all its fences together, and what is done when
    a fence prints past them: `full` reports the fence and ends the process, so no `except` in
    the fence can let the output grow on."""

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


class _Page:
    """The runner's part: the page's steps in order, each reported as it starts."""

    def __init__(self, given: dict[str, Any], channel: Channel) -> None:
        self.path: str = given["page"]
        self.fences = [Fence.of_dict(fence) for fence in given["fences"]]
        self.points: list[list[Any]] = given["points"]  # stage, expression, where
        self.places: list[list[Any]] = given["places"]  # each fence as a binding names it
        self.executor: Executor = loaded(given["executor"])(self.path)
        self.most: int = given["most"]
        self.room = Room(self.most, self.full)
        self.channel = channel
        self.runner, self.holder = _GETPID(), os.getppid()
        self.where = f"{self.path}:1: the page's process"
        self.seen: dict[int, str] = {}  # each process below the holder, and the step it was first seen after

    def look(self) -> list[int]:
        running = [pid for pid in processes.below(self.holder) if pid != self.runner]
        for pid in running:
            self.seen.setdefault(pid, self.where)
        return running

    def at(self, where: str) -> None:
        if _GETPID() != self.runner:  # a copy of the runner, forked by a fence, ran on into the page
            said = "forked the page's process (os.fork()) and the copy ran on into the page"
            self.channel.send({"failed": f"{self.where} {said}; a forked copy must end with os._exit()"})
            _EXIT(1)
        self.look()
        self.where = where
        self.channel.send({"at": where})

    def fell(self, message: str) -> None:
        """A fence failed: reported, unless in a copy of the runner a fence forked, whose failure
        is its own: the copy ends there with status 1, as Python's would after a traceback."""
        if _GETPID() != self.runner:
            _EXIT(1)
        self.channel.send({"fell": message})

    def full(self) -> None:
        most = self.most / (1 << 20)
        said = f"printed more than {most:g} MB, the most one page may print (its fences together)"
        self.channel.send({"failed": f"{self.where} {said}"})
        _EXIT(1)

    def run(self) -> dict[str, Any]:
        """Every step of the page, then a look for what it left running; what it reports."""
        self.executor.start()
        printed = steps(
            self.executor,
            self.fences,
            self.points,
            at=self.at,
            evaluated=lambda values: self.channel.send({"values": values}),
            fell=self.fell,
            printed=self.room.printed,
            places=self.places,
        )
        deadline = time.monotonic() + ENDING  # one ending as the page ends is not left running
        while (left := self.look()) and time.monotonic() < deadline:
            time.sleep(0.02)
        if left:
            ended = ", ".join(map(processes.named, left))
            said = f"left processes running when its page was done, now ended: {ended}"
            raise Unavailable(f"{self.seen[left[0]]} {said}")
        return {"printed": printed, **self.executor.kept()}


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


def _run(given: dict[str, Any], channel: Channel) -> None:
    """The runner's part: the page's steps, then what they gave, or why they stopped."""
    page: _Page | None = None
    try:
        page = _Page(given, channel)
        channel.send({"done": page.run()})
    except Unavailable as error:
        channel.send({"failed": str(error)})
    except BaseException as error:  # never a traceback in the build's log
        if isinstance(error, SystemExit) and page and _GETPID() != page.runner:  # a forked copy's sys.exit()
            code = error.code
            _EXIT(code if isinstance(code, int) else int(code is not None))  # its status, as in Python
        where = page.where if page else f"{given.get('page', 'a page')}:1: the page's process"
        channel.send({"failed": f"{where} failed: {said(error)}"})
    _EXIT(0)  # nothing a fence registered to run at exit runs, nor waits


def main() -> None:
    """A page's own process: read the plan, close standard input, keep the channel, adopt
    whatever the page starts; then the runner runs the page while this process holds on."""
    channel = Channel(int(sys.argv[1]))
    given = json.load(sys.stdin)
    sys.stdin.close()  # Python's reads fail; the descriptor, at its end, gives a child process nothing
    processes.adopt()
    build = os.getppid()
    if runner := os.fork():
        _hold(runner, build, channel)
    else:
        _run(given, channel)


if __name__ == "__main__":
    main()
