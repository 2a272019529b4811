"""The causal mask: a token may look at itself and the tokens before it, never after.

A model that writes text one token at a time has, at each step, only the tokens written so
far. Trained on whole sequences, it would learn to copy from the token it is meant to guess
unless each query is kept from the keys after it. The mask does that before softmax: a
hidden score becomes -inf, e to -inf is exactly 0, and the attention weights that are left
still add to one.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from attend.core.checks import queries_of_keys

__all__ = ["causal_mask", "hide"]


# --8<-- [start:mask]
def causal_mask(queries: int, keys: int) -> npt.NDArray[np.bool_]:
    """True where a query may look: the queries are the last of
    the keys' positions, so query i sees keys 1 to i + keys − queries.
    A whole sequence asking gives the lower triangle; one new
    token asking of a cache gives a row with nothing hidden."""
    queries, keys = queries_of_keys(queries, keys)
    asking = np.arange(keys - queries, keys)[:, None]  # (queries, 1): each query's own position
    return np.arange(keys)[None, :] <= asking  # (queries, keys)


def hide(
    scores: npt.NDArray[np.float64],
    seen: npt.NDArray[np.bool_],
) -> npt.NDArray[np.float64]:
    """The scores with every one the mask hides made -inf."""
    return np.where(seen, scores, -np.inf)


# --8<-- [end:mask]
