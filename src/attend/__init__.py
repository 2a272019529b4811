"""attend: one attention head from scratch, every number printed and checkable.

Two parts, and this face over both (`from attend import Head`). `attend.core` is the attention a
reader studies: softmax, the head (`Head`) and its cost counters (`Cost`), attention on whole
matrices (`attention`), the causal and padding masks, sinusoidal and rotary positions, several
heads (`MultiHead`), generation with a KV cache (`generate`), the learning model and its
training, the tokenizer and the chronicle it learned from. `attend.book` is this book's: the
chapter's matrices and tokens (`chapter_head()`, `chapter_embeddings()`), the experiments and
real-model shapes its pages measure, and the `attend` command, each of whose modes is one module
of `attend.book.modes` (`modes.mask.table()`). The book imports the core, never the reverse.
"""

from attend.book import modes
from attend.book.chapter import (
    CHAPTER_ENTRY,
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
from attend.book.embedding import DIMENSIONS, embed, embedding_table, typed_embedding
from attend.book.experiments import Measurement, Spread, cost_sweep, crossover, scale_experiment
from attend.book.layer import Layer
from attend.book.parting import Parting, parting
from attend.core.attention import Attention, attention
from attend.core.causal import causal_mask
from attend.core.chronicle import chronicle_text, entries
from attend.core.cost import Cost
from attend.core.head import Head, Workings
from attend.core.heads import MultiHead
from attend.core.kvcache import Generation, cache_bytes, generate
from attend.core.padding import pad, padding_mask
from attend.core.positions import rotary, sinusoidal
from attend.core.softmax import softmax
from attend.core.tokenizer import Tokenizer, chronicle_ids, load_tokenizer

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
    "modes",
    "pad",
    "padding_mask",
    "parting",
    "rotary",
    "scale_experiment",
    "sinusoidal",
    "softmax",
    "typed_embedding",
]
