"""Entries kept between builds, one file each under one folder: what the notebook cache and the
reading cache share. An entry is written beside its place and moved in (`text.beside`), so no
build reads half of one; a folder that cannot be written leaves the build running without it,
said at the info level (a warning, which `--strict` turns into a failed build, is no place for a
cache's fault)."""

from __future__ import annotations

import functools
import hashlib
from importlib import metadata
from pathlib import Path

from mkdocs.plugins import get_plugin_logger

from bound_numbers.text import beside

log = get_plugin_logger(__name__)


@functools.cache
def own() -> str:
    """bound-numbers as a key knows it: its version and a hash of its package's source, so that
    an edit to a checkout of it is a new key too."""
    try:
        version = metadata.version("bound-numbers")
    except metadata.PackageNotFoundError:
        version = "?"
    digest = hashlib.sha256(version.encode())
    for file in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(f"\0{file.name}\0".encode() + file.read_bytes())
    return digest.hexdigest()


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
        """`data` as the entry, whole or not at all; a folder that cannot be written said once."""
        try:
            with beside(entry) as made:
                made.write_bytes(data)
        except OSError as error:
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
