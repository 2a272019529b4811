"""What the book's side of a page's run agrees on: which fences the book runs, what a run gives
back, and the limits a page is held to.

The page's process (bound-numbers' runner, with the book's `execution.BookExecutor`) imports the
book's part of it too, so this module imports nothing of mkdocs or its extensions. The error a
page's code raises is a plain exception carrying its one line (bound-numbers' `Unavailable`); the
plugin, which knows mkdocs, logs it or raises mkdocs' own error where it must stop the build.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from typing import NamedTuple

from bound_numbers import Asked, Fence, Unavailable, Value

LANGUAGES = {"python": "python", "py": "python", "console": "console"}
# How long one fence may run, in seconds, unless mkdocs.yml says otherwise (`time_limit` under
# attend-book). The slowest fence today takes under 2.5 s on a busy two-core machine.
TIME_LIMIT = 30.0
# How many characters one page may print, all its fences together. The book's largest page
# prints 71 thousand (its figures' HTML): this is over a hundred times that.
OUTPUT_LIMIT = 8 << 20


class Block(NamedTuple):
    """One executed fence, as the page now writes it, and what the reader sees under it."""

    fence: Fence
    text: str  # what it printed (for a transcript, the commands' output without the prompts)


class PageRun(NamedTuple):
    """A page's executed fences, the value of each binding asked, and the files its process
    read (`inputs`), when it ran in a process of its own."""

    blocks: list[Block]
    values: dict[Asked, Value]
    read: tuple[str, ...] = ()


def executed(fence: Fence) -> bool:
    """Whether the build runs this fence: marked to execute, in a language the book runs."""
    return fence.executed and fence.language in LANGUAGES


def blocks_of(fences: Iterable[Fence], printed: Iterable[str]) -> list[Block]:
    """The page's blocks: each executed fence with what it printed, in page order."""
    return [Block(fence, text) for fence, text in zip(fences, printed, strict=True)]


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
    """A transcript's command split as a shell splits it, or an `Unavailable` at its line of `path`
    saying why not."""
    try:
        return shlex.split(command.text)
    except ValueError as error:  # an unclosed quote
        raise Unavailable(
            f"{path}:{command.line}: the transcript line `$ {command.text}` cannot be split: {error}"
        ) from None
