"""The book's illustrations, kept apart from the plugin that builds the book.

A page draws one by printing it from a fence; what the figure plotted travels inside the
printed HTML, so this package needs nothing from the build. It ships in the `attend-head`
wheel, but draws with matplotlib, which only the `figures` extra installs: without it, the
import says what to install.
"""

try:
    import matplotlib  # noqa: F401 - only to ask for it before the modules below need it
except ModuleNotFoundError as missing:
    raise ModuleNotFoundError(
        'attend_figures draws with matplotlib: pip install "attend-head[figures]"', name="matplotlib"
    ) from missing

from attend_figures.controls import driven
from attend_figures.diagrams import (
    growth_figure,
    heads_figure,
    projection_figure,
    query_figure,
    rotation_figure,
)
from attend_figures.ideas import (
    block_figure,
    company_figure,
    head_figure,
    kinds_figure,
    saturation_figure,
    strip_figure,
)
from attend_figures.ideas_later import layer_figure, looking_back_figure, placed_figure
from attend_figures.lacking import mask_figure, parting_figure
from attend_figures.learning import clue_figure, curve_figure, learned_figure, window_figure
from attend_figures.opening import line_figure
from attend_figures.pictures import cost_figure, scale_figure, square_figure, weights_figure

__all__ = [
    "block_figure",
    "clue_figure",
    "company_figure",
    "cost_figure",
    "curve_figure",
    "driven",
    "growth_figure",
    "head_figure",
    "heads_figure",
    "kinds_figure",
    "layer_figure",
    "learned_figure",
    "line_figure",
    "looking_back_figure",
    "mask_figure",
    "parting_figure",
    "placed_figure",
    "projection_figure",
    "query_figure",
    "rotation_figure",
    "saturation_figure",
    "scale_figure",
    "square_figure",
    "strip_figure",
    "weights_figure",
    "window_figure",
]
