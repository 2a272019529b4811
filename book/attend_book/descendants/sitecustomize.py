"""Run at start by every Python process a page's code starts (`attend_book.inputs.record` puts
this folder first on their PYTHONPATH): it records what the process reads for the cache. A Python
that cannot (one without the plugin installed) says so, as a program nothing records, so the
cache never keeps its page's run."""

import json
import os
import sys

if folder := os.environ.get("ATTEND_BOOK_READS"):
    try:
        from attend_book.inputs import record_descendant
    except ImportError:
        unrecorded = {"files": [], "variables": {}, "programs": [f"{sys.executable} (without attend-book)"]}
        with open(os.path.join(folder, f"{os.getpid()}.json"), "w", encoding="utf-8") as said:
            json.dump(unrecorded, said)
    else:
        record_descendant(folder)
