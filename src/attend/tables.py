"""The tables of `attend MODE` as data: one function per mode, computing and never printing.

The command renders these (see `attend.render`), and the book's figures and the tests read
them directly. Keeping the numbers apart from their text means nothing downstream has to
parse a printout back into numbers, and a change of layout cannot change a number. Every
array here is read-only and every record frozen: a table is a result, not a workspace.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from attend.arrays import Matrix
from attend.attention import Attention, attention
from attend.causal import causal_mask
from attend.chapter import D_K, D_MODEL, WQ, chapter_embeddings, chapter_head, chapter_heads, chapter_tokens
from attend.chronicle import CHAPTER_ENTRY
from attend.cost import Cost
from attend.embedding import DIMENSIONS
from attend.experiments import Measurement, chronicle_embeddings, cost_sweep, crossover, scale_experiment
from attend.head import Workings
from attend.heads import HeadsRun
from attend.kvcache import Generation, cache_bytes, generate
from attend.layer import Layer
from attend.parting import SCHEMES, Parting, parting
from attend.positions import sinusoidal
from attend.tokenizer import load_tokenizer
from attend.training import Run, Settings, corpus, train

__all__ = [
    "CacheTable",
    "CostTable",
    "Entry",
    "HeadsTable",
    "LearnTable",
    "MaskTable",
    "PositionsTable",
    "Project",
    "RowWeights",
    "ScaleTable",
    "Scores",
    "Square",
    "Token",
    "Weights",
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


@dataclass(frozen=True)
class Token:
    """One token of the chapter's row: its id and the bytes it stands for."""

    id: int
    piece: bytes

    @property
    def text(self) -> str:
        """The bytes as text; a piece cut inside a character shows U+FFFD there."""
        return self.piece.decode("utf-8", errors="replace")


@dataclass(frozen=True)
class Entry:
    """`attend row`: the chronicle entry, its tokens, and the typed numbers of the first four."""

    text: str
    size: int  # bytes of UTF-8
    ids: tuple[int, ...]  # the whole entry, encoded
    round_trip: bool  # decoding the ids gives the entry back
    vocabulary: int  # tokens in the tokenizer's table
    tokens: tuple[Token, ...]  # the first four, the row the head reads
    dimensions: tuple[str, ...]  # what each dimension of an embedding says
    typed: Matrix  # each token's typed embedding


@dataclass(frozen=True)
class Weights:
    """`attend weights`: the three stored matrices, one run of d_model weights per output dimension."""

    d_model: int
    d_k: int
    matrices: tuple[tuple[str, Matrix], ...]  # ("Wq", dk×d), ("Wk", …), ("Wv", …)


@dataclass(frozen=True)
class Project:
    """`attend project`: each token's query, key and value, and token 2's query found twice."""

    tokens: tuple[Token, ...]
    run: Workings
    by_head: Matrix  # token 2's query as the head projects it
    by_layer: Matrix  # the same from the earlier volume's Layer, biases at zero

    @property
    def same(self) -> bool:
        return bool(np.array_equal(self.by_head, self.by_layer))


@dataclass(frozen=True)
class Square:
    """`attend square`: every query against every key, before and after the divide."""

    tokens: tuple[Token, ...]
    run: Workings


@dataclass(frozen=True)
class RowWeights:
    """What one token's attention weights come to: their total, and the tokens given the largest
    (more than one where weights tie, as they do for tokens with the same key)."""

    total: float
    top: tuple[int, ...]  # token numbers, counted from 1, in order
    largest: float


@dataclass(frozen=True)
class Scores:
    """`attend scores`: the attention weights, what each token's come to, and the mixed values."""

    tokens: tuple[Token, ...]
    run: Workings
    rows: tuple[RowWeights, ...]  # one per token, in order


@dataclass(frozen=True)
class ScaleTable:
    """`attend scale`: the divide measured at several key widths."""

    count: int  # draws at each width
    seed: int
    measured: tuple[Measurement, ...]


@dataclass(frozen=True)
class CostTable:
    """`attend cost`: counted multiply-adds at several sequence lengths, and the formula at the last."""

    d_model: int
    d_k: int
    costs: tuple[Cost, ...]
    crossover: int  # the shortest sequence whose query-key pairs outgrow its projections
    tie: int | None  # the length just before it, where the counted pairs equal the projections, if they do

    @property
    def projections(self) -> int:
        """3·n·d_model·d_k at the last length, by the formula the count is held against."""
        return 3 * self.costs[-1].length * self.d_model * self.d_k

    @property
    def pairs(self) -> int:
        """2·n²·d_k at the last length, by the formula."""
        return 2 * self.costs[-1].length ** 2 * self.d_k

    @property
    def growth(self) -> tuple[float | None, ...]:
        """Each total over the one before it; the first has none before it."""
        totals = [c.total for c in self.costs]
        return (None, *(b / a for a, b in pairwise(totals)))

    @property
    def agrees(self) -> bool:
        """Whether the head's count at the last length is what the formula says."""
        return self.projections + self.pairs == self.costs[-1].total

    @property
    def pair_percent(self) -> tuple[float, ...]:
        """The pairs' part of each total, in percent."""
        return tuple(100 * c.quadratic / c.total for c in self.costs)


@dataclass(frozen=True)
class PositionsTable:
    """`attend positions`: the chapter's head on its row with no positions, with sinusoidal
    ones added to the tokens, and with rotary ones turning its queries and keys."""

    tokens: tuple[Token, ...]
    table: Matrix  # the sinusoidal positions added, one run of d_model per token
    partings: tuple[Parting, ...]  # one per scheme, in SCHEMES's order


@dataclass(frozen=True)
class MaskTable:
    """`attend mask`: the chapter's square with each query kept from the keys after it."""

    tokens: tuple[Token, ...]
    run: Workings  # the chapter's run, every query seeing every key
    masked: Attention  # its queries, keys and values again, each query kept from later keys


@dataclass(frozen=True)
class HeadsTable:
    """`attend heads`: the chapter's matrices cut into h heads, against one head of width d_model."""

    tokens: tuple[Token, ...]
    run: HeadsRun
    one: HeadsRun  # the same matrices as one head (h = 1), Wo and all

    @property
    def formula(self) -> tuple[int, int, int, int]:
        """3·n·d², n·n·d, n·n·d and n·d² (d = d_model): the projections, the scores, the mixing and Wo,
        whatever h is, by the formula the counts are held against."""
        n, d = self.run.out.shape
        return 3 * n * d * d, n * n * d, n * n * d, n * d * d


@dataclass(frozen=True)
class CacheTable:
    """`attend kvcache`: the chapter's matrices in h heads generating the front of the
    chronicle token by token, without a cache and with one."""

    h: int
    d_k: int
    again: Generation  # each step runs the whole row so far
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


@dataclass(frozen=True)
class LearnTable:
    """`attend learn`: one head and the baseline without it, trained alike on the chronicle's
    lines, measured on the lines held out."""

    head: Run
    baseline: Run
    lines: int  # lines trained on
    held: int  # lines held out


def _frozen(array: npt.ArrayLike) -> Matrix:
    """A read-only copy, so a table handed out cannot be changed under its renderer."""
    copy = np.array(array, dtype=np.float64)
    copy.flags.writeable = False
    return copy


def _tokens() -> tuple[Token, ...]:
    """The chapter's four tokens with their bytes, which every table labels its lines by."""
    tokenizer = load_tokenizer()
    return tuple(Token(t, tokenizer.piece(t)) for t in chapter_tokens())


def entry() -> Entry:
    """The chapter's entry through the tokenizer: what `attend row` shows."""
    tokenizer = load_tokenizer()
    ids = tuple(tokenizer.encode(CHAPTER_ENTRY))
    return Entry(
        text=CHAPTER_ENTRY,
        size=len(CHAPTER_ENTRY.encode()),
        ids=ids,
        round_trip=tokenizer.decode(ids) == CHAPTER_ENTRY,
        vocabulary=len(tokenizer),
        tokens=_tokens(),
        dimensions=DIMENSIONS,
        typed=_frozen(chapter_embeddings()),
    )


def weights() -> Weights:
    """The matrices as the head holds them, d_k×d_model, one run of d_model weights per output
    dimension."""
    head = chapter_head()
    return Weights(D_MODEL, D_K, (("Wq", head.wq), ("Wk", head.wk), ("Wv", head.wv)))


def project() -> Project:
    """One run of the chapter's head, and token 2's query found again by a neuron layer."""
    run = chapter_head().attend(chapter_embeddings())
    layer = Layer(D_MODEL, WQ, (0.0,) * D_K)
    return Project(_tokens(), run, run.q[1], _frozen(layer.forward(run.x[1])))


def square(*, divide: bool = True) -> Square:
    """One run of the chapter's head, with or without the divide, for its score square."""
    return Square(_tokens(), chapter_head(divide=divide).attend(chapter_embeddings()))


def scores(*, divide: bool = True) -> Scores:
    """One run of the chapter's head, and what each token's attention weights come to."""
    run = chapter_head(divide=divide).attend(chapter_embeddings())
    rows = tuple(
        RowWeights(float(w.sum()), tuple(int(j) + 1 for j in np.flatnonzero(w == w.max())), float(w.max()))
        for w in run.weights
    )
    return Scores(_tokens(), run, rows)


def scale(widths: Sequence[int], *, count: int, seed: int) -> ScaleTable:
    """The divide experiment at each width, drawn as `attend scale` asks."""
    return ScaleTable(count, seed, tuple(scale_experiment(widths, count=count, seed=seed)))


def cost(lengths: Sequence[int]) -> CostTable:
    """The head's counts on the chronicle at each length, the formula at the last, and where
    the query-key pairs first equal and first outgrow the projections."""
    costs, first = tuple(cost_sweep(lengths)), crossover()
    before = cost_sweep([first - 1])[0] if first > 1 else None
    tie = first - 1 if before is not None and before.quadratic == before.project else None
    return CostTable(D_MODEL, D_K, costs, first, tie)


def positions() -> PositionsTable:
    """The chapter's head on its row under each scheme of positions."""
    x, head = chapter_embeddings(), chapter_head()
    partings = tuple(parting(head, x, scheme) for scheme in SCHEMES)
    return PositionsTable(_tokens(), _frozen(sinusoidal(*x.shape)), partings)


def mask() -> MaskTable:
    """The chapter's run, and its queries, keys and values scored again under the causal mask."""
    run = chapter_head().attend(chapter_embeddings())
    n = len(run.x)
    return MaskTable(_tokens(), run, attention(run.q, run.k, run.v, seen=causal_mask(n, n)))


def heads(h: int) -> HeadsTable:
    """The chapter's matrices as h heads, and as one, over its row."""
    x = chapter_embeddings()
    return HeadsTable(_tokens(), chapter_heads(h).attend(x), chapter_heads(1).attend(x))


def kvcache(tokens: int, h: int) -> CacheTable:
    """The chapter's matrices as h heads, generating the chronicle's first `tokens` tokens."""
    layer, x = chapter_heads(h), chronicle_embeddings(tokens)
    return CacheTable(h, layer.d_k, generate(layer, x, cache=False), generate(layer, x, cache=True))


@cache
def learning(settings: Settings) -> LearnTable:
    """The head and the baseline trained with the same settings, the same seed and batches:
    kept, so that a page, its figures and its table share one run (nothing changes a run)."""
    data = corpus()
    head, baseline = train(settings), train(settings, attends=False)
    return LearnTable(head, baseline, len(data.train), len(data.held))
