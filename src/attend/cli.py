"""`attend MODE`: every table of the chapter, printed by the code that computes it.

A bad flag gets one line on stderr naming the problem and exit status 2; a traceback would
tell a reader about our code rather than about what they typed.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from attend import report
from attend.tokenizer import chronicle_ids

__all__ = ["main"]

MAX_DRAWS = 1 << 23  # rows × width the scale experiment may draw: a few hundred MB at most


class Parser(argparse.ArgumentParser):
    """An argument parser whose complaints are one line, not a usage block."""

    def error(self, message: str) -> NoReturn:
        # our own complaints already name their flag; drop argparse's "argument --rows: " before them
        self.exit(2, f"attend: {re.sub(r'^argument [^:]+: (?=--)', '', message)}\n")


def whole_number(flag: str, text: str, least: int = 1) -> int:
    """One whole number of at least `least`, or a complaint naming the flag."""
    try:
        value = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{flag} takes whole numbers, and {text.strip()!r} is not one"
        ) from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{flag} takes numbers of at least {least}, not {value}")
    return value


def one(flag: str, least: int = 1) -> Callable[[str], int]:
    return lambda text: whole_number(flag, text, least)


def many(flag: str, most: Callable[[], int] | None = None) -> Callable[[str], list[int]]:
    """A comma-separated list of whole numbers of at least 1, and at most `most()` if given."""

    def parse(text: str) -> list[int]:
        values = [whole_number(flag, part) for part in text.split(",")]
        if most is not None and max(values) > (limit := most()):
            raise argparse.ArgumentTypeError(
                f"{flag} asks for {max(values)} tokens and the chronicle holds {limit}"
            )
        return values

    return parse


def parser() -> Parser:
    top = Parser(prog="attend", description="Print the tables of one attention head, computed.")
    modes = top.add_subparsers(dest="mode", required=True, metavar="MODE", parser_class=Parser)
    modes.add_parser("row", help="the chapter's entry, its tokens and their typed numbers")
    modes.add_parser("weights", help="the three stored matrices")
    modes.add_parser("project", help="each token's query, key and value")
    for name, text in (
        ("square", "every query against every key"),
        ("scores", "the shares of one and the mixed values"),
    ):
        mode = modes.add_parser(name, help=text)
        mode.add_argument("--no-scale", action="store_true", help="leave the divide by √dk off")
    scale = modes.add_parser("scale", help="what the divide does, measured at several widths")
    scale.add_argument("--widths", type=many("--widths"), default=[4, 16, 64, 256])
    scale.add_argument("--count", type=one("--count"), default=1000)
    scale.add_argument("--seed", type=one("--seed", least=0), default=82)
    cost = modes.add_parser("cost", help="the counted multiply-adds at several row lengths")
    cost.add_argument(
        "--rows", type=many("--rows", most=lambda: len(chronicle_ids())), default=[4, 8, 16, 32]
    )
    return top


def render(args: argparse.Namespace) -> str:
    match args.mode:
        case "square" | "scores":
            return str(getattr(report, args.mode)(scale=not args.no_scale))
        case "scale":
            if args.count * max(args.widths) > MAX_DRAWS:
                raise argparse.ArgumentTypeError(
                    f"--count {args.count} at width {max(args.widths)} would draw "
                    f"{args.count * max(args.widths)} numbers a query, more than the {MAX_DRAWS} allowed; "
                    "ask for fewer rows or narrower keys"
                )
            return report.scale(args.widths, args.count, args.seed)
        case "cost":
            return report.cost(args.rows)
        case mode:
            return str(getattr(report, mode)())


def main(argv: Sequence[str] | None = None) -> int:
    """Print one mode's printout; 2 and one line on stderr for anything it cannot run."""
    top = parser()
    args = top.parse_args(argv)
    try:
        text = render(args)
    except argparse.ArgumentTypeError as problem:
        top.error(str(problem))
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stderr.close()  # a reader piped us into `head`; the rest is not wanted
    return 0
