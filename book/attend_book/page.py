"""What both halves of a page's process agree on: which fences run, what a run gives back, how
a failure is said, and the limits a page is held to.

The build's side (`run`) and the page's own process (`runner`) both import this module, so it
imports nothing of mkdocs or its extensions: the page's process starts without them. The error a
page's code raises here is a plain exception carrying its one line; the plugin, which knows
mkdocs, logs it or raises mkdocs' own error where it must stop the build.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from typing import Any, NamedTuple

from attend_book.inputs import Read
from bound_numbers.markdown import Fence, fences
from bound_numbers.values import Value

LANGUAGES = {"python": "python", "py": "python", "console": "console"}
# How long one fence may run, in seconds, unless mkdocs.yml says otherwise (`time_limit` under
# attend-book). The slowest fence today takes under 2.5 s on a busy two-core machine.
TIME_LIMIT = 30.0
# How many characters one page may print, all its fences together. The book's largest page
# prints 71 thousand (its figures' HTML): this is over a hundred times that.
OUTPUT_LIMIT = 8 << 20
LOST = 113  # how the runner exits when its report pipe is gone: closed by a fence, or the build ended
# Where the prose first binds a number to an expression: its line and column, both from 1.
Place = tuple[int, int]


class FenceError(Exception):
    """A page's code failed, said in one line that names the page and the line: what the build
    logs for the page before going on to the next."""


class Block(NamedTuple):
    """One executed fence, as the page now writes it, and what the reader sees under it."""

    fence: Fence
    text: str  # what it printed (for a transcript, the commands' output without the prompts)


class PageRun(NamedTuple):
    """A page's executed fences, the value of each expression its prose binds a number to, and
    what its processes read (`inputs`), when it ran in a process of its own."""

    blocks: list[Block]
    values: dict[str, Value]
    read: Read = Read()

    def kept(self) -> dict[str, Any]:
        """What a page's process reports and the cache keeps: what each fence printed and the
        values; the fences are the page's own (`blocks_of`)."""
        return {"blocks": [{"text": b.text} for b in self.blocks], "values": self.values}


def executed(fence: Fence) -> bool:
    """Whether the build runs this fence: marked to execute, in a language the book runs."""
    return fence.executed and fence.language in LANGUAGES


def blocks_of(markdown: str, made: Iterable[dict[str, Any]]) -> list[Block]:
    """The page's blocks from what each executed fence printed (`text`), in page order."""
    return [Block(f, **m) for f, m in zip(filter(executed, fences(markdown)), made, strict=True)]


class Command(NamedTuple):
    """A transcript's command: the line it is on and what follows its `$ ` prompt."""

    line: int  # in the page, when the transcript's first line is given; else in the transcript
    text: str


def commands(transcript: str, first: int = 1) -> list[Command]:
    """The commands of a transcript whose first line is line `first`: each line after a `$ `
    prompt, prompt removed, so that a command that fails is said at its own line."""
    lines = enumerate(transcript.splitlines(), start=first)
    return [Command(n, line[2:]) for n, line in lines if line.startswith("$ ")]


def words(command: Command, path: str) -> list[str]:
    """A transcript's command split as a shell splits it, or a `FenceError` at its line of `path`
    saying why not."""
    try:
        return shlex.split(command.text)
    except ValueError as error:  # an unclosed quote
        raise FenceError(
            f"{path}:{command.line}: the transcript line `$ {command.text}` cannot be split: {error}"
        ) from None
