"""`attend MODE`: every table of the chapter, printed by the code that computes it.

Whatever goes wrong, the reader gets one line on stderr and an exit status, never a
traceback, because a traceback tells them about our code and not about what they typed:

- 2 for a usage error: a flag the command does not know, a number it cannot read, or a run
  bigger than the bound below;
- 1 when the output cannot be written: standard output closed, or a full disk.

A reader who pipes the output into `head` has stopped reading, not hit an error, so a
broken pipe ends the run quietly with status 0.

The bound is reckoned from the flags alone, before any work starts (see `WORK_LIMIT`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn

from attend.book import registry
from attend.book.modes import Mode
from attend.core.checks import within_work

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["main"]

DISTRIBUTION = "attend-head"  # this package's name on PyPI, where `attend` is someone else's
PLAIN = str.maketrans({"√": "sqrt ", "×": "x", "−": "-", "…": "...", "²": "^2", "·": "*"})


class OutputError(Exception):
    """The output could not be written: a closed stream or a full disk."""


def fit(text: str, stream: SupportsWrite[str]) -> str:
    """`text` as the stream's encoding can carry it: √ as "sqrt", anything else as "?"."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return text.translate(PLAIN).encode(encoding, errors="replace").decode(encoding)
    return text


def write(stream: SupportsWrite[str] | None, text: str, name: str) -> None:
    """Write and flush; any failure but a broken pipe becomes `OutputError`, naming `name`."""
    if stream is None:
        raise OutputError(f"{name} is closed, so nothing could be written")
    try:
        stream.write(fit(text, stream))
        getattr(stream, "flush", lambda: None)()
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as problem:  # ValueError: the stream was closed under us
        reason = problem.strerror if isinstance(problem, OSError) and problem.strerror else problem
        raise OutputError(f"cannot write to {name}: {reason}") from None


class Parser(argparse.ArgumentParser):
    """An argument parser whose complaints are one line, not a usage block."""

    def error(self, message: str) -> NoReturn:
        # our own complaints already name their flag; drop argparse's "argument --lengths: " before them
        message = re.sub(r"^argument [^:]+: (?=--)", "", message)
        # an argument may hold a newline or a tab; show it escaped so the complaint stays one line
        message = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
        self.exit(2, f"attend: {message}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message and file is sys.stderr:
            with contextlib.suppress(OutputError):  # a complaint nobody can read: its status says it
                write(file, message, "standard error")
        elif message:
            write(file, message, "standard output")


class Version(argparse.Action):
    """`--version`, looked up only when asked for: reading the installed metadata costs a
    tenth of a run's start-up, which every other run would otherwise pay."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        from importlib.metadata import PackageNotFoundError, version

        try:
            installed = version(DISTRIBUTION)
        except PackageNotFoundError:
            installed = "(not installed, so of no version)"
        write(sys.stdout, f"attend {installed}\n", "standard output")
        parser.exit()


def parser(modes: Mapping[str, Mode[Any]] | None = None) -> Parser:
    """The command's parser: a subcommand for each mode of the registry, with its flags."""
    modes = registry.modes() if modes is None else modes
    top = Parser(
        prog="attend",
        description="Print the tables of one attention head, computed.",
        epilog=registry.bound(),
        allow_abbrev=False,
    )
    top.add_argument("--version", action=Version, help="print the installed version and exit")
    commands = top.add_subparsers(dest="mode", required=True, metavar="MODE", parser_class=Parser)
    for mode in modes.values():
        command = commands.add_parser(
            mode.name, help=mode.help, allow_abbrev=False, epilog=registry.bound(mode) or None
        )
        for flag in mode.flags:
            if flag.read is None:  # a switch: given, it turns its keyword off (or on)
                switched = "store_false" if flag.default else "store_true"
                command.add_argument(flag.name, dest=flag.dest, action=switched, help=flag.described)
            else:
                command.add_argument(
                    flag.name,
                    dest=flag.dest,
                    type=partial(flag.read, flag.name),
                    default=flag.default,
                    metavar=flag.metavar,
                    help=flag.described,
                )
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Print one mode's tables: 0 when done, 2 for a usage error, 1 when output fails
    (or memory runs out), 130 when interrupted."""
    try:
        modes = registry.modes()
        top = parser(modes)
        args = top.parse_args(argv)
        mode = modes[args.mode]  # argparse lets only a registered name through, and no other is looked up
        values = {flag.dest: getattr(args, flag.dest) for flag in mode.flags}
        try:
            within_work(mode.handled(values), mode.name, mode.instead)
        except ValueError as refused:
            top.error(str(refused))
        write(sys.stdout, mode.printout(values) + "\n", "standard output")
    except BrokenPipeError:
        silence_stdout()  # the reader stopped reading; the rest is not wanted
    except OutputError as problem:
        silence_stdout()
        return complain(str(problem), 1)
    except KeyboardInterrupt:
        return complain("interrupted", 130)  # the shell's own status for Ctrl-C
    except MemoryError:
        return complain("this machine ran out of memory; ask for a smaller run", 1)
    return 0


def complain(problem: str, status: int) -> int:
    """One line on stderr, if stderr can take it, and the status to exit with."""
    with contextlib.suppress(OutputError):  # if stderr fails too, the status says it
        write(sys.stderr, f"attend: {problem}\n", "standard error")
    return status


def silence_stdout() -> None:
    """Point standard output at the null device, so the unwritten text left in its buffer
    does not fail again, with a traceback-like complaint, when the interpreter exits."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # closed, or not a real file (a test's capture): no buffer will be flushed to it
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)
