"""What `serve` watches, moved from polling to the operating system's own change events.

ProperDocs' server polls: twice a second it walks every tree it watches (docs/, src/attend,
book/, figures/), so a save waits for the next walk, a quarter of a second on average, before
its rebuild can start, and the walks cost a core's time while nothing changes. A native
observer (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW on Windows) is told of the
save as it lands and does nothing in between. Where no such events arrive (a network drive,
some containers, WSL's /mnt), attend-book's `watch: polling` keeps the server's own way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mkdocs.plugins import get_plugin_logger
from watchdog.events import (
    FileAttribEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import ObservedWatch

if TYPE_CHECKING:
    from pathlib import Path

    from mkdocs.livereload import LiveReloadServer

log = get_plugin_logger(__name__)

# What changes a file. Left to itself the native observer also says when a file is opened and
# closed unwritten, and the server rebuilds on any file's event: each build reads the pages, the
# package and the figures' code, and so would start the next. A timestamp set by `touch` counts,
# as the server's polling counts it.
CHANGES: list[type[FileSystemEvent]] = [
    FileCreatedEvent,
    FileModifiedEvent,
    FileAttribEvent,
    FileDeletedEvent,
    FileMovedEvent,
]


class NativeObserver(Observer):  # type: ignore[misc, valid-type]  # the platform's class, picked at import
    """The platform's observer, told of changes only (`CHANGES`), unless a watch asks otherwise."""

    def schedule(
        self,
        event_handler: FileSystemEventHandler,
        path: str | Path,
        *,
        recursive: bool = False,
        event_filter: list[type[FileSystemEvent]] | None = None,
        follow_symlink: bool = False,
    ) -> ObservedWatch:
        chosen = CHANGES if event_filter is None else event_filter
        watch: ObservedWatch = super().schedule(
            event_handler, path, recursive=recursive, event_filter=chosen, follow_symlink=follow_symlink
        )
        return watch


def natively(server: LiveReloadServer) -> LiveReloadServer:
    """`server`, watching what it watched so far through a `NativeObserver` instead, as will
    everything watched after (the server starts its observer only as it begins serving).

    Each path is moved as the server was asked for it (a file as a file: watchdog watches a
    file through its folder, which `watch.path` names), as many times as it was asked. Where the
    system gives no more watchers (Linux's inotify limits, reached by editors and other tools
    watching too), the server keeps polling, said in one line, rather than stopping with a
    traceback when it starts."""
    polling = server.observer
    watched = [(emitter.watch.raw_path, emitter.watch.is_recursive) for emitter in polling.emitters]
    if (refused := _refused(watched)) is not None:
        log.info(f"serve polls for changes: the system's change events are not available ({refused})")
        return server
    moved: list[tuple[str, bool]] = []
    for emitter in list(polling.emitters):
        watch = emitter.watch
        while emitter in polling.emitters:  # the server counts the times a path was asked for
            server.unwatch(watch.raw_path)
            moved.append((watch.raw_path, watch.is_recursive))
    server.observer = NativeObserver()
    for path, recursive in moved:
        server.watch(path, recursive=recursive)
    return server


def _refused(paths: list[tuple[str, bool]]) -> str | None:
    """Why a native observer of `paths` cannot start, tried and stopped at once; None if it can."""
    probe = NativeObserver()
    try:
        for path, recursive in paths:
            probe.schedule(FileSystemEventHandler(), path, recursive=recursive)
        probe.start()
    except OSError as error:
        return error.strerror or str(error)
    finally:
        if probe.is_alive():
            probe.stop()
            probe.join()
    return None
