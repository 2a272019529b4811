"""attend: one attention head from scratch, every number printed and checkable.

The package behind the book. `Head` is the head; `chapter_head()` and `chapter_row()` are the
chapter's head and its four typed tokens; `Cost` counts the multiply-adds where they happen;
`Layer` is the earlier volume's neuron layer that a projection is compared with.
"""

from attend.chapter import DK, WK, WQ, WV, D, chapter_head, chapter_row, chapter_tokens
from attend.chronicle import CHAPTER_ENTRY, chronicle_text, entries
from attend.cost import Cost
from attend.embedding import SLOTS, embed, typed_numbers, typed_table
from attend.experiments import Measurement, Spread, cost_sweep, crossover, scale_experiment
from attend.head import Head, Workings
from attend.layer import Layer
from attend.softmax import softmax
from attend.tokenizer import Tokenizer, chronicle_ids, load_tokenizer

__all__ = [
    "CHAPTER_ENTRY",
    "DK",
    "SLOTS",
    "WK",
    "WQ",
    "WV",
    "Cost",
    "D",
    "Head",
    "Layer",
    "Measurement",
    "Spread",
    "Tokenizer",
    "Workings",
    "chapter_head",
    "chapter_row",
    "chapter_tokens",
    "chronicle_ids",
    "chronicle_text",
    "cost_sweep",
    "crossover",
    "embed",
    "entries",
    "load_tokenizer",
    "scale_experiment",
    "softmax",
    "typed_numbers",
    "typed_table",
]
