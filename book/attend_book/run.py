"""The runner: a page's executed fences run in order, each one's printed text kept as a `Block`.

One runner serves the build (the plugin hands its blocks to markdown-exec to show), the number
check, the tests and any tool that needs a page's outputs without mkdocs: `run_page`. It runs
each page in a process of its own, this module started afresh (`main`) with the build's
environment and working directory: a fence that changes a module, `os.environ` or the working
directory changes nothing for the pages after it, and the cache can trust that a page's outputs
follow from its code.

That process reads the page from its standard input, then closes it, so a fence that reads from
it (`input()`) fails at once instead of waiting on a terminal. It reports to its parent on a
pipe of its own, kept at a high descriptor, one JSON line per event, written with references
to `json` and `os` taken before any fence runs, so nothing a fence prints, replaces or closes
can pass for a report: `{"at": WHERE}` as each fence starts and as each binding is evaluated,
at its first number's line and column (the parent's clock for the time limit, and what it
names if the process dies or hangs there), then `PageRun.kept()` with the files it read
(`inputs`) when all is done, or `{"failed": MESSAGE}`.

The page's process is two: a holder, which adopts every process the page's code starts however
it detaches (`processes`), and under it the runner, which runs the page. The holder says how
the runner ended (`{"gone": STATUS}`) and stays until the build ends it and all below it, so
nothing a page started outlives its page. The runner fails a page that leaves a process
running, naming the fence it was first seen after, or that prints more than `OUTPUT_LIMIT`
characters, naming the fence that passed it; a copy of the runner (`os.fork()`) that runs on
into the page is stopped as it reaches the next fence. The parent reads the reports in time
linear in their size, and holds each fence to the time limit while output flows.

A `python` fence runs with `exec`, its standard output captured; a `console` fence is a
transcript whose `$ attend …` lines call `attend.cli.main`, the function the installed command
calls. Whatever a fence raises, `exit()` and KeyboardInterrupt
included, is a `FenceError` naming the page, the fence's line and its own failing line; so is a
fence that ends its process or runs past the time limit. A fence that shows an exercise's answer
(`answer="EXPRESSION"`) has that expression evaluated as soon as it ran: one that fails, or gives
no number, bool or array of them to hold a reader's prediction against, fails the page the same
way. After the last fence, each expression the prose binds a number to is evaluated in the
page's namespace: its value, or why it has none.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import fcntl
import io
import json
import math
import os
import resource
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

from attend_book import inputs, processes
from bound_numbers.markdown import Fence, fences
from bound_numbers.reading import read

LANGUAGES = {"python": "python", "py": "python", "console": "console"}
# How long one fence may run, in seconds, unless mkdocs.yml says otherwise (`time_limit` under
# attend-book). The slowest fence today takes under 2.5 s on a busy two-core machine.
TIME_LIMIT = 30.0
# How many characters one page may print, all its fences together. The book's largest page
# prints 71 thousand (its figures' HTML): this is over a hundred times that.
OUTPUT_LIMIT = 8 << 20
# What a fence may not do to the build, said in the words of what it did, under what it raised.
STOPPED: dict[type[BaseException], str] = {
    SystemExit: "\n(a page's code may not end the build (exit() or sys.exit()))",
    KeyboardInterrupt: "\n(a page's code may not raise KeyboardInterrupt)",
}
# The longest integer a report can carry: json writes no int of more than Python's digit limit.
_REPORTED_BITS = int(sys.get_int_max_str_digits() * 3.32) or sys.maxsize
Report = Callable[[dict[str, Any]], None]
# What a page's process reports with, taken before any fence runs: a fence that replaces
# json.dumps, os.write or os._exit changes nothing of how its page is reported.
_ENCODE = json.JSONEncoder().encode
_WRITE, _EXIT, _GETPID = os.write, os._exit, os.getpid
ENDING = 1.0  # seconds a process the page started may take to end after the page is done
LOST = 113  # how the runner exits when its report pipe is gone: closed by a fence, or the build ended
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


class PageRun(NamedTuple):
    """A page's executed fences, the value of each expression its prose binds a number to, and
    the files its process read (`inputs`), when it ran in a process of its own."""

    blocks: list[Block]
    values: dict[str, Value]
    read: tuple[str, ...] = ()

    def kept(self) -> dict[str, Any]:
        """What a page's process reports and the cache keeps: what each fence printed and the
        values; the fences are the page's own (`blocks_of`)."""
        return {"blocks": [{"text": b.text} for b in self.blocks], "values": self.values}


def executed(fence: Fence) -> bool:
    """Whether the build runs this fence: marked to execute, in a language the book runs."""
    return fence.executed and fence.language in LANGUAGES


def commands(transcript: str) -> list[str]:
    """The commands of a transcript: each line after a `$ ` prompt, prompt removed."""
    return [line[2:] for line in transcript.splitlines() if line.startswith("$ ")]


def blocks_of(markdown: str, made: list[dict[str, Any]]) -> list[Block]:
    """The page's blocks from what each executed fence printed (`text`), in page order."""
    return [Block(f, **m) for f, m in zip(filter(executed, fences(markdown)), made, strict=True)]


def run_page(
    path: str,
    markdown: str,
    expressions: Iterable[str] = (),
    *,
    limit: float = TIME_LIMIT,
    most: int = OUTPUT_LIMIT,
    environment: Mapping[str, str] | None = None,
    folder: str | None = None,
) -> PageRun:
    """Every executed fence of a page, run in page order in a fresh process of its own, with
    `environment` (default: this process's) in `folder` (default: this working directory); then
    each of `expressions` evaluated in the namespace they left.

    Nothing another page did can reach that process; `path` names the page in errors. A fence
    that runs past `limit` seconds, prints past `most` characters (the page's fences together),
    ends the process or leaves a process running is a `FenceError` naming its line. The process
    is in a session of its own, so that Ctrl-C stops the build, which then ends the page's
    process and all it started. (Measured: starting each page's process one page ahead, its
    modules loaded while the page before it ran, saved no time the noise of a two-core machine
    did not hide.)
    """
    reports, writing = os.pipe()
    try:
        process = subprocess.Popen(  # -P: the page's folder is not on its sys.path
            (sys.executable, "-P", "-m", "attend_book.run", str(writing)),
            stdin=subprocess.PIPE,
            stdout=2,  # what a fence writes past Python (a child process's output): the log
            pass_fds=(writing,),
            env=environment,
            cwd=folder,
            start_new_session=True,
        )
    except BaseException:
        os.close(reports)
        raise
    finally:
        os.close(writing)
    with process:
        assert process.stdin is not None
        try:
            with contextlib.suppress(BrokenPipeError):  # it died at start: told below
                process.stdin.write(json.dumps([path, markdown, [*expressions], most]).encode())
                process.stdin.close()
            return _heard(reports, process, path, markdown, limit, most)
        finally:  # everything below the page's process, then its session, then the pipe
            processes.end_below(process.pid)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            os.close(reports)


def _heard(
    reports: int, process: subprocess.Popen[bytes], path: str, markdown: str, limit: float, most: int
) -> PageRun:
    """The page's run as its process reports it on the pipe `reports`: each line is read once,
    however it arrives, and each fence has `limit` seconds from its start."""
    where = f"{path}:1: the page's process"
    deadline = time.monotonic() + limit
    longest = 8 * most + (1 << 20)  # a report of `most` characters, escaped, and the values
    line = bytearray()  # a report still being written
    while (left := deadline - time.monotonic()) > 0 and select.select([reports], [], [], left)[0]:
        if not (chunk := os.read(reports, 1 << 16)):  # the holder too is gone: killed outright
            raise FenceError(f"{where} ended the page's process (exit status {process.wait()})")
        *ends, rest = chunk.split(b"\n")
        for end in ends:
            event = _event(bytes(line + end), where)
            line.clear()
            if "failed" in event:
                raise FenceError(event["failed"])
            if "values" in event:
                return PageRun(blocks_of(markdown, event["blocks"]), event["values"], tuple(event["read"]))
            if "gone" in event:
                raise FenceError(f"{where} {_ended(event['gone'])}")
            where, deadline = event["at"], time.monotonic() + limit
        line += rest
        if len(line) > longest:
            raise FenceError(f"{where} sent the build a report of more than {longest >> 20} MB")
    raise FenceError(
        f"{where} ran past the time limit of {limit:g} seconds (`time_limit` under attend-book in mkdocs.yml)"
    )


def _ended(status: int) -> str:
    """How the runner ended, said as what the fence it was in did."""
    if status == LOST:
        return "closed the pipe the page's process reports on (a page's code may close only what it opened)"
    return f"ended the page's process (exit status {status})"


def _event(line: bytes, where: str) -> dict[str, Any]:
    """One report, or a `FenceError` if it is not one: something wrote on the page's pipe."""
    try:
        event = json.loads(line)
    except ValueError:
        event = None
    if not isinstance(event, dict) or not {"at", "failed", "values", "gone"} & event.keys():
        raise FenceError(f"{where} wrote on the page's report pipe: {line[:60]!r}")
    return event


def run_here(
    path: str,
    markdown: str,
    expressions: Iterable[str] = (),
    report: Report = lambda event: None,
    printed: Callable[[], io.StringIO] = io.StringIO,
) -> PageRun:
    """Every executed fence of the page, in page order, in this process; then `expressions`,
    evaluated in the namespace the fences left. Each step is `report`ed as it starts; what a
    fence prints goes into a new `printed()`.

    The build runs it only in a page's own process (`main`); a test that changes the package
    in its own process on purpose (the mutation suite's weights) runs it there."""
    module = types.ModuleType("attend_book_page")
    sys.modules[module.__name__] = module  # so classes a fence defines know their module
    blocks = []
    try:
        for fence in filter(executed, fences(markdown)):
            report({"at": f"{path}:{fence.line}: this fence"})
            if LANGUAGES[fence.language] == "console":
                shown = printed()  # the command's output, counted as a fence's is
                shown.write(run_transcript(fence.body, f"{path}:{fence.line}"))
                blocks.append(Block(fence, shown.getvalue()))
            else:
                blocks.append(_run_python(fence, module.__dict__, path, printed()))
                if "answer" in fence.options:
                    _check_answer(fence, module.__dict__, path)
        places = {b.expression: b.numerals[0] for b in reversed(read(markdown).bindings)}
        values: dict[str, Value] = {}
        for expression in expressions:  # each named as it starts, should it hang or end the process
            at = places.get(expression)
            where = f"{at.line}:{at.column + 1}" if at else "1"
            report({"at": f"{path}:{where}: the binding {{= {expression}}}"})
            values |= evaluate([expression], module.__dict__)
        return PageRun(blocks, values)
    finally:
        del sys.modules[module.__name__]


def run_transcript(transcript: str, where: str = "a page") -> str:
    """What each `$ attend …` line of a transcript prints, run in this process, in order."""
    from attend.cli import main

    printed = io.StringIO()
    for line in commands(transcript):
        argv = words(line, where)
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


def words(command: str, where: str) -> list[str]:
    """A transcript's command split as a shell splits it, or a `FenceError` saying why not."""
    try:
        return shlex.split(command)
    except ValueError as error:  # an unclosed quote
        raise FenceError(f"{where}: the transcript line `$ {command}` cannot be split: {error}") from None


def _run_python(fence: Fence, namespace: dict[str, object], path: str, printed: io.StringIO) -> Block:
    name = f"<{path}:{fence.line}>"
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(fence.body, name, "exec"), namespace)
    except BaseException as error:  # exit() and Ctrl-C too: the page failed, not the build
        if isinstance(error, SyntaxError) and error.filename == name:
            inside, said = error.lineno or 1, f"SyntaxError: {error.msg}"
        else:
            frames = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == name]
            inside, said = (frames or [1])[-1] or 1, _brief(_said(error))
        if isinstance(error, AssertionError):
            said += _compared(fence.body, inside, namespace)
        said += STOPPED.get(type(error), "")
        failing = fence.body.splitlines()[inside - 1].strip()
        raise FenceError(
            f"{path}:{fence.line + inside}: a python fence failed at `{failing}`:\n{said}"
        ) from None
    return Block(fence, printed.getvalue())


def _check_answer(fence: Fence, namespace: dict[str, object], path: str) -> None:
    """An exercise's answer (`answer="EXPRESSION"` on the fence that shows it) must give what a
    reader's prediction can be checked against: a finite number, a bool, or an array of them."""
    expression = fence.options["answer"]
    try:
        value = eval(compile(expression, "<answer>", "eval"), namespace)
    except Exception as error:
        said = _said(error).splitlines()[-1]
    else:
        if _numeric(value):
            return
        said = f"{type(value).__name__} {value!r:.60}"
    raise FenceError(
        f"{path}:{fence.line}: the answer `{expression}` gives no number to check against: {said}"
    )


def _numeric(value: object) -> bool:
    """Whether `value` (numpy's included) is a finite number or bool, or a non-empty array of them."""
    if callable(tolist := getattr(value, "tolist", None)):
        value = tolist()
    if isinstance(value, list | tuple):
        return bool(value) and all(map(_numeric, value))
    return isinstance(value, int | float) and math.isfinite(value)


def _said(error: BaseException) -> str:
    return "".join(traceback.format_exception_only(error)).rstrip()


def _brief(said: str, lines: int = 4, width: int = 200) -> str:
    """An exception's message as the build reports it: its first `lines` lines, each cut at
    `width` characters, and how many more there were; a 5 KB message is not a report."""
    every = said.splitlines()
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


def plain(value: object) -> Value:
    """`value` as a number or nested list of numbers (numpy's included), or why it is not one."""
    if callable(tolist := getattr(value, "tolist", None)):  # numpy's arrays and scalars
        value = tolist()
    if isinstance(value, int) and value.bit_length() > _REPORTED_BITS:  # json could not write it
        return "is an integer of thousands of digits, past what a written number can quote"
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


class Channel:
    """The pipe a page's process reports on, moved to a descriptor high above those a program
    opens (which `os.closerange(3, 256)` leaves alone), not inherited by what a fence starts."""

    def __init__(self, descriptor: int) -> None:
        ceiling = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        high = min(ceiling if ceiling > 0 else 1024, 1024) - 1
        self.descriptor = fcntl.fcntl(descriptor, fcntl.F_DUPFD_CLOEXEC, high)
        os.close(descriptor)

    def send(self, event: dict[str, Any]) -> None:
        """Write one report whole; if the pipe is gone (closed by a fence, or the build ended),
        end this process with the status that says so, and nothing on the terminal."""
        data = memoryview((_ENCODE(event) + "\n").encode())
        try:
            while data:
                data = data[_WRITE(self.descriptor, data) :]
        except OSError:
            _EXIT(LOST)


class Room:
    """How many more characters a page may print, all its fences together, and what is done
    when a fence prints past them: in a page's process, `full` reports the fence and ends the
    process, so no `except` in the fence can let the output grow on."""

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


def _hold(runner: int, build: int, channel: Channel) -> None:
    """The holder's part: say how the runner ended, then wait for the build to end this process
    and all below it; if the build is killed outright, end them itself."""
    threading.Thread(target=_end_with, args=(build,), daemon=True).start()
    status = os.waitpid(runner, 0)[1]
    channel.send({"gone": os.waitstatus_to_exitcode(status)})
    threading.Event().wait()


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
    """End this process and all below it once `build`, its parent, is gone: a build killed
    outright leaves no page running on, past any time limit."""
    while os.getppid() == build:
        time.sleep(0.5)
    processes.end_below(os.getpid())
    os.killpg(0, signal.SIGKILL)


def _run(path: str, markdown: str, expressions: list[str], most: int, channel: Channel) -> None:
    """The runner's part: run the page, report each step, and fail it for a process it leaves
    running (named by the fence it was first seen after) or output past `most` characters."""
    inputs.record()
    runner, holder = _GETPID(), os.getppid()
    where = f"{path}:1: the page's process"
    seen: dict[int, str] = {}  # each process below the holder, and the step it was first seen after

    def look() -> list[int]:
        running = [pid for pid in processes.below(holder) if pid != runner]
        for pid in running:
            seen.setdefault(pid, where)
        return running

    def report(event: dict[str, Any]) -> None:
        nonlocal where
        if _GETPID() != runner:  # a copy of the runner, forked by a fence, ran on into the page
            said = "forked the page's process (os.fork()) and the copy ran on into the page"
            channel.send({"failed": f"{where} {said}; a forked copy must end with os._exit()"})
            _EXIT(1)
        if "at" in event:
            look()
            where = event["at"]
        channel.send(event)

    def full() -> None:
        said = f"printed more than {most / (1 << 20):g} MB, the most one page may print (its fences together)"
        channel.send({"failed": f"{where} {said}"})
        _EXIT(1)

    try:
        ran = run_here(path, markdown, expressions, report, printed=Room(most, full).printed)
        deadline = time.monotonic() + ENDING  # one ending as the page ends is not left running
        while (left := look()) and time.monotonic() < deadline:
            time.sleep(0.02)
        if left:
            started = seen[left[0]]
            ended = ", ".join(map(processes.named, left))
            raise FenceError(f"{started} left processes running when its page was done, now ended: {ended}")
        channel.send({**ran.kept(), "read": inputs.read()})
    except FenceError as error:
        channel.send({"failed": str(error)})
    _EXIT(0)


def main() -> None:
    """A page's own process: read the page, close standard input, keep the report pipe, adopt
    whatever the page starts; then the runner runs the page while this process holds on."""
    channel = Channel(int(sys.argv[1]))
    path, markdown, expressions, most = json.load(sys.stdin)
    sys.stdin.close()  # Python's reads fail; the descriptor, at its end, gives a child process nothing
    processes.adopt()
    build = os.getppid()
    if runner := os.fork():
        _hold(runner, build, channel)
    else:
        _run(path, markdown, expressions, most, channel)


if __name__ == "__main__":
    main()
