"""A page's text read and rewritten so that no failure can cost it, nor an edit made meanwhile.

A rewrite goes whole into a temporary file beside the file, which then replaces it in one
rename: a kill, a full disk or a crash leaves either the old file or the new one, never a cut
one. The new file keeps the old one's line endings, byte-order mark and permissions, so a one
number edit is a one number diff. A rewrite made from what the file held is refused
(`ChangedError`) if the file holds anything else by then: a person's edit saved while renumber
ran is never overwritten. Ctrl-C, SIGTERM, SIGHUP and SIGQUIT wait while a file is written, so
they end the run before or after it, never with a temporary file left; SIGKILL cannot wait,
and what it leaves (a hidden `.PAGE.md.PID-….tmp`, which mkdocs never publishes) is removed
by the next rewrite of that file. A file that is not UTF-8 is refused by line, not by byte.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

ENCODING = "utf-8"
BOM = b"\xef\xbb\xbf"


class TextError(ValueError):
    """A file that cannot be read as a page's text, said in one line naming its place."""


class ChangedError(OSError):
    """The file no longer holds what a rewrite was made from: nothing was written."""


# The signals that wait while a file is being written (where the platform can hold them).
HELD = frozenset(
    {
        signal.SIGINT,
        signal.SIGTERM,
        *(getattr(signal, s) for s in ("SIGHUP", "SIGQUIT") if hasattr(signal, s)),
    }
)


def read_text(path: Path, shown: str | None = None) -> str:
    """The file's text (a leading byte-order mark dropped, line endings made `\\n`), or a
    `TextError` naming the line and column of the first byte that is not UTF-8."""
    return decoded(path.read_bytes(), shown or str(path))


def decoded(raw: bytes, shown: str) -> str:
    """A file's bytes as its text (`read_text`), `shown` naming it in the error."""
    data = raw.removeprefix(BOM)
    try:
        text = data.decode(ENCODING)
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line, column = before.count(b"\n") + 1, len(before) - before.rfind(b"\n")
        raise TextError(
            f"{shown}:{line}:{column}: byte 0x{data[error.start]:02x} is not UTF-8; save the file as UTF-8"
        ) from None
    return text.replace("\r\n", "\n")


def write_atomic(path: Path, text: str, was: bytes | None = None) -> None:
    """Put `text` (lines ending in `\\n`) into the file `path` whole, or leave it as it was;
    `was`: the bytes `text` was made from, which the file must still hold (else `ChangedError`).

    The file keeps its line endings (`\\r\\n` if its first line ends so), its byte-order mark
    and its permissions. The signals of `HELD` wait until the file is in place or untouched."""
    with _held():
        old = _unchanged(path, was)
        data = text.encode(ENCODING)
        if old.split(b"\n", 1)[0].endswith(b"\r"):
            data = data.replace(b"\n", b"\r\n")
        if old.startswith(BOM):
            data = BOM + data
        with beside(path) as temporary, temporary.open("wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
            shutil.copymode(path, temporary)
            _unchanged(path, was)  # read again at the last moment: an edit saved meanwhile wins


def _unchanged(path: Path, was: bytes | None) -> bytes:
    """The file's bytes, which must be `was` (unless None)."""
    now = path.read_bytes()
    if was is not None and now != was:
        raise ChangedError(f"{path} changed after it was read")
    return now


@contextlib.contextmanager
def _held() -> Iterator[None]:
    """The signals of `HELD` blocked for the block (each delivered once it ends), where the
    platform can block them."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextlib.contextmanager
def beside(path: Path) -> Iterator[Path]:
    """A new temporary file beside `path` (its folder made if need be) for the block to write,
    moved onto `path` in one rename if the block ends well, else deleted. Its name holds this
    process's id, so that what a process killed by SIGKILL left beside `path` is removed here."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _sweep(path)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp")
    os.close(handle)
    try:
        yield Path(name)
        os.replace(name, path)
    finally:
        Path(name).unlink(missing_ok=True)


def _sweep(path: Path) -> None:
    """Remove the temporary files beside `path` left by processes that no longer run."""
    mine = re.compile(rf"\.{re.escape(path.name)}\.(?P<pid>\d+)-\w+\.tmp")
    with contextlib.suppress(OSError):
        for left in path.parent.iterdir():
            found = mine.fullmatch(left.name)
            if found and not _running(int(found["pid"])):
                with contextlib.suppress(OSError):
                    left.unlink()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: running
        return True
    return True
