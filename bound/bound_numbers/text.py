"""A page's text read and rewritten so that no failure can cost it.

A rewrite goes whole into a temporary file beside the file, which then replaces it in one
rename: a kill, a full disk or a crash leaves either the old file or the new one, never a cut
one. The new file keeps the old one's line endings, byte-order mark and permissions, so a one
number edit is a one number diff. A file that is not UTF-8 is refused by line, not by byte.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

ENCODING = "utf-8"
BOM = b"\xef\xbb\xbf"


class TextError(ValueError):
    """A file that cannot be read as a page's text, said in one line naming its place."""


def read_text(path: Path, shown: str | None = None) -> str:
    """The file's text (a leading byte-order mark dropped, line endings made `\\n`), or a
    `TextError` naming the line and column of the first byte that is not UTF-8."""
    data = path.read_bytes().removeprefix(BOM)
    try:
        text = data.decode(ENCODING)
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line, column = before.count(b"\n") + 1, len(before) - before.rfind(b"\n")
        raise TextError(
            f"{shown or path}:{line}:{column}: byte 0x{data[error.start]:02x} is not UTF-8; "
            "save the file as UTF-8"
        ) from None
    return text.replace("\r\n", "\n")


def write_atomic(path: Path, text: str) -> None:
    """Put `text` (lines ending in `\\n`) into the file `path` whole, or leave it as it was.

    The file keeps its line endings (`\\r\\n` if its first line ends so), its byte-order mark
    and its permissions."""
    old = path.read_bytes()
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


@contextlib.contextmanager
def beside(path: Path) -> Iterator[Path]:
    """A new temporary file beside `path` (its folder made if need be) for the block to write,
    moved onto `path` in one rename if the block ends well, else deleted."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    try:
        yield Path(name)
        os.replace(name, path)
    finally:
        Path(name).unlink(missing_ok=True)
