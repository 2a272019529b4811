"""Listings fit the column: no code block scrolls sideways on a 1,280-pixel-wide screen.

The rule that makes them fit (docs/stylesheets/book.css): code wraps at every width, since the
package's lines run to ruff's 110 characters and the column holds 80; a transcript, what a
command or a block printed, keeps its lines as printed because its columns line up, so the CLI
and the pages print to fit.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_no_listing_scrolls_sideways_at_1280_pixels(
    visits: dict[str, Any], browser_context_args: dict[str, Any]
) -> None:
    # the visits' context has this viewport
    assert browser_context_args["viewport"] == {"width": 1280, "height": 900}
    assert sum(v.listings for v in visits.values()) > 0, "no listing on any page"
    wide = {path: v.sideways for path, v in visits.items() if v.sideways}
    count = sum(len(v) for v in wide.values())
    assert not wide, f"{count} listings scroll sideways at 1280 px: {wide}"


def test_code_wraps_and_a_transcript_keeps_its_lines_as_printed(visits: dict[str, Any]) -> None:
    transcripts = sum(v.transcripts for v in visits.values())
    code = sum(v.listings for v in visits.values()) - transcripts
    assert transcripts > 0 and code > 0, f"{transcripts} transcripts and {code} code listings in the book"
    misset = {path: v.misset for path, v in visits.items() if v.misset}
    assert not misset, f"code that does not wrap, or a transcript that does: {misset}"
