"""A page's reading kept between builds: a warm build reads again only the pages that changed.

Reading a page (`reading.read`: every number, binding, label and sum, with their lines) is the
check's own cost (a fifth of a second for the fifteen pages of the book it was made for), paid
on every build and at every `serve` rebuild; its answer depends only on what the key holds: the page's
Markdown and where it is, what the site declares for every page (the plugin's `labels`,
`givens`, `not_results` and `decimal_mark`), and bound-numbers itself (its version and source,
as the notebook cache knows it). The values the bindings are held to are not kept here: they
are asked of the provider on every build.

An entry is the `Reading` pickled: a file of the site's own cache folder, read only by the
build that wrote it or a later one of the same bound-numbers. One that cannot be read is a miss,
said at the info level, and is written again.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mkdocs.plugins import get_plugin_logger

from bound_numbers.declared import Declared
from bound_numbers.notebook_cache import own
from bound_numbers.page import Page
from bound_numbers.reading import Reading, read
from bound_numbers.shelf import Shelf

log = get_plugin_logger(__name__)

FOLDER = Path(".cache", "bound-numbers", "readings")  # beside the site's configuration
FORMAT = 1  # what an entry holds; a new one makes every older entry a miss
DECLARED = ("labels", "givens", "not_results", "decimal_mark")  # the configuration a reading depends on


class ReadingCache(Shelf):
    """The readings of one site's pages, each read under `declared`, which its `config` says."""

    def __init__(self, folder: Path, declared: Declared, config: Mapping[str, Any]) -> None:
        super().__init__(folder, ".pickle")
        self.declared = declared
        said = {name: config.get(name) for name in DECLARED}
        self._site = json.dumps([FORMAT, own(), said], sort_keys=True, default=repr)
        self.reads = 0  # how many pages were really read

    def read(self, page: Page) -> Reading:
        """`reading.read(page, declared)`, or its answer kept from a build before."""
        entry = self.entry(hashlib.sha256(f"{self._site}\0{page.path}\0{page.markdown}".encode()).hexdigest())
        try:
            kept = pickle.loads(entry.read_bytes())
            if isinstance(kept, Reading):
                return kept
            raise TypeError(f"it holds a {type(kept).__name__}, not a reading")
        except FileNotFoundError:
            pass
        except Exception as error:  # whatever a damaged pickle raises: the page is read again
            reason = f"{type(error).__name__}: {error}".splitlines()[0][:100]
            log.info(f"{page.path}: its cache entry {entry} cannot be read ({reason}); reading it again")
        self.reads += 1
        reading = read(page, self.declared)
        self.write(entry, pickle.dumps(reading, protocol=pickle.HIGHEST_PROTOCOL))
        return reading
