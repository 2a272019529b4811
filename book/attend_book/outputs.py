"""A fence's output as markdown-exec shows it, kept between builds while nothing that shapes it moved.

markdown-exec turns each output into HTML through a Markdown conversion of its own, highlighting
and all: about half of rendering the book's pages, in every build and in every rebuild under
`nox -s serve`, for outputs that rarely change. An output shown as a code block (a fence with
`result`, a transcript) becomes the same HTML whenever the page, the fence's source and options,
the text it printed and the site's Markdown settings are the same, so its HTML is kept in the
cache (whose key also holds the versions of Markdown, its extensions and Pygments). An output
shown as Markdown, or as HTML, may hold a heading for the table of contents or a link the build
checks, which only a conversion reports: it is converted every time.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mkdocs.config.defaults import MkDocsConfig


def settings_of(config: MkDocsConfig) -> str:
    """The site's Markdown extensions and their settings, as text to key an output by; a
    function among them (a fence's formatter, a slug maker) is written by its name."""
    extensions = [str(extension) for extension in config.markdown_extensions]
    return json.dumps([extensions, config.mdx_configs], sort_keys=True, default=_named)


def _named(thing: object) -> str:
    return str(getattr(thing, "__qualname__", type(thing).__qualname__))


def kept_whole(kind: str, options: Mapping[str, Any]) -> bool:
    """Whether the fence's output is shown in a code block only: a transcript, or a `result`
    not taken as HTML."""
    return kind == "console" or (bool(options.get("result")) and not options.get("html"))


def key_of(
    page: str, kind: str, code: str, text: str, options: Mapping[str, Any], settings: str
) -> list[str]:
    """What the HTML of a fence's output is made from, as the cache's parts."""
    return [page, kind, code, text, json.dumps(options, sort_keys=True, default=_named), settings]
