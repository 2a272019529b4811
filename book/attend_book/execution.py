"""What the book runs in a page's process beyond markdown-exec's python fences: bound-numbers'
runner runs the page (`bound_numbers.run`), and `BookExecutor` is the part that is the book's own.

A `console` fence is a transcript whose `$ attend …` lines call `attend.book.cli.main`, the function
the installed command calls. A fence that shows an exercise's answer (`answer="EXPRESSION"`) has
that expression evaluated as soon as it ran: one that fails, or gives no number, bool or array of
them to hold a reader's prediction against, fails the page naming the fence, in one line, whatever
the value does when asked for its items or its repr. And the page's process records every file
the page's code reads (`inputs`), which it reports for the cache's key.
"""

from __future__ import annotations

import contextlib
import io
import math
from typing import Any, TextIO

from attend_book import inputs
from attend_book.page import LANGUAGES, commands, words
from bound_numbers import Executor, Fence, Unavailable

DEEPEST = 32  # how deeply an answer's lists may nest: an array of numbers is a few levels deep


class BookExecutor(Executor):
    """A page of the book, run in its own process: python fences, transcripts and answers."""

    def start(self) -> None:
        inputs.record()

    def run(self, fence: Fence, printed: TextIO) -> None:
        if LANGUAGES[fence.language] == "console":
            printed.write(run_transcript(fence.body, self.page, first=fence.line + 1))
            return
        super().run(fence, printed)
        if "answer" in fence.options:
            check_answer(fence, self.namespace, self.page)

    def kept(self) -> dict[str, Any]:
        return {"read": inputs.read()}


def run_transcript(transcript: str, path: str = "a transcript", first: int = 1) -> str:
    """What each `$ attend …` line of a transcript prints, run in this process, in order; one
    that fails is said at its own line, the transcript's first being line `first` of `path`."""
    from attend.book.cli import main

    printed = io.StringIO()
    for command in commands(transcript, first):
        argv = words(command, path)
        where, line = f"{path}:{command.line}", command.text
        if argv[:1] != ["attend"]:
            raise Unavailable(f"{where}: a transcript may only run `attend`, not {line!r}")
        with contextlib.redirect_stdout(printed):
            try:
                status = main(argv[1:])
            except SystemExit as stop:  # argparse refusing a flag: a status, not a crash
                status = stop.code if isinstance(stop.code, int) else 1
        if status != 0:
            raise Unavailable(f"{where}: `{line}` exited with status {status}")
    return printed.getvalue()


def check_answer(fence: Fence, namespace: dict[str, object], path: str) -> None:
    """An exercise's answer (`answer="EXPRESSION"` on the fence that shows it) must give what a
    reader's prediction can be checked against: a finite number, a bool, or an array of them."""
    expression = fence.options["answer"]
    try:
        value = eval(compile(expression, "<answer>", "eval"), namespace)
        told = "" if numeric(value) else f"{type(value).__name__} {_shown(value)}"
    except Exception as error:  # the expression, or what the value does when its items are asked for
        told = _said(error)
    if told:
        said = f"the answer `{expression}` gives no number to check against: {told}"
        raise Unavailable(f"{path}:{fence.line}: {said}")


def numeric(value: object, depth: int = 0) -> bool:
    """Whether `value` (numpy's included) is a finite number or bool, or a non-empty array of
    them nested at most `DEEPEST` deep; an array whose `tolist` raises is `ValueError`'s."""
    if depth > DEEPEST:
        raise ValueError(f"its lists nest more than {DEEPEST} deep")
    if callable(tolist := getattr(value, "tolist", None)):
        value = tolist()
    if isinstance(value, list | tuple):
        return bool(value) and all(numeric(item, depth + 1) for item in value)
    return isinstance(value, int | float) and math.isfinite(value)


def _shown(value: object) -> str:
    """The value's repr, cut short, or what its repr raised."""
    try:
        return f"{value!r:.60}"
    except Exception as error:
        return f"(its repr raised {_said(error)})"


def _said(error: BaseException) -> str:
    """An exception in one line: its type and its message's last line."""
    try:
        text = f"{type(error).__name__}: {error}".rstrip(": ")
    except Exception:
        text = type(error).__name__
    lines = text.splitlines() or [type(error).__name__]
    return lines[-1][:200]
