"""The site folders out of a page's reach: the last good site and the one being built.

A page's code runs while a build holds both: what it wrote into the one would stay in the site a
failed build keeps, into the other be published with the new one. In every Python process of a
page (`inputs.record` calls `forbid`, and so does each Python process it starts), an audit hook
refuses any write, removal, rename or change of mode under the folders `FOLDERS` names, at the
line that tried. What no audit hook sees (a program that is not Python) the build finds by
comparing both folders before and after each page's run (`files.Staged.watched`).

The page's process imports this module before any fence runs, so it imports nothing of mkdocs.
"""

from __future__ import annotations

import errno
import os
import sys

FOLDERS = "ATTEND_BOOK_SITE_FOLDERS"  # the folders, joined by os.pathsep, absolute
# Each audit event that changes the file system, and which of its arguments are paths.
CHANGES = {
    "os.remove": (0,),
    "os.rename": (0, 1),
    "os.mkdir": (0,),
    "os.rmdir": (0,),
    "os.symlink": (1,),
    "os.link": (1,),
    "os.truncate": (0,),
    "os.chmod": (0,),
    "os.chown": (0,),
    "os.utime": (0,),
    "os.chflags": (0,),
    "shutil.rmtree": (0,),
}

_folders: tuple[str, ...] = ()


def forbid() -> None:
    """From now on, this process may not change anything under the folders `FOLDERS` names."""
    global _folders
    named = os.environ.get(FOLDERS, "").split(os.pathsep)
    _folders = tuple(os.path.join(os.path.realpath(folder), "") for folder in named if folder)
    if _folders:
        sys.addaudithook(_audit)


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event == "open":
        mode, flags = args[1], args[2]
        if isinstance(mode, str):  # open(): its mode; os.open(): None, and its flags say
            writes = any(letter in mode for letter in "wax+")
        else:
            writes = isinstance(flags, int) and bool(
                flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC)
            )
        paths = [args[0]] if writes else []
    else:
        paths = [args[n] for n in CHANGES.get(event, ()) if n < len(args)]
    for path in paths:
        if isinstance(path, str | bytes | os.PathLike):
            real = os.path.join(os.path.realpath(os.fsdecode(path)), "")
            if real.startswith(_folders):
                said = "the build writes the site there; a page's code may not change it"
                raise PermissionError(errno.EACCES, said, os.fsdecode(path))
