"""A byte-level BPE tokenizer with a table of 512, trained here on the chronicle.

The head in this book reads integers, and the integers come from this file.
Every token stands for a run of bytes: the first 256 are the lone bytes, so
any text at all can be written down, and the next 256 are merges learned
from the valley's chronicle, so the text the book actually shows is short.

One representation serves both training and encoding: a token id ``i`` is
held as the one-character string ``chr(i)``, so a run of tokens is an
ordinary ``str`` and one merge is one ``str.replace``. That keeps the
trainer and the encoder on literally the same rule, and it is fast, because
the scanning happens inside ``str.replace`` rather than in a Python loop.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from attend.core.checks import a_thing, token_ids, whole

BYTES = 256
"""Ids 0..255 are the lone bytes, each keeping its own value as its id."""

MERGES = 256
"""How many merges the shipped table learns: 256 + 256 = a table of 512."""


def _as_chars(data: bytes) -> str:
    # latin-1 maps byte b to chr(b) one for one, which is exactly "byte b is id b".
    return data.decode("latin-1")


def _utf8(text: object, reader: str = "encode") -> bytes:
    """Text as UTF-8 bytes; anything but a str, or a str UTF-8 cannot write, is refused."""
    if not isinstance(text, str):
        hint = "; decode the bytes to a str first" if isinstance(text, bytes | bytearray) else ""
        raise TypeError(f"{reader} reads text, a str, not {a_thing(text)}{hint}")
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as problem:
        raise ValueError(
            f"the text holds a lone surrogate, {text[problem.start]!r} at character "
            f"{problem.start + 1}, which UTF-8 cannot write"
        ) from None


def _show(piece: bytes) -> str:
    """Quote a piece so merges.txt stays readable whatever bytes it holds."""
    shown = "".join(chr(b) if 0x20 <= b < 0x7F and b not in b'"\\' else f"\\x{b:02x}" for b in piece)
    return f'"{shown}"'


@dataclass(frozen=True)
class Tokenizer:
    """A table of 256 lone bytes plus ``len(merges)`` learned pairs.

    Frozen because the ids are part of what the book prints: a table that
    could change after it was built would make token 422 mean two things.
    """

    merges: tuple[tuple[int, int], ...]
    _pieces: tuple[bytes, ...] = field(init=False, repr=False, compare=False)
    _rules: tuple[tuple[str, str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pieces = [bytes([b]) for b in range(BYTES)]
        rules = []
        if not isinstance(self.merges, tuple | list):
            raise TypeError(f"merges is a tuple of pairs of ids, not {a_thing(self.merges)}")
        for new_id, merge in enumerate(self.merges, start=BYTES):
            if not isinstance(merge, tuple | list) or len(merge) != 2:
                raise TypeError(f"merge {new_id} is a pair of ids, not {a_thing(merge)}")
            left, right = (whole(i, f"an id of merge {new_id}", 0) for i in merge)
            # A merge may only use ids that already exist; that is what makes
            # the table a sequence of steps instead of a set of wishes.
            if not (0 <= left < new_id and 0 <= right < new_id):
                raise ValueError(f"merge {new_id} = {left} + {right} uses an id not yet in the table")
            pieces.append(pieces[left] + pieces[right])
            rules.append((chr(left) + chr(right), chr(new_id)))
        object.__setattr__(self, "_pieces", tuple(pieces))
        object.__setattr__(self, "_rules", tuple(rules))

    def __len__(self) -> int:
        return len(self._pieces)

    def piece(self, token_id: int) -> bytes:
        """The bytes a token stands for, so a printout can show what an id means."""
        if type(token_id) is int and 0 <= token_id < len(self._pieces):
            return self._pieces[token_id]  # the usual case, without building a list to check
        (checked,) = token_ids([token_id], len(self._pieces))
        return self._pieces[checked]

    # --8<-- [start:encode]
    def encode(self, text: str) -> list[int]:
        """Apply every merge in the order it was learned, as the trainer did.

        Replaying the trainer's own steps is what makes an entry encode to
        exactly the segmentation training gave it; ``str.replace`` works left
        to right and never overlaps, in training and here alike.
        """
        run = _as_chars(_utf8(text))
        for pair, merged in self._rules:
            run = run.replace(pair, merged)
        return [ord(c) for c in run]

    # --8<-- [end:encode]

    def decode(self, ids: Sequence[int]) -> str:
        """Join the pieces back into bytes and read them as UTF-8.

        A run of ids cut from the middle of a text can split a multi-byte
        character; that prints as U+FFFD instead of failing, because a run
        cut anywhere should still be showable.
        """
        pieces = self._pieces
        data = b"".join(pieces[i] for i in token_ids(ids, len(pieces)))
        return data.decode("utf-8", errors="replace")

    @classmethod
    def train(cls, entries: Iterable[str], merges: int = MERGES) -> Tokenizer:
        """Learn ``merges`` pairs from ``entries``, never across an entry's end.

        Pairs are counted inside each entry on its own, so no merge can glue
        the end of one year's line to the start of the next. Ties go to the
        smallest pair, ``(left, right)`` compared as ids, so the same entries
        always give the same table.
        """
        if whole(merges, "merges", 0) > MERGES:
            raise ValueError(f"merges must be between 0 and {MERGES}, not {merges}")
        if isinstance(entries, str | bytes):
            raise TypeError(f"train reads a list of entries, not {a_thing(entries)}")
        runs = [_as_chars(_utf8(entry, "train")) for entry in entries]
        if not runs:
            raise ValueError("cannot train a tokenizer on no entries")
        learned: list[tuple[int, int]] = []
        for new_id in range(BYTES, BYTES + merges):
            # --8<-- [start:count]
            counts: Counter[tuple[str, str]] = Counter()
            for run in runs:
                counts.update(pairwise(run))
            # --8<-- [end:count]
            if not counts:
                break  # every entry is a single token; nothing left to merge
            # --8<-- [start:merge]
            (left, right), _ = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))
            pair, merged = left + right, chr(new_id)
            runs = [run.replace(pair, merged) for run in runs]
            learned.append((ord(left), ord(right)))
            # --8<-- [end:merge]
        return cls(tuple(learned))

    def dumps(self) -> str:
        """The table as merges.txt: one merge a line, the piece shown for a reader."""
        lines = [
            "# attend: byte-level BPE merges, learned from the chronicle.",
            "# ids 0..255 are the lone bytes; each line is: new id = left id + right id  piece",
        ]
        for new_id, (left, right) in enumerate(self.merges, start=BYTES):
            lines.append(f"{new_id} = {left} + {right}  {_show(self._pieces[new_id])}")
        return "\n".join(lines) + "\n"

    @classmethod
    def loads(cls, text: str) -> Tokenizer:
        """Read merges.txt back; the quoted piece is for people and is ignored."""
        merges: list[tuple[int, int]] = []
        if not isinstance(text, str):
            raise TypeError(f"loads reads the text of merges.txt, not {a_thing(text)}")
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.startswith("#"):
                continue
            try:
                new_id, rest = line.split("=", 1)
                left, right = rest.split(None, 3)[0:3:2]
                merge = (int(left), int(right))
                expected = BYTES + len(merges)
                if int(new_id) != expected:
                    raise ValueError(f"expected id {expected}")
            except ValueError as err:
                message = f"merges line {number} is not 'id = left + right': {line!r} ({err})"
                raise ValueError(message) from None
            merges.append(merge)
        return cls(tuple(merges))


@functools.cache
def load_tokenizer() -> Tokenizer:
    """The shipped table, read once: every caller must see the same ids."""
    from attend.core.chronicle import DATA

    return Tokenizer.loads((DATA / "merges.txt").read_text("utf-8"))


@functools.cache
def chronicle_ids() -> tuple[int, ...]:
    """The whole chronicle as ids: the real text the cost rows are cut from (shared, so a tuple)."""
    from attend.core.chronicle import chronicle_text

    return tuple(load_tokenizer().encode(chronicle_text()))
