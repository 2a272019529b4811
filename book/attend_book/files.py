"""The site folder a build writes, moved into place only once the build got through, so that no
failure can cost the last good site, and no page's code can reach either. (A page's own text is
read and rewritten by the number check's `bound_numbers.text`.)
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
from typing import Any


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
        self.tainted = False  # a page's code changed a site folder: this build's site is never moved in
        # The last good site as it stood when copied (`watched`), and the copy.
        self._copied: tuple[dict[str, Any] | None, tempfile.TemporaryDirectory[str]] | None = None

    @property
    def folders(self) -> tuple[str, str]:
        """The last good site and the new one, absolute: what a page's code may not change."""
        return os.path.abspath(self.target), os.path.abspath(self.folder)

    @contextlib.contextmanager
    def watched(self) -> Iterator[None]:
        """The block (a page's run) changes neither site folder, or is a `SiteError` naming what it
        changed: the last good site is then put back as it was, and this build's site is never
        moved in (`tainted`).
        Other builds into the same folder wait until the block is done, so that what they move
        in is never taken for the page's doing."""
        with _locked(self.target.parent):
            kept = _state(self.target)
            if self._copied is None or self._copied[0] != kept:  # what there is to put back
                if self._copied is not None:
                    self._copied[1].cleanup()
                self._copied = kept, tempfile.TemporaryDirectory(prefix="attend-book-site-")
                if kept is not None:
                    shutil.copytree(self.target, Path(self._copied[1].name, "site"), symlinks=True)
            new = _state(self.folder)
            try:
                yield
            finally:
                last, this = _changes(self.target, kept), _changes(self.folder, new)
                if last:
                    self._put_back(kept)
                if changed := last + this:
                    self.tainted = True
                    shown = ", ".join(changed[:3]) + (
                        f" and {len(changed) - 3} more" if len(changed) > 3 else ""
                    )
                    raise SiteError(
                        f"the page's code changed the site folder ({shown}), which only the build writes: "
                        "the last good site is put back, and this build's is not moved in"
                    )

    def _put_back(self, kept: dict[str, Any] | None) -> None:
        """The last good site as it was copied (`watched`), or none if there was none."""
        assert self._copied is not None
        if kept is None:
            shutil.rmtree(self.target, ignore_errors=True)
            return
        again = Path(tempfile.mkdtemp(prefix=f".{self.target.name}-back-", dir=self.target.parent))
        shutil.copytree(Path(self._copied[1].name, "site"), again / "site", symlinks=True)
        with contextlib.suppress(FileNotFoundError):
            os.replace(self.target, again / "changed")
        os.replace(again / "site", self.target)
        shutil.rmtree(again, ignore_errors=True)

    def commit(self) -> None:
        """Put the folder where `target` is (unless a page's code changed it: `discard`)."""
        if self.tainted:
            return self.discard()
        try:
            replace_folder(self.target, self.folder)
        finally:
            self._close()

    def discard(self) -> None:
        """Delete the folder; `target` stays as it was."""
        shutil.rmtree(self.folder, ignore_errors=True)
        self._close()

    def _close(self) -> None:
        os.close(self._lock)
        if self._copied is not None:
            self._copied[1].cleanup()


def _state(folder: Path) -> dict[str, Any] | None:
    """What is in the folder, to tell whether anything changed: each entry's kind, size, times
    and inode, by its path; None if there is no folder."""
    if not folder.is_dir() or folder.is_symlink():
        return None
    found: dict[str, Any] = {}
    for parent, folders, files in os.walk(folder):
        for name in [*folders, *files]:
            path = os.path.join(parent, name)
            with contextlib.suppress(FileNotFoundError):
                about = os.lstat(path)
                found[os.path.relpath(path, folder)] = (
                    about.st_mode,
                    about.st_size,
                    about.st_mtime_ns,
                    about.st_ino,
                )
    return found


def _changes(folder: Path, before: dict[str, Any] | None) -> list[str]:
    """The paths under `folder` that are new, gone or changed since its state was `before`."""
    after = _state(folder)
    if before is None or after is None:
        return [] if before == after else [str(folder)]
    names = {*before, *after}
    return [str(folder / name) for name in sorted(names) if before.get(name) != after.get(name)]


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
