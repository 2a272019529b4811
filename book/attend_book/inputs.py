"""What a page's code read, for the cache's key: every file its process opened to read and the
source of every module it imported, and the same of each Python process it started (the
contributors' page runs pytest in one, which reads `tests/`).

A page's process calls `record` before its first fence and `read` after its last. `record`
installs an audit hook on `open` events (`sys.addaudithook`) and hands every Python process
started below it the same hook: this plugin's `descendants/sitecustomize.py`, first on their
`PYTHONPATH`, records what each reads into the folder `READS` names, one file each as it exits.
A process started with `-I` or `-E`, or one that is not Python, reads what nothing records.

Not kept: the Python installation's files (the versions of what it installed are in the
cache's key already), the system's (`/proc`, `/sys`, `/dev`), what the process wrote itself,
and files gone by the end (a temporary file). A compiled module (`__pycache__/x.pyc`) stands
for its source, `x.py`, which an import does not open while the compiled file is fresh. A
folder listed (a glob, an import looking for a module) is kept, by the names it holds, when it
is the working folder (the book's) or inside it: a new test file that a glob over `tests/` would
find counts as a change, a new file in the temporary folder does not.
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

READS = "ATTEND_BOOK_READS"  # the folder where each process started below a page leaves its reads
DESCENDANTS = Path(__file__).resolve().parent / "descendants"  # their `sitecustomize`
SYSTEM = ("/proc/", "/sys/", "/dev/")
LISTINGS = ("os.listdir", "os.scandir")  # a folder listed: its names are read (a glob, an import)

_opened: set[str] = set()
_written: set[str] = set()
_book = os.getcwd()  # the folder whose own folders are followed: where `record` was called


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event not in ("open", *LISTINGS) or not isinstance(path := args[0], str | bytes | os.PathLike):
        return
    if event in LISTINGS:
        _opened.add(os.path.abspath(os.fsdecode(path)))
        return
    mode, flags = args[1], args[2]
    if isinstance(mode, str):  # open(): its mode; os.open(): None, and its flags say
        writes = any(letter in mode for letter in "wax+")
    else:
        writes = isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR))
    (_written if writes else _opened).add(os.path.abspath(os.fsdecode(path)))


def record() -> None:
    """Record from now on what this process, and every Python process it starts, reads."""
    global _book
    _book = os.getcwd()  # a fence that changes folder changes nothing of what is kept
    sys.addaudithook(_audit)
    os.environ[READS] = tempfile.mkdtemp(prefix="attend-book-reads-")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(DESCENDANTS), os.environ.get("PYTHONPATH")]))


def record_descendant(folder: str) -> None:
    """In a Python process started below a page: record, and leave what it read in `folder`."""
    sys.addaudithook(_audit)

    def leave() -> None:  # whole or not at all: a process killed as it leaves leaves a .tmp
        kept = os.path.join(folder, f"{os.getpid()}.json")
        with open(f"{kept}.tmp", "w", encoding="utf-8") as out:
            json.dump(sorted(_own()), out)
        os.replace(f"{kept}.tmp", kept)

    atexit.register(leave)


def _own() -> set[str]:
    """What this process read: the files it opened to read, and its modules' sources."""
    modules = {getattr(module, "__file__", None) for module in list(sys.modules.values())}
    return (_opened | {os.path.abspath(m) for m in modules if isinstance(m, str)}) - _written


def read() -> list[str]:
    """Every file this process and the Python processes below it read since `record`, as the
    module's docstring keeps them."""
    found = _own()
    folder = Path(os.environ[READS])
    for left in folder.glob("*.json"):
        found.update(json.loads(left.read_text(encoding="utf-8")))
    shutil.rmtree(folder, ignore_errors=True)
    return sorted(kept(found))


def kept(paths: Iterable[str]) -> set[str]:
    """Of `paths`, the files a page's outputs can follow from (see the module's docstring)."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix}
    outside = (*SYSTEM, *(os.path.join(os.path.realpath(p), "") for p in prefixes))
    here = os.path.join(os.path.realpath(_book), "")  # folders: only those of the book's own
    found = set()
    for path in paths:
        if f"{os.sep}__pycache__{os.sep}" in os.path.join(path, ""):  # its own folder: dropped
            try:
                path = importlib.util.source_from_cache(path)
            except ValueError:  # not a compiled module's name
                continue
        real = os.path.realpath(path)
        if real.startswith(outside):
            continue
        if os.path.isfile(path) or (os.path.isdir(path) and os.path.join(real, "").startswith(here)):
            found.add(path)
    return found


def contents(path: str) -> bytes:
    """What a page read of `path`: a file's bytes, or a folder's names (those of its own files,
    such as `__pycache__` and dot-files, left out)."""
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if not n.startswith((".", "__pycache__")))
        return "\0".join(names).encode()
    with open(path, "rb") as file:
        return file.read()
