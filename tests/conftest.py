"""Shared fixtures: the chapter's head run once over its four typed tokens."""

from __future__ import annotations

import pytest

from attend import Workings, chapter_head

# The four typed rows of the chapter, written out so the tests do not lean on the tokenizer.
CHAPTER_ROW = [(0, 1, 0, 0.5), (1, 0, 0, 0), (0, 0, 1, 1), (1, 0, 0, 0)]


@pytest.fixture
def run() -> Workings:
    return chapter_head().attend(CHAPTER_ROW)
