"""Entries kept between builds, one file each under one folder: what the notebook cache and the
reading cache share. An entry is written beside its place and moved in, so no build reads half
of one; a folder that cannot be written leaves the build running without it, said at the info
level (a warning, which `--strict` turns into a failed build, is no place for a cache's fault)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from mkdocs.plugins import get_plugin_logger

log = get_plugin_logger(__name__)


class Shelf:
    """The entries under `folder` named `*{suffix}`; `prune` drops those a build did not use."""

    def __init__(self, folder: Path, suffix: str) -> None:
        self.folder = folder
        self.suffix = suffix
        self.used: set[Path] = set()

    def entry(self, key: str) -> Path:
        """Where the entry known by `key` is kept, noted as used by this build."""
        entry = self.folder / f"{key}{self.suffix}"
        self.used.add(entry)
        return entry

    def write(self, entry: Path, data: bytes) -> None:
        made = None
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("wb", dir=entry.parent, delete=False) as made:
                made.write(data)
            os.replace(made.name, entry)
        except OSError as error:
            if made is not None:
                with contextlib.suppress(OSError):
                    os.unlink(made.name)
            log.info(
                f"the cache {self.folder} cannot be written ({error.strerror or error}): building without it"
            )

    def prune(self) -> None:
        """Drop every entry this build did not use (a page or notebook since edited, or gone)."""
        try:
            for entry in set(self.folder.glob(f"*{self.suffix}")) - self.used:
                entry.unlink()
        except OSError as error:  # another build pruning too: tidied next time
            log.info(f"the cache {self.folder} was not tidied ({error.strerror or error})")
        self.used = set()
