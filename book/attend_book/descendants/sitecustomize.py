"""Run at start by every Python process a page's code starts (`attend_book.inputs.record` puts
this folder first on their PYTHONPATH): it records what the process reads for the cache."""

import contextlib
import os

if folder := os.environ.get("ATTEND_BOOK_READS"):
    with contextlib.suppress(ImportError):  # a Python without the plugin: its reads go unrecorded
        from attend_book.inputs import record_descendant

        record_descendant(folder)
