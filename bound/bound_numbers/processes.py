"""The processes a page's code starts: kept below its page's process, found and ended after it.

A page's process makes itself a child subreaper (Linux's `PR_SET_CHILD_SUBREAPER`): whatever
its code starts, however it detaches (a new session, a double fork, its parent gone), stays
below it rather than passing to init, so when the page is done `below` finds every one and
`end_below` ends them. A session or process group would not do: a process leaves either with
one call. (A PID namespace or a cgroup would hold them as well, but needs privileges a
contributor's machine or CI may not give; a subreaper needs none.) Where the system has
neither `prctl` nor `/proc`, nothing is adopted or found, and only the page's own session is
ended, as before.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36  # from <linux/prctl.h>


def adopt() -> bool:
    """Make this process the parent of every orphan below it; whether the system allowed it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):  # no libc to load, or no prctl in it: not Linux
        return False


def below(pid: int) -> list[int]:
    """Every living process under `pid` (not `pid` itself), parents before their children."""
    found: list[int] = []
    waiting = [pid]
    while waiting:
        parent = waiting.pop()
        for task in _tasks(parent):
            with contextlib.suppress(OSError):  # the task or process ended while read
                children = [int(child) for child in (task / "children").read_text(encoding="ascii").split()]
                found += children
                waiting += children
    return [child for child in found if _living(child)]


def _tasks(pid: int) -> list[Path]:
    """The folders of the process's threads; none once it has ended, even while they are listed
    (pathlib's glob lets that error through: a build waited for ever on a page whose runner
    ended as its parent looked)."""
    try:
        return list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return []


def _living(pid: int) -> bool:
    """Whether the process is there and not a zombie waiting for its parent to collect it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def named(pid: int) -> str:
    """A process as a contributor knows it: its command line and its id."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0").split(b"\0")
    except OSError:
        words = [b"?"]
    command = " ".join(word.decode(errors="replace") for word in words)
    return f"`{command[:80]}` (pid {pid})"


def end_below(pid: int) -> None:
    """End every process under `pid`. Each is stopped as it is found, so none can start another
    unseen while the rest are looked for; then all are killed."""
    stopped: set[int] = set()
    while fresh := [child for child in below(pid) if child not in stopped]:
        for child in fresh:
            _signal(child, signal.SIGSTOP)
        stopped.update(fresh)
    for child in stopped:
        _signal(child, signal.SIGKILL)


def _signal(pid: int, number: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # gone, or no longer ours
        os.kill(pid, number)
