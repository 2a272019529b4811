"""The neuron layer of the earlier volume, kept to compare a head's projection against.

A neuron multiplies each input by a stored weight, adds a bias and returns the total; a layer
is a row of them, the weights stored as one flat run per neuron. A head's projection is the
same weighted sum with the bias left at zero, and the book checks that claim by running both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Layer"]


@dataclass(frozen=True)
class Layer:
    """A row of neurons: `weights` holds one run of `inputs` numbers per neuron."""

    inputs: int
    weights: tuple[float, ...]
    biases: tuple[float, ...]

    def __post_init__(self) -> None:
        if self.inputs < 1:
            raise ValueError(f"a layer needs at least one input, not {self.inputs}")
        if len(self.weights) != self.inputs * len(self.biases):
            raise ValueError(
                f"a layer of {len(self.biases)} neurons over {self.inputs} inputs wants "
                f"{self.inputs * len(self.biases)} weights and holds {len(self.weights)}"
            )

    def forward(self, inputs: Sequence[float]) -> list[float]:
        """Each neuron's weighted sum of the inputs plus its bias."""
        if len(inputs) != self.inputs:
            raise ValueError(f"the layer reads {self.inputs} inputs and got {len(inputs)}")
        runs = (self.weights[i : i + self.inputs] for i in range(0, len(self.weights), self.inputs))
        return [
            bias + sum(w * x for w, x in zip(run, inputs, strict=True))
            for run, bias in zip(runs, self.biases, strict=True)
        ]
