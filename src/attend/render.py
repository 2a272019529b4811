"""The tables of `attend MODE` as text: what the command prints, laid out from `attend.tables`.

Nothing here computes. Each function takes one table and lays it out, numbers at four
decimals as the chapter prints them, so the same data can be printed, drawn and tested.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from attend.checks import amount
from attend.head import Workings
from attend.tables import (
    CacheTable,
    CostTable,
    Entry,
    HeadsTable,
    LearnTable,
    MaskTable,
    PositionsTable,
    Project,
    ScaleTable,
    Scores,
    Square,
    Token,
    Weights,
)

__all__ = [
    "cost",
    "entry",
    "heads",
    "kvcache",
    "learning",
    "mask",
    "positions",
    "project",
    "scale",
    "scores",
    "square",
    "weights",
]

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


def block(
    tokens: tuple[Token, ...], matrix: npt.NDArray[np.float64], caption: str, corner: str = ASKING
) -> list[str]:
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


def entry(table: Entry) -> str:
    lines = [
        f"attend: the sequence the head reads, cut by a table of {table.vocabulary} tokens",
        "",
        f"  one chronicle entry, {table.size} bytes, encodes to {amount(len(table.ids), 'token')}",
        f"    {table.text}",
        f"  decoded again it is the same {table.size} bytes: {str(table.round_trip).lower()}",
        "",
        f"  its first {amount(len(table.tokens), 'token')}",
        "      n     id  bytes  stands for",
    ]
    for n, token in enumerate(table.tokens, start=1):
        lines.append(f'  {n:5d}  {token.id:5d}  {len(token.piece):5d}  "{token.text}"')
    lines += [
        "",
        "  each token's embedding, four numbers set by a rule, not learned",
        *dimension_header(table.dimensions),
    ]
    for n, (token, typed) in enumerate(zip(table.tokens, table.typed, strict=True), 1):
        lines.append(f"  {n:5d} {label(token):<24}" + "".join(f"{v:11.2f}" for v in typed))
    return "\n".join(lines)


def dimension_header(dimensions: tuple[str, ...]) -> list[str]:
    """What each dimension says over two lines, so the embeddings fit within a page's column."""
    halves = [(" ".join(w[: len(w) // 2]), " ".join(w[len(w) // 2 :])) for w in map(str.split, dimensions)]
    first = "      n " + " " * 24 + "".join(f"{top:>11}" for top, _ in halves)
    return [first, " " * 32 + "".join(f"{bottom:>11}" for _, bottom in halves)]


def weights(table: Weights) -> str:
    each = amount(table.d_model * table.d_k, "number")
    lines = [
        f"attend: three weight matrices of {each}, stored as torch.nn.Linear does:",
        f"  row j holds the {table.d_model} weights that make output dimension j",
    ]
    for name, matrix in table.matrices:
        lines.append("")
        for j, row in enumerate(matrix, start=1):
            lines.append(f"  {name if j == 1 else '  '} row {j}  {numbers(row)}")
    return "\n".join(lines)


def project(table: Project) -> str:
    run = table.run
    lines = ["attend: the three projections of each token", ""]
    for n, token in enumerate(table.tokens):
        for part, matrix in (("query", run.q), ("key", run.k), ("value", run.v)):
            first = f"{n + 1:5d} {label(token):<24}" if part == "query" else " " * 30
            lines.append(f"{first} {part:<6}{numbers(matrix[n])}")
        lines.append("")
    lines += [
        "  token 2's query, worked out two ways",
        named("attend.Head, projecting", table.by_head, 30),
        named("attend.layer.Layer, no biases", table.by_layer, 30),
        f"    {'the same numbers':<30}{str(table.same).lower():>9}",
    ]
    return "\n".join(lines)


def square(table: Square) -> str:
    run = table.run
    n, dk = run.raw.shape[0], run.k.shape[1]
    return "\n".join(
        [
            f"attend: each query against each key, {amount(n, 'token')}, keys {dk} wide",
            "",
            divide_line(run),
            "",
            *block(table.tokens, run.raw, "each query dotted with each key"),
            "",
            *block(table.tokens, run.scaled, f"the same scores divided by {run.div:.4f}"),
        ]
    )


def _tokens_named(numbers: tuple[int, ...]) -> str:
    """`token 3`, or for a tie `tokens 2 and 4`: every token given the largest weight."""
    if len(numbers) == 1:
        return f"token {numbers[0]}"
    return f"tokens {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


def scores(table: Scores) -> str:
    run, cost = table.run, table.run.cost
    lines = [
        "attend: the attention weights, each row adding to one, and the head's output",
        "",
        divide_line(run),
        "",
        *block(table.tokens, run.weights, "the attention weights, a row per query"),
        "",
        "  what each row comes to",
    ]
    for i, row in enumerate(table.rows, start=1):
        lines.append(
            f"    row {i}  sums to {row.total:.4f}   its largest weight, "
            f"{row.largest:.4f}, goes to {_tokens_named(row.top)}"
        )
    lines += [
        "",
        *block(table.tokens, run.out, "the head's output: the values summed in each row's weights", MIXED),
        "",
        "  token 2, before and after",
        named("arrives as", run.x[1]),
        named("leaves as", run.out[1]),
        "",
        "  the multiply-adds it took",
        f"    {'queries, keys and values':<34}{cost.project:9d}",
        f"    {'each query against each key':<34}{cost.score:9d}",
        f"    {'mixing the values':<34}{cost.mix:9d}",
        f"    {'altogether':<34}{cost.total:9d}",
    ]
    return "\n".join(lines)


def scale(table: ScaleTable) -> str:
    lines = [
        f"attend: what scaling by 1/sqrt(d_k) does, {amount(table.count, 'draw')} at each width",
        "",
        f"  each draw one query and four keys, from numpy's default_rng({table.seed}) at each width",
        "",
        "           ---------- scaled ----------   ---------- not scaled ----------",
        "             spread   largest    draws      spread   largest    draws",
        "     d_k   of a row    weight  at 0.99    of a row    weight  at 0.99",
    ]
    for m in table.measured:
        a, b = m.divided, m.undivided
        lines.append(
            f"  {m.width:6d} {a.spread:10.4f}{a.biggest:10.4f}{a.confident:9d}"
            f"  {b.spread:10.4f}{b.biggest:10.4f}{b.confident:9d}"
        )
    return "\n".join(lines)


def cost(table: CostTable) -> str:
    d, dk = table.d_model, table.d_k
    lines = [
        "attend: one head at several sequence lengths, multiply-adds counted as made",
        "",
        f"  d_model {d}, d_k and d_v {dk}, each sequence the first n tokens of the chronicle",
        "",
        "    tokens  q, k and v  q-k pairs  altogether   x previous  pairs' share",
    ]
    for c, growth, percent in zip(table.costs, table.growth, table.pair_percent, strict=True):
        ratio = " " * 13 if growth is None else f"{growth:13.2f}"
        lines.append(f"  {c.length:8d}{c.project:12d}{c.quadratic:11d}{c.total:12d}{ratio}{percent:13.1f}%")
    n = table.costs[-1].length
    lines += [
        "",
        f"  the count held against the formula, at {amount(n, 'token')}",
        f"    {f'3 x {n} x {d} x {dk}, the projections':<44}{table.projections:12d}",
        f"    {f'2 x {n} x {n} x {dk}, the query-key pairs':<44}{table.pairs:12d}",
        f"    {'adding up to':<44}{table.projections + table.pairs:12d}",
        f"    {'what the head counted':<44}{table.costs[-1].total:12d}",
        f"    {'the same number':<44}{str(table.agrees).lower():>12}",
        "",
        "  where the query-key pairs overtake the projections",
    ]
    if table.tie is not None:
        lines.append(f"    2 x n x n x Dk equals 3 x n x D x Dk at n = {table.tie:d}")
    lines.append(f"    2 x n x n x Dk first passes 3 x n x D x Dk at n = {table.crossover:d}")
    return "\n".join(lines)


def positions(table: PositionsTable) -> str:
    lines = [
        "attend: the book's head told where each token stands,",
        "        and what that does to tokens 2 and 4",
        "",
        *block(
            table.tokens,
            table.table,
            "the sinusoidal positions added: sin in dimensions 1 and 3, cos in 2 and 4",
            "position \\ dimension",
        ),
    ]
    for part in table.partings:
        a, b = part.rows
        weights, out = part.attended.weights, part.attended.out
        lines += [
            "",
            f"  {SCHEME_WORDS[part.scheme]}",
            named(f"token {a}'s weights", weights[a - 1]),
            named(f"token {b}'s weights", weights[b - 1]),
            named(f"token {a}'s output", out[a - 1]),
            named(f"token {b}'s output", out[b - 1]),
            f"    {'largest weight gap':<24}{part.weight_gap:9.4f}",
            f"    {'outputs apart':<24}{part.out_gap:9.4f}   (root of summed squared differences)",
        ]
    lines += [
        "",
        f"  what each scheme costs, {amount(len(table.tokens), 'token')}",
        "    scheme          the head's  positions'  positions'  sines and",
        "                 multiply-adds   additions  multiply-adds  cosines",
    ]
    for part in table.partings:
        lines.append(
            f"    {part.scheme:<12}{part.cost.total:14d}{part.added:12d}{part.turned:13d}{part.waves:9d}"
        )
    return "\n".join(lines)


SCHEME_WORDS = {
    "none": "no positions: the head as it is",
    "sinusoidal": "sinusoidal: the table above added to the embeddings before the projections",
    "rotary": "rotary: each query and key turned by its position after the projections",
}


def mask(table: MaskTable) -> str:
    masked, run = table.masked, table.run
    lines = [
        "attend: the n x n score matrix under the causal mask",
        "",
        "  each query sees its own key and the keys before it; a hidden score is -inf,",
        "  and e to -inf is an attention weight of exactly 0",
        "",
        *block(table.tokens, masked.scores, f"the scores divided by {run.div:.4f}, the later keys hidden"),
        "",
        *block(table.tokens, masked.weights, "attention weights, each row adding to one"),
        "",
        "  what each row comes to",
    ]
    for i, row in enumerate(masked.weights, start=1):
        lines.append(f"    row {i}  sums to {row.sum():.4f}   over {amount(i, 'token')}")
    lines += [
        "",
        *block(table.tokens, masked.out, "the head's output: the values weighted and summed", MIXED),
        "",
        "  tokens 2 and 4, whose attention weights are the same unmasked",
        named("token 2 masked", masked.weights[1]),
        named("token 4 masked", masked.weights[3]),
        named("either, unmasked", run.weights[1]),
    ]
    return "\n".join(lines)


def heads(table: HeadsTable) -> str:
    run, one = table.run, table.one
    h, n, dk = run.attended.weights.shape[0], run.out.shape[0], run.q.shape[-1]
    lines = [
        f"attend: the book's W_Q, W_K and W_V cut into {amount(h, 'head')} with d_k = {dk},",
        "        joined and mixed by W_O",
    ]
    for i, weights in enumerate(run.attended.weights, start=1):
        caption = f"head {i}'s attention weights, its scores divided by {dk**0.5:.4f}"
        lines += ["", *block(table.tokens, weights, caption)]
    lines += [
        "",
        *block(table.tokens, run.joined, "the heads' outputs side by side", MIXED),
        "",
        *block(table.tokens, run.out, "that times W_O (the identity here)", MIXED),
        "",
        f"  the multiply-adds, {amount(h, 'head')} against one head with d_k = {run.out.shape[1]}",
        f"    {'':<30}{f'{h} heads' if h > 1 else '1 head':>10}{'1 head':>10}  formula",
    ]
    parts = zip(
        ("queries, keys and values", "each query against each key", "mixing the values", "W_O"),
        (run.cost.heads.project, run.cost.heads.score, run.cost.heads.mix, run.cost.wo),
        (one.cost.heads.project, one.cost.heads.score, one.cost.heads.mix, one.cost.wo),
        table.formula,
        (f"3 x {n} x D x D", f"{n} x {n} x D", f"{n} x {n} x D", f"{n} x D x D"),
        strict=True,
    )
    for name, ours, single, value, words in parts:
        lines.append(f"    {name:<30}{ours:10d}{single:10d}  {words} = {value}")
    lines.append(f"    {'altogether':<30}{run.cost.total:10d}{one.cost.total:10d}")
    return "\n".join(lines)


def kvcache(table: CacheTable) -> str:
    again, kept = table.again, table.kept
    n = len(kept.work)
    lines = [
        f"attend: generating the chronicle's first {amount(n, 'token')} one at a time,",
        f"        {amount(table.h, 'head')} with d_k = {table.d_k}",
        "",
        "  multiply-adds for each new token",
        "     token   run again   kept keys and values",
    ]
    for t in table.shown:
        lines.append(f"    {t:6d}{again.work[t - 1]:12d}{kept.work[t - 1]:12d}")
    lines += [
        f"    {'all':>6}{again.total:12d}{kept.total:12d}",
        "",
        f"  the two give every token the same output: largest difference {table.largest_difference:.4g}",
        "",
        "  what the cache holds at the end, in float64",
        f"    2 x 1 layer x {table.h} x {table.d_k} x {n} tokens x 8 bytes = {table.cache_bytes:,} bytes",
    ]
    return "\n".join(lines)


def learning(table: LearnTable) -> str:
    head, baseline, held = table.head, table.baseline, table.held
    settings, shape = head.settings, head.settings.shape()
    lines = [
        f"attend: a causal head trained on the chronicle, {table.lines} lines, {held} held out",
        f"        vocabulary {shape.vocab}, d_model {shape.d_model}, d_k = d_v {shape.d_k}, "
        f"seed {settings.seed}, {amount(settings.steps, 'step')} of {settings.batch} lines",
        "",
        "  held-out loss (mean cross-entropy, nats) by step",
        "      step      head  baseline",
    ]
    for step, ours, theirs in zip(head.steps, head.held_loss, baseline.held_loss, strict=True):
        lines.append(f"    {step:6d}{ours:10.4f}{theirs:10.4f}")
    lines += ["", "  the place's name predicted right, held-out lines"]
    for name, run in (("head", head), ("baseline", baseline)):
        lines.append(f"    {name:<10}{run.places_named:6d} of {held}  ({run.place_accuracy:.1%})")
    return "\n".join(lines)
