"""Crossing between numpy and torch, always in float64."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import torch

Agree = Callable[[npt.ArrayLike, npt.ArrayLike], None]  # the `agree` fixture of conftest.py


def as_numpy(tensor: torch.Tensor) -> npt.NDArray[np.float64]:
    return np.asarray(tensor.detach().numpy(), dtype=np.float64)


def as_torch(array: npt.ArrayLike) -> torch.Tensor:
    return torch.tensor(np.asarray(array, dtype=np.float64))
