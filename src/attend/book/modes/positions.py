"""`attend positions`: tokens 2 and 4 of the chapter told apart by sinusoidal or rotary positions."""

from __future__ import annotations

from dataclasses import dataclass

from attend.book.chapter import Token, chapter_embeddings, chapter_head, chapter_pieces
from attend.book.layout import block, named
from attend.book.modes import Mode
from attend.book.parting import SCHEMES, Parting, parting
from attend.core.arrays import Matrix, read_only
from attend.core.checks import amount
from attend.core.positions import sinusoidal

__all__ = ["MODE", "PositionsTable", "table", "text"]

SCHEME_WORDS = {
    "none": "no positions: the head as it is",
    "sinusoidal": "sinusoidal: the table above added to the embeddings before the projections",
    "rotary": "rotary: each query and key turned by its position after the projections",
}


@dataclass(frozen=True)
class PositionsTable:
    """The chapter's head on its sequence with no positions, with sinusoidal ones added to the
    tokens, and with rotary ones turning its queries and keys."""

    tokens: tuple[Token, ...]
    table: Matrix  # the sinusoidal positions added, one run of d_model per token
    partings: tuple[Parting, ...]  # one per scheme, in SCHEMES's order


def table() -> PositionsTable:
    """The chapter's head on its sequence under each scheme of positions."""
    x, head = chapter_embeddings(), chapter_head()
    partings = tuple(parting(head, x, scheme) for scheme in SCHEMES)
    return PositionsTable(chapter_pieces(), read_only(sinusoidal(*x.shape)), partings)


def text(positions: PositionsTable) -> str:
    lines = [
        "attend: the book's head told where each token stands,",
        "        and what that does to tokens 2 and 4",
        "",
        *block(
            positions.tokens,
            positions.table,
            "the sinusoidal positions added: sin in dimensions 1 and 3, cos in 2 and 4",
            "position \\ dimension",
        ),
    ]
    for part in positions.partings:
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
        f"  what each scheme costs, {amount(len(positions.tokens), 'token')}",
        "    scheme          the head's  positions'  positions'  sines and",
        "                 multiply-adds   additions  multiply-adds  cosines",
    ]
    for part in positions.partings:
        lines.append(
            f"    {part.scheme:<12}{part.cost.total:14d}{part.added:12d}{part.turned:13d}{part.waves:9d}"
        )
    return "\n".join(lines)


MODE = Mode("positions", "tokens 2 and 4 told apart by sinusoidal or rotary positions", 80, table, text)
