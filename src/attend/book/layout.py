"""How every table of `attend` is laid out as text: labels, columns of numbers, captioned blocks.

Nothing here computes. Numbers are printed at four decimals, as the chapter prints them, and a
token is labelled by its text in quotes, so that every mode's text reads alike.
"""

from __future__ import annotations

from collections.abc import Iterable

from attend.book.chapter import Token
from attend.core.arrays import Matrix
from attend.core.head import Workings

__all__ = ["ASKING", "LABEL", "MIXED", "block", "divide_line", "label", "named", "numbers", "tokens_named"]

LABEL = 24  # characters of a token's quoted text before it is cut short in a table
ASKING = "query \\ key"  # a square's rows are the asking tokens, its columns the keys asked
MIXED = "token \\ dim"  # the head's output: a row per token, a column per dimension


def label(token: Token) -> str:
    """A token's text in quotes, cut to fit a table's first column."""
    text = f'"{token.text}"'
    return text if len(text) <= LABEL else text[: LABEL - 3] + "..."


def numbers(values: Iterable[float], width: int = 9) -> str:
    """Numbers at four decimals in columns of `width`, as every table of the chapter has them."""
    return "".join(f"{value:{width}.4f}" for value in values)


def named(name: str, values: Iterable[float], width: int = LABEL) -> str:
    """One row of numbers behind its name, indented under a caption as every table's rows are."""
    return f"    {name:<{width}}{numbers(values)}"


def block(tokens: tuple[Token, ...], matrix: Matrix, caption: str, corner: str = ASKING) -> list[str]:
    """A matrix with a token's label on each row and its columns numbered from 1."""
    header = "".join(f"{j:9d}" for j in range(1, matrix.shape[1] + 1))
    lines = [f"  {caption}", f"    {corner:<24}{header}"]
    lines += [named(label(t), r) for t, r in zip(tokens, matrix, strict=True)]
    return lines


def divide_line(run: Workings) -> str:
    """What the scores were divided by, said first so no reader mistakes which run this is."""
    if not run.divided:
        return "  not scaled: every score is used as it came out"
    return f"  scaled: every score divided by {run.div:.4f}, the square root of d_k = {run.k.shape[1]}"


def tokens_named(numbers: tuple[int, ...]) -> str:
    """`token 3`, or for a tie `tokens 2 and 4`: every token given the largest weight."""
    if len(numbers) == 1:
        return f"token {numbers[0]}"
    return f"tokens {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"
