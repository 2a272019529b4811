"""Both schemes of positions against their papers' formulas, each written out here afresh.

Sinusoidal: Vaswani et al. 2017, section 3.5, PE(pos, 2i) = sin(pos / 10000^(2i/d_model)) and
PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)), one number at a time in plain Python.
Rotary: Su et al., RoFormer, equation (15): the query at position m is multiplied by the
block-diagonal matrix R^d_{Θ,m} whose i-th 2×2 block turns by m·θ_i, θ_i = 10000^(−2(i−1)/d),
built whole in torch and multiplied, not turned pair by pair as attend does.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
import torch

from attend import chapter_embeddings, chapter_head
from attend.book.parting import parting
from attend.core.positions import rotary, sinusoidal
from tests.crosscheck.torch_side import Agree, as_numpy, as_torch

SHAPES = [(1, 2), (4, 4), (7, 6), (16, 8), (50, 64), (128, 512)]


def vaswani(pos: int, slot: int, d_model: int) -> float:
    i = slot // 2
    angle = pos / 10000 ** (2 * i / d_model)
    return math.sin(angle) if slot % 2 == 0 else math.cos(angle)


@pytest.mark.parametrize(("n", "d"), SHAPES)
def test_sinusoidal_positions_are_vaswanis_formula(n: int, d: int, agree: Agree) -> None:
    formula = [[vaswani(pos, slot, d) for slot in range(d)] for pos in range(n)]
    agree(sinusoidal(n, d), formula)


def roformer_matrix(m: int, d: int) -> torch.Tensor:
    """R^d_{Θ,m}: d/2 blocks [[cos mθ_i, −sin mθ_i], [sin mθ_i, cos mθ_i]] on the diagonal."""
    blocks = []
    for i in range(1, d // 2 + 1):
        theta = 10000 ** (-2 * (i - 1) / d)
        c, s = math.cos(m * theta), math.sin(m * theta)
        blocks.append(torch.tensor([[c, -s], [s, c]], dtype=torch.float64))
    return torch.block_diag(*blocks)


def by_roformer(x: npt.NDArray[np.float64], start: int = 0) -> npt.NDArray[np.float64]:
    """Each row of x (n × d) at position start + m multiplied by R^d_{Θ,start+m}."""
    rows = as_torch(x)
    return as_numpy(torch.stack([roformer_matrix(start + m, x.shape[1]) @ rows[m] for m in range(len(x))]))


@pytest.mark.parametrize(("n", "d"), SHAPES[:5])
@pytest.mark.parametrize("start", [0, 5])
def test_rotary_positions_are_roformers_block_diagonal_matrix(
    n: int, d: int, start: int, agree: Agree
) -> None:
    x = np.random.default_rng(n * d + start).standard_normal((n, d))
    agree(rotary(x, start)[0], by_roformer(x, start))


def test_rotary_turns_the_chapters_queries_as_roformer_does(agree: Agree) -> None:
    q = chapter_head().attend(chapter_embeddings()).q
    agree(rotary(q)[0], by_roformer(q))


@pytest.mark.parametrize("scheme", ["sinusoidal", "rotary"])
def test_the_chapters_head_with_positions_agrees_with_torch_sdpa_on_the_papers_formulas(
    scheme: str, agree: Agree
) -> None:
    head, x = chapter_head(), chapter_embeddings()
    n, d = x.shape
    if scheme == "sinusoidal":
        x = x + np.array([[vaswani(pos, slot, d) for slot in range(d)] for pos in range(n)])
    q, k, v = (x @ w.T for w in (head.wq, head.wk, head.wv))
    if scheme == "rotary":
        q, k = by_roformer(q), by_roformer(k)
    theirs = torch.nn.functional.scaled_dot_product_attention(as_torch(q), as_torch(k), as_torch(v))
    ours = parting(head, chapter_embeddings(), scheme).attended.out
    agree(ours, as_numpy(theirs))
