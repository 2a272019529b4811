"""The execution cache: what a page printed, and the executed workbench, kept between builds.

An entry's key hashes all that can change what the code prints: the code (a page's executed
fences, the workbench's text), every file of the package, of the figures and of this plugin,
the versions of the distributions the build imports and the Python. Prose is not in it, so a prose
edit reruns nothing, and blocks are kept without their line numbers, which come from the page
as it is now. An entry also keeps every file its code read (`inputs`: the tests the contributors'
page runs, another page it quotes, a file a fence opens), each with a hash of its contents, and
every variable of the environment it was given that it read, with a hash of its value, and is
used only while each still hashes the same: no list of folders or variables to keep up, and
none to forget. A run that started a program nothing records (`cat`, a shell) is never used.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

from mkdocs.plugins import get_plugin_logger
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from attend_book import inputs
from attend_book.inputs import Read, digest
from attend_book.page import PageRun, blocks_of
from attend_book.run import run_plan
from bound_numbers import Plan, beside

log = get_plugin_logger(__name__)
Loaded = TypeVar("Loaded")


def build_versions(roots: tuple[str, ...] = ("attend-book",), kept: Path | None = None) -> dict[str, str]:
    """The version of every distribution the build can import, by name: the plugin's
    requirements (the package and its figures among them), followed to the end. What else is
    installed beside them (a browser driver, a linter) prints nothing on a page, so installing
    it does not empty the cache. With `kept`, a file the answer is kept in between builds."""
    # Following the requirements reads every one's metadata, a tenth of a rebuild under `nox -s
    # serve` and of a warm build; the installed `*.dist-info` folders carry every version in their
    # names, and an install (one that changes only what a package requires, too) writes its folder
    # anew, so while their names and times stay the same, so does the answer.
    installed = frozenset(
        (info.name, time)
        for folder in map(Path, sys.path)
        if folder.is_dir()
        for info in folder.glob("*.dist-info")
        if (time := _written(info)) is not None
    )
    key = _key(*roots, *(f"{name}@{time}" for name, time in sorted(installed)))
    if kept is not None:
        with contextlib.suppress(OSError, ValueError, LookupError, TypeError, AttributeError):
            remembered = json.loads(kept.read_text(encoding="utf-8"))  # a file not of this form: asked again
            if remembered["key"] == key:
                return {str(name): str(version) for name, version in remembered["versions"].items()}
    versions = dict(_requirements(roots, installed))
    if kept is not None:
        with (
            contextlib.suppress(OSError),
            beside(kept) as made,
        ):  # a cache that cannot be written: asked again
            made.write_text(json.dumps({"key": key, "versions": versions}), encoding="utf-8")
    return versions


def _written(info: Path) -> int | None:
    """When a distribution's `*.dist-info` folder was written; None for one removed meanwhile."""
    try:
        return info.stat().st_mtime_ns
    except OSError:
        return None


@functools.lru_cache(maxsize=4)
def _requirements(
    roots: tuple[str, ...], installed: frozenset[tuple[str, int]]
) -> tuple[tuple[str, str], ...]:
    """`build_versions`' answer for what `installed` names, remembered (see there)."""
    found: dict[str, str] = {}
    waiting = list(roots)
    while waiting:
        name = canonicalize_name(waiting.pop())
        with contextlib.suppress(metadata.PackageNotFoundError):  # not installed: nothing to follow
            if name not in found:
                distribution = metadata.distribution(name)
                found[name] = distribution.version
                requires = map(Requirement, distribution.requires or [])
                waiting += [r.name for r in requires if r.marker is None or r.marker.evaluate({"extra": ""})]
    return tuple(found.items())


# The files of a checkout, beside the package, that pages run: the chapter's tests, which
# `chapter_tests.run_test` runs where a page shows them, and their fixture.
CHAPTER_TESTS = ("tests/test_chapter.py", "tests/conftest.py")


def source_roots() -> list[Path]:
    """The folders and files whose contents the pages' outputs are made from: the package, the
    figures, the number check (it strips the workbench's cells), this plugin, and in a checkout
    the chapter's tests the pages run."""
    specs = [importlib.util.find_spec(name) for name in ("attend", "attend_figures", "bound_numbers")]
    imported = [Path(p) for spec in specs if spec for p in spec.submodule_search_locations or []]
    checkout = imported[0].parents[1] if imported else Path.cwd()  # src/attend's checkout
    tests = [checkout / name for name in CHAPTER_TESTS if (checkout / name).is_file()]
    return [*imported, Path(__file__).resolve().parent, *tests]


def fingerprint(roots: Iterable[Path], versions: Mapping[str, str]) -> str:
    """One hash over every file under `roots` (a root may be one file), the distributions'
    versions and the Python."""
    digest = hashlib.sha256(sys.version.encode())
    for root in roots:
        top = root.parent if root.is_file() else root  # what a file's name is written from
        for file in [root] if root.is_file() else sorted(root.rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                digest.update(f"\0{file.relative_to(top).as_posix()}\0".encode())
                digest.update(file.read_bytes())
    for name, version in sorted(versions.items()):
        digest.update(f"\0{name}=={version}".encode())
    return digest.hexdigest()


def _page_of(plan: Plan, entry: Path) -> tuple[dict[str, Any], PageRun]:
    """A page's kept entry, and the run it holds."""
    kept = json.loads(entry.read_text(encoding="utf-8"))
    blocks = blocks_of(plan.fences, kept["blocks"])
    values = plan.values_of(dict(enumerate(kept["values"])))
    read = Read(tuple(kept["read"]), kept["environment"], tuple(kept["programs"]))
    return kept, PageRun(blocks, values, read)


FOLDER = ".cache/attend-book"  # beside mkdocs.yml, unless the plugin is told otherwise
Runner = Callable[[Plan], PageRun]  # what runs a page: `run.run_plan`, or a stand-in


def _key(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


class Hashes:
    """Each file's contents (a folder's names) hashed, "" for one that is not there; a hash kept
    while the file's times, size and place stand, so that a rebuild under `nox -s serve` does not
    read again every file every page read (a tenth of a rebuild). Its change time, which a write
    moves and no program can set back, is among them. A file written in the last two seconds is
    hashed every time: a file system whose clock ticks in seconds gives two writes in one tick
    the same times."""

    SETTLED = 2 * 10**9  # nanoseconds

    def __init__(self) -> None:
        self._known: dict[str, tuple[tuple[int, ...], str]] = {}

    def __call__(self, paths: Iterable[str]) -> dict[str, str]:
        return {path: self._hash(path) for path in paths}

    def _hash(self, path: str) -> str:
        try:
            status = os.stat(path)
            mark = (status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino, status.st_dev)
            if (known := self._known.get(path)) is not None and known[0] == mark:
                return known[1]
            now = time.time_ns()
            hashed = hashlib.sha256(inputs.contents(path)).hexdigest()
        except OSError:
            return ""
        if max(status.st_mtime_ns, status.st_ctime_ns) < now - self.SETTLED:
            self._known[path] = (mark, hashed)
        return hashed


def inputs_of(read: Read, environment: Mapping[str, str], hashes: Hashes) -> dict[str, Any]:
    """What an entry keeps of a run's `read`: each file hashed, each variable of `environment`
    (what the run was given) that the code read as it was given, and the programs nothing
    records. A variable the code set itself, or a process it started was handed, is its code's."""
    given = {
        name: hashed for name, hashed in read.variables.items() if hashed == digest(environment.get(name))
    }
    return {"read": hashes(read.files), "environment": given, "programs": [*read.programs]}


def holds(kept: Mapping[str, Any], environment: Mapping[str, str], hashes: Hashes) -> bool:
    """Whether a run whose inputs are `kept` (`inputs_of`) would read the same now, given
    `environment`: no program nothing records, every file and variable as it was."""
    variables = kept["environment"].items()
    same = all(digest(environment.get(name)) == hashed for name, hashed in variables)
    return not kept["programs"] and same and hashes(kept["read"]) == dict(kept["read"])


class Cache:
    """Entries under `root`, in one folder per `environment` (a `fingerprint`): environments share
    a root (a nox session's venv and a developer's, say), and only the newest few are kept.

    The cache heals itself: an entry that cannot be read is a miss, said in one line, and is
    written again; a folder that cannot be written (read-only, or gone) leaves the build running
    without it, its entries kept in a temporary folder until the build ends, said in one line.
    Neither is a warning, which `--strict` would turn into a failed build for a cache's fault.
    """

    KEEP = 3

    def __init__(self, root: Path, environment: str, hashes: Hashes | None = None) -> None:
        self.root, self.environment = root, environment
        self.hashes = hashes or Hashes()  # one kept from build to build under `serve`
        self.folder = root / "outputs" / environment[:16]
        self.used: set[Path] = set()
        self.runs = 0  # how many pages and notebooks really ran: what the tests watch
        self._instead: tempfile.TemporaryDirectory[str] | None = None  # when `root` cannot be written

    def page(
        self, plan: Plan, run: Runner = run_plan, environment: Mapping[str, str] | None = None
    ) -> PageRun:
        """The page's blocks and the values it asks for: from the cache while its code, the
        bindings at each stage of it, the build's versions and every file and variable it read
        stand, else run (by `run`, which gives the page `environment`: default, this process's)."""
        given = os.environ if environment is None else environment
        entry = self.entry_of(plan)
        self.used.add(entry)
        if (found := self._stored(plan.page, entry, functools.partial(_page_of, plan), given)) is not None:
            return found
        self.runs += 1
        done = run(plan)
        if done.read.programs:
            started = ", ".join(f"`{program}`" for program in done.read.programs)
            log.info(f"{plan.page}: its code started {started}, whose reads nothing follows: run every build")
        blocks, values = [b.text for b in done.blocks], list(plan.point_values(done.values).values())
        kept = {"blocks": blocks, "values": values, **inputs_of(done.read, given, self.hashes)}
        self._write(entry, lambda target: target.write_text(json.dumps(kept), encoding="utf-8"))
        return done

    def entry_of(self, plan: Plan) -> Path:
        """Where the page's run is kept: under a key of its code, the bindings at each stage of
        it and the build's versions."""
        # All a fence says, not only its code: an exercise's `answer=` runs too, and `html` is shown.
        code = (repr((f.language, sorted(f.words), sorted(f.options.items()), f.body)) for f in plan.fences)
        points = (f"{point.stage}\0{point.expression}" for point in plan.points)
        key = _key(self.environment, *code, "\0bindings", *points)
        return self.folder / "pages" / f"{key}.json"

    def holds_page(self, plan: Plan, environment: Mapping[str, str] | None = None) -> bool:
        """Whether `page` would take the page's run from the cache, without running it; an entry
        that cannot be read is not, and `page` says so."""
        given = os.environ if environment is None else environment
        with contextlib.suppress(OSError, ValueError, LookupError, TypeError, AttributeError):
            kept, _ = _page_of(plan, self.entry_of(plan))
            return holds(kept, given, self.hashes)
        return False

    def notebook(
        self,
        source: Path,
        execute: Callable[[Path, Path], Read],
        load: Callable[[Path], Loaded],
        expressions: Iterable[str] = (),
        environment: Mapping[str, str] | None = None,
    ) -> tuple[Path, Loaded]:
        """The notebook `source` executed by `execute(source, target)`, which answers what its
        kernel read (given `environment`: default, this process's), unless it already was with the
        same `expressions` evaluated in its kernel; and what `load` reads from it."""
        given = os.environ if environment is None else environment
        wanted = sorted(set(expressions))
        key = _key(self.environment, source.read_text(encoding="utf-8"), "\0bindings", *wanted)
        entry = self.folder / "notebooks" / key / f"{source.stem}.ipynb"
        self.used.add(entry.parent)

        def stored(notebook: Path) -> tuple[dict[str, Any], Loaded]:
            return json.loads(notebook.with_name("read.json").read_text(encoding="utf-8")), load(notebook)

        if (found := self._stored(source.name, entry, stored, given)) is not None:
            return entry, found
        self.runs += 1
        read: list[Read] = []
        made = self._write(entry, lambda target: read.append(execute(source, target)))
        kept = json.dumps(inputs_of(read[0], given, self.hashes))
        self._write(entry.with_name("read.json"), lambda t: t.write_text(kept, encoding="utf-8"))
        return made, load(made)

    def kept(self, parts: Sequence[str], make: Callable[[], str]) -> str:
        """What `make` gives for `parts` (a page's notebook, say), made once and kept while the
        parts and the build's fingerprint stand; an entry that cannot be read is made again."""
        entry = self.folder / "made" / f"{_key(self.environment, *parts)}.txt"
        self.used.add(entry)
        with contextlib.suppress(OSError, UnicodeDecodeError):
            return entry.read_text(encoding="utf-8")
        made = make()
        self._write(entry, lambda target: target.write_text(made, encoding="utf-8"))
        return made

    def _stored(
        self,
        name: str,
        entry: Path,
        load: Callable[[Path], tuple[dict[str, Any], Loaded]],
        environment: Mapping[str, str],
    ) -> Loaded | None:
        """What `load` reads from the entry while everything its code read (`load`'s first answer,
        `inputs_of`) holds what it held, given `environment`; else None: a plain miss, a changed
        input, a run nothing could follow, or an entry that cannot be read (cut, garbled,
        mis-shaped), said in one line. Each is run and written again."""
        if not entry.is_file():
            return None
        try:
            kept, loaded = load(entry)
            return loaded if holds(kept, environment, self.hashes) else None
        except (OSError, ValueError, LookupError, TypeError, AttributeError) as error:
            reason = f"{type(error).__name__}: {error}".splitlines()[0][:100]
            log.info(f"{name}: its cache entry {entry} cannot be read ({reason}); running it again")
            return None

    def prune(self) -> None:
        """Drop what this build did not use from its folder, and all but the newest folders."""
        if self._instead is not None:
            self._instead.cleanup()
            return
        try:
            kinds = ("pages/*.json", "notebooks/*", "made/*.txt")
            for entry in {path for kind in kinds for path in self.folder.glob(kind)} - self.used:
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
            os.utime(self.folder)  # the newest folder: this build's
            for old in sorted(self.folder.parent.iterdir(), key=lambda f: f.stat().st_mtime)[: -self.KEEP]:
                shutil.rmtree(old)
        except OSError as error:  # another build pruning too, or a folder gone: tidied next time
            log.info(f"the cache {self.root} was not tidied ({error.strerror or error})")

    def _write(self, entry: Path, make: Callable[[Path], object]) -> Path:
        """Make the entry beside its place, then move it in: no half-written entry is ever read.
        Once the cache could not be written, this entry and every one after it go to a temporary
        folder instead; either way, where it now is."""
        if self._instead is None:
            try:
                with beside(entry) as made:
                    make(made)
                return entry
            except OSError as error:
                self._instead = tempfile.TemporaryDirectory(prefix="attend-book-")
                said = error.strerror or error
                log.info(f"the cache {self.root} cannot be written ({said}): building without it")
        instead = Path(self._instead.name) / entry.relative_to(self.root)
        with beside(instead) as made:
            make(made)
        return instead
