"""`attend embeddings`: the chapter's chronicle entry, its tokens, and the embeddings of the first four."""

from __future__ import annotations

from dataclasses import dataclass

from attend.book.chapter import CHAPTER_ENTRY, Token, chapter_embeddings, chapter_pieces
from attend.book.embedding import DIMENSIONS
from attend.book.layout import label
from attend.book.modes import Mode
from attend.core.arrays import Matrix, read_only
from attend.core.checks import amount
from attend.core.tokenizer import load_tokenizer

__all__ = ["MODE", "Entry", "table", "text"]


@dataclass(frozen=True)
class Entry:
    """The chronicle entry, its tokens, and the typed embeddings of the first four."""

    text: str
    size: int  # bytes of UTF-8
    ids: tuple[int, ...]  # the whole entry, encoded
    round_trip: bool  # decoding the ids gives the entry back
    vocabulary: int  # tokens in the tokenizer's table
    tokens: tuple[Token, ...]  # the first four, the sequence the head reads
    dimensions: tuple[str, ...]  # what each dimension of an embedding says
    typed: Matrix  # each token's typed embedding


def table() -> Entry:
    """The chapter's entry through the tokenizer."""
    tokenizer = load_tokenizer()
    ids = tuple(tokenizer.encode(CHAPTER_ENTRY))
    return Entry(
        text=CHAPTER_ENTRY,
        size=len(CHAPTER_ENTRY.encode()),
        ids=ids,
        round_trip=tokenizer.decode(ids) == CHAPTER_ENTRY,
        vocabulary=len(tokenizer),
        tokens=chapter_pieces(),
        dimensions=DIMENSIONS,
        typed=read_only(chapter_embeddings()),
    )


def text(entry: Entry) -> str:
    lines = [
        f"attend: the sequence the head reads, cut by a table of {entry.vocabulary} tokens",
        "",
        f"  one chronicle entry, {entry.size} bytes, encodes to {amount(len(entry.ids), 'token')}",
        f"    {entry.text}",
        f"  decoded again it is the same {entry.size} bytes: {str(entry.round_trip).lower()}",
        "",
        f"  its first {amount(len(entry.tokens), 'token')}",
        "      n     id  bytes  stands for",
    ]
    for n, token in enumerate(entry.tokens, start=1):
        lines.append(f'  {n:5d}  {token.id:5d}  {len(token.piece):5d}  "{token.text}"')
    lines += [
        "",
        "  each token's embedding, four numbers set by a rule, not learned",
        *_dimension_header(entry.dimensions),
    ]
    for n, (token, typed) in enumerate(zip(entry.tokens, entry.typed, strict=True), 1):
        lines.append(f"  {n:5d} {label(token):<24}" + "".join(f"{v:11.2f}" for v in typed))
    return "\n".join(lines)


def _dimension_header(dimensions: tuple[str, ...]) -> list[str]:
    """What each dimension says over two lines, so the embeddings fit within a page's column."""
    halves = [(" ".join(w[: len(w) // 2]), " ".join(w[len(w) // 2 :])) for w in map(str.split, dimensions)]
    first = "      n " + " " * 24 + "".join(f"{top:>11}" for top, _ in halves)
    return [first, " " * 32 + "".join(f"{bottom:>11}" for _, bottom in halves)]


MODE = Mode(
    "embeddings", "the chapter's entry, its tokens and their embeddings, set by a rule", 10, table, text
)
