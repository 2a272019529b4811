"""Where the values of a page's bindings come from: the provider the plugin's `values:` names.

The check reads numbers and compares; it never runs a page's code. A provider does: the plugin's
own evaluation of a page's fences (`values: fences`), or another plugin of the same build that
already runs each page (`values: <its name>`), which then shows and checks the same run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

# A number, an integer, a list of them (a group, nested as the value is), or the one line saying
# why the expression gives no value (a name the page's code never defined, an exception).
Value = float | int | list["Value"] | str


class Unavailable(Exception):  # noqa: N818 (the public name: what a provider raises)
    """The page's code failed, so none of its bindings has a value: one line saying why. The
    page is still checked for everything but its bindings."""


class Provider(Protocol):
    def bound_values(self, page: str, markdown: str, expressions: Sequence[str]) -> Mapping[str, Value]:
        """Each expression's value in the namespace the page's code leaves once its fences ran.
        `page` is the page's path as messages name it (from mkdocs.yml's folder), `markdown` its
        source with its front matter. Raises `Unavailable` when the page's code fails."""
        ...


Sources = Mapping[str, Callable[[str], str]]


def sources_of(provider: Provider) -> Sources:
    """The pages a provider checks beyond the Markdown files of docs_dir (its optional
    `bound_sources()`): each path, from mkdocs.yml's folder, with what of its text a reader sees
    as Markdown, line for line and column for column."""
    found = getattr(provider, "bound_sources", None)
    return dict(found()) if callable(found) else {}
