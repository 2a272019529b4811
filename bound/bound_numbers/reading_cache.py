"""A page's reading kept between builds: a warm build parses and reads again only the pages
that changed.

Reading a page (`reading.read`: every number, binding, label and sum, with their lines) is the
check's own cost (a fifth of a second for the fifteen pages of the book it was made for), and
parsing its Markdown (`Page.tokens`) a third as much again, paid on every build and at every
`serve` rebuild. An entry keeps the reading, the page as a reader gets it (`Page.stripped`),
its fences (`Page.fences`) and its front matter (`Page.meta`), all that a build asks of the
parse, so a page found here is not parsed at all. What they are depends only on what the key
holds: the page's Markdown and where it is, what the site declares for every page (the
plugin's `labels`, `givens`, `not_results` and `decimal_mark`), bound-numbers itself (its
version and source, as the notebook cache knows it) and what parses a page for it (the versions
of markdown-it-py, its plugins, PyYAML and Python). The values the bindings are held to are
not kept here: they are asked of the provider on every build.

An entry is pickled: a file of the site's own cache folder, read only by a build of the same
bound-numbers. One that cannot be read is a miss, said at the info level, and is written again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import pickle
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from mkdocs.plugins import get_plugin_logger

from bound_numbers.declared import Declared
from bound_numbers.page import Fence, Page
from bound_numbers.reading import Reading, read
from bound_numbers.shelf import Shelf, own

log = get_plugin_logger(__name__)

FOLDER = Path(".cache", "bound-numbers", "readings")  # beside the site's configuration
DECLARED = ("labels", "givens", "not_results", "decimal_mark")  # the configuration a reading depends on


# What reads a page besides bound-numbers: its Markdown (markdown-it-py and its plugins), its
# front matter (PyYAML) and its bindings' expressions (Python's own parser).
PARSERS = ("markdown-it-py", "mdit-py-plugins", "pyyaml")


@functools.cache
def parsers() -> list[str]:
    """The versions of what reads a page besides bound-numbers, and of Python: another
    version may read a page otherwise, so it is another key."""
    found = [sys.version]
    for name in PARSERS:
        try:
            found.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return found


class ReadingCache(Shelf):
    """The readings of one site's pages, each read under `declared`, which its `config` says."""

    def __init__(self, folder: Path, declared: Declared, config: Mapping[str, Any]) -> None:
        super().__init__(folder, ".pickle")
        self.declared = declared
        said = {name: config.get(name) for name in DECLARED}
        self._site = json.dumps([own(), parsers(), said], sort_keys=True, default=repr)
        self.reads = 0  # how many pages were really read

    def read(self, page: Page) -> Reading:
        """`reading.read(page, declared)`, or its answer kept from a build before, which also
        gives `page` its stripped text and fences without parsing it."""
        entry = self.entry(hashlib.sha256(f"{self._site}\0{page.path}\0{page.markdown}".encode()).hexdigest())
        try:
            kept = pickle.loads(entry.read_bytes())
            if not isinstance(kept, Kept):
                raise TypeError(f"it holds a {type(kept).__name__}, not a page's reading")
            for name, value in (("stripped", kept.stripped), ("fences", kept.fences), ("meta", kept.meta)):
                page.__dict__.setdefault(name, value)  # what the page's cached properties would parse
            return kept.reading
        except FileNotFoundError:
            pass
        except Exception as error:  # whatever a damaged pickle raises: the page is read again
            reason = f"{type(error).__name__}: {error}".splitlines()[0][:100]
            log.info(f"{page.path}: its cache entry {entry} cannot be read ({reason}); reading it again")
        self.reads += 1
        reading = read(page, self.declared)
        kept = Kept(reading, page.stripped, page.fences, page.meta)
        self.write(entry, pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL))
        return reading


@dataclass(frozen=True)
class Kept:
    """An entry: the page's reading, its text as a reader gets it, its fences and front matter."""

    reading: Reading
    stripped: str
    fences: tuple[Fence, ...]
    meta: Mapping[str, Any]
