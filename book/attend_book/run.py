"""The runner: a page's executed fences run in order, each one's printed text kept as a `Block`.

One runner serves the build (the plugin hands its blocks to markdown-exec to show), the number
check, the tests and any tool that needs a page's outputs without mkdocs: `run_page`.

* A `python` fence runs with `exec` in one namespace per page, its standard output captured.
* A `console` fence is a transcript: each `$ attend …` line calls `attend.cli.main`, the very
  function the installed command calls, and what it prints is the block's text. Only `attend`
  may be run.
* A figure fence (`html="1"`) prints SVG, and after it, in an `attend-figure-data` comment, the
  numbers the figure plotted: the comment is taken out of the block's text and kept as
  `Block.data`, so a caption's numbers have something to be held against.

A fence that raises stops everything with a `FenceError` naming the page, the line of the
fence and the failing line inside it. After the last fence, each expression the prose binds a
number to is evaluated in the page's namespace (`evaluate`): its value, or why it has none.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import shlex
import sys
import traceback
import types
from collections.abc import Iterable
from dataclasses import dataclass

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException  # type: ignore[import-untyped]

from attend_book.markdown import Fence, fences

LANGUAGES = {"python": "python", "py": "python", "console": "console"}
FIGURE_DATA = re.compile(r"\n<!-- attend-figure-data\n(.*?)\n-->", re.DOTALL)  # as attend_figures prints it


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


def plain(value: object) -> Value:
    """`value` as a number or nested list of numbers (numpy's included), or why it is not one."""
    if isinstance(value, bool):
        return f"is a bool ({value}), not a number"
    if isinstance(value, int | float):
        return value
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        return plain(tolist())
    if isinstance(value, list | tuple):
        items = [plain(item) for item in value]
        bad = next((item for item in items if isinstance(item, str)), None)
        return bad if bad is not None else items
    return f"is a {type(value).__name__}, not a number"


def evaluate(expressions: Iterable[str], namespace: dict[str, object]) -> dict[str, Value]:
    """Each expression's value in `namespace`, or the one-line reason it has none."""
    values: dict[str, Value] = {}
    for expression in expressions:
        try:
            values[expression] = plain(eval(compile(expression, "<binding>", "eval"), namespace))
        except Exception as error:  # a binding that cannot be worked out is reported, not raised
            values[expression] = "".join(traceback.format_exception_only(error)).strip().splitlines()[-1]
    return values


def executed(fence: Fence) -> bool:
    """Whether the build runs this fence: marked to execute, in a language the book runs."""
    return fence.executed and fence.language in LANGUAGES


def commands(transcript: str) -> list[str]:
    """The commands of a transcript: each line after a `$ ` prompt, prompt removed."""
    return [line[2:] for line in transcript.splitlines() if line.startswith("$ ")]


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


def _run_python(fence: Fence, namespace: dict[str, object], path: str) -> tuple[str, str | None]:
    name = f"<{path}:{fence.line}>"
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(fence.body, name, "exec"), namespace)
    except Exception as error:
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == name]
        inside = (frames[-1].lineno or 1) if frames else 1
        failing = fence.body.splitlines()[inside - 1].strip()
        raise FenceError(
            f"{path}:{fence.line + inside}: a python fence failed at `{failing}`:\n"
            + "".join(traceback.format_exception_only(error)).rstrip()
            + (_compared(fence.body, inside, namespace) if isinstance(error, AssertionError) else "")
        ) from error
    data = FIGURE_DATA.findall(printed.getvalue())
    return FIGURE_DATA.sub("", printed.getvalue()), "\n".join(data) if data else None


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


def run_page(path: str, markdown: str, expressions: Iterable[str] = ()) -> PageRun:
    """Every executed fence of a page, run in page order, then each of `expressions` evaluated in
    the namespace they left; `path` names the page in errors."""
    module = types.ModuleType(f"attend_book_page_{abs(hash(path))}")
    sys.modules[module.__name__] = module  # so classes a fence defines know their module
    blocks = []
    try:
        for fence in filter(executed, fences(markdown)):
            kind = LANGUAGES[fence.language]
            if kind == "console":
                text, data = run_transcript("\n".join(commands(fence.body)), f"{path}:{fence.line}"), None
            else:
                text, data = _run_python(fence, module.__dict__, path)
            blocks.append(Block(kind, fence.line, text, fence.body, fence.switched_on("html"), data))
        values = evaluate(expressions, module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return PageRun(blocks, values)
