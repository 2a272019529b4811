"""The book's mkdocs plugin, `attend-book` under `plugins:` in mkdocs.yml.

Before a page is rendered, its blocks and the values of the expressions its numbers are bound to
come from the execution cache or, when its code or anything that code runs on changed, from
running it in a process of its own (`run.run_page`). The plugin owns the executed fences: it
registers them with SuperFences itself (`custom_fences`, the public way markdown-exec's plugin
uses too) and renders each through markdown-exec's public `base_format`, handed the block
already made for the fence with that source, so a fence runs once per change and nothing in
another package is replaced. Each bound number is checked against its value (`binding.check`)
and every binding is stripped as the page is read, front matter included; math becomes
MathML, and a button offers the page's code as a notebook, written beside it as it is made.
The workbench is executed on a cache miss only, its bindings evaluated in its kernel, for
mkdocs-jupyter to show. A `build` writes the site beside its folder and moves it in only once
the build got through (`files.Staged`), so a failed or interrupted one leaves the last good site.
The plugin keeps no more than the build's cache and the page it renders.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import os
import re
import tempfile
from collections.abc import Mapping
from html import unescape
from pathlib import Path, PurePosixPath
from typing import Any

import nbformat
from jinja2 import Environment, FileSystemBytecodeCache
from latex2mathml.converter import convert
from markdown import Markdown
from markdown_exec import base_format, validator
from mkdocs.config import Config
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from attend_book import notebooks, rules, run, snippets
from attend_book.cache import FOLDER, Cache, build_versions, fingerprint, source_roots
from attend_book.files import SiteError, Staged, TextError, read_text
from bound_numbers import check as binding
from bound_numbers import declared, reading
from bound_numbers.markdown import fences
from bound_numbers.reading import Problem, Reading

log = get_plugin_logger(__name__)
# mkdocs-jupyter says at INFO level where it converts, caches and copies the workbench: three
# lines of hashed cache paths in every build's output, of no use to whoever reads it.
JUPYTER_LOGGERS = ("mkdocs.plugins.mkdocs_jupyter", "mkdocs.mkdocs-jupyter")


class BookConfig(Config):
    cache_dir = c.Type(str, default=FOLDER)  # beside mkdocs.yml
    workbench = c.Type(str, default="workbench.py")  # the notebook page, under docs/
    time_limit = c.Type((int, float), default=run.TIME_LIMIT)  # seconds one fence may run
    # What the number check holds for every page (declared.py): label words and their ranges,
    # givens, and the front matter every page must have.
    labels = c.Type(dict, default={})
    givens = c.Type(dict, default={})
    front_matter = c.ListOfItems(c.Type(str), default=list(rules.REQUIRED_META))
    first_import = c.Type(str, default="")  # what a page's first python fence imports from; "": anything


class BookPlugin(BasePlugin[BookConfig]):
    """One build's state: the cache, and what the page being rendered shows."""

    cache: Cache  # made by on_pre_build, before any page is read

    def __init__(self) -> None:
        self.workbench = ""  # the workbench page's src_uri, once it is executed
        self._unread: set[str] = set()  # the src_uri of each page that could not be read
        self._page = ""  # the page being rendered, as errors name it
        self._unshown: list[run.Block] | None = []  # its blocks not shown yet; None: its code failed
        self._offered = ""  # the name of the notebook it offers, beside it in the site; "": none
        # What every page's process starts with: the environment as the build found it.
        self.environment = dict(os.environ)
        self.command = ""  # `build`, `serve`, ... as mkdocs was started
        # Where a `mkdocs build` writes the site until it is whole, and whether it is.
        self.staged: Staged | None = None
        self.whole = False
        self.root = Path.cwd()  # mkdocs.yml's folder, which page paths and include lines start from
        self._told = False  # whether this build's first moved number said how to renumber
        self._scratch: tempfile.TemporaryDirectory[str] | None = None  # an unexecuted workbench
        self.declared = declared.Declared()  # what the number check holds for every page

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined because mkdocs keeps a plugin that has it, this very object, from one `mkdocs
        serve` rebuild to the next, and with it what the plugin remembers."""
        self.command = command

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path).parent
        try:
            self.declared = declared.of_config(self.config)
        except declared.DeclarationError as error:
            raise PluginError(str(error)) from None
        for name in JUPYTER_LOGGERS:  # its warnings still show
            logging.getLogger(name).setLevel(logging.WARNING)
        fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
        for language, kind in run.LANGUAGES.items():
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
        # Every plugin's on_config has run: had another registered the same fences after ours,
        # SuperFences would hand it the fences and the build would run them a second time.
        fences = config.mdx_configs["pymdownx.superfences"]["custom_fences"]
        others = {fence["name"] for fence in fences if getattr(fence["format"], "func", None) != self._format}
        if taken := sorted(others & set(run.LANGUAGES)):
            raise PluginError(
                f"another plugin shows the {', '.join(taken)} fences, which attend-book runs and shows: "
                "set `languages: []` under markdown-exec in mkdocs.yml"
            )
        folder = self.root / self.config.cache_dir
        self.cache = Cache(folder, fingerprint(source_roots(), build_versions()))
        self._told = False
        self._unread = set()

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        source = files.get_file_from_path(self.config.workbench)
        if source is not None and source.abs_src_path:
            script = Path(source.abs_src_path)
            shown = os.path.relpath(script, self.root)
            execute = functools.partial(
                notebooks.execute, limit=float(self.config.time_limit), shown=shown, book=self.declared
            )
            found = reading.read(notebooks.prose_of(script.read_text(encoding="utf-8")), self.declared)
            try:
                executed, values = self.cache.notebook(script, execute, notebooks.values_of)
            except run.FenceError as error:  # one line; the page shows the cells without outputs
                log.error(str(error))
                self._scratch = tempfile.TemporaryDirectory(prefix="attend-book-")
                executed = notebooks.unexecuted(script, Path(self._scratch.name))
                problems = binding.check(_unbound(found), {})
            else:
                problems = binding.check(found, values)
            for problem in problems:
                self._report(shown, problem)
            files.remove(source)  # mkdocs-jupyter renders (and offers) the executed notebook instead
            page = File(executed.name, str(executed.parent), config.site_dir, config.use_directory_urls)
            files.append(page)
            self.workbench = page.src_uri  # the executed notebook's name: no folder
        return files

    def on_env(self, env: Environment, *, config: MkDocsConfig, files: Files) -> Environment:
        # The theme's templates, compiled once and kept: compiling them is a third of a warm build.
        templates = self.cache.root / "templates"
        with contextlib.suppress(OSError):  # a cache that cannot be written: compiled afresh
            templates.mkdir(parents=True, exist_ok=True)
            env.bytecode_cache = FileSystemBytecodeCache(str(templates))
        return env

    def on_page_read_source(self, *, page: Page, config: MkDocsConfig) -> str | None:
        """A page as mkdocs reads it, without its bindings (the build's, not the reader's: neither
        the theme's title and description nor any plugin after this one sees them). A byte that is
        not UTF-8 is one error naming its line, and the build goes on (with the byte replaced)
        to report every other problem."""
        where = page.file.abs_src_path
        if where is None or not where.endswith(".md"):
            return None
        shown = os.path.relpath(where, self.root)
        try:
            source = read_text(Path(where), shown)
        except TextError as error:
            log.error(str(error))
            source = page.file.content_string = Path(where).read_bytes().decode("utf-8", errors="replace")
        except OSError as error:  # a link to nothing, or to itself: the page is left empty
            log.error(f"{shown}:1: the page cannot be read: {error.strerror or error}")
            source = page.file.content_string = ""
            self._unread.add(page.file.src_uri)
        return reading.strip(source)

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        src = page.file.src_uri
        self._unshown, self._offered = [], ""
        if src == self.workbench:
            if page.edit_url:  # "edit this page" opens the notebook's source, not what it made
                page.edit_url = page.edit_url.removesuffix(src) + self.config.workbench
            # Its front matter (description, hide) is the notebook's `mkdocs` metadata.
            page.meta.update(nbformat.read(page.file.abs_src_path, as_version=4).metadata.get("mkdocs", {}))
            self._offered = src  # mkdocs-jupyter puts it beside the page
        if not src.endswith(".md") or src in self._unread:
            return markdown
        source = page.file.content_string  # with its front matter, so lines are the file's
        self._page = os.path.relpath(os.path.join(config.docs_dir, page.file.src_path), self.root)
        found = reading.read(source, self.declared)
        limit, folder = float(self.config.time_limit), str(self.root)
        runner = functools.partial(run.run_page, limit=limit, environment=self.environment, folder=folder)
        for fence in fences(source):
            if fence.unread:
                log.error(f"{self._page}:{fence.line}: {fence.unread}")
        try:
            ran = self.cache.page(self._page, source, found.expressions, run=runner)
        except run.FenceError as error:
            # One build reports every problem of every page: a page whose code fails is logged
            # (which --strict counts), drawn without outputs, and checked for all but the values
            # its code did not give; the build goes on to the next.
            log.error(str(error))
            self._unshown = None
            problems = self.check_page(source, _unbound(found), {}, page.meta)
        else:
            self._unshown = list(ran.blocks)
            problems = self.check_page(source, found, ran.values, page.meta)
        for problem in problems:
            self._report(self._page, problem)
        if self._unshown is None:  # its notebook would fail as its page did
            return markdown
        cells = notebooks.cells_of(source, self.root, config.mdx_configs.get("pymdownx.snippets"))
        if notebooks.offered(page.meta, cells):
            stem = PurePosixPath(src).stem
            self._offered = f"{stem}.ipynb"
            where = Path(config.site_dir, page.file.dest_uri).parent / self._offered
            where.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(notebooks.notebook_of(cells, str(page.title or stem), f"docs/{src}"), where)
        return markdown

    def _report(self, path: str, problem: Problem) -> None:
        """Log a problem of the page `path`; the build's first moved number also says how moved
        numbers are brought back."""
        said = problem.render(path)
        if problem.renumbered and not self._told:
            said += "  (`nox -s renumber` rewrites moved numbers)"
            self._told = True
        log.warning(said)

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
        for the first fence not shown yet with this source, shown by markdown-exec's `base_format`."""
        code = source.rstrip("\n")
        shown = next((b for b in self._unshown or [] if b.fence.body.rstrip("\n") == code), None)
        if self._unshown is None:
            text = "(not shown: this page's code failed)"
        elif shown is None:
            unread = f"{self._page}: SuperFences met a fence the book's reader did not:\n{source}"
            raise run.FenceError(unread)
        else:
            self._unshown.remove(shown)
            text = shown.text
            if kind == "console":
                options["source"] = options.get("source") or "console"
                options["transform_source"] = _prompted
        return base_format(language=kind, run=lambda *_, **__: text, code=source, md=md, **options)

    # Ahead of every other plugin (priority 0): print-site keeps each page's HTML for the whole-book
    # page as its own on_page_content sees it, so the math must be MathML by then.
    @event_priority(100)
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        if self._unshown:
            log.warning(f"{self._page}:{self._unshown[0].fence.line}: markdown-exec never ran this fence")
        if self._offered:
            html = notebooks.download_button(self._offered) + html
        return _mathml(notebooks.without_remote_scripts(html))  # the workbench's MathJax goes

    def check_page(
        self, source: str, found: Reading, values: Mapping[str, run.Value], meta: Mapping[str, Any]
    ) -> list[Problem]:
        """Every problem with the page's rules (`rules`: front matter, fences), its numbers and
        its include lines, one line each (bindings stopped by one cause: one line), in the order
        of its lines."""
        page_rules = rules.check(source, meta, self.config.first_import, self.config.front_matter)
        problems = [*page_rules, *snippets.check(source, self.root), *binding.check(found, values)]
        return binding.one_per_cause(sorted(problems, key=lambda p: (p.line, p.column or 0)))

    @event_priority(-100)  # after every other plugin has written its part of the site
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        self.cache.prune()
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
        if self.staged is not None:
            self.staged.commit() if self.whole else self.staged.discard()
            self.staged = None
        self.command = ""  # mkdocs may hand this object to a build no command started


def _unbound(found: Reading) -> Reading:
    """The page's reading without its bindings: what can be checked when its code failed."""
    return dataclasses.replace(found, bindings=[])


def _prompted(code: str) -> tuple[str, str]:
    """A transcript's commands (what runs) and the same lines prompted (what is shown)."""
    lines = run.commands(code)
    return "\n".join(lines), "\n".join(f"$ {command}" for command in lines)


# pymdownx.arithmatex (generic mode) leaves TeX that needs a script to typeset it; MathML, made by
# latex2mathml at build, is drawn by the browser itself, with no script and no font from anywhere.
_MATH = re.compile(r'<(?P<tag>span|div) class="arithmatex">\\[(\[](?P<tex>.*?)\\[)\]]</(?P=tag)>', re.DOTALL)


def _mathml(page: str) -> str:
    """The page with every arithmatex span (inline) and div (a block) replaced by MathML."""
    return _MATH.sub(lambda math: _converted(math["tag"], unescape(math["tex"]).strip()), page)


@functools.lru_cache(maxsize=1024)  # the same formulas, rebuild after rebuild under `nox -s serve`
def _converted(tag: str, tex: str) -> str:
    if tag == "span":
        return str(convert(tex, display="inline"))
    return f'<div class="math-block">{convert(tex, display="block")}</div>'
