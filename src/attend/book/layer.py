"""The neuron layer of the earlier volume, kept to compare a head's projection against.

Each neuron weighs every input by a weight it keeps, sums the products and adds its own
bias; a layer is several neurons reading the same inputs, their weights kept as one flat
run per neuron. A head's projection is that weighted sum with no bias, and the book checks
the claim by running both on the same token.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy.typing as npt

from attend.core.checks import finite, real_array, whole

__all__ = ["Layer"]


@dataclass(frozen=True)
class Layer:
    """Neurons reading the same inputs: `weights` holds one run of `inputs` numbers per neuron."""

    inputs: int
    weights: tuple[float, ...]
    biases: tuple[float, ...]

    def __post_init__(self) -> None:
        whole(self.inputs, "inputs", 1)
        for name, one in (("weights", "weight"), ("biases", "bias")):
            numbers = _numbers(getattr(self, name), name, one)
            object.__setattr__(self, name, tuple(numbers))
        if len(self.weights) != self.inputs * len(self.biases):
            raise ValueError(
                f"a layer of {len(self.biases)} neurons over {self.inputs} inputs wants "
                f"{self.inputs * len(self.biases)} weights and holds {len(self.weights)}"
            )

    def forward(self, inputs: npt.ArrayLike) -> list[float]:
        """Each neuron's weighted sum of the inputs plus its bias."""
        x = _numbers(inputs, "the inputs", "input")
        if len(x) != self.inputs:
            raise ValueError(f"the layer reads {self.inputs} inputs and got {len(x)}")
        runs = (self.weights[i : i + self.inputs] for i in range(0, len(self.weights), self.inputs))
        sums = [
            bias + sum(w * v for w, v in zip(run, x, strict=True))
            for run, bias in zip(runs, self.biases, strict=True)
        ]
        for j, total in enumerate(sums, start=1):
            if not math.isfinite(total):
                raise ValueError(f"neuron {j}'s weighted sum is beyond the largest finite number")
        return sums


def _numbers(value: object, name: str, one: str) -> list[float]:
    """A flat run of finite real numbers, refused in the package's words otherwise."""

    def where(at: int) -> str:
        return f"{one} {at + 1}"

    numbers: list[float] = finite(real_array(value, name, where).ravel(), where).tolist()
    return numbers
