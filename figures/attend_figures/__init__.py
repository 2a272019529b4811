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
from attend_figures.lacking import mask_figure, parting_figure
from attend_figures.learning import curve_figure, idea_figure, learned_figure, window_figure
from attend_figures.pictures import cost_figure, flow_figure, scale_figure, shares_figure, square_figure

__all__ = [
    "cost_figure",
    "curve_figure",
    "driven",
    "flow_figure",
    "growth_figure",
    "heads_figure",
    "idea_figure",
    "learned_figure",
    "mask_figure",
    "parting_figure",
    "projection_figure",
    "query_figure",
    "rotation_figure",
    "scale_figure",
    "shares_figure",
    "square_figure",
    "window_figure",
]
