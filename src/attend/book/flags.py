"""The flags of `attend`'s modes: how one is declared, and the readers that turn its text into a value.

A reader takes the flag's name and the text typed after it and returns the value, or raises
`argparse.ArgumentTypeError` with one line naming the flag: numbers in the ASCII digits 0 to 9
only, so that `１６` or `1_000` is a complaint and never a silent guess.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from dataclasses import dataclass

from attend.book.chapter import D_MODEL
from attend.core.checks import amount
from attend.core.tokenizer import chronicle_ids
from attend.core.training import MOST_STEPS, MOST_WIDTH

__all__ = [
    "MOST_DIGITS",
    "MOST_ITEMS",
    "NO_SCALE",
    "Flag",
    "chronicle_length",
    "chronicle_lengths",
    "even_width",
    "from_zero",
    "head_count",
    "heads_flag",
    "steps",
    "whole_number",
    "whole_numbers",
]

MOST_ITEMS = 100  # lengths or widths one flag may list
MOST_DIGITS = 20  # digits one number may have

Reader = Callable[[str, str], object]  # (the flag, the text after it) -> its value


@dataclass(frozen=True)
class Flag:
    """One flag of a mode: its name, what it is for, how its text is read and its default.

    The value reaches the mode's table as the keyword `keyword` (the name without its dashes if
    not given). A flag with no reader is a switch: given, it turns `keyword` to the opposite of
    `default` (`--no-scale` turns `divide` off).
    """

    name: str
    help: str
    read: Reader | None = None
    default: object = None
    metavar: str | None = None
    keyword: str | None = None

    @property
    def dest(self) -> str:
        return self.keyword or self.name.lstrip("-").replace("-", "_")

    @property
    def described(self) -> str:
        """The help line, with the default said where there is one to say."""
        if self.read is None:
            return self.help
        shown = ",".join(map(str, self.default)) if isinstance(self.default, list) else self.default
        return f"{self.help} (default: {shown})"


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


def from_zero(flag: str, text: str) -> int:
    """A whole number from 0, as where a random generator starts."""
    return whole_number(flag, text, least=0)


def whole_numbers(flag: str, text: str) -> list[int]:
    """A comma-separated list of at most `MOST_ITEMS` whole numbers, each at least 1."""
    parts = text.split(",")
    if len(parts) > MOST_ITEMS:
        raise argparse.ArgumentTypeError(f"{flag} lists {len(parts)} numbers and takes at most {MOST_ITEMS}")
    return [whole_number(flag, part) for part in parts]


def _in_chronicle(flag: str, longest: int) -> int:
    """`longest` if the chronicle holds that many tokens, else a complaint naming the flag."""
    if len(chronicle_ids()) < longest:
        raise argparse.ArgumentTypeError(
            f"{flag} asks for {amount(longest, 'token')} and the chronicle holds {len(chronicle_ids())}"
        )
    return longest


def chronicle_length(flag: str, text: str) -> int:
    """One sequence length in tokens that the chronicle is long enough to give."""
    return _in_chronicle(flag, whole_number(flag, text))


def chronicle_lengths(flag: str, text: str) -> list[int]:
    """Sequence lengths, each one the chronicle is long enough to give."""
    lengths = whole_numbers(flag, text)
    _in_chronicle(flag, max(lengths))
    return lengths


def head_count(flag: str, text: str) -> int:
    """A number of heads that the chapter's d_model numbers split into evenly."""
    h = whole_number(flag, text)
    if D_MODEL % h:
        *most, last = [str(n) for n in range(1, D_MODEL + 1) if D_MODEL % n == 0]
        raise argparse.ArgumentTypeError(
            f"{flag} takes {', '.join(most)} or {last}: the chapter's {D_MODEL} numbers split into heads "
            f"of equal width, not {h}"
        )
    return h


def even_width(flag: str, text: str) -> int:
    """An even d_model from 2 up to `MOST_WIDTH`: sinusoidal positions fill dimensions in pairs."""
    d_model = whole_number(flag, text, least=2)
    if d_model % 2 or d_model > MOST_WIDTH:
        raise argparse.ArgumentTypeError(f"{flag} takes an even number from 2 to {MOST_WIDTH}, not {d_model}")
    return d_model


def steps(flag: str, text: str) -> int:
    """A number of training steps from 1 to `MOST_STEPS`."""
    n = whole_number(flag, text)
    if n > MOST_STEPS:
        raise argparse.ArgumentTypeError(f"{flag} takes at most {MOST_STEPS:,} steps, not {n:,}")
    return n


NO_SCALE = Flag("--no-scale", "leave the scaling by 1/√d_k off", default=True, keyword="divide")


def heads_flag(default: int) -> Flag:
    """`--heads`, as the modes that cut the chapter's matrices into heads take it."""
    return Flag("--heads", f"heads to cut the {D_MODEL} numbers into: 1, 2 or 4", head_count, default, "H")
