"""A page's executed fences run in order in this process, each one's printed text kept as a `Block`.

A `python` fence runs with `exec`, its standard output captured; a `console` fence is a
transcript whose `$ attend …` lines call `attend.book.cli.main`, the function the installed command
calls. Whatever a fence raises, `exit()` and KeyboardInterrupt included, is a `FenceError`
naming the page, the fence's line and its own failing line. A fence that shows an exercise's
answer (`answer="EXPRESSION"`) has that expression evaluated as soon as it ran: one that fails,
or gives no number, bool or array of them to hold a reader's prediction against, fails the page
the same way. After the last fence, each expression the prose binds a number to is evaluated in
the page's namespace (`bound_numbers.evaluation`): its value, or why it has none.

The build runs this only in a page's own process (`runner`), which guards the build against
what the page's code does to its process; a test that changes the package in its own process on
purpose (the mutation suite's weights) runs it there.
"""

from __future__ import annotations

import ast
import contextlib
import io
import math
import sys
import traceback
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from attend_book.page import LANGUAGES, Block, FenceError, PageRun, Place, commands, executed, words
from bound_numbers.evaluation import evaluate
from bound_numbers.markdown import Fence, fences
from bound_numbers.values import Value

# What a fence may not do to the build, said in the words of what it did, under what it raised.
STOPPED: dict[type[BaseException], str] = {
    SystemExit: "\n(a page's code may not end the build (exit() or sys.exit()))",
    KeyboardInterrupt: "\n(a page's code may not raise KeyboardInterrupt)",
}
Report = Callable[[dict[str, Any]], None]


def run_here(
    path: str,
    markdown: str,
    expressions: Iterable[str] = (),
    report: Report = lambda event: None,
    printed: Callable[[], io.StringIO] = io.StringIO,
    places: Mapping[str, Place] | None = None,
) -> PageRun:
    """Every executed fence of the page, in page order, in this process; then `expressions`,
    evaluated in the namespace the fences left. Each step is `report`ed as it starts, a binding
    at its `places` entry (else at the page's first line); what a fence prints goes into a new
    `printed()`."""
    module = types.ModuleType("attend_book_page")
    sys.modules[module.__name__] = module  # so classes a fence defines know their module
    blocks = []
    try:
        for fence in filter(executed, fences(markdown)):
            report({"at": f"{path}:{fence.line}: this fence"})
            if LANGUAGES[fence.language] == "console":
                shown = printed()  # the command's output, counted as a fence's is
                shown.write(run_transcript(fence.body, path, first=fence.line + 1))
                blocks.append(Block(fence, shown.getvalue()))
            else:
                blocks.append(_run_python(fence, module.__dict__, path, printed()))
                if "answer" in fence.options:
                    _check_answer(fence, module.__dict__, path)
        values: dict[str, Value] = {}
        for expression in expressions:  # each named as it starts, should it hang or end the process
            at = (places or {}).get(expression)
            where = f"{at[0]}:{at[1]}" if at else "1"
            report({"at": f"{path}:{where}: the binding {{= {expression}}}"})
            values |= evaluate([expression], module.__dict__)
        return PageRun(blocks, values)
    finally:
        del sys.modules[module.__name__]


def run_transcript(transcript: str, path: str = "a transcript", first: int = 1) -> str:
    """What each `$ attend …` line of a transcript prints, run in this process, in order; one
    that fails is said at its own line, the transcript's first being line `first` of `path`."""
    from attend.book.cli import main

    printed = io.StringIO()
    for command in commands(transcript, first):
        argv = words(command, path)
        where, line = f"{path}:{command.line}", command.text
        if argv[:1] != ["attend"]:
            raise FenceError(f"{where}: a transcript may only run `attend`, not {line!r}")
        with contextlib.redirect_stdout(printed):
            try:
                status = main(argv[1:])
            except SystemExit as stop:  # argparse refusing a flag: a status, not a crash
                status = stop.code if isinstance(stop.code, int) else 1
        if status != 0:
            raise FenceError(f"{where}: `{line}` exited with status {status}")
    return printed.getvalue()


def _run_python(fence: Fence, namespace: dict[str, object], path: str, printed: io.StringIO) -> Block:
    name = f"<{path}:{fence.line}>"
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(fence.body, name, "exec"), namespace)
    except BaseException as error:  # exit() and Ctrl-C too: the page failed, not the build
        if isinstance(error, SyntaxError) and error.filename == name:
            inside, told = error.lineno or 1, f"SyntaxError: {error.msg}"
        else:
            frames = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == name]
            inside, told = (frames or [1])[-1] or 1, _brief(_said(error))
        if isinstance(error, AssertionError):
            told += _compared(fence.body, inside, namespace)
        told += STOPPED.get(type(error), "")
        failing = fence.body.splitlines()[inside - 1].strip()
        raise FenceError(
            f"{path}:{fence.line + inside}: a python fence failed at `{failing}`:\n{told}"
        ) from None
    return Block(fence, printed.getvalue())


def _check_answer(fence: Fence, namespace: dict[str, object], path: str) -> None:
    """An exercise's answer (`answer="EXPRESSION"` on the fence that shows it) must give what a
    reader's prediction can be checked against: a finite number, a bool, or an array of them."""
    expression = fence.options["answer"]
    try:
        value = eval(compile(expression, "<answer>", "eval"), namespace)
    except Exception as error:
        told = _said(error).splitlines()[-1]
    else:
        if _numeric(value):
            return
        told = f"{type(value).__name__} {value!r:.60}"
    raise FenceError(
        f"{path}:{fence.line}: the answer `{expression}` gives no number to check against: {told}"
    )


def _numeric(value: object) -> bool:
    """Whether `value` (numpy's included) is a finite number or bool, or a non-empty array of them."""
    if callable(tolist := getattr(value, "tolist", None)):
        value = tolist()
    if isinstance(value, list | tuple):
        return bool(value) and all(map(_numeric, value))
    return isinstance(value, int | float) and math.isfinite(value)


def _brief(told: str, lines: int = 4, width: int = 200) -> str:
    """An exception's message as the build reports it: its first `lines` lines, each cut at
    `width` characters, and how many more there were; a 5 KB message is not a report."""
    every = told.splitlines()
    kept = [line if len(line) <= width else f"{line[: width - 1]}…" for line in every[:lines]]
    more = len(every) - len(kept)
    return "\n".join(kept) + (f"\n(and {more} more lines)" if more > 0 else "")


def _compared(body: str, line: int, namespace: dict[str, object]) -> str:
    """What the parts of the assertion that failed on `line` evaluate to, one per line."""
    tests = [n.test for n in ast.walk(ast.parse(body)) if isinstance(n, ast.Assert) and n.lineno == line]
    [test] = tests[:1] or [ast.Constant(None)]  # no assert on that line: nothing to show
    compound = isinstance(test, ast.Compare | ast.BoolOp | ast.UnaryOp | ast.Call)
    function = getattr(test, "func", None)  # a call's function is not one of its operands
    shown = ""
    for part in ast.iter_child_nodes(test) if compound else [test]:  # its operands, or itself
        if isinstance(part, ast.expr) and not isinstance(part, ast.Constant) and part is not function:
            try:  # the page's own expression, evaluated again in the page's namespace
                value: object = eval(compile(ast.Expression(part), "<assert>", "eval"), namespace)
            except Exception as error:
                value = error
            shown += f"\n  {ast.unparse(part)} = {_shown(value):.200}"
    return shown


def _shown(value: object) -> str:
    """The value's repr, or what its repr raised: a fence's class may define a broken one."""
    try:
        return repr(value)
    except Exception as error:
        return f"(its repr raised {_said(error).splitlines()[-1]})"


def _said(error: BaseException) -> str:
    """An exception as Python's traceback ends: its type and message, every line of it (the
    fence's report cuts it to a few)."""
    return "".join(traceback.format_exception_only(error)).rstrip()
