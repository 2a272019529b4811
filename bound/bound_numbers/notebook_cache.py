"""A notebook's run kept between builds: a warm build that changed nothing a notebook's code
reaches starts no kernel, and takes its values and the notebook its page shows from the cache.

An entry's key (`key`) is all that is known before the run: the notebook's bytes (its bindings
among them) and where it is, the values asked (each expression and where it is evaluated), the
kernel (its name, and the command and interpreter its kernelspec starts), the time limit and
bound-numbers itself (its version and the source of its package). What only the run can tell is
kept in the entry: every file the kernel's code opened (to read or to write), every module it
imported from outside the Python installation, every folder beside the notebook it listed, each
with the SHA-256 of its contents after the run ("" where there was no such file), and the
distributions installed on the kernel's `sys.path`, by name, version and install time (`kernel_reads`). An
entry is used only while each of those files holds what it held and the distributions are the
same; else the notebook runs again and its entry is written anew.

Some runs are never kept, and run on every build: one whose code started a process (what the
process read, nothing here records), one whose own code read an environment variable (the next
build's environment may differ), and one that failed. Each is said in one line at the info level.
An entry that cannot be read is a miss, said in one line, and is written again; a cache folder
that cannot be written leaves the build running without it. Neither is a warning, which
`--strict` would turn into a failed build for a cache's fault.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.plugins import get_plugin_logger

from bound_numbers.page import Page
from bound_numbers.shelf import Shelf, own
from bound_numbers.values import Asked, Value

if TYPE_CHECKING:
    from bound_numbers.kernel import Executed

log = get_plugin_logger(__name__)

FOLDER = Path(".cache", "bound-numbers", "notebooks")  # beside the site's configuration, as `shown/`
FORMAT = 1  # what an entry holds; a new one makes every older entry a miss
SYSTEM = ("/proc/", "/sys/", "/dev/")
Run = Callable[[bool], "Executed"]  # the notebook run, recorded when told so (`kernel.run`)


def interpreter(kernel: str, notebook: Mapping[str, Any]) -> list[str]:
    """The kernel a notebook runs in (`kernel`, else the one its metadata names), found where
    jupyter_client looks (its kernelspec folders, then ipykernel's own `python3`): its name, its
    kernelspec's command, and the path, size and time of the interpreter that command starts;
    [] where there is no such kernel (the run then says why). Read from the folders themselves,
    as importing jupyter_client's finder, which imports IPython, would cost a warm build more
    than all the rest of the cache."""
    name = kernel or str(notebook.get("metadata", {}).get("kernelspec", {}).get("name", "python3"))
    name = name.lower()
    try:
        from jupyter_core.paths import jupyter_path
    except ImportError:
        return []
    ipython = os.environ.get("IPYTHONDIR") or os.path.join(os.path.expanduser("~"), ".ipython")
    folders = [*jupyter_path("kernels"), os.path.join(ipython, "kernels")]
    specs = [Path(folder, name, "kernel.json") for folder in folders]
    try:
        found = next((spec for spec in specs if spec.is_file()), None)
        argv = [str(word) for word in json.loads(found.read_text(encoding="utf-8"))["argv"]] if found else []
    except (OSError, ValueError, LookupError, TypeError):  # a spec that cannot be read: the run says so
        return []
    if found is None and name == "python3" and importlib.util.find_spec("ipykernel") is not None:
        argv = ["python", "-m", "ipykernel_launcher"]  # ipykernel's own spec: this Python
    pythons = {"python", f"python{sys.version_info[0]}", "python{}.{}".format(*sys.version_info[:2])}
    command = sys.executable if argv and argv[0] in pythons else shutil.which(argv[0]) if argv else None
    try:
        stat = os.stat(os.path.realpath(command or ""))
    except OSError:
        return []
    return [name, *argv, os.path.realpath(command or ""), str(stat.st_size), str(stat.st_mtime_ns)]


def key(page: Page, asked: Sequence[Asked], *, root: Path, limit: float, kernel: list[str]) -> str:
    """What an entry is known by (see the module's docstring)."""
    given = {
        "format": FORMAT,
        "bound-numbers": own(),
        "notebook": page.text,
        "where": str((root / page.path).resolve()),
        "asked": [(a.expression, a.line, a.when) for a in asked],
        "kernel": kernel,
        "limit": limit,
    }
    return hashlib.sha256(json.dumps(given).encode()).hexdigest()[:32]


def distributions(path: Iterable[str]) -> list[str]:
    """Each distribution installed on `path` (a kernel's sys.path), as its metadata folder names
    it (`numpy-2.1.0.dist-info`: name and version), with the time that folder was made, which a
    reinstall of the same version changes too. Names, not the metadata inside: a warm build reads
    a hundred folders' names in a millisecond, their metadata in a tenth of a second."""
    found = set()
    for folder in path:
        with contextlib.suppress(OSError), os.scandir(folder) as entries:  # OSError: no such folder
            found |= {
                f"{entry.name}@{entry.stat().st_mtime_ns}"
                for entry in entries
                if entry.name.endswith((".dist-info", ".egg-info"))
            }
    return sorted(found)


def inputs(report: Mapping[str, Any], folder: Path) -> list[str]:
    """Of what a kernel's code reached (`kernel_reads.report`), the files its values can follow
    from: every file opened and every module imported outside the Python installation and the
    system's folders (a compiled module stands for its source, which an import does not open
    while the compiled one is fresh), and every folder listed at or under the notebook's
    `folder` (by the names it holds: a module added beside the notebook may be imported)."""
    outside = (*SYSTEM, *report["installed"])
    cells = os.path.join(tempfile.gettempdir(), f"ipykernel_{report['pid']}", "")  # the kernel's own
    found = set()
    for path in [*report["opened"], *report["modules"]]:
        if f"{os.sep}__pycache__{os.sep}" in path:
            with contextlib.suppress(ValueError):  # not a compiled module's name: dropped
                found.add(importlib.util.source_from_cache(path))
            continue
        found.add(path)
    here = os.path.join(os.path.realpath(folder), "")
    listed = {path for path in report["listed"] if os.path.join(os.path.realpath(path), "").startswith(here)}
    return sorted(
        path
        for path in found | listed
        if not os.path.realpath(path).startswith(outside) and not path.startswith(cells)
    )


def digests(paths: Iterable[str]) -> dict[str, str]:
    """Each path's contents, hashed: a file's bytes, a folder's names (without `__pycache__` and
    dot-files, which a run makes itself); "" for nothing there."""
    found = {}
    for path in paths:
        try:
            if os.path.isdir(path):
                names = sorted(n for n in os.listdir(path) if not n.startswith((".", "__pycache__")))
                contents = "\0".join(names).encode()
            else:
                contents = Path(path).read_bytes()
            found[path] = hashlib.sha256(contents).hexdigest()
        except OSError:
            found[path] = ""
    return found


class NotebookCache(Shelf):
    """The entries under `folder`, one JSON file each (`Shelf`)."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder, ".json")
        self.runs = 0  # how many notebooks really ran

    def run(
        self, page: Page, asked: Sequence[Asked], run: Run, *, root: Path, limit: float, kernel: str
    ) -> Executed:
        """The notebook `page` run (`run`, recorded), or its run kept from a build before."""
        try:
            notebook = json.loads(page.text)
        except ValueError:
            notebook = None
        spec = interpreter(kernel, notebook) if isinstance(notebook, dict) else []
        if not spec:  # no kernel to know it by: run, and say why there
            return run(False)
        entry = self.entry(key(page, asked, root=root, limit=limit, kernel=spec))
        if (kept := self._kept(page, asked, entry)) is not None:
            return kept
        self.runs += 1
        executed = run(True)
        if isinstance(executed.values, Mapping) and (kept_as := self._entry(page, asked, executed, root)):
            self.write(entry, kept_as.encode())
        return executed

    def _kept(self, page: Page, asked: Sequence[Asked], entry: Path) -> Executed | None:
        """The run kept in `entry`, while all it reached holds what it held; else None."""
        from bound_numbers.kernel import Executed

        if not entry.is_file():
            return None
        try:
            kept = json.loads(entry.read_text(encoding="utf-8"))
            if kept["format"] != FORMAT or len(kept["values"]) != len(asked):
                raise ValueError("not an entry of this bound-numbers")
            if digests(kept["read"]) != kept["read"] or distributions(kept["path"]) != kept["distributions"]:
                return None
            values: dict[Asked, Value] = dict(zip(asked, kept["values"], strict=True))
            return Executed(str(kept["shown"]), values)
        except (OSError, ValueError, LookupError, TypeError, AttributeError) as error:
            reason = f"{type(error).__name__}: {error}".splitlines()[0][:100]
            log.info(f"{page.path}: its cache entry {entry} cannot be read ({reason}); running it again")
            return None

    def _entry(self, page: Page, asked: Sequence[Asked], executed: Executed, root: Path) -> str:
        """The entry of a run that may be kept, as JSON; "" for one that may not (said why)."""
        report = executed.reached
        assert isinstance(executed.values, Mapping)
        why = ""
        if report is None:
            why = "its kernel could not say what its code read"
        elif report.get("started"):
            why = f"its code started a process (`{report['started']}`), whose reads nothing records"
        elif report.get("variable"):
            variable = report["variable"]
            why = f"its code read the environment variable {variable}, which the next build may set otherwise"
        if report is None or why:
            log.info(f"{page.path}: not kept between builds, so it runs on every build: {why}")
            return ""
        read = inputs(report, (root / page.path).parent)
        kept = {
            "format": FORMAT,
            "notebook": page.path,
            "values": [executed.values[a] for a in asked],
            "shown": executed.shown,
            "read": digests(read),
            "path": report["path"],
            "distributions": distributions(report["path"]),
        }
        return json.dumps(kept)
