"""The site folder a build writes, moved into place only once the build got through, so that no
failure can cost the last good site. (A page's own text is read and rewritten by the number
check's `bound_numbers.text`.)
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path


class SiteError(ValueError):
    """A site folder the book cannot be built into, said in one line."""


class Staged:
    """A folder built beside `target` and moved onto it only when `commit`ted, whole.

    It is made as a normal build makes a site folder (`os.mkdir`, so the umask sets its
    permissions: a web server running as another user can read it) and locked while this
    process lives, so that another build tells it from what a killed build left: those (and a
    replaced folder a killed build did not finish deleting) it deletes as it starts."""

    def __init__(self, target: Path) -> None:
        if target.is_symlink():
            raise SiteError(
                f"{target} is a symbolic link; the site is built beside it and moved into its place, "
                "which would replace the link: give --site-dir the folder it points to"
            )
        if target.exists() and not target.is_dir():
            raise SiteError(f"{target} is a file, not a folder: move it, or give --site-dir another path")
        target.parent.mkdir(parents=True, exist_ok=True)
        self.target = target
        with _locked(target.parent):  # no other build deletes this folder between made and locked
            for left in target.parent.glob(f".{target.name}-*"):
                _delete_if_unlocked(left)
            while True:
                self.folder = target.parent / f".{target.name}-{secrets.token_hex(4)}"
                with contextlib.suppress(FileExistsError):
                    self.folder.mkdir()
                    break
            self._lock = os.open(self.folder, os.O_RDONLY)
            fcntl.flock(self._lock, fcntl.LOCK_EX)

    def commit(self) -> None:
        """Put the folder where `target` is."""
        try:
            replace_folder(self.target, self.folder)
        finally:
            os.close(self._lock)

    def discard(self) -> None:
        """Delete the folder; `target` stays as it was."""
        shutil.rmtree(self.folder, ignore_errors=True)
        os.close(self._lock)


def _delete_if_unlocked(folder: Path) -> None:
    """Delete the folder unless a living build holds its lock."""
    try:
        held = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:  # not a folder, or gone
        return
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        shutil.rmtree(folder, ignore_errors=True)
    except BlockingIOError:  # a build at work in it
        pass
    finally:
        os.close(held)


def replace_folder(target: Path, new: Path) -> None:
    """Put the folder `new` where `target` is, the old one moved aside first and then deleted.

    Each folder is whole when it is in place; between the two renames `target` is missing for a
    moment, never half-written. Two processes replacing the same folder take turns (a lock on
    the folder that holds it): the last to finish wins, and neither is left broken."""
    aside = Path(tempfile.mkdtemp(prefix=f".{target.name}-old-", dir=target.parent))
    try:
        with _locked(target.parent):
            with contextlib.suppress(FileNotFoundError):
                os.replace(target, aside)
            os.replace(new, target)
    finally:
        shutil.rmtree(aside, ignore_errors=True)


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """The block holds the lock on `folder` that the builds writing into it take turns on."""
    holder = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)  # released as it is closed
        yield
    finally:
        os.close(holder)
