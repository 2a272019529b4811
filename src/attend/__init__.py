"""attend: one attention head from scratch, every number printed and checkable.

The package behind the book. `Head` is the head; `chapter_head()` and `chapter_embeddings()` are
the chapter's head and the typed embeddings of its four tokens; `Cost` counts the multiply-adds
where they happen; `Layer` is the earlier volume's neuron layer that a projection is compared
with. What the head still lacks is built after it: `causal_mask`, `sinusoidal` and `rotary`
positions, `MultiHead` (several heads and Wo) and `generate` with or without a KV cache, on
`attention`.
"""

from attend.attention import Attention, attention
from attend.causal import causal_mask
from attend.chapter import (
    D_K,
    D_MODEL,
    WK,
    WO,
    WQ,
    WV,
    chapter_embeddings,
    chapter_head,
    chapter_heads,
    chapter_tokens,
)
from attend.chronicle import CHAPTER_ENTRY, chronicle_text, entries
from attend.cost import Cost
from attend.embedding import DIMENSIONS, embed, embedding_table, typed_embedding
from attend.experiments import Measurement, Spread, cost_sweep, crossover, scale_experiment
from attend.head import Head, Workings
from attend.heads import MultiHead
from attend.kvcache import Generation, cache_bytes, generate
from attend.layer import Layer
from attend.parting import Parting, parting
from attend.positions import rotary, sinusoidal
from attend.softmax import softmax
from attend.tokenizer import Tokenizer, chronicle_ids, load_tokenizer

__all__ = [
    "CHAPTER_ENTRY",
    "DIMENSIONS",
    "D_K",
    "D_MODEL",
    "WK",
    "WO",
    "WQ",
    "WV",
    "Attention",
    "Cost",
    "Generation",
    "Head",
    "Layer",
    "Measurement",
    "MultiHead",
    "Parting",
    "Spread",
    "Tokenizer",
    "Workings",
    "attention",
    "cache_bytes",
    "causal_mask",
    "chapter_embeddings",
    "chapter_head",
    "chapter_heads",
    "chapter_tokens",
    "chronicle_ids",
    "chronicle_text",
    "cost_sweep",
    "crossover",
    "embed",
    "embedding_table",
    "entries",
    "generate",
    "load_tokenizer",
    "parting",
    "rotary",
    "scale_experiment",
    "sinusoidal",
    "softmax",
    "typed_embedding",
]
