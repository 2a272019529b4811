"""A page's own process: `python -m attend_book.worker`, started by `run.run_page` for one page.

It reads the page from its standard input, then closes that input, so a fence that reads from
it (`input()`) fails at once instead of waiting on a terminal. The page's fences run in one
namespace, in order; the process reports to its parent on a descriptor of its own, one JSON
line per event, so nothing a fence prints can be taken for a report:

* `{"fence": LINE}` as each fence starts: the parent's clock for the time limit, and the line
  it names if the process dies or hangs there;
* `{"bindings": true}` as the prose's expressions are evaluated, after the last fence;
* `{"blocks": [...], "values": {...}}` when all is done, or `{"failed": MESSAGE}`.

A `python` fence runs with `exec`, its standard output captured; a `console` fence is a
transcript whose `$ attend …` lines call `attend.cli.main`, the function the installed command
calls. A figure fence's plotted numbers (an `attend-figure-data` comment) are taken out of its
text and kept as the block's `data`. Whatever a fence raises, `exit()` and KeyboardInterrupt
included, is a `FenceError` naming the page, the fence's line and its own failing line.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
import shlex
import signal
import sys
import threading
import time
import traceback
import types
from collections.abc import Callable, Iterable

from attend_book.markdown import Fence, fences
from attend_book.run import LANGUAGES, FenceError, PageRun, Value, blocks_of, commands, executed

FIGURE_DATA = re.compile(r"\n<!-- attend-figure-data\n(.*?)\n-->", re.DOTALL)  # as attend_figures prints it
Report = Callable[[dict[str, object]], None]


def plain(value: object) -> Value:
    """`value` as a number or nested list of numbers (numpy's included), or why it is not one."""
    if callable(tolist := getattr(value, "tolist", None)):  # numpy's arrays and scalars
        value = tolist()
    if isinstance(value, bool):
        return f"is a bool ({value}), not a number"
    if isinstance(value, int | float):
        return value
    if isinstance(value, list | tuple):
        items = [plain(item) for item in value]
        return next((item for item in items if isinstance(item, str)), items)
    return f"is a {type(value).__name__}, not a number"


def evaluate(expressions: Iterable[str], namespace: dict[str, object]) -> dict[str, Value]:
    """Each expression's value in `namespace`, or the one-line reason it has none."""
    values: dict[str, Value] = {}
    for expression in expressions:
        try:
            values[expression] = plain(eval(compile(expression, "<binding>", "eval"), namespace))
        except Exception as error:  # a binding that cannot be worked out is reported, not raised
            values[expression] = _said(error).splitlines()[-1]
    return values


def run_transcript(code: str, where: str = "a page") -> str:
    """What each `attend …` line of `code` prints, run in this process, in order."""
    from attend.cli import main

    printed = io.StringIO()
    for line in filter(str.strip, code.splitlines()):
        argv = shlex.split(line)
        if argv[0] != "attend":
            raise FenceError(f"{where}: a transcript may only run `attend`, not {line!r}")
        with contextlib.redirect_stdout(printed):
            try:
                status = main(argv[1:])
            except SystemExit as stop:  # argparse refusing a flag: a status, not a crash
                status = stop.code if isinstance(stop.code, int) else 1
        if status != 0:
            raise FenceError(f"{where}: `{line}` exited with status {status}")
    return printed.getvalue()


# What a fence may not do to the build, said in the words of what it did.
STOPPED = {
    SystemExit: "a page's code may not end the build (exit() or sys.exit())",
    KeyboardInterrupt: "a page's code may not raise KeyboardInterrupt",
}


class NoInput(io.TextIOBase):
    """A page's standard input: any read fails at once, saying why, where a terminal would wait."""

    REASON = "a fence's standard input is closed: the build reads nothing from a terminal"

    def read(self, size: int | None = -1) -> str:
        raise EOFError(self.REASON)

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise EOFError(self.REASON)


def _run_python(fence: Fence, namespace: dict[str, object], path: str) -> tuple[str, str | None]:
    name = f"<{path}:{fence.line}>"
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(fence.body, name, "exec"), namespace)
    except BaseException as error:  # exit() and Ctrl-C too: the page failed, not the build
        if isinstance(error, SyntaxError) and error.filename == name:
            inside = error.lineno or 1
        else:
            frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == name]
            inside = (frames[-1].lineno or 1) if frames else 1
        failing = fence.body.splitlines()[inside - 1].strip() if fence.body else ""
        why = next((f"\n({said})" for kind, said in STOPPED.items() if isinstance(error, kind)), "")
        raise FenceError(
            f"{path}:{fence.line + inside}: a python fence failed at `{failing}`:\n"
            + (f"SyntaxError: {error.msg}" if isinstance(error, SyntaxError) else _said(error))
            + (_compared(fence.body, inside, namespace) if isinstance(error, AssertionError) else "")
            + why
        ) from None
    data = FIGURE_DATA.findall(printed.getvalue())
    return FIGURE_DATA.sub("", printed.getvalue()), "\n".join(data) if data else None


def _said(error: BaseException) -> str:
    return "".join(traceback.format_exception_only(error)).rstrip()


def _compared(body: str, line: int, namespace: dict[str, object]) -> str:
    """What the parts of the assertion that failed on `line` evaluate to, one per line."""
    asserts = [n for n in ast.walk(ast.parse(body)) if isinstance(n, ast.Assert) and n.lineno == line]
    test: ast.expr = asserts[0].test if asserts else ast.Constant(None)  # none: nothing to show
    parts = [test]
    if isinstance(test, ast.Compare | ast.BoolOp | ast.UnaryOp | ast.Call):  # its operands, not its function
        parts = [
            n
            for n in ast.iter_child_nodes(test)
            if isinstance(n, ast.expr) and n is not getattr(test, "func", 0)
        ]
    shown = []
    for part in (part for part in parts if not isinstance(part, ast.Constant)):
        try:  # the page's own expression, evaluated again in the page's namespace
            value: object = eval(compile(ast.Expression(part), "<assert>", "eval"), namespace)
        except Exception as error:
            value = error
        shown.append(f"\n  {ast.unparse(part)} = {value!r:.200}")
    return "".join(shown)


def run_here(
    path: str, markdown: str, expressions: Iterable[str] = (), report: Report = lambda event: None
) -> PageRun:
    """Every executed fence of the page, in page order, in this process; then `expressions`,
    evaluated in the namespace the fences left. Each step is `report`ed as it starts.

    The build runs it only in a page's own process (`main`); a test that changes the package
    in its own process on purpose (the mutation suite's weights) runs it there."""
    module = types.ModuleType("attend_book_page")
    sys.modules[module.__name__] = module  # so classes a fence defines know their module
    made: list[dict[str, str | None]] = []
    try:
        for fence in filter(executed, fences(markdown)):
            report({"fence": fence.line})
            if LANGUAGES[fence.language] == "console":
                text, data = run_transcript("\n".join(commands(fence.body)), f"{path}:{fence.line}"), None
            else:
                text, data = _run_python(fence, module.__dict__, path)
            made.append({"text": text, "data": data})
        report({"bindings": True})
        return PageRun(blocks_of(markdown, made), evaluate(expressions, module.__dict__))
    finally:
        del sys.modules[module.__name__]


def _end_with(parent: int) -> None:
    """End this process and all its fences started once `parent`, the build, is gone: a build
    killed outright leaves no page running on, past any time limit."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os.killpg(0, signal.SIGKILL)


def main() -> None:
    """Read the request, close standard input, keep a descriptor for reports, run the page."""
    threading.Thread(target=_end_with, args=(os.getppid(),), daemon=True).start()
    request = json.load(sys.stdin)
    reports = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # what a fence reads: nothing, at once
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # what a fence writes past Python: the log
    sys.stdin = NoInput()

    def report(event: dict[str, object]) -> None:
        print(json.dumps(event), file=reports, flush=True)

    try:
        done = run_here(request["path"], request["markdown"], request["expressions"], report)
    except FenceError as error:
        report({"failed": str(error)})
    else:
        report(done.kept())


if __name__ == "__main__":
    main()
