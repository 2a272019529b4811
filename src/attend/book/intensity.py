"""Multiply-adds per byte read: why writing one token at a time waits on memory, not arithmetic.

Every multiply-add needs its weight brought from memory first. A whole sequence of n tokens
read at once uses each stored matrix n times for one trip from memory; a model writing one
token with a KV cache uses each of them once, and reads the cache as well, for that single
token. So the step's arithmetic per byte is about what one weight gives, whatever the
model, and the machine spends the step waiting for bytes. The counts follow `layer_work`:
one multiply-add per weight a token passes through, the full n×n square for a sequence,
biases read but norms, softmax and the embedding lookup (one row) left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from attend.book.models import BYTES, Model, kv_cache_bytes, layer_work, weights
from attend.core.checks import whole

__all__ = ["A100_80GB", "Machine", "Traffic", "matrix_bytes", "sequence_traffic", "step_traffic"]


@dataclass(frozen=True)
class Machine:
    """A chip's published peak rates: the arithmetic and the memory reads it can sustain."""

    name: str
    flops: float  # floating-point operations a second, dense, in the dtype the models use
    bandwidth: float  # bytes a second from its memory
    source: str

    @property
    def per_byte(self) -> float:
        """Multiply-adds a second per byte a second: below it a pass waits on memory."""
        return self.flops / 2 / self.bandwidth  # a multiply-add is two operations


A100_80GB = Machine(
    name="NVIDIA A100 80GB SXM",
    flops=312e12,
    bandwidth=2039e9,
    source=(
        "NVIDIA A100 Tensor Core GPU datasheet (nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf): "
        "BFLOAT16 Tensor Core 312 TFLOPS dense (624 with sparsity), GPU memory bandwidth 2,039 GB/s "
        "for the 80GB SXM; as tabulated, with that datasheet cited, at "
        "glennklockwood.com/garden/processors/A100"
    ),
)


@dataclass(frozen=True)
class Traffic:
    """The multiply-adds of one pass and the bytes it must read from memory to do them."""

    work: int
    weights: int  # bytes of the stored matrices, each read once
    cache: int  # bytes of kept keys and values read

    @property
    def read(self) -> int:
        return self.weights + self.cache

    @property
    def per_byte(self) -> float:
        """Multiply-adds per byte read: the pass's arithmetic intensity."""
        return self.work / self.read


# --8<-- [start:traffic]
def matrix_bytes(model: Model) -> int:
    """Bytes of every matrix a token passes through: each layer's
    attention and MLP matrices, and the output table that scores
    the next token against the whole vocabulary."""
    stored = weights(model)
    numbers = stored.layers * stored.layer + model.vocab * model.d_model
    return numbers * BYTES[model.dtype]


def step_traffic(model: Model, keys: int) -> Traffic:
    """Writing one token with a KV cache: its query meets `keys`
    kept keys (its own among them) in every layer."""
    keys = whole(keys, "keys", 1)
    one = layer_work(model, 1)
    square_row = 2 * model.heads * model.d_k * keys  # scores, then the mix
    work = model.layers * (one.straight + square_row) + model.vocab * model.d_model
    return Traffic(work, matrix_bytes(model), kv_cache_bytes(model, keys))


def sequence_traffic(model: Model, n: int) -> Traffic:
    """A whole sequence of n tokens at once, every matrix read once
    for all of them: the least a pass over n tokens must read."""
    n = whole(n, "n", 1)
    work = model.layers * layer_work(model, n).total + n * model.vocab * model.d_model
    return Traffic(work, matrix_bytes(model), 0)


# --8<-- [end:traffic]
