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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn

from attend import render, tables
from attend.chapter import D_MODEL
from attend.checks import WORK_LIMIT, amount, draw_work, generation_work, sequence_work, within_work
from attend.tokenizer import chronicle_ids
from attend.training import DEFAULTS, MOST_STEPS, MOST_WIDTH, Settings

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["main"]

DISTRIBUTION = "attend-head"  # this package's name on PyPI, where `attend` is someone else's
MOST_ITEMS = 100  # lengths or widths one flag may list
MOST_DIGITS = 20  # digits one number may have
BOUND = (
    f"One run handles at most {WORK_LIMIT:,} numbers, reckoned before it starts: a cost "
    "row of n tokens counts 3 x n x n, a scale width w counts COUNT x (5 x w + 20), summed "
    f"over the {MOST_ITEMS} lengths or widths a flag may list at most, and kvcache counts "
    "3 x H x t x t for each of its steps t. That keeps a run "
    "under 1 GiB of memory and a few seconds. learn trains at most "
    f"{MOST_STEPS:,} steps at a width of at most {MOST_WIDTH}, about a quarter of a minute."
)
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
        # our own complaints already name their flag; drop argparse's "argument --rows: " before them
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


def whole_number(flag: str, text: str, least: int = 1) -> int:
    """One whole number of at least `least` in ASCII digits, or a complaint naming the flag."""
    digits = text.strip(" ")
    if not re.fullmatch(r"-?[0-9]+", digits):
        shown = repr(digits) if len(digits) <= 24 else repr(digits[:21]) + "..."
        raise argparse.ArgumentTypeError(
            f"{flag} takes whole numbers in the digits 0 to 9, and {shown} is not one"
        )
    if len(digits.lstrip("-")) > MOST_DIGITS:
        raise argparse.ArgumentTypeError(f"{flag} takes numbers of at most {MOST_DIGITS} digits")
    value = int(digits)
    if value < least:
        raise argparse.ArgumentTypeError(f"{flag} takes numbers of at least {least}, not {value}")
    return value


def one(flag: str, least: int = 1) -> Callable[[str], int]:
    """The reader argparse calls for a flag that takes one whole number."""
    return lambda text: whole_number(flag, text, least)


def many(flag: str, *, tokens: bool = False) -> Callable[[str], list[int]]:
    """A comma-separated list of whole numbers of at least 1; with `tokens`, each a row
    length the chronicle is long enough to give."""

    def parse(text: str) -> list[int]:
        parts = text.split(",")
        if len(parts) > MOST_ITEMS:
            raise argparse.ArgumentTypeError(
                f"{flag} lists {len(parts)} numbers and takes at most {MOST_ITEMS}"
            )
        values = [whole_number(flag, part) for part in parts]
        if tokens:
            in_chronicle(flag, max(values))
        return values

    return parse


def in_chronicle(flag: str, longest: int) -> int:
    """`longest` if the chronicle holds that many tokens, else a complaint naming the flag."""
    if len(chronicle_ids()) < longest:
        raise argparse.ArgumentTypeError(
            f"{flag} asks for {amount(longest, 'token')} and the chronicle holds {len(chronicle_ids())}"
        )
    return longest


def length(flag: str) -> Callable[[str], int]:
    """One row length in tokens that the chronicle is long enough to give."""
    return lambda text: in_chronicle(flag, whole_number(flag, text))


def split(flag: str) -> Callable[[str], int]:
    """A number of heads that the chapter's d_model numbers split into evenly."""

    def parse(text: str) -> int:
        h = whole_number(flag, text)
        if D_MODEL % h:
            *most, last = [str(n) for n in range(1, D_MODEL + 1) if D_MODEL % n == 0]
            evenly = f"{', '.join(most)} or {last}"
            raise argparse.ArgumentTypeError(
                f"{flag} takes {evenly}: the chapter's {D_MODEL} numbers split into heads of equal width, "
                f"not {h}"
            )
        return h

    return parse


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


def parser() -> Parser:
    top = Parser(
        prog="attend",
        description="Print the tables of one attention head, computed.",
        epilog=BOUND,
        allow_abbrev=False,
    )
    top.add_argument("--version", action=Version, help="print the installed version and exit")
    modes = top.add_subparsers(dest="mode", required=True, metavar="MODE", parser_class=Parser)
    helps = {
        "row": "the chapter's entry, its tokens and their typed numbers",
        "weights": "the three stored matrices",
        "project": "each token's query, key and value",
        "square": "every query against every key",
        "scores": "the attention weights and the mixed values",
        "scale": "what the divide does, measured at several widths",
        "cost": "the counted multiply-adds at several sequence lengths",
        "positions": "rows 2 and 4 told apart by sinusoidal or rotary positions",
        "mask": "the square under the causal mask",
        "heads": "the matrices cut into several heads, joined by Wo",
        "kvcache": "generating token by token, with and without a KV cache",
        "learn": "a head and a baseline without one, trained on the chronicle",
    }
    mode = {
        name: modes.add_parser(
            name,
            help=text,
            allow_abbrev=False,
            epilog=BOUND if name in ("scale", "cost", "kvcache", "learn") else None,
        )
        for name, text in helps.items()
    }
    for name in ("square", "scores"):
        mode[name].add_argument("--no-scale", action="store_true", help="leave the divide by √dk off")
    scale, cost = mode["scale"], mode["cost"]
    scale.add_argument(
        "--widths",
        type=many("--widths"),
        default=[4, 16, 64, 256],
        metavar="W,W,...",
        help="key widths to measure, comma-separated (default: 4,16,64,256)",
    )
    scale.add_argument(
        "--count",
        type=one("--count"),
        default=1000,
        metavar="N",
        help="draws at each width (default: 1000)",
    )
    scale.add_argument(
        "--seed",
        type=one("--seed", least=0),
        default=82,
        metavar="N",
        help="where numpy's generator starts at every width (default: 82)",
    )
    cost.add_argument(
        "--rows",
        type=many("--rows", tokens=True),
        default=[4, 8, 16, 32],
        metavar="N,N,...",
        help="sequence lengths in tokens, each the first tokens of the chronicle (default: 4,8,16,32)",
    )
    for name, default in (("heads", 2), ("kvcache", 1)):
        mode[name].add_argument(
            "--heads",
            type=split("--heads"),
            default=default,
            metavar="H",
            help=f"heads to cut the {D_MODEL} numbers into: 1, 2 or 4 (default: {default})",
        )
    mode["kvcache"].add_argument(
        "--tokens",
        type=length("--tokens"),
        default=8,
        metavar="N",
        help="tokens to generate, the front of the chronicle (default: 8)",
    )
    learn = mode["learn"]
    learn.add_argument(
        "--seed",
        type=one("--seed", least=0),
        default=DEFAULTS.seed,
        metavar="N",
        help=f"where the weights and the batches start (default: {DEFAULTS.seed})",
    )
    learn.add_argument(
        "--width",
        type=width("--width"),
        default=DEFAULTS.d_model,
        metavar="D",
        help=f"d_model, an even number up to {MOST_WIDTH}; d_k is half of it (default: {DEFAULTS.d_model})",
    )
    learn.add_argument(
        "--steps",
        type=steps("--steps"),
        default=DEFAULTS.steps,
        metavar="N",
        help=f"Adam steps, at most {MOST_STEPS:,} (default: {DEFAULTS.steps})",
    )
    return top


def width(flag: str) -> Callable[[str], int]:
    """An even d_model from 2 up to `MOST_WIDTH`: sinusoidal positions fill dimensions in pairs."""

    def parse(text: str) -> int:
        d = whole_number(flag, text, least=2)
        if d % 2 or d > MOST_WIDTH:
            raise argparse.ArgumentTypeError(f"{flag} takes an even number from 2 to {MOST_WIDTH}, not {d}")
        return d

    return parse


def steps(flag: str) -> Callable[[str], int]:
    """A number of training steps from 1 to `MOST_STEPS`."""

    def parse(text: str) -> int:
        n = whole_number(flag, text)
        if n > MOST_STEPS:
            raise argparse.ArgumentTypeError(f"{flag} takes at most {MOST_STEPS:,} steps, not {n:,}")
        return n

    return parse


def work(args: argparse.Namespace) -> tuple[int, str, str]:
    """The numbers a run will handle, by `WORK_LIMIT`'s reckoning, its name and what to ask
    instead."""
    match args.mode:
        case "cost":
            return sum(map(sequence_work, args.rows)), "cost", "ask for shorter or fewer rows"
        case "scale":
            handled = sum(draw_work(args.count, w) for w in args.widths)
            return handled, "scale", "ask for a smaller --count or fewer or narrower --widths"
        case "kvcache":
            handled = generation_work(args.tokens, args.heads)
            return handled, "kvcache", "ask for fewer --tokens or --heads"
        case _:
            return 0, args.mode, ""  # the chapter's own tables: a few hundred numbers


def printout(args: argparse.Namespace) -> str:
    """The text of one mode, computed and then rendered."""
    match args.mode:
        case "row":
            return render.entry(tables.entry())
        case "weights":
            return render.weights(tables.weights())
        case "project":
            return render.project(tables.project())
        case "square":
            return render.square(tables.square(divide=not args.no_scale))
        case "scores":
            return render.scores(tables.scores(divide=not args.no_scale))
        case "scale":
            return render.scale(tables.scale(args.widths, count=args.count, seed=args.seed))
        case "positions":
            return render.positions(tables.positions())
        case "mask":
            return render.mask(tables.mask())
        case "heads":
            return render.heads(tables.heads(args.heads))
        case "kvcache":
            return render.kvcache(tables.kvcache(args.tokens, args.heads))
        case "learn":
            settings = Settings(seed=args.seed, d_model=args.width, steps=args.steps)
            return render.learning(tables.learning(settings))
        case _:
            return render.cost(tables.cost(args.rows))


def main(argv: Sequence[str] | None = None) -> int:
    """Print one mode's tables: 0 when done, 2 for a usage error, 1 when output fails
    (or memory runs out), 130 when interrupted."""
    try:
        top = parser()
        args = top.parse_args(argv)
        try:
            within_work(*work(args))
        except ValueError as refused:
            top.error(str(refused))
        write(sys.stdout, printout(args) + "\n", "standard output")
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
