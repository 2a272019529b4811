"""What `nox -s serve` watches, and how: attend-book moves ProperDocs' server from polling to the
operating system's change events (`attend_book.watching`), unless told `watch: polling`.

Each test builds ProperDocs' own `LiveReloadServer`, watches as `properdocs serve` does before
the plugins' `on_serve` (the docs folder, the config file), and hands it to the plugin. The
server serves (on a free port, in a thread) only where a rebuild is awaited."""

from __future__ import annotations

import errno
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import pytest
from mkdocs.config import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.livereload import LiveReloadServer as MkDocsServer
from mkdocs.plugins import BasePlugin, PluginCollection
from properdocs.livereload import LiveReloadServer
from watchdog.observers.polling import PollingObserver

from attend_book import watching
from attend_book.plugin import BookPlugin

LIMIT = 30.0  # seconds a rebuild may take to begin on a loaded machine; it takes a fraction of one


def plugin_of(**options: object) -> BookPlugin:
    plugin = BookPlugin()
    errors, warnings = plugin.load_config(options)
    assert (errors, warnings) == ([], [])
    return plugin


class NoOptions(Config):  # type: ignore[no-untyped-call]  # mkdocs' __init_subclass__
    pass


class Watching(BasePlugin[NoOptions]):  # type: ignore[no-untyped-call]  # mkdocs' __init_subclass__
    """Another plugin, which watches a folder of its own at `serve` and keeps the observer it found."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.observer: object = None

    def on_serve(
        self, server: MkDocsServer, /, *, config: MkDocsConfig, builder: Callable[..., Any]
    ) -> MkDocsServer:
        server.watch(str(self.folder))
        self.observer = server.observer
        return server


@contextmanager
def server_of(project: Path, builder: Callable[[], None] = lambda: None) -> Iterator[LiveReloadServer]:
    """A server of the site `project` builds, its observer stopped at the end (a native one holds
    a file descriptor and a thread until then)."""
    server = LiveReloadServer(builder=builder, host="127.0.0.1", port=0, root=str(project / "site"))
    try:
        yield server
    finally:
        server.observer.stop()


def served(plugin: BookPlugin, server: LiveReloadServer, *before: tuple[str, Watching]) -> None:
    """The plugins' `on_serve` run on `server` as `properdocs serve` runs them, attend-book listed
    after the plugins `before`. (Under `properdocs serve` the plugins' `mkdocs.livereload` is
    ProperDocs' module, which the cast says.)"""
    plugins = PluginCollection()
    for name, other in before:
        plugins[name] = other
    plugins["attend-book"] = plugin
    handed = cast(MkDocsServer, server)
    assert plugins.on_serve(handed, config=MkDocsConfig(), builder=server.builder) is handed


@contextmanager
def serving(server: LiveReloadServer) -> Iterator[None]:
    """`server` serving and watching, as `properdocs serve` leaves it until Ctrl-C."""
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    deadline = time.monotonic() + LIMIT
    while not server.observer.is_alive():  # alive once every watch it holds is in place
        assert time.monotonic() < deadline, "the server's observer never started"
        time.sleep(0.01)
    try:
        yield
    finally:
        server.shutdown(wait=True)
        thread.join(LIMIT)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# A page\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: check\n", encoding="utf-8")
    (tmp_path / "src").mkdir()
    return tmp_path


def test_serve_watches_every_folder_with_the_native_observer(project: Path) -> None:
    with server_of(project) as server:
        server.watch(str(project / "docs"))
        server.watch(str(project / "src"))
        served(plugin_of(), server)
        assert not isinstance(server.observer, PollingObserver)
        watches = [emitter.watch for emitter in server.observer.emitters]
        assert sorted((watch.path, watch.is_recursive) for watch in watches) == [
            (str(project / "docs"), True),
            (str(project / "src"), True),
        ]


def test_serve_watches_the_config_file_itself_not_the_folder_it_is_in(project: Path) -> None:
    """watchdog watches a file through its folder (`watch.path` is the folder): moved as that
    folder, the whole project would be watched, and every file the build writes there (its
    cache) would start another build."""
    with server_of(project) as server:
        server.watch(str(project / "mkdocs.yml"))
        served(plugin_of(), server)
        assert not isinstance(server.observer, PollingObserver)
        watches = [emitter.watch for emitter in server.observer.emitters]
        assert [(watch.raw_path, watch.is_file, watch.is_recursive) for watch in watches] == [
            (str(project / "mkdocs.yml"), True, False)
        ]


def test_a_path_watched_twice_stays_watched_after_one_unwatch(project: Path) -> None:
    """The server counts how often a path was asked for and stops at the last `unwatch`: moved
    once, a path asked for twice would be left on the polling observer, which never starts."""
    with server_of(project) as server:
        server.watch(str(project / "docs"))
        server.watch(str(project / "docs"))
        served(plugin_of(), server)
        assert not isinstance(server.observer, PollingObserver)
        server.unwatch(str(project / "docs"))
        assert [emitter.watch.path for emitter in server.observer.emitters] == [str(project / "docs")]


def test_attend_book_moves_serve_to_the_native_observer_before_other_plugins_see_it(project: Path) -> None:
    """Listed after it, still first: another plugin's `on_serve` finds the observer that serves."""
    other = Watching(project / "src")
    with server_of(project) as server:
        server.watch(str(project / "docs"))
        served(plugin_of(), server, ("other", other))
        assert other.observer is server.observer
        assert not isinstance(server.observer, PollingObserver)
        assert sorted(emitter.watch.path for emitter in server.observer.emitters) == [
            str(project / "docs"),
            str(project / "src"),
        ]


def test_watch_polling_leaves_the_server_its_own_observer(project: Path) -> None:
    with server_of(project) as server:
        server.watch(str(project / "docs"))
        observer = server.observer
        served(plugin_of(watch="polling"), server)
        assert server.observer is observer
        assert [emitter.watch.path for emitter in observer.emitters] == [str(project / "docs")]


def test_a_watch_setting_neither_native_nor_polling_is_refused_naming_both() -> None:
    errors, _ = BookPlugin().load_config({"watch": "inotify"})
    assert [(name, str(error)) for name, error in errors] == [
        ("watch", "Expected one of: ('native', 'polling') but received: 'inotify'")
    ]


def first_rebuild(project: Path, edit: Callable[[Path], object]) -> str:
    """The page's text as the first rebuild after `edit` began, `edit` done to the page while the
    server serves, watching docs/ as attend-book leaves it."""
    built: queue.Queue[str] = queue.Queue()
    page = project / "docs" / "page.md"
    with server_of(project, lambda: built.put(page.read_text(encoding="utf-8"))) as server:
        server.watch(str(project / "docs"))
        served(plugin_of(), server)
        assert not isinstance(server.observer, PollingObserver)
        with serving(server):
            edit(page)
            return built.get(timeout=LIMIT)


def saved(page: Path) -> None:
    page.write_text("# A page, saved\n", encoding="utf-8")


def test_a_page_saved_in_a_watched_folder_rebuilds_the_site(project: Path) -> None:
    assert first_rebuild(project, saved) == "# A page, saved\n"


def test_a_page_read_in_a_watched_folder_rebuilds_nothing(project: Path) -> None:
    """Each build reads every page, and the native observer, left to itself, tells of each file
    opened: the server would rebuild for ever. The first rebuild here is the save's, which
    comes a second after the read: a rebuild for the read would have begun in a tenth."""

    def read_then_saved(page: Path) -> None:
        page.read_text(encoding="utf-8")
        time.sleep(1.0)
        saved(page)

    assert first_rebuild(project, read_then_saved) == "# A page, saved\n"


def test_a_system_out_of_watchers_leaves_serve_polling_said_in_one_line(
    project: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Linux refuses a new inotify instance past its limit (`fs.inotify.max_user_instances`),
    which editors reach: serve would have stopped with a traceback as its observer started."""

    def refused(self: object) -> None:
        raise OSError(errno.EMFILE, "inotify instance limit reached")

    monkeypatch.setattr(watching.NativeObserver, "start", refused)
    with server_of(project) as server, caplog.at_level(logging.INFO):
        server.watch(str(project / "docs"))
        polling = server.observer
        served(plugin_of(), server)
        assert server.observer is polling and len(list(polling.emitters)) == 1
    said = [record.getMessage() for record in caplog.records if "serve polls" in record.getMessage()]
    assert said == [
        "attend_book: serve polls for changes: the system's change events are not available "
        "(inotify instance limit reached)"
    ]
