"""The runner: a page's executed fences run in order, each one's printed text kept as a `Block`.

One runner serves the build (the plugin hands its blocks to markdown-exec to show), the number
check, the tests and any tool that needs a page's outputs without mkdocs: `run_page`. It runs
each page in a process of its own, this module started afresh (`main`) with the build's
environment and working directory: a fence that changes a module, `os.environ` or the working
directory changes nothing for the pages after it, and the cache can trust that a page's outputs
follow from its code.

That process reads the page from its standard input, then closes it, so a fence that reads from
it (`input()`) fails at once instead of waiting on a terminal. It reports to its parent on a
descriptor of its own, one JSON line per event, so nothing a fence prints can be taken for a
report: `{"at": WHERE}` as each fence starts and as the prose's bindings are evaluated (the
parent's clock for the time limit, and what it names if the process dies or hangs there), then
`PageRun.kept()` with the files it read (`inputs`) when all is done, or `{"failed": MESSAGE}`.

A `python` fence runs with `exec`, its standard output captured; a `console` fence is a
transcript whose `$ attend …` lines call `attend.cli.main`, the function the installed command
calls. A figure fence's plotted numbers (an `attend-figure-data` comment) are taken out of its
text and kept as the block's `data`. Whatever a fence raises, `exit()` and KeyboardInterrupt
included, is a `FenceError` naming the page, the fence's line and its own failing line; so is a
fence that ends its process or runs past the time limit. After the last fence, each expression
the prose binds a number to is evaluated in the page's namespace: its value, or why it has none.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import io
import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException  # type: ignore[import-untyped]

from attend_book import inputs
from attend_book.markdown import Fence, fences

LANGUAGES = {"python": "python", "py": "python", "console": "console"}
# How long one fence may run, in seconds, unless mkdocs.yml says otherwise (`time_limit` under
# attend-book). The slowest fence today takes under 2.5 s on a busy two-core machine.
TIME_LIMIT = 30.0
FIGURE_DATA = re.compile(r"\n<!-- attend-figure-data\n(.*?)\n-->", re.DOTALL)  # as attend_figures prints it
# What a fence may not do to the build, said in the words of what it did, under what it raised.
STOPPED: dict[type[BaseException], str] = {
    SystemExit: "\n(a page's code may not end the build (exit() or sys.exit()))",
    KeyboardInterrupt: "\n(a page's code may not raise KeyboardInterrupt)",
}
Report = Callable[[dict[str, Any]], None]
# What a binding's expression evaluated to, kept as JSON keeps it: a number, a (nested) list of
# numbers, or the one-line reason it has no value (a string).
Value = float | int | list["Value"] | str


class FenceError(SuperFencesException, PluginError):  # type: ignore[misc]
    """A fence failed. A `PluginError`, so mkdocs stops with this message and no traceback; a
    `SuperFencesException`, because SuperFences renders any other error as plain text."""


class Block(NamedTuple):
    """One executed fence, as the page now writes it, and what the reader sees under it."""

    fence: Fence
    text: str  # what it printed (for a transcript, the commands' output without the prompts)
    data: str | None = None  # a figure's plotted numbers, as text


class PageRun(NamedTuple):
    """A page's executed fences, the value of each expression its prose binds a number to, and
    the files its process read (`inputs`), when it ran in a process of its own."""

    blocks: list[Block]
    values: dict[str, Value]
    read: tuple[str, ...] = ()

    def kept(self) -> dict[str, Any]:
        """What a page's process reports and the cache keeps: what each fence printed and the
        values; the fences are the page's own (`blocks_of`)."""
        return {"blocks": [{"text": b.text, "data": b.data} for b in self.blocks], "values": self.values}


def executed(fence: Fence) -> bool:
    """Whether the build runs this fence: marked to execute, in a language the book runs."""
    return fence.executed and fence.language in LANGUAGES


def commands(transcript: str) -> list[str]:
    """The commands of a transcript: each line after a `$ ` prompt, prompt removed."""
    return [line[2:] for line in transcript.splitlines() if line.startswith("$ ")]


def blocks_of(markdown: str, made: list[dict[str, Any]]) -> list[Block]:
    """The page's blocks from what each executed fence printed (`text`, `data`), in page order."""
    return [Block(f, **m) for f, m in zip(filter(executed, fences(markdown)), made, strict=True)]


def run_page(
    path: str,
    markdown: str,
    expressions: Iterable[str] = (),
    *,
    limit: float = TIME_LIMIT,
    environment: Mapping[str, str] | None = None,
    folder: str | None = None,
) -> PageRun:
    """Every executed fence of a page, run in page order in a fresh process of its own, with
    `environment` (default: this process's) in `folder` (default: this working directory); then
    each of `expressions` evaluated in the namespace they left.

    Nothing another page did can reach that process; `path` names the page in errors. A fence
    that runs past `limit` seconds, or ends the process, is a `FenceError` naming its line. The
    process is in a session of its own, so that Ctrl-C stops the build, which then ends the
    page's process and all it started. (Measured: starting each page's process one page ahead,
    its modules loaded while the page before it ran, saved no time the noise of a two-core
    machine did not hide.)
    """
    where = f"{path}:1: the page's process"
    with subprocess.Popen(
        (sys.executable, "-P", "-m", "attend_book.run"),  # -P: its folder is not on sys.path
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=environment,
        cwd=folder,
        start_new_session=True,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        try:
            with contextlib.suppress(BrokenPipeError):  # it died at start: told below
                process.stdin.write(json.dumps([path, markdown, [*expressions]]).encode())
                process.stdin.close()
            unread = b""  # the start of a report line still being written
            while select.select([process.stdout], [], [], limit)[0]:  # a report within the limit
                if not (chunk := os.read(process.stdout.fileno(), 1 << 16)):
                    raise FenceError(f"{where} ended the page's process (exit status {process.wait()})")
                *lines, unread = (unread + chunk).split(b"\n")
                for event in map(json.loads, lines):
                    if "failed" in event:
                        raise FenceError(event["failed"])
                    if "values" in event:
                        return PageRun(
                            blocks_of(markdown, event["blocks"]), event["values"], tuple(event["read"])
                        )
                    where = event["at"]
            raise FenceError(
                f"{where} ran past the time limit of {limit:g} seconds "
                "(`time_limit` under attend-book in mkdocs.yml)"
            )
        finally:  # the page's process and whatever its fences started (its whole session)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)


def run_here(
    path: str, markdown: str, expressions: Iterable[str] = (), report: Report = lambda event: None
) -> PageRun:
    """Every executed fence of the page, in page order, in this process; then `expressions`,
    evaluated in the namespace the fences left. Each step is `report`ed as it starts.

    The build runs it only in a page's own process (`main`); a test that changes the package
    in its own process on purpose (the mutation suite's weights) runs it there."""
    module = types.ModuleType("attend_book_page")
    sys.modules[module.__name__] = module  # so classes a fence defines know their module
    blocks = []
    try:
        for fence in filter(executed, fences(markdown)):
            report({"at": f"{path}:{fence.line}: this fence"})
            if LANGUAGES[fence.language] == "console":
                blocks.append(Block(fence, run_transcript(fence.body, f"{path}:{fence.line}")))
            else:
                blocks.append(_run_python(fence, module.__dict__, path))
        report({"at": f"{path}:1: evaluating the prose's bindings"})
        return PageRun(blocks, evaluate(expressions, module.__dict__))
    finally:
        del sys.modules[module.__name__]


def run_transcript(transcript: str, where: str = "a page") -> str:
    """What each `$ attend …` line of a transcript prints, run in this process, in order."""
    from attend.cli import main

    printed = io.StringIO()
    for line in commands(transcript):
        argv = shlex.split(line)
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


def _run_python(fence: Fence, namespace: dict[str, object], path: str) -> Block:
    name = f"<{path}:{fence.line}>"
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(fence.body, name, "exec"), namespace)
    except BaseException as error:  # exit() and Ctrl-C too: the page failed, not the build
        if isinstance(error, SyntaxError) and error.filename == name:
            inside, said = error.lineno or 1, f"SyntaxError: {error.msg}"
        else:
            frames = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == name]
            inside, said = (frames or [1])[-1] or 1, _said(error)
        if isinstance(error, AssertionError):
            said += _compared(fence.body, inside, namespace)
        said += STOPPED.get(type(error), "")
        failing = fence.body.splitlines()[inside - 1].strip()
        raise FenceError(
            f"{path}:{fence.line + inside}: a python fence failed at `{failing}`:\n{said}"
        ) from None
    data = FIGURE_DATA.findall(printed.getvalue())
    return Block(fence, FIGURE_DATA.sub("", printed.getvalue()), "\n".join(data) if data else None)


def _said(error: BaseException) -> str:
    return "".join(traceback.format_exception_only(error)).rstrip()


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
            shown += f"\n  {ast.unparse(part)} = {value!r:.200}"
    return shown


def plain(value: object) -> Value:
    """`value` as a number or nested list of numbers (numpy's included), or why it is not one."""
    if callable(tolist := getattr(value, "tolist", None)):  # numpy's arrays and scalars
        value = tolist()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if isinstance(value, list | tuple):
        items = [plain(item) for item in value]
        return next((item for item in items if isinstance(item, str)), items)
    return f"is a {type(value).__name__}, not a number"


def evaluate(expressions: Iterable[str], namespace: dict[str, object]) -> dict[str, Value]:
    """Each expression's value in `namespace`, or the one-line reason it has none: for a name
    or an attribute that is not there, with the nearest one that is."""
    values: dict[str, Value] = {}
    for expression in expressions:
        try:
            values[expression] = plain(eval(compile(expression, "<binding>", "eval"), namespace))
        except Exception as error:  # a binding that cannot be worked out is reported, not raised
            values[expression] = _said(error).splitlines()[-1] + _nearest(error, namespace)
    return values


def _nearest(error: Exception, namespace: dict[str, object]) -> str:
    """ "; did you mean 'q2'?" for a misspelt name or attribute with a near one, else ""."""
    if isinstance(error, NameError):
        missing, known = error.name, list(namespace)
    elif isinstance(error, AttributeError):
        missing, known = error.name, dir(error.obj)
    else:
        return ""
    near = difflib.get_close_matches(missing or "", [k for k in known if not k.startswith("_")], 1, 0.5)
    return f"; did you mean {near[0]!r}?" if near else ""


def _end_with(build: int) -> None:
    """End this process and all its fences started once `build`, its parent, is gone: a build
    killed outright leaves no page running on, past any time limit."""
    while os.getppid() == build:
        time.sleep(0.5)
    os.killpg(0, signal.SIGKILL)


def main() -> None:
    """A page's own process: read the page, close standard input, keep a descriptor for
    reports, run the page."""
    threading.Thread(target=_end_with, args=(os.getppid(),), daemon=True).start()
    path, markdown, expressions = json.load(sys.stdin)
    inputs.record()
    sys.stdin.close()  # Python's reads fail; the descriptor, at its end, gives a child process nothing
    reports = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # what a fence writes past Python: the log

    def report(event: dict[str, Any]) -> None:
        print(json.dumps(event), file=reports, flush=True)

    try:
        report({**run_here(path, markdown, expressions, report).kept(), "read": inputs.read()})
    except FenceError as error:
        report({"failed": str(error)})


if __name__ == "__main__":
    main()
