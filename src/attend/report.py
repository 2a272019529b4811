"""The chapter's tables as text: what `attend MODE` prints.

Each function returns the whole printout of one mode, so the command, the book and the
tests all read the same text. Numbers go out at four decimals, as the chapter prints them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from attend.chapter import DK, WK, WQ, WV, D, chapter_head, chapter_row, chapter_tokens
from attend.chronicle import CHAPTER_ENTRY
from attend.embedding import SLOTS
from attend.experiments import cost_sweep, crossover, scale_experiment
from attend.head import Workings
from attend.layer import Layer
from attend.tokenizer import load_tokenizer

__all__ = ["cost", "project", "row", "scale", "scores", "square", "weights"]

LABEL = 24  # characters of a token's quoted text before it is cut short
CORNER = "query \\ key"  # rows are the asking tokens, columns the ones asked


def label(token_id: int) -> str:
    """A token's text in quotes, cut to fit a table's first column."""
    text = '"' + load_tokenizer().piece(token_id).decode("utf-8", errors="replace") + '"'
    return text if len(text) <= LABEL else text[: LABEL - 3] + "..."


def numbers(values: Iterable[float], width: int = 9) -> str:
    return "".join(f"{value:{width}.4f}" for value in values)


def square_table(matrix: npt.NDArray[np.float64], caption: str) -> list[str]:
    """An n×n (or n×dk) block with a token label on each row."""
    header = "".join(f"{j:9d}" for j in range(1, matrix.shape[1] + 1))
    lines = [f"  {caption}", f"    {CORNER:<24}{header}"]
    lines += [f"    {label(t):<24}{numbers(r)}" for t, r in zip(chapter_tokens(), matrix, strict=True)]
    return lines


def divide_line(run: Workings) -> str:
    if run.div == 1.0:
        return "  the divide  left off: every score is used as it came out"
    return f"  the divide  by {run.div:.4f}, the square root of {run.k.shape[1]}"


def row() -> str:
    tokenizer = load_tokenizer()
    ids = tokenizer.encode(CHAPTER_ENTRY)
    size = len(CHAPTER_ENTRY.encode())
    lines = [
        f"attend: the row the head reads, cut by a table of {len(tokenizer)} tokens",
        "",
        f"  one chronicle entry, {size} bytes, encodes to {len(ids)} tokens",
        f"    {CHAPTER_ENTRY}",
        f"  decoded again it is the same {size} bytes: {str(tokenizer.decode(ids) == CHAPTER_ENTRY).lower()}",
        "",
        f"  its first {len(chapter_tokens())} tokens",
        "      n     id  bytes  stands for",
    ]
    for n, token in enumerate(chapter_tokens(), start=1):
        piece = tokenizer.piece(token)
        lines.append(f"  {n:5d}  {token:5d}  {len(piece):5d}  {label(token)}")
    lines += [
        "",
        "  the four numbers each one arrives with, typed by a rule and not learned",
        "      n " + " " * 24 + "".join(f"{slot:>18}" for slot in SLOTS),
    ]
    for n, (token, typed) in enumerate(zip(chapter_tokens(), chapter_row(), strict=True), 1):
        lines.append(f"  {n:5d} {label(token):<24}" + "".join(f"{v:18.2f}" for v in typed))
    return "\n".join(lines)


def weights() -> str:
    lines = [f"attend: the three stored matrices, {D * DK} numbers each, one run of {D} per slot"]
    for name, matrix in (("Wq", WQ), ("Wk", WK), ("Wv", WV)):
        lines.append("")
        for slot in range(DK):
            run = matrix[slot * D : (slot + 1) * D]
            lines.append(f"  {name if slot == 0 else '  '} slot {slot + 1} {numbers(run)}")
    return "\n".join(lines)


def project() -> str:
    run = chapter_head().attend(chapter_row())
    lines = ["attend: the three projections of each token", ""]
    for n, token in enumerate(chapter_tokens()):
        for part, matrix in (("query", run.q), ("key", run.k), ("value", run.v)):
            first = f"{n + 1:5d} {label(token):<24}" if part == "query" else " " * 30
            lines.append(f"{first} {part:<6}{numbers(matrix[n])}")
        lines.append("")
    layer = Layer(D, WQ, (0.0,) * DK)
    by_head, by_layer = run.q[1], layer.forward(run.x[1])
    lines += [
        "  token 2's query, worked out two ways",
        f"    {'attend.Head, projecting':<30}{numbers(by_head)}",
        f"    {'attend.layer.Layer, no biases':<30}{numbers(by_layer)}",
        f"    {'the same numbers':<30}{str(bool(np.array_equal(by_head, by_layer))).lower():>9}",
    ]
    return "\n".join(lines)


def square(scale: bool = True) -> str:
    run = chapter_head(scale).attend(chapter_row())
    n, dk = run.raw.shape[0], run.k.shape[1]
    return "\n".join(
        [
            f"attend: each query against each key, {n} tokens, keys {dk} wide",
            "",
            divide_line(run),
            "",
            *square_table(run.raw, "each query dotted with each key"),
            "",
            *square_table(run.scaled, f"the same square divided by {run.div:.4f}"),
        ]
    )


def scores(scale: bool = True) -> str:
    run = chapter_head(scale).attend(chapter_row())
    lines = [
        "attend: the rows as shares of one, and the values mixed in those shares",
        "",
        divide_line(run),
        "",
        *square_table(run.attn, "each row as shares of one"),
        "",
        "  what each row comes to",
    ]
    for i, shares in enumerate(run.attn, start=1):
        top = int(shares.argmax())
        lines.append(
            f"    row {i}  sums to {shares.sum():.4f}   its largest share, "
            f"{shares[top]:.4f}, goes to token {top + 1}"
        )
    cost = run.cost
    lines += [
        "",
        *square_table(run.out, "the values, mixed in those shares"),
        "",
        "  token 2, before and after",
        f"    {'arrives as':<24}{numbers(run.x[1])}",
        f"    {'leaves as':<24}{numbers(run.out[1])}",
        "",
        "  the multiply-adds it took",
        f"    {'queries, keys and values':<34}{cost.project:9d}",
        f"    {'each query against each key':<34}{cost.score:9d}",
        f"    {'mixing the values':<34}{cost.mix:9d}",
        f"    {'altogether':<34}{cost.total:9d}",
    ]
    return "\n".join(lines)


def scale(widths: Sequence[int], count: int, seed: int) -> str:
    lines = [
        f"attend: what the divide does, {count} rows of four tokens at each width",
        "",
        f"  queries and keys drawn from numpy's default_rng({seed}), afresh at each width",
        "",
        "           ---- divided by the root ----   -------- left undivided --------",
        "    keys     spread   biggest  rows at      spread   biggest  rows at",
        "    wide   of a row     share     0.99    of a row     share     0.99",
    ]
    for r in scale_experiment(widths, count, seed):
        a, b = r.divided, r.undivided
        lines.append(
            f"  {r.width:6d} {a.spread:10.4f}{a.biggest:10.4f}{a.confident:9d}"
            f"  {b.spread:10.4f}{b.biggest:10.4f}{b.confident:9d}"
        )
    return "\n".join(lines)


def cost(rows: Sequence[int]) -> str:
    costs = cost_sweep(rows)
    lines = [
        "attend: one head at several row lengths, multiply-adds counted where they happen",
        "",
        f"  {D} numbers a token, keys {DK} wide, each row cut from the front of the chronicle",
        "",
        "    tokens  q, k and v  the pairs  altogether  x row above  pairs' share",
    ]
    previous = None
    for c in costs:
        ratio = f"{c.total / previous.total:13.2f}" if previous else " " * 13
        lines.append(
            f"  {c.tokens:8d}{c.project:12d}{c.score + c.mix:11d}{c.total:12d}"
            f"{ratio}{100 * c.quadratic / c.total:13.1f}%"
        )
        previous = c
    last = costs[-1]
    n = last.tokens
    projections, pairs = 3 * n * D * DK, 2 * n * n * DK
    lines += [
        "",
        f"  the count held against the formula, at {n} tokens",
        f"    {f'3 x {n} x {D} x {DK}, the projections':<44}{projections:12d}",
        f"    {f'2 x {n} x {n} x {DK}, the pairs':<44}{pairs:12d}",
        f"    {'adding up to':<44}{projections + pairs:12d}",
        f"    {'what the head counted':<44}{last.total:12d}",
        f"    {'the same number':<44}{str(projections + pairs == last.total).lower():>12}",
        "",
        "  where the pairs overtake the projections",
        f"    2 x n x n x Dk first passes 3 x n x D x Dk at n = {crossover():d}",
    ]
    return "\n".join(lines)
