"""What a notebook's code reached beyond its own cells, recorded inside its Jupyter kernel for the
notebook cache (`notebook_cache`): the files it opened, the folders it listed, the modules it
imported, whether it started a process, and whether it read an environment variable.

Like `evaluation`, this module is loaded into the kernel from its source, so it imports nothing
of bound_numbers. `record` runs before the first cell: an audit hook (`sys.addaudithook`, which
cannot be taken out again, and the kernel is shut down after the run) notes each `open` (to read
or to write: both are hashed after the run), each folder listed (`os.listdir`, `os.scandir`: how
an import looks for a module), and each process started or replaced (`subprocess.Popen`,
`os.system`, `os.exec`, `os.fork`, ...). No audit event says that a variable of `os.environ` was
read, so `os.environ` is given a class of its own that notes a read made by the notebook's own
code: a cell, a binding, or a module outside the Python installation; a library's own settings
(`MPLBACKEND`, `OMP_NUM_THREADS`) are the installed distributions' business. `report` answers all
of it as JSON, with what the build needs to tell the installation's files from the notebook's.
"""

from __future__ import annotations

import _collections_abc
import json
import os
import site
import sys
import sysconfig
from types import FrameType
from typing import Any

# The audit events of a process started, or this one replaced or forked: what it reads, nothing
# here records.
STARTED = (
    "subprocess.Popen",
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.fork",
    "os.forkpty",
    "os.startfile",
)
LISTED = ("os.listdir", "os.scandir")

_opened: set[str] = set()
_listed: set[str] = set()
_started: list[str] = []  # the first event that started a process
_variables: list[str] = []  # the first variable the notebook's own code read
_installed: tuple[str, ...] = ()  # the folders of the Python installation, each ending in a separator
# Where os.environ's methods are written, frozen or not: the frames a read passes through.
_MAPPING = (os.getenv.__code__.co_filename, _collections_abc.Mapping.get.__code__.co_filename)


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" or event in LISTED:
        path = args[0] if args else None
        if event in LISTED and path is None:  # os.listdir(): the working folder
            path = "."
        if isinstance(path, str | bytes | os.PathLike):
            (_opened if event == "open" else _listed).add(os.path.abspath(os.fsdecode(path)))
    elif event.startswith(STARTED) and not _started:
        _started.append(event)


def _installation(filename: str) -> bool:
    """Whether code of `filename` is the Python installation's (the standard library, frozen or
    not, and whatever it installed) rather than the notebook's own."""
    return filename.startswith("<frozen ") or os.path.realpath(filename).startswith(_installed)


def _caller() -> FrameType | None:
    """The frame that read a variable: the first one above this module's and the installation's
    mapping methods (`os.getenv`, `Mapping.get`)."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename in _MAPPING:
        frame = frame.f_back
    return frame


class _Watched(os._Environ[str]):  # os.environ's own class, watched
    def __getitem__(self, key: str) -> str:
        frame = None if _variables else _caller()
        if frame is not None and not _installation(frame.f_code.co_filename):
            _variables.append(str(key))
        return str(super().__getitem__(key))


def record() -> None:
    """Record from now on what this process's code reaches (see the module's docstring)."""
    global _installed
    folders = {sys.prefix, sys.base_prefix, sys.exec_prefix, site.getusersitepackages()}
    folders |= set(sysconfig.get_paths().values())
    _installed = tuple(os.path.join(os.path.realpath(folder), "") for folder in folders)
    sys.addaudithook(_audit)
    os.environ.__class__ = _Watched


def report() -> str:
    """What the code reached since `record`, as JSON: `opened`, `listed` and `modules` (the files
    of every module imported), as absolute paths; `started`, the event that started a process,
    and `variable`, the first environment variable the notebook's code read ("" for none); and
    `installed` (the installation's folders), `path` (sys.path) and `pid`, to tell them apart."""
    modules = {getattr(module, "__file__", None) for module in list(sys.modules.values())}
    return json.dumps(
        {
            "opened": sorted(_opened),
            "listed": sorted(_listed),
            "modules": sorted(os.path.abspath(m) for m in modules if isinstance(m, str)),
            "started": _started[0] if _started else "",
            "variable": _variables[0] if _variables else "",
            "installed": list(_installed),
            "path": [os.path.abspath(folder) for folder in sys.path],
            "pid": os.getpid(),
        }
    )
