"""What every crosscheck shares: torch in float64 on one thread, and a record of how close
each comparison came, printed at the end of the run (largest difference, number of cases)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
import torch

from tests.crosscheck.torch_side import Agree

TOLERANCE = 1e-6
DIFFERENCES: list[float] = []
RELATIVE = 1e-9  # a learned gradient against autograd's, as a share of autograd's largest entry
GRADIENT_DIFFERENCES: list[tuple[float, float]] = []  # (absolute, relative) for each parameter

torch.set_num_threads(1)  # CI's two cores are shared with the other sessions


@pytest.fixture
def agree() -> Agree:
    """Assert that two arrays of the same shape differ by at most TOLERANCE anywhere, and
    keep the largest difference for the summary."""

    def check(ours: npt.ArrayLike, theirs: npt.ArrayLike) -> None:
        a, b = np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64)
        assert a.shape == b.shape
        difference = float(np.abs(a - b).max()) if a.size else 0.0
        DIFFERENCES.append(difference)
        assert difference <= TOLERANCE

    return check


@pytest.fixture
def agree_gradient() -> Agree:
    """Assert that our gradient differs from autograd's by at most RELATIVE times autograd's
    largest entry, and keep both differences for the summary."""

    def check(ours: npt.ArrayLike, theirs: npt.ArrayLike) -> None:
        a, b = np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64)
        assert a.shape == b.shape
        difference, largest = float(np.abs(a - b).max()), float(np.abs(b).max())
        GRADIENT_DIFFERENCES.append((difference, difference / largest))
        assert difference <= RELATIVE * largest

    return check


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if DIFFERENCES:
        terminalreporter.write_line(
            f"crosscheck: {len(DIFFERENCES)} comparisons, largest absolute difference "
            f"{max(DIFFERENCES):.3g} (tolerance {TOLERANCE:g}), torch {torch.__version__}"
        )
    if GRADIENT_DIFFERENCES:
        absolute, relative = (max(each) for each in zip(*GRADIENT_DIFFERENCES, strict=True))
        terminalreporter.write_line(
            f"crosscheck: {len(GRADIENT_DIFFERENCES)} gradients against autograd, largest absolute "
            f"difference {absolute:.3g}, largest relative {relative:.3g} (tolerance {RELATIVE:g})"
        )
