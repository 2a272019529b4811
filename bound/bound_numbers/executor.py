"""What runs a page's fences inside the page's own process (`runner`), one after another in one
namespace, and says in one line how one failed.

`Executor` runs python fences as markdown-exec does (in their `workdir`, if they name one), each
one's standard output kept. A provider that runs more (a transcript of a command, an exercise's
answer checked) or keeps more (the files the page read, for a cache) subclasses it and names the
subclass to `running.run` as `module:Class`: the page's process imports it there. The page's process
imports nothing of mkdocs or of the Markdown reader, so neither may this module.

Whatever a fence raises, `exit()` and KeyboardInterrupt included, is an `Unavailable` whose first
line names the page, the line that failed and the error (`failure`); lines under it give the
rest of a long message, and for an `assert` the value of each part it compared.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import sys
import traceback
import types
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from bound_numbers.evaluation import Stages, said
from bound_numbers.page import Fence
from bound_numbers.values import Unavailable, Value

# What a fence may not do to its process, said in the words of what it did.
STOPPED: dict[type[BaseException], str] = {
    SystemExit: " (a page's code may not end its process: exit() or sys.exit())",
    KeyboardInterrupt: " (a page's code may not raise KeyboardInterrupt)",
}
SHOWN = 60  # the most characters of a failing line a message quotes
MORE = 3  # the most lines of an exception's message said under the first


MODULE = "__bound_page__"  # the module a page's fences run in, as `sys.modules` names it


class Executor:
    """One page's fences, run in its process in one namespace: a module of its own, so that a
    class a fence defines knows its module. `page` names the page in messages."""

    def __init__(self, page: str) -> None:
        self.page = page
        self.pid = os.getpid()  # a copy of this process a fence forks has another
        self._module = types.ModuleType(MODULE)
        self._displaced = sys.modules.get(MODULE)  # the page running this one, if one is
        sys.modules[MODULE] = self._module
        self.namespace: dict[str, Any] = self._module.__dict__

    def close(self) -> None:
        """The page's module leaves `sys.modules`, and the one it displaced (a page that runs
        this one in its own process) comes back: for a run in a process that goes on."""
        if sys.modules.get(MODULE) is not self._module:
            return  # another page's executor took the name since
        if self._displaced is None:
            del sys.modules[MODULE]
        else:
            sys.modules[MODULE] = self._displaced

    def start(self) -> None:
        """Before the first fence runs (a subclass records what the page reads, say)."""

    def run(self, fence: Fence, printed: TextIO) -> None:
        """Run one fence in the namespace, what it prints into `printed`; `Unavailable` if it fails."""
        name = f"<{self.page}:{fence.line}>"
        with contextlib.ExitStack() as folder:
            try:
                folder.enter_context(contextlib.chdir(fence.options.get("workdir") or "."))
            except OSError as error:  # the folder it names is not there
                why = f"this fence's workdir cannot be entered: {said(error)}"
                raise Unavailable(f"{self.page}:{fence.line}: {why}") from None
            try:
                with contextlib.redirect_stdout(printed):
                    exec(compile(fence.body, name, "exec"), self.namespace)
            except BaseException as error:  # exit() and Ctrl-C too: the page failed, not the build
                if isinstance(error, SystemExit) and os.getpid() != self.pid:
                    raise  # a copy a fence forked ends itself (sys.exit() in it), as it would in Python
                raise Unavailable(failure(self.page, fence, name, error, self.namespace)) from None

    def kept(self) -> dict[str, Any]:
        """What the page's process reports beside the values once the page is done."""
        return {}


def steps(
    executor: Executor,
    fences: Sequence[Fence],
    points: Sequence[Sequence[Any]],
    *,
    at: Callable[[str], None] = lambda where: None,
    evaluated: Callable[[list[tuple[int, Value]]], None] = lambda values: None,
    fell: Callable[[str], None] = lambda message: None,
    printed: Callable[[], io.StringIO] = io.StringIO,
    places: Sequence[Sequence[Any]] = (),
) -> list[str]:
    """Run the page: before each fence, and after the last, the points (stage, expression,
    where) of that stage are evaluated (`evaluation.Stages`) and each index and value handed to
    `evaluated`; each step is named to `at` as it starts. A fence that fails is said to `fell`
    (the first only), and the page goes on, so that what its code below gives is known too
    (renumber uses it; the check holds only what came before). What each fence printed, in a
    new `printed()`, in order. `places`: each fence as a binding names it (`Plan.given`)."""
    shown: list[str] = []
    stages = Stages(points, places)
    failed = False
    for stage in range(len(fences) + 1):
        if values := stages.at(stage, executor.namespace, last=stage == len(fences), step=at):
            evaluated(values)
        if stage < len(fences):
            fence = fences[stage]
            at(f"{executor.page}:{fence.line}: this fence")
            out = printed()
            try:
                executor.run(fence, out)
            except Unavailable as error:
                if not failed:
                    fell(str(error))
                failed = True
            shown.append(out.getvalue())
    return shown


def failure(page: str, fence: Fence, name: str, error: BaseException, namespace: dict[str, Any]) -> str:
    """How the fence failed: `page:line: a python fence failed at `…`: Error: message`, the line
    being the one in the fence that raised (a fence's compiled `name`), then the rest."""
    if isinstance(error, SyntaxError) and error.filename == name:
        inside = error.lineno or 1
    else:
        frames = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == name]
        inside = (frames or [1])[-1] or 1
    lines = fence.body.splitlines() or [""]
    inside = min(inside, len(lines))  # a SyntaxError may point past the last line
    failing = lines[inside - 1].strip()
    quoted = failing if len(failing) <= SHOWN else f"{failing[: SHOWN - 1]}…"
    first, *rest = _message(error)
    told = f"{page}:{fence.line + inside}: a python fence failed at `{quoted}`: {first}"
    told += STOPPED.get(type(error), "")
    if isinstance(error, AssertionError):
        rest += compared(fence.body, inside, namespace)
    return "\n".join([told, *rest])


def _message(error: BaseException) -> list[str]:
    """The exception as its traceback ends, in a few short lines: its first line whole (cut at
    the width `said` keeps), then up to `MORE` more, and how many more there were."""
    first = said(error)
    if isinstance(error, SyntaxError):
        return [first]
    every = "".join(traceback.format_exception_only(type(error), error)).rstrip().splitlines()[1:]
    kept = [line if len(line) <= 200 else f"{line[:199]}…" for line in every[:MORE]]
    more = len(every) - len(kept)
    return [first, *kept, *([f"(and {more} more lines)"] if more > 0 else [])]


def compared(body: str, line: int, namespace: dict[str, Any]) -> list[str]:
    """What the parts of the assertion that failed on `line` evaluate to, one line each."""
    try:
        tests = [n.test for n in ast.walk(ast.parse(body)) if isinstance(n, ast.Assert) and n.lineno == line]
    except SyntaxError:
        return []
    [test] = tests[:1] or [ast.Constant(None)]  # no assert on that line: nothing to show
    compound = isinstance(test, ast.Compare | ast.BoolOp | ast.UnaryOp | ast.Call)
    function = getattr(test, "func", None)  # a call's function is not one of its operands
    return [
        f"  {ast.unparse(part)} = {shown(_value(part, namespace)):.200}"
        for part in (ast.iter_child_nodes(test) if compound else [test])
        if isinstance(part, ast.expr) and not isinstance(part, ast.Constant) and part is not function
    ]


def _value(part: ast.expr, namespace: dict[str, Any]) -> object:
    try:  # the page's own expression, evaluated again in the page's namespace
        return eval(compile(ast.Expression(part), "<assert>", "eval"), namespace)
    except Exception as error:
        return error


def shown(value: object) -> str:
    """The value's repr, or what its repr raised: a fence's class may define a broken one."""
    try:
        return repr(value)
    except Exception as error:
        return f"(its repr raised {said(error)})"


def loaded(name: str) -> type[Executor]:
    """The executor a provider names as `module:Class`."""
    import importlib

    module, _, qualname = name.partition(":")
    found: Any = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    if not (isinstance(found, type) and issubclass(found, Executor)):
        raise TypeError(f"{name} is not an Executor")
    return found
