"""The book's mkdocs plugin, `attend-book` under `plugins:` in mkdocs.yml.

Before a page is rendered, its blocks and the values of the expressions its numbers are bound to
come from the execution cache or, when its code or anything that code runs on changed, from
running it in a process of its own (`run.run_plan`). It is the number check's provider (`values:
attend-book` under bound-numbers, listed before it): the check hands it each page and the
expressions its numbers are bound to (`bound_values`), and the run that gives their values is
kept for the page's rendering, so a page runs once. The plugin owns the executed fences: it
registers them with SuperFences itself (`custom_fences`, the public way markdown-exec's plugin
uses too) and renders each through markdown-exec's public `base_format`, handed the block
already made for the fence with that source, so a fence runs once per change and nothing in
another package is replaced; an output a code block shows is converted once and kept
(`outputs`). Each page is held to the book's fence rules (`rules`) and include lines
(`snippets`); math becomes MathML (`mathml`), and a button offers the page's code as a notebook,
written beside it as it is made. Search reads each page without its figures' drawing or its
listings' highlighting (`searched`). The workbench, which mkdocs-jupyter shows, is run and put
in place by `workbench`. A `build` writes the site beside its folder and moves it in only once
the build got through (`files.Staged`), so a failed or interrupted one leaves the last good
site. While a command runs, SIGTERM (`kill`, a cancelled CI job, a stopped container) ends it as
Ctrl-C does (`on_startup`), so that it too goes through that cleaning up, and a page's code may
change neither site folder (`guard`, `files.Staged.watched`). Each problem of the book the
plugin finds is said through bound-numbers' `Log`, so that a strict build fails on it even where
`-q` or a logging configuration kept the line from mkdocs' count. Under `serve`, a save is
noticed through the operating system's change events, not the server's polling (`watching`).
Within a build, the plugin keeps no more than the build's cache and the page it renders; from
one rebuild to the next under `serve`, each page's last plan (`ahead`) and the hashes of the
files pages read (`cache.Hashes`).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import signal
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn, ParamSpec, TypeVar

from jinja2 import Environment, FileSystemBytecodeCache
from markdown import Markdown
from markdown_exec import base_format, validator
from mkdocs.config import Config
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page as MkDocsPage
from mkdocs.utils.templates import TemplateContext
from pymdownx.superfences import SuperFencesException  # type: ignore[import-untyped]

from attend_book import (
    ahead,
    guard,
    mathml,
    notebooks,
    outputs,
    printed,
    rules,
    run,
    searched,
    snippets,
    workbench,
)
from attend_book.cache import FOLDER, Cache, Hashes, build_versions, fingerprint, source_roots
from attend_book.files import SiteError, Staged
from attend_book.page import LANGUAGES, TIME_LIMIT, Block, PageRun, commands
from bound_numbers import Asked, Log, Page, Plan, Problem, Sources, Unavailable, Value

if TYPE_CHECKING:
    from mkdocs.livereload import LiveReloadServer

log = get_plugin_logger(__name__)
# mkdocs-jupyter says at INFO level where it converts, caches and copies the workbench: three
# lines of hashed cache paths in every build's output, of no use to whoever reads it.
JUPYTER_LOGGERS = ("mkdocs.plugins.mkdocs_jupyter", "mkdocs.mkdocs-jupyter")
Ran = ParamSpec("Ran")
Made = TypeVar("Made")


class BookConfig(Config):
    cache_dir = c.Type(str, default=FOLDER)  # beside mkdocs.yml
    workbench = c.Type(str, default="workbench.py")  # the notebook page, under docs/
    time_limit = c.Type((int, float), default=TIME_LIMIT)  # seconds one fence may run
    first_import = c.Type(str, default="")  # what a page's first python fence imports from; "": anything
    # How `serve` learns of a save: the operating system's change events, or ProperDocs' polling
    # where none arrive (a network drive, some containers, WSL's /mnt). See `watching`.
    watch = c.Choice(("native", "polling"), default="native")


# Where the book's reader and SuperFences read a page's fences differently: said at the fence.
UNREAD = (
    "SuperFences shows a fence here with code the book's reader does not run there (a fence"
    " indented past its block, or inside an HTML block?): write it as both read it"
)
UNSHOWN = (
    "the book ran this fence, which SuperFences never shows (a closing line longer or more"
    " indented than its opening?): write it as both read it"
)


class UnreadFenceError(SuperFencesException, PluginError):  # type: ignore[misc]
    """A fence SuperFences met that the book's reader did not. A `PluginError`, so mkdocs stops
    with this message and no traceback; a `SuperFencesException`, because SuperFences renders
    any other error as plain text."""


class BookPlugin(BasePlugin[BookConfig]):
    """One build's state: the cache, the runs kept for rendering, and what the page being
    rendered shows; and what a rebuild under `serve` takes from the one before (`_ahead`,
    `_hashes`)."""

    cache: Cache  # made by on_pre_build, before any page is read

    def __init__(self) -> None:
        self.workbench = workbench.Workbench()
        self._page = ""  # the page being rendered, as errors name it
        self._shown: Page | None = None  # its source, parsed
        self._unshown: list[Block] | None = []  # its blocks not shown yet; None: its code failed
        self._offered = ""  # the name of the notebook it offers, beside it in the site; "": none
        self._html = self._printed = ""  # its HTML as its reader gets it, and as print-site does
        self._printing = False  # whether print-site makes the whole-book page in this build
        self._searching = False  # whether search indexes the pages in this build
        self._set_aside = searched.SetAside()  # its figures and listings, while search reads it
        self._ahead = ahead.Ahead()  # pages run ahead of a rebuild under `serve`
        self._hashes = Hashes()  # of the files pages read, kept from one rebuild to the next
        self._release = ""  # the package's version, which a page's notebook installs
        self._settings = ""  # the site's Markdown settings, which shape every output's HTML (`outputs`)
        # What every page's process starts with: the environment as the build found it.
        self.environment = dict(os.environ)
        self.command = ""  # `build`, `serve`, ... as mkdocs was started
        # Where a `mkdocs build` writes the site until it is whole, and whether it is.
        self.staged: Staged | None = None
        self.whole = False
        self._untrap: Callable[[], object] = lambda: None  # puts back SIGTERM's handler (on_shutdown)
        self.root = Path.cwd()  # mkdocs.yml's folder, which page paths and include lines start from
        self.docs = Path("docs")  # docs_dir, where the workbench is
        # The last page run for the number check (the page, and its run or why it failed), kept
        # for its rendering: the check asks first, whatever the order the plugins are listed in.
        self._kept: tuple[Page, PageRun | Unavailable] | None = None
        self.problems = Log(log, "attend-book", ("problem of the book", "problems of the book"))
        self.strict = False

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined because mkdocs keeps a plugin that has it, this very object, from one `mkdocs
        serve` rebuild to the next, and with it what the plugin remembers.

        Until the command ends (`on_shutdown`), SIGTERM raises KeyboardInterrupt, as Ctrl-C does.
        Left to its default, SIGTERM ends the process where it stands, leaving the staged site
        beside site/ until the next build and a page's process running until its holder sees the
        build gone; raised as an exception, it goes through every `finally` on the way out (the
        page's processes ended in `bound_numbers.run`, the staged site deleted in `on_shutdown`), and
        the command ends as Ctrl-C ends it (a build: `Aborted!`, exit status 1). (A handler can
        only be set in the main thread; a command started in another keeps the one it has.)
        SIGKILL cannot be caught: what it leaves, the next build deletes."""
        self.command = command
        if threading.current_thread() is threading.main_thread():
            kept = signal.signal(signal.SIGTERM, self._terminated)
            self._untrap = lambda: signal.signal(signal.SIGTERM, kept)

    def _terminated(self, number: int, frame: FrameType | None) -> NoReturn:
        """SIGTERM's handler: the build stops, and its site is not moved in, even when it comes
        after `on_post_build` (as the strict check counts warnings)."""
        self.whole = False
        raise KeyboardInterrupt

    # First of every plugin's, so that another's `on_serve` finds the observer that will serve.
    # serve() has watched the docs, mkdocs.yml and (--watch-theme) the theme by now, which
    # `watching` moves; what the other plugins and `--watch` ask for goes to it directly.
    @event_priority(100)
    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Callable[..., Any]
    ) -> LiveReloadServer:
        if self.config.watch == "polling":
            return server
        # Only `serve` needs watchdog: imported with the plugin, it cost every build 10 ms.
        from attend_book import watching

        return watching.natively(server)

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        # In full: mkdocs names the file as the command line did (`-f mkdocs.yml`) or in full (a
        # rebuild under `serve`), and the root is part of what keeps a page's notebook.
        self.root = Path(os.path.abspath(config.config_file_path)).parent
        self.strict = bool(config.strict)
        self.docs = Path(config.docs_dir)
        for name in JUPYTER_LOGGERS:  # its warnings still show
            logging.getLogger(name).setLevel(logging.WARNING)
        fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
        for language, kind in LANGUAGES.items():
            fence = {"name": language, "class": language, "validator": validator}
            fences.append({**fence, "format": functools.partial(self._format, kind)})
        if self.command == "build":
            # Built beside site/ and moved into place once the build succeeded (on_shutdown): a
            # build running at the same time, or a check reading site/, never meets a half-written
            # site, and a failed build leaves the last good one.
            try:
                self.staged = Staged(Path(config.site_dir))
            except SiteError as error:
                raise PluginError(str(error)) from None
            self.whole = False
            config.site_dir = str(self.staged.folder)
        return config

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        self._printing = _enabled(config, "print-site")  # both off under `nox -s serve`
        self._searching = _enabled(config, "search") or _enabled(config, "material/search")
        # Every plugin's on_config has run: had another registered the same fences after ours,
        # SuperFences would hand it the fences and the build would run them a second time.
        fences = config.mdx_configs["pymdownx.superfences"]["custom_fences"]
        others = {fence["name"] for fence in fences if getattr(fence["format"], "func", None) != self._format}
        if taken := sorted(others & set(LANGUAGES)):
            raise PluginError(
                f"another plugin shows the {', '.join(taken)} fences, which attend-book runs and shows: "
                "set `languages: []` under markdown-exec in mkdocs.yml"
            )
        folder = self.root / self.config.cache_dir
        versions = build_versions(kept=folder / "versions.json")
        self.cache = Cache(folder, fingerprint(source_roots(), versions), self._hashes)
        self._release = versions[notebooks.DISTRIBUTION]
        self._settings = outputs.settings_of(config)
        self._kept = None
        self.problems.begin(strict=self.strict)
        shown = os.path.relpath(self.docs / self.config.workbench, self.root)
        self.workbench.start(self._environment, functools.partial(self._watched, shown))
        if self.command == "serve":  # a rebuild: the pages it will run are known (`ahead`)
            self._ahead.start(
                self.root,
                self.cache.entry_of,
                functools.partial(self.cache.holds_page, environment=self._environment),
                lambda plan: self._watched(plan.page, self._runner)(plan),
            )

    def bound_sources(self) -> Sources:
        """For the number check: the workbench, a script whose Markdown cells are prose."""
        script = self.docs / self.config.workbench
        return {os.path.relpath(script, self.root): workbench.prose_of} if script.is_file() else {}

    def bound_values(self, page: Page, asked: Sequence[Asked]) -> Mapping[Asked, Value]:
        """For the number check: each asked value, where the page's code left it (from the cache
        while nothing it depends on changed). The run is kept to show the page's blocks; a page
        whose code fails is `Unavailable`, said once by the check."""
        script = self.docs / self.config.workbench
        if page.path == os.path.relpath(script, self.root):
            executed = self.workbench.ran(script, asked, self.cache, limit=self._limit, shown=page.path)
            if isinstance(executed, Unavailable):
                self.workbench.said = True
                raise executed
            return executed[1]
        ran = self._run(page, asked)
        if isinstance(ran, Unavailable):
            raise ran
        return ran.values

    @property
    def _limit(self) -> float:
        return float(self.config.time_limit)

    @property
    def _environment(self) -> dict[str, str]:
        """What a page's process starts with: the environment as the build found it, and the site
        folders its code may not change (`guard`)."""
        if self.staged is None:
            return self.environment
        return {**self.environment, guard.FOLDERS: os.pathsep.join(self.staged.folders)}

    def _watched(self, shown: str, run: Callable[Ran, Made]) -> Callable[Ran, Made]:
        """`run` (a page's, the workbench's), held to change neither site folder of a build
        (`files.Staged.watched`): a run that did fails its page, named by `shown`."""
        staged = self.staged
        if staged is None:
            return run

        @functools.wraps(run)
        def watched(*args: Ran.args, **kwargs: Ran.kwargs) -> Made:
            try:
                with staged.watched():
                    return run(*args, **kwargs)
            except SiteError as error:
                raise Unavailable(f"{shown}:1: {error}") from None

        return watched

    @property
    def _runner(self) -> Callable[[Plan], PageRun]:
        """What runs a page: in a process of its own, with the build's environment, from the
        folder of mkdocs.yml."""
        return functools.partial(
            run.run_plan, limit=self._limit, environment=self._environment, folder=str(self.root)
        )

    def _run(self, page: Page, asked: Sequence[Asked]) -> PageRun | Unavailable:
        """The page run in a process of its own, or taken from the cache, and kept."""
        for fence in page.fences:
            if fence.unread:
                self.problems.error(f"{page.path}:{fence.line}: {fence.unread}")
        ran: PageRun | Unavailable
        try:
            plan = run.plan_of(page, asked)
            self._ahead.remember(page.text, plan)
            runner = self._ahead.taken(self.cache.entry_of(plan)) or self._runner
            ran = self.cache.page(plan, self._watched(page.path, runner), self._environment)
        except Unavailable as error:
            ran = error
        self._kept = (page, ran)
        return ran

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        source = files.get_file_from_path(self.config.workbench)
        if source is not None and source.abs_src_path:
            script = Path(source.abs_src_path)
            shown = os.path.relpath(script, self.root)
            notebook = self.workbench.notebook(script, self.cache, limit=self._limit, shown=shown)
            if (failed := self.workbench.failed) is not None and not self.workbench.said:
                self.problems.error(str(failed))  # unless the number check said it
            self.workbench.take_place(files, source, notebook, config)
        return self._ahead.later(files, self.root)

    def on_env(self, env: Environment, *, config: MkDocsConfig, files: Files) -> Environment:
        # The theme's templates, compiled once and kept: compiling them is a third of a warm build.
        templates = self.cache.root / "templates"
        with contextlib.suppress(OSError):  # a cache that cannot be written: compiled afresh
            templates.mkdir(parents=True, exist_ok=True)
            env.bytecode_cache = FileSystemBytecodeCache(str(templates))
        return env

    def on_page_markdown(self, markdown: str, *, page: MkDocsPage, config: MkDocsConfig, files: Files) -> str:
        src = page.file.src_uri
        self._unshown, self._offered = [], ""
        if src == self.workbench.page:
            self.workbench.dress(page, self.config.workbench)
            self._offered = src  # mkdocs-jupyter puts it beside the page
        if not src.endswith(".md"):
            return markdown
        source = page.file.content_string  # with its front matter, so lines are the file's
        if not source:  # empty, or it could not be read (the number check said so)
            return markdown
        self._page = os.path.relpath(os.path.join(config.docs_dir, page.file.src_path), self.root)
        kept, self._kept = self._kept, None
        if kept is not None and (kept[0].path, kept[0].text) == (self._page, source):
            shown, ran = kept  # the run the number check asked for: it said any failure
        else:  # no number check asked for this page's values: run it here, and say if it fails
            shown = Page(self._page, source)
            ran = self._run(shown, ())
            if isinstance(ran, Unavailable):
                self.problems.error(str(ran))
        # One build reports every problem of every page: a page whose code fails is drawn
        # without outputs and still checked; the build goes on to the next.
        self._unshown = None if isinstance(ran, Unavailable) else list(ran.blocks)
        self._shown = shown
        for problem in self.check_page(shown):
            self.problems.warning(problem.render(self._page))
        if self._unshown is not None:  # else its notebook would fail as its page did
            self._offered = notebooks.written(page, shown, self.root, config, self._release, self.cache.kept)
        return markdown

    def _format(
        self,
        kind: str,
        source: str,
        language: str,
        css_class: str,
        options: dict[str, Any],
        md: Markdown,
        **_: Any,
    ) -> Any:
        """SuperFences' formatter for an executed fence of `kind`: the block the page's run made
        for the first fence not shown yet with this source, shown by markdown-exec's `base_format`
        (its HTML kept in the cache where only a code block shows it, `outputs`)."""
        code = source.rstrip("\n")
        block = next((b for b in self._unshown or [] if b.fence.body.rstrip("\n") == code), None)
        if self._unshown is None:
            text = "(not shown: this page's code failed)"
        elif block is None:
            line = self._shown.line_of(source) if self._shown else 1
            raise UnreadFenceError(f"{self._page}:{line}: {UNREAD}")
        else:
            self._unshown.remove(block)
            text = block.text
        # keyed by the options as written, before a transcript's are added (a function among them)
        kept = block is not None and outputs.kept_whole(kind, options)
        parts = outputs.key_of(self._page, kind, source, text, options, self._settings) if kept else []
        if kind == "console":
            options["source"] = options.get("source") or "console"
            options["transform_source"] = _prompted

        def html() -> str:
            return str(base_format(language=kind, run=lambda *_, **__: text, code=source, md=md, **options))

        return self.cache.kept(parts, html) if kept else html()

    # Ahead of every other plugin (priority 0): print-site keeps each page's HTML for the whole-book
    # page as its own on_page_content sees it, so the math must be MathML by then; and the copy it
    # keeps has its tags' lines ended (`printed`), which it reads in time linear in their size.
    @event_priority(100)
    def _on_page_content_first(
        self, html: str, *, page: MkDocsPage, config: MkDocsConfig, files: Files
    ) -> str:
        if self._unshown:
            self.problems.warning(f"{self._page}:{self._unshown[0].fence.line}: {UNSHOWN}")
        if self._offered:
            html = notebooks.download_button(self._offered) + html
        self._html = mathml.converted(workbench.without_remote_scripts(html))  # the workbench's MathJax goes
        self._printed = printed.lines(self._html) if self._printing else self._html
        return self._printed

    # After every other: the reader's page is the one shown, unless a plugin between changed it.
    @event_priority(-100)
    def _on_page_content_last(
        self, html: str, *, page: MkDocsPage, config: MkDocsConfig, files: Files
    ) -> str:
        return self._html if html == self._printed else html

    on_page_content = CombinedEvent(_on_page_content_first, _on_page_content_last)

    # Search reads the page in its on_page_context (priority 0): without its figures' drawing or
    # its listings' highlighting (`searched`), put back after every other plugin's, before the
    # page is written. The index differs only by the figures' labels; reading the page whole took
    # search a tenth of a warm build.
    @event_priority(100)
    def _on_page_context_first(
        self, context: TemplateContext, *, page: MkDocsPage, config: MkDocsConfig, nav: Navigation
    ) -> None:
        if self._searching:
            self._set_aside = searched.SetAside()
            page.content = self._set_aside.set_aside(page.content or "")

    @event_priority(-100)
    def _on_page_context_last(
        self, context: TemplateContext, *, page: MkDocsPage, config: MkDocsConfig, nav: Navigation
    ) -> None:
        if self._searching:
            page.content = self._set_aside.put_back(page.content or "")

    on_page_context = CombinedEvent(_on_page_context_first, _on_page_context_last)

    def check_page(self, page: Page) -> list[Problem]:
        """Every problem with the page's fences (`rules`) and its include lines, one line each,
        in the order of its lines (its numbers and front matter are the number check's)."""
        problems = [*rules.check(page, self.config.first_import), *snippets.check(page.text, self.root)]
        return sorted(problems, key=lambda p: (p.line, p.column or 0))

    @event_priority(-100)  # after every other plugin has written its part of the site
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        self.cache.prune()
        self.problems.verdict()  # a strict build fails on problems its count never heard
        self.whole = True  # unless --strict counts a warning next (on_build_error)

    @event_priority(-100)  # last: what it raises ends the build
    def on_build_error(self, *, error: Exception) -> None:
        """A build that failed; one that failed writing (a full disk, a folder it may not write)
        ends in one line, not mkdocs' traceback."""
        self.whole = False
        if isinstance(error, OSError) and error.strerror:
            where = error.filename2 or error.filename
            raise Abort(
                f"Aborted: {where}: {error.strerror}" if where else f"Aborted: {error.strerror}"
            ) from None

    def on_shutdown(self) -> None:
        """The end of a `build` command, whatever became of it: mkdocs has no later hook, and
        runs `on_post_build` before the strict check that may yet fail the build. The site
        moves in only if the build got through (an interrupted one never reaches on_post_build);
        else it is deleted, and the last site stays as it was."""
        try:
            if self.staged is not None:
                self.staged.commit() if self.whole else self.staged.discard()
                self.staged = None
        finally:  # a SIGTERM as the site moves in or goes is met as Ctrl-C would be
            self._untrap()
            self._untrap = lambda: None
            self.command = ""  # mkdocs may hand this object to a build no command started


def _enabled(config: MkDocsConfig, name: str) -> bool:
    """Whether the plugin `name` is listed and not switched off (`enabled: false`)."""
    plugin = config.plugins.get(name)
    return plugin is not None and bool(getattr(plugin, "config", {}).get("enabled", True))


def _prompted(code: str) -> tuple[str, str]:
    """A transcript's commands (what runs) and the same lines prompted (what is shown)."""
    lines = [command.text for command in commands(code)]
    return "\n".join(lines), "\n".join(f"$ {command}" for command in lines)
