"""The book's illustrations, kept apart from the plugin that builds the book.

A page draws one by printing it from a fence; what the figure plotted travels inside the
printed HTML, so this package needs nothing from the build.
"""

from attend_figures.controls import driven
from attend_figures.lacking import mask_figure, parting_figure
from attend_figures.pictures import cost_figure, flow_figure, scale_figure, shares_figure, square_figure

__all__ = [
    "cost_figure",
    "driven",
    "flow_figure",
    "mask_figure",
    "parting_figure",
    "scale_figure",
    "shares_figure",
    "square_figure",
]
