"""The runner: a page's executed fences run in order, each one's printed text kept as a `Block`.

One runner serves the build (the plugin hands its blocks to markdown-exec to show), the number
check, the tests and any tool that needs a page's outputs without mkdocs: `run_page`.

Each page runs in a process of its own (`attend_book.worker`, which says how each kind of fence
runs), started afresh with the build's environment and working directory and no standard
input: a fence that changes a module, `os.environ` or the working directory changes nothing
for the pages after it, and the cache can trust that a page's outputs follow from its code.
A fence that raises, ends its process or runs past the time limit stops its page with a
`FenceError` naming the page and the fence's line. After the last fence, each expression the
prose binds a number to is evaluated in the page's namespace: its value, or why it has none.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import IO, Any

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException  # type: ignore[import-untyped]

from attend_book.markdown import Fence, fences

LANGUAGES = {"python": "python", "py": "python", "console": "console"}
# How long one fence may run, in seconds, unless mkdocs.yml says otherwise (`time_limit` under
# attend-book). The slowest fence today takes under 2.5 s on a busy two-core machine.
TIME_LIMIT = 30.0


class FenceError(SuperFencesException, PluginError):  # type: ignore[misc]
    """A fence failed. A `PluginError`, so mkdocs stops with this message and no traceback; a
    `SuperFencesException`, because SuperFences renders any other error as plain text."""


@dataclass(frozen=True)
class Block:
    """One executed fence: its kind, the line it opens on, and what the reader sees under it."""

    kind: str  # "python" or "console"
    line: int  # 1-based line of the opening mark in the .md file
    text: str  # what it printed (for a transcript, the commands' output without the prompts)
    code: str = ""  # the fence's body, as the page writes it
    html: bool = False  # printed straight into the page (a figure), not shown as text
    data: str | None = None  # a figure's plotted numbers, as text


# What a binding's expression evaluated to, kept as JSON keeps it: a number, a (nested) list of
# numbers, or the one-line reason it has no value (a string).
Value = float | int | list["Value"] | str


@dataclass(frozen=True)
class PageRun:
    """A page's executed fences, and the value of each expression its prose binds a number to."""

    blocks: list[Block]
    values: dict[str, Value]

    def kept(self) -> dict[str, Any]:
        """What a page's process reports and the cache keeps: what each fence printed and the
        values; the rest is the page's own (`blocks_of`)."""
        return {"blocks": [{"text": b.text, "data": b.data} for b in self.blocks], "values": self.values}


def executed(fence: Fence) -> bool:
    """Whether the build runs this fence: marked to execute, in a language the book runs."""
    return fence.executed and fence.language in LANGUAGES


def commands(transcript: str) -> list[str]:
    """The commands of a transcript: each line after a `$ ` prompt, prompt removed."""
    return [line[2:] for line in transcript.splitlines() if line.startswith("$ ")]


def blocks_of(markdown: str, made: list[dict[str, Any]]) -> list[Block]:
    """The page's blocks from what each executed fence printed (`text`, `data`), in page order."""
    ran = [f for f in fences(markdown) if executed(f)]
    return [
        Block(LANGUAGES[f.language], f.line, m["text"], f.body, f.switched_on("html"), m["data"])
        for f, m in zip(ran, made, strict=True)
    ]


@dataclass(frozen=True)
class Processes:
    """Starts the processes pages run in, each with `environment` (default: this process's) in
    `folder` (default: this one's working directory), one fresh process for every page.

    Measured: starting each page's process one page ahead, with numpy, the package and the
    figures loaded while the page before it ran, saved no time the noise of a two-core machine
    did not hide, so a process starts when its page needs it."""

    environment: Mapping[str, str] | None = None
    folder: str | None = None

    def start(self) -> subprocess.Popen[str]:
        """A process for one page, reading it from its standard input; in a session of its own,
        so that Ctrl-C stops the build, which then ends the page's process and all it started."""
        command = (sys.executable, "-P", "-m", "attend_book.worker")  # -P: its folder is not on sys.path
        pipe = subprocess.PIPE
        return subprocess.Popen(
            command,
            stdin=pipe,
            stdout=pipe,
            env=self.environment,
            cwd=self.folder,
            start_new_session=True,
            encoding="utf-8",
        )


def run_page(
    path: str,
    markdown: str,
    expressions: Iterable[str] = (),
    *,
    limit: float = TIME_LIMIT,
    processes: Processes | None = None,
) -> PageRun:
    """Every executed fence of a page, run in page order in a fresh process of its own
    (`attend_book.worker`, from `processes`), then each of `expressions` evaluated in the
    namespace they left.

    Nothing another page did can reach that process; `path` names the page in errors. A fence
    that runs past `limit` seconds, or ends the process, is a `FenceError` naming its line.
    """
    request = json.dumps({"path": path, "markdown": markdown, "expressions": list(expressions)})
    events: queue.Queue[dict[str, Any] | None] = queue.Queue()
    where = f"{path}:1: the page's process"
    with (processes or Processes()).start() as process:
        assert process.stdin is not None and process.stdout is not None
        threading.Thread(target=_relay, args=(process.stdout, events), daemon=True).start()
        try:
            with contextlib.suppress(BrokenPipeError):  # it died at start: told below
                process.stdin.write(request)
                process.stdin.close()
            while True:
                try:
                    event = events.get(timeout=limit)
                except queue.Empty:
                    raise FenceError(
                        f"{where} ran past the time limit of {limit:g} seconds "
                        "(`time_limit` under attend-book in mkdocs.yml)"
                    ) from None
                if event is None:
                    raise FenceError(f"{where} ended the page's process (exit status {process.wait()})")
                if "fence" in event:
                    where = f"{path}:{event['fence']}: this fence"
                elif "bindings" in event:
                    where = f"{path}:1: evaluating the prose's bindings"
                elif "failed" in event:
                    raise FenceError(event["failed"])
                else:
                    return PageRun(blocks_of(markdown, event["blocks"]), event["values"])
        finally:  # the page's process and whatever its fences started (its whole session)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)


def _relay(reports: IO[str], events: queue.Queue[dict[str, Any] | None]) -> None:
    """Each report line of a page's process as an event, then None when it ends."""
    for line in reports:
        events.put(json.loads(line))
    events.put(None)
