"""What a page's code read, for the cache's key: every file its process opened to read and the
source of every module it imported, every environment variable it read, and the same of each
Python process it started (the contributors' page runs pytest in one, which reads `tests/`).

A page's process calls `record` before its first fence and `read` after its last. `record`
installs an audit hook (`sys.addaudithook`) and hands every Python process started below it the
same hook: this plugin's `descendants/sitecustomize.py`, first on their `PYTHONPATH`, records what
each reads into the folder `READS` names, one file each as it exits (a copy made by `os.fork`,
which may end without exiting, writes each read as it makes it). The hook sees `open` (Python's
and `os.open`), a folder listed, a database `sqlite3` opens from C and a library `ctypes` loads;
`os.environ` notes each variable read, or all of them when it is gone through.

A program that is not Python, or a Python that would not record (started with `-I`, `-E` or
`-S`, with an environment that drops the recording, or without this plugin), reads what nothing
sees: starting one is noted as a program (`Read.programs`), and the cache never keeps such a
run. Nor does anything see what C code reads without Python's audit events (a C library's own
`fopen`, `getenv`: the locale, `TZ`), nor the clock.

Not kept: the Python installation's files (the versions of what it installed are in the
cache's key already), the system's (`/proc`, `/sys`, `/dev`), what the process wrote itself,
and files gone by the end (a temporary file). A compiled module (`__pycache__/x.pyc`) stands
for its source, `x.py`, which an import does not open while the compiled file is fresh. A
folder listed (a glob, an import looking for a module) is kept, by the names it holds, when it
is the working folder (the book's) or inside it: a new test file that a glob over `tests/` would
find counts as a change, a new file in the temporary folder does not. A variable is kept by a
hash of the value it held, never the value.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attend_book import guard

READS = "ATTEND_BOOK_READS"  # the folder where each process started below a page leaves its reads
DESCENDANTS = Path(__file__).resolve().parent / "descendants"  # their `sitecustomize`
SYSTEM = ("/proc/", "/sys/", "/dev/")
LISTINGS = ("os.listdir", "os.scandir")  # a folder listed: its names are read (a glob, an import)
OPENED_FROM_C = {"sqlite3.connect": 0, "ctypes.dlopen": 0}  # the event, and which argument is the file
LAUNCHES = ("subprocess.Popen", "os.exec", "os.posix_spawn", "os.spawn", "os.system")
PYTHON = re.compile(r"python(\d+(\.\d+)?)?")  # a program's name that says it is Python
UNRECORDED = frozenset("IES")  # a Python flag that drops the recording: isolated, no environment, no site


@dataclass(frozen=True)
class Read:
    """What a page's processes read: the files (`kept`), each environment variable with a hash
    of its value (None: read while unset), and the programs started that nothing records."""

    files: tuple[str, ...] = ()
    variables: Mapping[str, str | None] = field(default_factory=dict)
    programs: tuple[str, ...] = ()

    def kept(self) -> dict[str, Any]:
        return {"files": [*self.files], "variables": dict(self.variables), "programs": [*self.programs]}

    @classmethod
    def of(cls, kept: Mapping[str, Any]) -> Read:
        return cls(tuple(kept["files"]), dict(kept["variables"]), tuple(kept["programs"]))


def digest(value: str | None) -> str | None:
    """A variable's value as the cache keeps it: hashed, never itself (a token, a password)."""
    return None if value is None else hashlib.sha256(value.encode(errors="surrogateescape")).hexdigest()


_opened: set[str] = set()
_written: set[str] = set()
_variables: dict[str, str | None] = {}
_programs: set[str] = set()
_book = os.getcwd()  # the folder whose own folders are followed: where `record` was called
_folder = ""  # READS, as `record` found it
_through = False  # in a copy made by os.fork: each read written as it is made


class _Recorded(os._Environ[str]):
    """`os.environ`, noting each variable read as it is first read (`_variables`), but the
    build's own, which say where to record and what to guard (a new site's folder each build)."""

    def __getitem__(self, name: str) -> str:
        try:
            value = super().__getitem__(name)
        except KeyError:
            _note("variables", name, None)
            raise
        _note("variables", name, digest(value))
        return value

    def __iter__(self) -> Iterator[str]:  # every variable, and so every value, is read
        names = list(super().__iter__())
        for name in names:
            _note("variables", name, digest(super().__getitem__(name)))
        return iter(names)


OWN = frozenset({READS, guard.FOLDERS})  # the build's own variables: not what a page read


def _note(kind: str, name: str, value: str | None = None) -> None:
    """One thing read (`files`, `variables`) or started (`programs`); in a forked copy, written
    down at once, since it may end with os._exit and no atexit."""
    if kind == "files":
        _opened.add(name)
    elif kind == "programs":
        _programs.add(name)
    elif name not in _variables and name not in OWN:
        _variables[name] = value
    else:
        return
    if _through and _folder:
        with open(os.path.join(_folder, f"{os.getpid()}.jsonl"), "a", encoding="utf-8") as notes:
            notes.write(json.dumps([kind, name, value]) + "\n")


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event in LAUNCHES:
        if (program := _unrecorded(event, args)) is not None:
            _note("programs", program)
        return
    if event in OPENED_FROM_C:
        path = args[OPENED_FROM_C[event]]
        if isinstance(path, str) and path.startswith("file:"):  # a database's URI
            path = path[5:].partition("?")[0]
        if isinstance(path, str | bytes | os.PathLike) and os.fsdecode(path) not in ("", ":memory:"):
            _note("files", os.path.abspath(os.fsdecode(path)))
        return
    if event not in ("open", *LISTINGS) or not isinstance(path := args[0], str | bytes | os.PathLike):
        return
    if event in LISTINGS:
        _note("files", os.path.abspath(os.fsdecode(path)))
        return
    mode, flags = args[1], args[2]
    if isinstance(mode, str):  # open(): its mode; os.open(): None, and its flags say
        writes = any(letter in mode for letter in "wax+")
    else:
        writes = isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR))
    if writes:
        _written.add(os.path.abspath(os.fsdecode(path)))
    else:
        _note("files", os.path.abspath(os.fsdecode(path)))


def _unrecorded(event: str, args: tuple[object, ...]) -> str | None:
    """The program an event starts, said as its command, unless it is a Python that records."""
    if event == "os.system":
        return str(args[0])[:80]  # a shell
    # subprocess.Popen: (program, argv, cwd, env); os.exec, os.posix_spawn: (program, argv, env);
    # os.spawn: (mode, program, argv, env)
    (program, argv), environment = (args[1:3] if event == "os.spawn" else args[:2]), args[-1]
    named = os.fsdecode(program) if isinstance(program, str | bytes | os.PathLike) else str(program)
    words = (
        [os.fsdecode(w) for w in argv if isinstance(w, str | bytes)] if isinstance(argv, list | tuple) else []
    )
    flags = set().union(*(set(flag[1:]) for flag in _flags(words[1:])))
    keeps = environment is None or (
        isinstance(environment, Mapping)
        and bool(environment.get(READS))
        and str(DESCENDANTS) in str(environment.get("PYTHONPATH", "")).split(os.pathsep)
    )
    if PYTHON.fullmatch(os.path.basename(named)) and keeps and not flags & UNRECORDED:
        return None
    return " ".join(words or [named])[:80]


def _flags(arguments: list[str]) -> Iterator[str]:
    """A Python command line's flags: those before the script, `-c` or `-m` (each of `-W` and
    `-X` takes the next word as its value)."""
    taking = False
    for argument in arguments:
        if taking:
            taking = False
        elif argument in ("-c", "-m", "-") or not argument.startswith("-"):
            return
        elif not argument.startswith("--"):
            taking = argument in ("-W", "-X")
            yield argument


def _forked() -> None:
    global _through
    _through = True


def record() -> None:
    """Record from now on what this process, and every Python process it starts, reads."""
    global _book, _folder
    _book = os.getcwd()  # a fence that changes folder changes nothing of what is kept
    sys.addaudithook(_audit)
    guard.forbid()
    _folder = os.environ[READS] = tempfile.mkdtemp(prefix="attend-book-reads-")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(DESCENDANTS), os.environ.get("PYTHONPATH")]))
    _watch_environment()


def record_descendant(folder: str) -> None:
    """In a Python process started below a page: record, and leave what it read in `folder`."""
    global _folder
    _folder = folder
    sys.addaudithook(_audit)
    guard.forbid()
    _watch_environment()

    def leave() -> None:  # whole or not at all: a process killed as it leaves leaves a .tmp
        kept = os.path.join(folder, f"{os.getpid()}.json")
        with open(f"{kept}.tmp", "w", encoding="utf-8") as out:
            json.dump(_own(), out)
        os.replace(f"{kept}.tmp", kept)

    atexit.register(leave)


def _watch_environment() -> None:
    """`os.environ` notes what is read of it from now on (what the recording itself read, before,
    is not the page's), and a forked copy writes down what it reads as it reads it."""
    os.environ.__class__ = _Recorded
    os.register_at_fork(after_in_child=_forked)


def _own() -> dict[str, Any]:
    """What this process read: the files it opened to read, its modules' sources, the variables,
    and the programs it started that nothing records."""
    modules = {getattr(module, "__file__", None) for module in list(sys.modules.values())}
    files = (_opened | {os.path.abspath(m) for m in modules if isinstance(m, str)}) - _written
    return {"files": sorted(files), "variables": dict(_variables), "programs": sorted(_programs)}


def read() -> dict[str, Any]:
    """Everything this process and the Python processes below it read since `record`, as the
    module's docstring keeps it (a `Read`, as its `kept` writes it)."""
    every = [_own()]  # this process's first: a variable counts as it first read it
    folder = Path(_folder)
    every += [json.loads(left.read_text(encoding="utf-8")) for left in folder.glob("*.json")]
    every += [_notes(notes.read_text(encoding="utf-8")) for notes in folder.glob("*.jsonl")]
    shutil.rmtree(folder, ignore_errors=True)
    files = kept(path for one in every for path in one["files"])
    variables: dict[str, str | None] = {}
    for one in every:
        variables = {**one["variables"], **variables}
    programs = sorted({program for one in every for program in one["programs"]})
    return Read(tuple(sorted(files)), variables, tuple(programs)).kept()


def _notes(text: str) -> dict[str, Any]:
    """A forked copy's notes (`_note`), one `[kind, name, value]` a line, as `_own` says them."""
    lines = [json.loads(line) for line in text.splitlines()]
    return {
        "files": [name for kind, name, _ in lines if kind == "files"],
        "programs": [name for kind, name, _ in lines if kind == "programs"],
        "variables": {name: value for kind, name, value in lines if kind == "variables"},
    }


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
