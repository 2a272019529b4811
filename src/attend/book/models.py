"""Published model shapes, and what one layer of each costs at a given length.

The book's head is four numbers wide; what it says about real models must come from real
shapes, not from memory. So each model here is a row of the numbers its makers published,
with the file or paper each was read from, and every claim about real models (where the
square overtakes the rest of a layer, what doubling the length costs, how much memory the
keys and values take) is computed from these rows by the functions below.

Counting conventions, the same as the book's head: one multiply-add per weight a token
passes through; the scores and the mix each take the full n×n square, as the head on the
page does and as a plain matrix product computes it even under a causal mask. `causal=True`
counts only the n(n+1)/2 query–key pairs on and below the diagonal instead, what a kernel
that skips the hidden pairs does. Biases, norms, softmax and the activation are left out:
they grow with n and are small beside the products.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from attend.core.checks import a_thing, switch, whole
from attend.core.kvcache import cache_bytes

__all__ = [
    "BYTES",
    "GEMMA_2B",
    "GPT2_SMALL",
    "GPT2_XL",
    "LLAMA2_7B",
    "LLAMA3_8B",
    "LLAMA31_8B",
    "MODELS",
    "LayerWork",
    "Model",
    "Weights",
    "doubling",
    "head_tie",
    "kv_cache_bytes",
    "layer_tie",
    "layer_work",
    "llama_mlp_width",
    "score_bytes",
    "square_share",
    "weights",
]

# Bytes a number takes in each published dtype. numpy has no bfloat16; it is 16 bits wide.
BYTES = {"float32": 4, "float16": 2, "bfloat16": 2}
NORM_NUMBERS = {"LayerNorm": 2, "RMSNorm": 1}  # stored numbers per width: scale and shift, or scale


# --8<-- [start:model]
@dataclass(frozen=True)
class Model:
    """One published model's shape, as its makers' files give it.

    `d_model` is the width of a token's embedding; `heads` heads of
    `d_model // heads` numbers each share it. `kv_heads` is fewer than
    `heads` where groups of queries share one key and value
    (grouped-query attention). `mlp` is the MLP's inner width: a
    GELU MLP has two matrices of d_model×mlp, a gated SwiGLU one three.
    """

    name: str
    d_model: int
    heads: int
    kv_heads: int
    layers: int
    mlp: int
    gated: bool  # SwiGLU (three MLP matrices) rather than GELU (two)
    context: int  # tokens it was trained to read at once
    vocab: int
    dtype: str  # the dtype its weights were published in
    biases: bool  # whether each matrix has a bias beside it
    norm: str  # "LayerNorm" (a scale and a shift per number) or "RMSNorm" (a scale only)
    learned_positions: bool  # a stored table of positions (GPT-2), or none (Llama rotates q and k)
    tied_output: bool  # whether the output table is the token table itself
    source: str

    @property
    def d_k(self) -> int:
        """Numbers per query, key and value: d_k = d_model / heads."""
        return self.d_model // self.heads

    @property
    def number_bytes(self) -> int:
        """Bytes one number takes in the dtype the weights were published in."""
        return BYTES[self.dtype]


# --8<-- [end:model]


def llama_mlp_width(d: int, multiple_of: int, multiplier: float = 1.0) -> int:
    """The SwiGLU width Meta's llama/model.py derives from params.json.

    Meta publishes `dim`, `multiple_of` and `ffn_dim_multiplier`, not
    the width: FeedForward takes 4·dim, keeps two thirds of it (a
    gated MLP has three matrices, so two thirds keeps the weights of
    a 4·dim GELU MLP), scales it, and rounds up to `multiple_of`.
    """
    width = int(2 * (4 * d) / 3)
    width = int(multiplier * width)
    return multiple_of * math.ceil(width / multiple_of)


def gpt2(name: str, d_model: int, heads: int, layers: int, source: str) -> Model:
    """A GPT-2 of one size: the sizes share everything but their width, heads and depth.

    Each head keeps its own keys and values, the MLP is four times
    the width, and the vocabulary, context, dtype, biases, norm,
    learned positions and tied output table are the family's.
    """
    return Model(
        name=name,
        d_model=d_model,
        heads=heads,
        kv_heads=heads,
        layers=layers,
        mlp=4 * d_model,
        gated=False,
        context=1024,
        vocab=50257,
        dtype="float32",
        biases=True,
        norm="LayerNorm",
        learned_positions=True,
        tied_output=True,
        source=source,
    )


def llama(
    name: str,
    d_model: int,
    heads: int,
    kv_heads: int,
    layers: int,
    mlp: int,
    context: int,
    vocab: int,
    dtype: str,
    source: str,
) -> Model:
    """A Llama: a gated MLP, no biases, RMSNorm, rotated positions and an output table of its own."""
    return Model(
        name=name,
        d_model=d_model,
        heads=heads,
        kv_heads=kv_heads,
        layers=layers,
        mlp=mlp,
        gated=True,
        context=context,
        vocab=vocab,
        dtype=dtype,
        biases=False,
        norm="RMSNorm",
        learned_positions=False,
        tied_output=False,
        source=source,
    )


GPT2_SMALL = gpt2(
    name="GPT-2 small",
    d_model=768,
    heads=12,
    layers=12,
    source=(
        "Radford et al. 2019, 'Language Models are Unsupervised Multitask Learners'; "
        "openai/gpt-2 src/model.py: default_hparams n_ctx=1024, n_embd=768, n_head=12, n_layer=12, "
        "mlp width nx*4, float32 tf variables; karpathy/nanoGPT model.py from_pretrained: "
        "gpt2 n_layer=12, n_head=12, n_embd=768 ('124M params'), vocab_size=50257, block_size=1024"
    ),
)

GPT2_XL = gpt2(
    name="GPT-2 XL",
    d_model=1600,
    heads=25,
    layers=48,
    source=(
        "Radford et al. 2019; karpathy/nanoGPT model.py from_pretrained: gpt2-xl n_layer=48, "
        "n_head=25, n_embd=1600 ('1558M params'), vocab_size=50257, block_size=1024; "
        "mlp width 4*n_embd as in openai/gpt-2 src/model.py"
    ),
)

LLAMA2_7B = llama(
    name="Llama-2-7B",
    d_model=4096,
    heads=32,
    kv_heads=32,
    layers=32,
    mlp=llama_mlp_width(4096, multiple_of=256),
    context=4096,
    vocab=32000,
    dtype="float16",
    source=(
        "Touvron et al. 2023, 'Llama 2'; params.json of llama-2-7b: dim=4096, multiple_of=256, "
        "n_heads=32, n_layers=32; meta-llama/llama llama/model.py FeedForward (width 11008); "
        "meta-llama/llama MODEL_CARD.md: context length 4k, no GQA at 7B; "
        "meta-llama/Llama-2-7b-hf config.json: intermediate_size=11008, max_position_embeddings=4096, "
        "vocab_size=32000, torch_dtype=float16"
    ),
)

LLAMA3_8B = llama(
    name="Llama-3-8B",
    d_model=4096,
    heads=32,
    kv_heads=8,
    layers=32,
    mlp=llama_mlp_width(4096, multiple_of=1024, multiplier=1.3),
    context=8192,
    vocab=128256,
    dtype="bfloat16",
    source=(
        "Meta 2024, Llama 3 model card (meta-llama/llama3 MODEL_CARD.md: 8B, context length 8k, GQA); "
        "meta-llama/llama3 Meta-Llama-3-8B params.json: dim=4096, n_layers=32, n_heads=32, "
        "n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3; "
        "meta-llama/Meta-Llama-3-8B config.json: intermediate_size=14336, "
        "max_position_embeddings=8192, torch_dtype=bfloat16"
    ),
)

# Llama-3-8B's layer, every shape the same, with a context window sixteen times as long.
LLAMA31_8B = replace(
    LLAMA3_8B,
    name="Llama-3.1-8B",
    context=131072,
    source=(
        "Meta 2024, Llama 3.1 model card (meta-llama/llama-models models/llama3_1/MODEL_CARD.md: "
        "8B, context length 128k, GQA); meta-llama/llama-models models/llama3_1/api/sku_list.py "
        "llama3_1_8b: dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, "
        "multiple_of=1024, ffn_dim_multiplier=1.3, CONTEXT_LENGTH=131072, use_scaled_rope; "
        "meta-llama/Llama-3.1-8B config.json: intermediate_size=14336, "
        "max_position_embeddings=131072, rope_scaling original_max_position_embeddings=8192, "
        "torch_dtype=bfloat16"
    ),
)

# Multi-query attention: one key and one value head shared by all eight query heads. Not in
# MODELS: the kv-cache page weighs its cache beside Llama-3-8B's.
GEMMA_2B = Model(
    name="Gemma-2B",
    d_model=2048,
    heads=8,
    kv_heads=1,
    layers=18,
    mlp=16384,
    gated=True,
    context=8192,
    vocab=256000,
    dtype="bfloat16",
    biases=False,
    norm="RMSNorm",
    learned_positions=False,
    tied_output=True,
    source=(
        "Gemma Team 2024, 'Gemma: Open Models Based on Gemini Research and Technology'; "
        "google/gemma_pytorch gemma/config.py get_config_for_2b: num_hidden_layers=18, "
        "num_attention_heads=8, num_key_value_heads=1, hidden_size=2048, intermediate_size=16384, "
        "with GemmaConfig's head_dim=256, vocab_size=256000, max_position_embeddings=8192, "
        "dtype='bfloat16'; gemma/model.py: GemmaMLP gate_proj, up_proj and down_proj (gated), "
        "Linear without a bias, RMSNorm, rotary positions, the Sampler's logits from the embedding table"
    ),
)

MODELS = (GPT2_SMALL, GPT2_XL, LLAMA2_7B, LLAMA3_8B, LLAMA31_8B)


# --8<-- [start:work]
@dataclass(frozen=True)
class LayerWork:
    """One layer's multiply-adds on a sequence of n tokens, by part.

    `qkv`, `output` and `mlp` pass each token through stored
    matrices on its own: they grow in a straight line with n.
    `scores` and `mix` pair every token with every other, in every
    head: they grow with n².
    """

    length: int
    qkv: int
    output: int
    scores: int
    mix: int
    mlp: int

    @property
    def square(self) -> int:
        """The part that grows with n²."""
        return self.scores + self.mix

    @property
    def straight(self) -> int:
        """The part that grows with n."""
        return self.qkv + self.output + self.mlp

    @property
    def total(self) -> int:
        return self.square + self.straight


def layer_work(model: Model, n: int, *, causal: bool = False) -> LayerWork:
    """What one layer of `model` does on a sequence of `n` tokens.

    Every query head scores its query–key pairs and weighs their
    values: all n² pairs, or with `causal` only the n(n+1)/2 a causal
    mask leaves visible.
    """
    n = whole(n, "n", 1)
    pairs = n * (n + 1) // 2 if switch(causal, "causal") else n * n
    d, dk = model.d_model, model.d_k
    return LayerWork(
        length=n,
        qkv=n * d * (model.heads + 2 * model.kv_heads) * dk,
        output=n * (model.heads * dk) * d,
        scores=model.heads * pairs * dk,
        mix=model.heads * pairs * dk,
        mlp=n * d * model.mlp * (3 if model.gated else 2),
    )


# --8<-- [end:work]


def layer_tie(model: Model) -> float:
    """The length at which a layer's square costs what the rest of it costs.

    The square is 2·heads·dk·n² = 2·D·n², the rest c·n for a
    per-token cost c, so the two meet at n = c / 2D. For GPT-2
    c = 12·D² (Q, K, V, the output and a 4D MLP), giving n = 6·D.
    """
    per_token = layer_work(model, 1).straight
    return per_token / (2 * model.heads * model.d_k)


def head_tie(model: Model) -> float:
    """Where a layer's query, key and value projections cost what its scores and mixing cost.

    Per query head that is one head's tie, its projections against
    its own pairs. With a key and a value for every head it is the
    book's 3·n·D·dk = 2·n²·dk, n = 1.5·D whatever dk is; where
    query heads share keys and values (grouped-query attention),
    each pays only its part of them and the tie comes earlier.
    """
    return layer_work(model, 1).qkv / (2 * model.heads * model.d_k)


def doubling(model: Model, n: int) -> float:
    """How many times one layer's work grows when the sequence goes from n to 2n tokens."""
    return layer_work(model, 2 * n).total / layer_work(model, n).total


def square_share(model: Model, n: int, *, causal: bool = False) -> float:
    """The square's part of one layer's work at n tokens, from 0 to 1."""
    work = layer_work(model, n, causal=causal)
    return work.square / work.total


def score_bytes(model: Model, n: int) -> int:
    """Memory for one layer's attention weights on one sequence of n tokens, in the model's dtype.

    An implementation that makes the n×n matrix whole keeps one per
    query head, and training keeps it until the backward pass has
    used it; a fused kernel (FlashAttention) works in tiles and
    never holds it whole.
    """
    n = whole(n, "n", 1)
    return model.heads * n * n * BYTES[model.dtype]


def kv_cache_bytes(model: Model, n: int | None = None, *, dtype: str | None = None) -> int:
    """Memory for the keys and values a generating model keeps, at n tokens.

    The cache's own rule (`kvcache.cache_bytes`) at the published
    shapes. A cache is kept in the dtype the model is run in, which
    `dtype` names ("float32", "float16", "bfloat16"); by default the
    dtype its weights were published in. `n` defaults to the
    model's context length, the most it will hold.
    """
    length = model.context if n is None else whole(n, "n", 1)
    width = BYTES[model.dtype if dtype is None else _dtype(dtype)]
    return cache_bytes(model.layers, model.kv_heads, model.d_k, length, width)


def _dtype(name: object) -> str:
    """A dtype name this module knows the width of."""
    if not isinstance(name, str) or name not in BYTES:
        raise ValueError(f"dtype is one of {', '.join(BYTES)}, not {a_thing(name)}")
    return name


@dataclass(frozen=True)
class Weights:
    """A model's stored numbers, by where they sit."""

    embedding: int  # token table, learned positions, and an untied output table
    attention: int  # per layer: Q, K, V and output matrices with their biases
    mlp: int  # per layer
    layers: int
    norms: int  # every norm's scales (and shifts), all layers and the last one

    @property
    def layer(self) -> int:
        """One layer's matrices, norms left out."""
        return self.attention + self.mlp

    @property
    def total(self) -> int:
        return self.embedding + self.layers * self.layer + self.norms


def weights(model: Model) -> Weights:
    """Count a model's parameters from its shape, so a published total can check the shape.

    GPT-2 has biases, LayerNorm, learned positions and an output
    table tied to the token table; Llama has no biases, RMSNorm,
    nothing stored for positions and an output table of its own.
    Two norms a layer and one after the last.
    """
    d, qkv = model.d_model, (model.heads + 2 * model.kv_heads) * model.d_k
    out, mlp = model.heads * model.d_k, (3 if model.gated else 2) * model.mlp
    tables = (1 if model.tied_output else 2) * model.vocab + (model.context if model.learned_positions else 0)
    bias = 1 if model.biases else 0
    return Weights(
        embedding=tables * d,
        attention=(qkv + out) * d + bias * (qkv + d),
        mlp=mlp * d + bias * (model.mlp + d),
        layers=model.layers,
        norms=NORM_NUMBERS[model.norm] * (2 * model.layers + 1) * d,
    )
