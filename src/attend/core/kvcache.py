"""Generating token by token, with and without keeping each token's key and value.

A model that writes text makes one token, appends it, and runs again. Under the causal mask
no token's key or value ever changes once made, because nothing after it can reach back into
it. Run again from scratch, a step projects every token so far and scores every pair so far:
work quadratic in the text's length at every step, all of it done before. Kept, a
step projects only the new token and scores its query against the keys already there: work
that grows in a straight line. The price is memory: a key and a value per token, per head,
per layer, for as long as the text goes on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attend.core.arrays import Matrix
from attend.core.attention import scaled_dot_product_attention
from attend.core.checks import a_thing, generation_work, sequence, switch, whole, within_work
from attend.core.heads import MultiHead

__all__ = ["Generation", "cache_bytes", "generate"]


@dataclass(frozen=True)
class Generation:
    """What each step gave its new token, and the multiply-adds each step took."""

    out: Matrix  # one row per token, as it left the layer when it was the newest
    work: tuple[int, ...]  # multiply-adds of each step, step t with t tokens so far
    cached: bool

    @property
    def total(self) -> int:
        return sum(self.work)


# --8<-- [start:generate]
def generate(layer: MultiHead, x: npt.ArrayLike, *, cache: bool) -> Generation:
    """Feed the sequence `x` to `layer` one token at a time. Without
    the cache each step runs the whole sequence so far, masked, and
    keeps its last output; with it each step projects the new token
    only and asks of the keys and values kept from the steps before."""
    x, cache = generation_inputs(layer, x, cache)  # (n, d_model)
    outs, work = [], []
    if not cache:
        for t in range(1, len(x) + 1):
            run = layer.attend(x[:t], causal=True)
            outs.append(run.out[-1])
            work.append(run.cost.total)
        return Generation(np.array(outs), tuple(work), cached=False)
    keys = np.empty((layer.h, 0, layer.d_k))  # (h, t, d_k), one more token each step
    values = np.empty((layer.h, 0, layer.d_k))
    for t in range(len(x)):
        q, k, v, project = layer.project(x[t : t + 1])  # the new token only, (h, 1, d_k)
        keys = np.concatenate([keys, k], axis=1)  # kept for every later step
        values = np.concatenate([values, v], axis=1)
        attended = scaled_dot_product_attention(q, keys, values)  # one query: nothing to hide
        _, mixed, wo_adds = layer.join(attended.out)
        outs.append(mixed[0])
        work.append(project + attended.score_adds + attended.mix_adds + wo_adds)
    return Generation(np.array(outs), tuple(work), cached=True)


# --8<-- [end:generate]


def generation_inputs(layer: object, x: object, cache: object) -> tuple[Matrix, bool]:
    """What `generate` reads, refused in one line if it is not: a layer of several heads, a
    sequence it can take, generated within `WORK_LIMIT` (without a cache, step t runs the t
    tokens so far again), and the switch."""
    if not isinstance(layer, MultiHead):
        raise TypeError(f"layer is an attend.MultiHead, not {a_thing(layer)}")
    rows = sequence(x, layer.d_model, most=layer.largest_input)
    within_work(generation_work(len(rows), layer.h), f"generating {len(rows):,} tokens", "ask for fewer")
    return rows, switch(cache, "cache")


# --8<-- [start:bytes]
def cache_bytes(
    layers: int,
    kv_heads: int,
    d_k: int,
    tokens: int,
    dtype_bytes: int,
) -> int:
    """The bytes a cache holds for `tokens` tokens of one text: a
    key and a value of d_k numbers per token, per kept head, per
    layer. `kv_heads` is the number of heads that keep their own
    keys and values (fewer than the query heads where a model
    shares them)."""
    sizes = [
        whole(layers, "layers", 1),
        whole(kv_heads, "kv_heads", 1),
        whole(d_k, "d_k", 1),
        whole(tokens, "tokens", 0),
        whole(dtype_bytes, "dtype_bytes", 1),
    ]
    return 2 * math.prod(sizes)


# --8<-- [end:bytes]
