"""The one array type the package hands between its parts.

Every query, key, value, score and attention weight is a float64 matrix: float64 is the
arithmetic the chapter's numbers are printed from, so one name for it keeps every signature
saying the same.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["Matrix", "read_only"]

Matrix = npt.NDArray[np.float64]


def read_only(array: npt.ArrayLike) -> Matrix:
    """A float64 copy that cannot be written to: a record handed out stays what was recorded."""
    copy = np.array(array, dtype=np.float64)
    copy.flags.writeable = False
    return copy
