"""`attend project`: each token's query, key and value, and token 2's query worked out twice."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attend.book.chapter import D_K, D_MODEL, WQ, Token, chapter_embeddings, chapter_head, chapter_pieces
from attend.book.layer import Layer
from attend.book.layout import label, named, numbers
from attend.book.modes import Mode
from attend.core.arrays import Matrix, read_only
from attend.core.head import Workings

__all__ = ["MODE", "Project", "table", "text"]


@dataclass(frozen=True)
class Project:
    """The chapter's run, and token 2's query found by the head and by a neuron layer."""

    tokens: tuple[Token, ...]
    run: Workings
    by_head: Matrix  # token 2's query as the head projects it
    by_layer: Matrix  # the same from the earlier volume's Layer, biases at zero

    @property
    def same(self) -> bool:
        return bool(np.array_equal(self.by_head, self.by_layer))


def table() -> Project:
    """One run of the chapter's head, and token 2's query found again by a neuron layer."""
    run = chapter_head().attend(chapter_embeddings())
    layer = Layer(D_MODEL, WQ, (0.0,) * D_K)
    return Project(chapter_pieces(), run, run.q[1], read_only(layer.forward(run.x[1])))


def text(project: Project) -> str:
    run = project.run
    lines = ["attend: the three projections of each token", ""]
    for n, token in enumerate(project.tokens):
        for part, matrix in (("query", run.q), ("key", run.k), ("value", run.v)):
            first = f"{n + 1:5d} {label(token):<24}" if part == "query" else " " * 30
            lines.append(f"{first} {part:<6}{numbers(matrix[n])}")
        lines.append("")
    lines += [
        "  token 2's query, worked out two ways",
        named("attend.Head, projecting", project.by_head, 30),
        named("attend.Layer, no biases", project.by_layer, 30),
        f"    {'the same numbers':<30}{str(project.same).lower():>9}",
    ]
    return "\n".join(lines)


MODE = Mode("project", "each token's query, key and value", 30, table, text)
