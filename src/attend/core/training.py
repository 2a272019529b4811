"""Training the model of `attend.core.learn` on the chronicle, and measuring what it learned.

The tokens. The shipped table of 512 learned " hobbs standing in The Hollow, 1" as a single
token, so at that table the place arrives inside the same token as the animal and nothing
needs to look back for it. GPT-2's tokenizer cuts text into words before it learns any merge,
so that no merge crosses a space; the book's own trainer does the same when it is handed
words as its entries, because it never merges across an entry's end. Handed the chronicle's
words (and each digit on its own, as Llama's tokenizer splits numbers), it merges until every
word is one token. Then a line reads "year", " 4", "0", ":", " 2", "3", "5", " hobbs",
" standing", " in", " The", " Hollow", ... and the place comes four tokens after the animal
that decides it.

The split. Every fifth line of the chronicle is held out and never trained on; the loss and
the place accuracy are measured on those lines.

The optimiser is Adam (Kingma and Ba, 2015), as nanoGPT's AdamW without the weight decay,
on batches of lines drawn by the same seeded generator as the weights.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from attend.core.arrays import Matrix
from attend.core.checks import index, indices, whole
from attend.core.chronicle import entries
from attend.core.learn import Ids, Params, Shape, backward, forward_pass, initial
from attend.core.tokenizer import Tokenizer

__all__ = [
    "DEFAULTS",
    "MOST_STEPS",
    "MOST_WIDTH",
    "Corpus",
    "Run",
    "Settings",
    "answer_correct",
    "corpus",
    "line_weights",
    "part_of_line",
    "place_correct",
    "place_of",
    "train",
    "weights_from",
    "word_tokenizer",
    "words",
]

WORDS = re.compile(r" ?[A-Za-z]+| ?[0-9]|[^ A-Za-z0-9]+")  # a word with its space, or one digit
HELD_OUT = 5  # every fifth line is held out
# The bound on one run, as `cost` and `kvcache` have theirs: at 2,000 steps of width 64 the head
# and the baseline train in about a quarter of a minute on one core (scripts/bench.py learn).
MOST_STEPS = 2000
MOST_WIDTH = 64
# A run whose batch loss climbs past this many times where it started has diverged: the rate
# throws every parameter past its minimum and back, further each step, until the loss is inf.
DIVERGED = 3.0


def words(line: str) -> list[str]:
    """A line cut where GPT-2 cuts before merging: at each space, and around each digit."""
    return WORDS.findall(line)


@cache
def word_tokenizer() -> Tokenizer:
    """The book's BPE trainer handed each distinct word of the chronicle as an entry: it
    merges until every word is one token, and never across two."""
    return Tokenizer.train(sorted({w for line in entries() for w in words(line)}))


@dataclass(frozen=True)
class Corpus:
    """The chronicle's lines as sequences of token numbers 0 to vocab − 1, padded at the end
    to one length, and which lines are held out."""

    names: tuple[str, ...]  # the text of each token of the vocabulary
    ids: Ids  # (lines, longest + 1): each line, padded with token 0
    length: Ids  # tokens in each line
    place: Matrix  # (lines, longest): 1 where the next token is part of the place's name
    train: Ids  # line numbers trained on
    held: Ids  # line numbers held out


def _held_out(lines: int) -> npt.NDArray[np.bool_]:
    """Which of the chronicle's `lines` lines are held out: every fifth, counted from the
    first; a rule on line numbers alone, so the split is known before anything is tokenized."""
    held: npt.NDArray[np.bool_] = np.arange(lines) % HELD_OUT == HELD_OUT - 1
    return held


@cache
def corpus() -> Corpus:
    """Every line of the chronicle, tokenized once."""
    tokenizer = word_tokenizer()
    lines = [[tokenizer.encode(w)[0] for w in words(line)] for line in entries()]
    vocab = sorted({t for line in lines for t in line})
    index = {t: i for i, t in enumerate(vocab)}
    longest = max(map(len, lines))
    ids = np.zeros((len(lines), longest), dtype=np.intp)
    place = np.zeros((len(lines), longest - 1))
    names = tuple(tokenizer.piece(t).decode() for t in vocab)
    for row, line in enumerate(lines):
        ids[row, : len(line)] = [index[t] for t in line]
        text = [names[i] for i in ids[row, : len(line)]]
        start, end = text.index(" in") + 1, text.index(",")  # the place: after " in", before ","
        place[row, start - 1 : end - 1] = 1.0  # position t predicts token t + 1
    numbers = np.arange(len(lines))
    held = _held_out(len(lines))
    length = np.array([len(line) for line in lines], dtype=np.intp)
    return Corpus(names, ids, length, place, numbers[~held], numbers[held])


@dataclass(frozen=True)
class Settings:
    """What a reader may change: the seed, the width d_model (d_k is half of it), the steps."""

    seed: int = 1
    d_model: int = 16
    steps: int = 600
    batch: int = 32  # lines a step
    rate: float = 0.02  # Adam's step size
    every: int = 50  # steps between two measurements of the held-out loss

    def __post_init__(self) -> None:
        whole(self.seed, "seed", 0)
        whole(self.every, "every", 1)
        if whole(self.steps, "steps", 1) > MOST_STEPS:
            raise ValueError(f"one run trains at most {MOST_STEPS:,} steps, not {self.steps:,}")
        if whole(self.d_model, "d_model", 2) % 2 or self.d_model > MOST_WIDTH:
            raise ValueError(
                f"d_model must be even (positions fill dimensions in pairs) and at most {MOST_WIDTH}, "
                f"not {self.d_model}"
            )
        most = int(np.count_nonzero(~_held_out(len(entries()))))  # the training lines, untokenized
        if whole(self.batch, "batch", 1) > most:
            raise ValueError(f"a batch holds at most the {most} training lines, not {self.batch}")
        if isinstance(self.rate, bool) or not isinstance(self.rate, int | float) or not 0 < self.rate < 1:
            raise ValueError(f"the rate is a number between 0 and 1, not {self.rate!r}")

    def shape(self, data: Corpus | None = None) -> Shape:
        """The model's sizes for `data` (the chronicle's lines unless told)."""
        data = corpus() if data is None else data
        return Shape(len(data.names), self.d_model, self.d_model // 2, data.ids.shape[1] - 1)


DEFAULTS = Settings()


@dataclass(frozen=True)
class Run:
    """One training run: the parameters found, the loss measured along the way, and the
    held-out measures at the end."""

    settings: Settings
    attends: bool
    params: Params
    steps: tuple[int, ...]  # where the held-out loss was measured
    train_loss: tuple[float, ...]  # the batch's loss at each step, before its update
    held_loss: tuple[float, ...]  # the held-out loss at each of `steps`
    places_named: int  # held-out lines whose place the model names right
    held_lines: int

    @property
    def final_loss(self) -> float:
        return self.held_loss[-1]

    @property
    def place_accuracy(self) -> float:
        return self.places_named / self.held_lines


def batch(lines: Ids, data: Corpus | None = None) -> tuple[Ids, Ids, Matrix]:
    """Sequences, next tokens and weights for `lines` of `data` (the chronicle's lines unless
    told): each real next token weighs 1/(how many there are), so the loss is their mean; the
    padding weighs 0."""
    data = corpus() if data is None else data
    lines = indices(lines, len(data.ids), "lines")  # numpy would read −1 as the last line
    n = int(data.length[lines].max()) - 1
    ids, targets = data.ids[lines, :n], data.ids[lines, 1 : n + 1]
    counted = (np.arange(n)[None, :] < data.length[lines, None] - 1).astype(np.float64)
    return ids, targets, counted / counted.sum()


Moments: TypeAlias = dict[str, tuple[Matrix, Matrix]]  # each parameter's running mean and square


# --8<-- [start:adam]
def adam(params: Params, grads: Params, moments: Moments, step: int, rate: float) -> None:
    """One Adam step in place: each number moves by its gradient's
    running mean over its running root mean square, so every
    parameter takes steps of about `rate`."""
    beta1, beta2, eps = 0.9, 0.99, 1e-8
    for name, g in grads.items():
        m, v = moments.get(name, (np.zeros_like(g), np.zeros_like(g)))
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        moments[name] = (m, v)
        m_hat, v_hat = m / (1 - beta1**step), v / (1 - beta2**step)
        params[name] -= rate * m_hat / (np.sqrt(v_hat) + eps)


# --8<-- [end:adam]


# --8<-- [start:train]
def train(settings: Settings = DEFAULTS, *, attends: bool = True, data: Corpus | None = None) -> Run:
    """Adam on batches of training lines for `settings.steps` steps,
    the held-out loss measured every `settings.every` of them."""
    data = corpus() if data is None else data
    shape = settings.shape(data)
    params = initial(shape, settings.seed, attends=attends)
    draw = np.random.default_rng([settings.seed, 1])  # picks the lines
    moments: Moments = {}
    held = batch(data.held, data)
    train_loss: list[float] = []
    measured, held_loss = [0], [forward_pass(params, *held).loss]
    for step in range(1, settings.steps + 1):
        lines = draw.choice(data.train, settings.batch, replace=False)
        ids, targets, weight = batch(lines, data)
        f = forward_pass(params, ids, targets, weight)
        train_loss.append(converging(f.loss, held_loss[0], step, settings.rate))
        adam(params, backward(params, f, targets), moments, step, settings.rate)
        if step % settings.every == 0 or step == settings.steps:
            measured.append(step)
            held_loss.append(forward_pass(params, *held).loss)
    named = int(place_correct(params, data.held, data).sum())
    losses = tuple(measured), tuple(train_loss), tuple(held_loss)
    return Run(settings, attends, params, *losses, named, len(data.held))


# --8<-- [end:train]


def converging(loss: float, start: float, step: int, rate: float) -> float:
    """The step's loss, unless the run has diverged: the loss not finite, or more than
    `DIVERGED` times the held-out loss it started from. Then the run stops with one line naming
    the rate, rather than go on to losses of nan."""
    if not np.isfinite(loss) or loss > DIVERGED * start:
        raise ValueError(
            f"training diverged: the loss went from {start:.4g} to {loss:.4g} by step {step}; "
            f"the rate {rate} is too large, try a smaller one"
        )
    return loss


def place_correct(params: Params, lines: Ids, data: Corpus | None = None) -> npt.NDArray[np.bool_]:
    """For each line, whether the model's top guess is right at every token of the place's
    name, each guess made from the true tokens before it."""
    data = corpus() if data is None else data
    return answer_correct(params, lines, data.place, data)


def answer_correct(params: Params, lines: Ids, answer: Matrix, data: Corpus) -> npt.NDArray[np.bool_]:
    """For each of `lines`, whether the model's top guess is right at every token `answer`
    marks (1 where the next token is part of it), each guess made from the true tokens before."""
    lines = indices(lines, len(data.ids), "lines")
    ids, targets, weight = batch(lines, data)
    guess = forward_pass(params, ids, targets, weight).probs.argmax(axis=-1)
    marked = answer[lines, : ids.shape[1]] > 0
    named: npt.NDArray[np.bool_] = np.all((guess == targets) | ~marked, axis=1)
    return named


def place_of(line: int) -> str:
    """The place a line of the chronicle names, as its tokens spell it."""
    data = corpus()
    line = index(line, len(data.ids), "line")
    at = np.flatnonzero(data.place[line]) + 1  # position t predicts token t + 1
    return "".join(data.names[i] for i in data.ids[line, at]).strip()


PARTS = ("the year", "the count", "the animal", "standing", "in")


def part_of_line(names: list[str]) -> list[str]:
    """Which part of "year N: C animal standing in" each token of a line up to " in" is:
    "year" and its digits and the colon are the year, the digits after it the count."""
    colon, animal, standing = names.index(":"), names.index(" standing") - 1, names.index(" standing")
    return [
        "the year" if at <= colon else "the count" if at < animal else PARTS[2 + at - animal]
        for at in range(standing + 2)
    ]


def weights_from(params: Params, word: str, lines: Ids) -> dict[str, float]:
    """The learned head's attention weights from the token `word` (" standing" or " in") of
    each line, summed over each part of the line and averaged over the lines."""
    data = corpus()
    ids, targets, weight = batch(lines_of(lines))
    weights = forward_pass(params, ids, targets, weight).a
    if weights is None:
        raise ValueError("the baseline has no head, so no attention weights")
    totals = dict.fromkeys(PARTS, 0.0)
    for row, line in enumerate(ids):
        names = [data.names[i] for i in line]
        query = names.index(word)
        for at, part in enumerate(part_of_line(names)[: query + 1]):
            totals[part] += float(weights[row, query, at])
    return {part: total / len(lines) for part, total in totals.items()}


def line_weights(params: Params, line: int, word: str) -> tuple[list[str], Matrix]:
    """The tokens of one line of the chronicle up to its first `word`, and the learned head's
    attention weights among them: a row per query, a column per key."""
    data = corpus()
    ids, targets, weight = batch(np.array([index(line, len(data.ids), "line")]))
    weights = forward_pass(params, ids, targets, weight).a
    if weights is None:
        raise ValueError("the baseline has no head, so no attention weights")
    names = [data.names[i] for i in ids[0]]
    if word not in names:
        raise ValueError(
            f"line {line} has no token {word!r}; its tokens are {' '.join(map(repr, names[:12]))} ..."
        )
    end = names.index(word) + 1
    return names[:end], weights[0, :end, :end]


def lines_of(lines: object) -> Ids:
    """Line numbers of the chronicle, an array of whole numbers from 0, or a one-line refusal:
    numpy would read −1 as the last line."""
    return indices(lines, len(corpus().ids), "lines")
