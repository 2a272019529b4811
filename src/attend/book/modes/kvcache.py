"""`attend kvcache`: the chapter's matrices generating the chronicle token by token, with a KV
cache and without one."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attend.book.chapter import chapter_heads
from attend.book.experiments import chronicle_embeddings
from attend.book.flags import Flag, chronicle_length, heads_flag
from attend.book.modes import Mode
from attend.core.checks import amount, generation_work
from attend.core.kvcache import Generation, cache_bytes, generate

__all__ = ["MODE", "CacheTable", "table", "text"]


@dataclass(frozen=True)
class CacheTable:
    """The chapter's matrices in h heads generating the front of the chronicle token by token,
    without a cache and with one."""

    h: int
    d_k: int
    again: Generation  # each step runs the whole sequence so far
    kept: Generation  # each step runs the new token against kept keys and values
    layers: int = 1  # the chapter's head is a single layer

    @property
    def largest_difference(self) -> float:
        """The largest difference between what the two ways gave any token."""
        return float(np.abs(self.again.out - self.kept.out).max())

    @property
    def shown(self) -> tuple[int, ...]:
        """The steps a table has room for: each of the first 16, then each doubling, and the last."""
        n = len(self.kept.work)
        return tuple(t for t in range(1, n + 1) if t <= 16 or t & (t - 1) == 0 or t == n)

    @property
    def cache_bytes(self) -> int:
        """What the kept keys and values hold at the end: each layer's h heads, each number as
        wide as the run's own."""
        return cache_bytes(self.layers, self.h, self.d_k, len(self.kept.work), self.kept.out.itemsize)


def table(tokens: int = 8, heads: int = 1) -> CacheTable:
    """The chapter's matrices as `heads` heads, generating the chronicle's first `tokens` tokens."""
    layer, x = chapter_heads(heads), chronicle_embeddings(tokens)
    return CacheTable(heads, layer.d_k, generate(layer, x, cache=False), generate(layer, x, cache=True))


def text(generated: CacheTable) -> str:
    again, kept, h, d_k = generated.again, generated.kept, generated.h, generated.d_k
    n = len(kept.work)
    lines = [
        f"attend: generating the chronicle's first {amount(n, 'token')} one at a time,",
        f"        {amount(h, 'head')} with d_k = {d_k}",
        "",
        "  multiply-adds for each new token",
        "     token   run again   kept keys and values",
    ]
    for t in generated.shown:
        lines.append(f"    {t:6d}{again.work[t - 1]:12d}{kept.work[t - 1]:12d}")
    lines += [
        f"    {'all':>6}{again.total:12d}{kept.total:12d}",
        "",
        f"  the two give every token the same output: largest difference {generated.largest_difference:.4g}",
        "",
        "  what the cache holds at the end, in float64",
        f"    2 x 1 layer x {h} x {d_k} x {n} tokens x 8 bytes = {generated.cache_bytes:,} bytes",
    ]
    return "\n".join(lines)


MODE = Mode(
    name="kvcache",
    help="generating token by token, with and without a KV cache",
    order=110,
    table=table,
    text=text,
    flags=(
        Flag("--tokens", "tokens to generate, the front of the chronicle", chronicle_length, 8, "N"),
        heads_flag(1),
    ),
    work=generation_work,
    instead="ask for fewer --tokens or --heads",
    bound="kvcache counts 3 x H x t x t for each of its steps t",
)
