"""Our attention, mask and heads against PyTorch's, in float64, on the chapter's row and on
random shapes: torch's scaled_dot_product_attention (causal by `is_causal` and by a mask of
its own), and nn.MultiheadAttention loaded with our weights."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
import torch

from attend import chapter_embeddings, chapter_head
from attend.book.chapter import D_MODEL, WK, WQ, WV
from attend.core.attention import attention
from attend.core.causal import causal_mask
from attend.core.heads import MultiHead
from attend.core.kvcache import generate
from tests.crosscheck.torch_side import Agree, as_numpy, as_torch

Matrix = npt.NDArray[np.float64]
SEEDS = range(24)
CASES = ["chapter", *(f"random {seed}" for seed in SEEDS)]
LAYERS = ["chapter h=1", "chapter h=2", "chapter h=4", *(f"random {seed}" for seed in SEEDS)]
sdpa = torch.nn.functional.scaled_dot_product_attention


def projections(case: str) -> tuple[Matrix, Matrix, Matrix]:
    """The chapter head's queries, keys and values, or random ones of a random shape: 1 to 4
    heads, 1 to 12 tokens, 1 to 9 slots wide."""
    if case == "chapter":
        run = chapter_head().attend(chapter_embeddings())
        return run.q, run.k, run.v
    rng = np.random.default_rng(int(case.split()[1]))
    h, n, dk = (int(rng.integers(1, top)) for top in (5, 13, 10))
    q, k, v = rng.standard_normal((3, h, n, dk))
    return q, k, v


def layer_and_row(case: str) -> tuple[MultiHead, Matrix]:
    """The chapter's matrices cut into h heads with Wo the identity, on the chapter's row; or
    random weights for 1 to 4 heads of 1 to 5 slots, on a random row of 1 to 12 tokens."""
    if case.startswith("chapter"):
        return MultiHead(D_MODEL, int(case[-1]), WQ, WK, WV, np.eye(D_MODEL).ravel()), chapter_embeddings()
    rng = np.random.default_rng(1000 + int(case.split()[1]))
    h, dk, n = (int(rng.integers(1, top)) for top in (5, 6, 13))
    d = h * dk
    wq, wk, wv, wo = rng.standard_normal((4, d * d))
    return MultiHead(d, h, wq, wk, wv, wo), rng.standard_normal((n, d))


def torch_layer(layer: MultiHead) -> torch.nn.MultiheadAttention:
    """torch's layer holding our weights: its in_proj stacks Wq, Wk and Wv as we store them,
    each head's slots in order."""
    d = layer.d_model
    mha = torch.nn.MultiheadAttention(d, layer.h, bias=False, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(
            as_torch(np.concatenate([w.reshape(d, d) for w in (layer.wq, layer.wk, layer.wv)]))
        )
        mha.out_proj.weight.copy_(as_torch(layer.wo))
    return mha


def hidden_after(n: int) -> torch.Tensor:
    """nn.MultiheadAttention's mask: True where a query may not look."""
    return torch.ones(n, n, dtype=torch.bool).triu(1)


@pytest.mark.parametrize("case", CASES)
def test_attention_agrees_with_torch_sdpa(case: str, agree: Agree) -> None:
    q, k, v = projections(case)
    agree(attention(q, k, v).out, as_numpy(sdpa(as_torch(q), as_torch(k), as_torch(v))))


@pytest.mark.parametrize("case", CASES)
def test_the_causal_mask_agrees_with_sdpa_is_causal_and_with_its_attn_mask(case: str, agree: Agree) -> None:
    q, k, v = projections(case)
    n = q.shape[-2]
    ours = attention(q, k, v, seen=causal_mask(n, n)).out
    agree(ours, as_numpy(sdpa(as_torch(q), as_torch(k), as_torch(v), is_causal=True)))
    seen = torch.ones(n, n, dtype=torch.bool).tril()  # sdpa's mask: True where a query may look
    agree(ours, as_numpy(sdpa(as_torch(q), as_torch(k), as_torch(v), attn_mask=seen)))


@pytest.mark.parametrize("causal", [False, True], ids=["whole", "causal"])
@pytest.mark.parametrize("case", LAYERS)
def test_several_heads_agree_with_torch_multihead_attention(case: str, causal: bool, agree: Agree) -> None:
    layer, x = layer_and_row(case)
    ours = layer.attend(x, causal=causal)
    row = as_torch(x)
    mask = hidden_after(len(x)) if causal else None
    out, shares = torch_layer(layer)(
        row, row, row, attn_mask=mask, is_causal=causal, average_attn_weights=False
    )
    agree(ours.out, as_numpy(out))
    agree(ours.attended.weights, as_numpy(shares))


@pytest.mark.parametrize("case", LAYERS)
def test_generating_with_the_cache_gives_torchs_masked_run_of_the_whole_row(case: str, agree: Agree) -> None:
    layer, x = layer_and_row(case)
    row = as_torch(x)
    out, _ = torch_layer(layer)(row, row, row, attn_mask=hidden_after(len(x)), is_causal=True)
    agree(generate(layer, x, cache=True).out, as_numpy(out))
