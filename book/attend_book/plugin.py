"""The book's mkdocs plugin, `attend-book` under `plugins:` in mkdocs.yml.

Before a page is rendered, its blocks and the values of the expressions its numbers are bound to
come from the execution cache or, when its code or anything that code runs on changed, from
running it in a process of its own (`run.run_page`). The plugin owns the executed fences: it
registers them with SuperFences itself (`custom_fences`, the public way markdown-exec's plugin
uses too) and renders each through markdown-exec's public `base_format`, handed the block
already made for the fence with that source, so a fence runs once per change and nothing in
another package is replaced. Each bound number is checked against its value (`binding.check`)
and every binding is stripped before anything renders; math becomes MathML, and a button
offers the page's code as a notebook. The workbench is executed on a cache miss only, its
bindings evaluated in its kernel, for mkdocs-jupyter to show.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
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
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from attend_book import binding, notebooks, reading, run, snippets
from attend_book.cache import FOLDER, Cache, build_versions, fingerprint, source_roots
from attend_book.files import TextError, read_text, replace_folder
from attend_book.reading import Reading

log = get_plugin_logger(__name__)

REQUIRED_META = ("title", "description")


class BookConfig(Config):
    cache_dir = c.Type(str, default=FOLDER)  # beside mkdocs.yml
    workbench = c.Type(str, default="workbench.py")  # the notebook page, under docs/
    time_limit = c.Type((int, float), default=run.TIME_LIMIT)  # seconds one fence may run


class BookPlugin(BasePlugin[BookConfig]):
    """One build's state: the cache, each page's blocks, the notebooks to write."""

    def __init__(self) -> None:
        self.cache: Cache | None = None
        self.blocks: dict[str, list[run.Block]] = {}  # src_uri -> the page's blocks, in page order
        # src_uri -> (where in the site the page's notebook goes, the notebook if the plugin writes it)
        self.notebooks: dict[str, tuple[PurePosixPath, dict[str, Any] | None]] = {}
        self.workbench = ""  # the workbench page's src_uri, once it is executed
        self._page = ""  # the page being rendered, as errors name it
        self._unshown: list[run.Block] | None = []  # its blocks not shown yet; None: its code failed
        # What every page's process starts with: the environment as the build found it.
        self.environment = dict(os.environ)
        self.command = ""  # `build`, `serve`, ... as mkdocs was started
        self.site: Path | None = None  # where a `mkdocs build` puts the site once it is whole
        self.building: Path | None = None  # where it writes the site until then
        self.root = Path.cwd()  # mkdocs.yml's folder, which page paths and include lines start from
        self._told = False  # whether this build's first problem said how to renumber

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined because mkdocs keeps a plugin that has it, this very object, from one `mkdocs
        serve` rebuild to the next, and with it what the plugin remembers."""
        self.command = command

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path).parent
        fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
        for language, kind in run.LANGUAGES.items():
            fence = {"name": language, "class": language, "validator": validator}
            fences.append({**fence, "format": functools.partial(self._format, kind)})
        if self.command == "build":
            # Built beside site/ and moved into place whole (on_post_build): a build running at
            # the same time, or a check reading site/, never meets a half-written site.
            self.site = Path(config.site_dir)
            self.site.parent.mkdir(parents=True, exist_ok=True)
            self.building = Path(tempfile.mkdtemp(prefix=f".{self.site.name}-", dir=self.site.parent))
            config.site_dir = str(self.building)
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
        self.blocks.clear()
        self.notebooks.clear()
        self._told = False

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        source = files.get_file_from_path(self.config.workbench)
        if source is not None and source.abs_src_path and self.cache is not None:
            script = Path(source.abs_src_path)
            executed = self.cache.notebook(script, notebooks.execute)
            found = reading.read(notebooks.prose_of(script.read_text(encoding="utf-8")))
            for problem in binding.check(found, notebooks.values_of(executed)):
                self._report(problem.render(os.path.relpath(script, self.root)))
            files.remove(source)  # mkdocs-jupyter renders (and offers) the executed notebook instead
            page = File(executed.name, str(executed.parent), config.site_dir, config.use_directory_urls)
            files.append(page)
            self.workbench = page.src_uri
            self.notebooks[page.src_uri] = (PurePosixPath(page.dest_uri).parent / executed.name, None)
        return files

    def on_env(self, env: Environment, *, config: MkDocsConfig, files: Files) -> Environment:
        # The theme's templates, compiled once and kept: compiling them is a third of a warm build.
        if self.cache is not None:
            templates = self.cache.root / "templates"
            with contextlib.suppress(OSError):  # a cache that cannot be written: compiled afresh
                templates.mkdir(parents=True, exist_ok=True)
                env.bytecode_cache = FileSystemBytecodeCache(str(templates))
        return env

    def on_page_read_source(self, *, page: Page, config: MkDocsConfig) -> str | None:
        """A page as mkdocs reads it, but a byte that is not UTF-8 is one error naming its line,
        and the build goes on (with the byte replaced) to report every other problem."""
        where = page.file.abs_src_path
        if where is None or not where.endswith(".md"):
            return None
        try:
            return read_text(Path(where), os.path.relpath(where, self.root))
        except TextError as error:
            log.error(str(error))
            page.file.content_string = Path(where).read_bytes().decode("utf-8", errors="replace")
            return page.file.content_string

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        src = page.file.src_uri
        if src == self.workbench:
            if page.edit_url:  # "edit this page" opens the notebook's source, not what it made
                page.edit_url = page.edit_url.removesuffix(src) + self.config.workbench
            page.meta.setdefault("title", "The workbench")
            page.meta.setdefault("description", notebooks.WORKBENCH_DESCRIPTION)
            page.meta.setdefault("hide", ["toc"])  # the cells want the width more than a contents list
        if not src.endswith(".md") or self.cache is None:
            return markdown
        source = page.file.content_string  # with its front matter, so lines are the file's
        self._page = os.path.relpath(page.file.abs_src_path or src, self.root)
        found = reading.read(source)
        try:
            ran = self.cache.page(self._page, source, found.expressions, run=self._run)
        except run.FenceError as error:
            # One build reports every problem of every page: a page whose code fails is logged
            # (which --strict counts), drawn without outputs, and the build goes on to the next.
            log.error(str(error))
            self.blocks.pop(src, None)
            self._unshown = None
        else:
            self.blocks[src] = ran.blocks
            self._unshown = list(ran.blocks)
            for problem in self.check_numbers(self._page, source, found, ran.values, page.meta):
                self._report(problem)
        for key in REQUIRED_META:  # the front matter's bindings go too: the theme shows both
            if isinstance(page.meta.get(key), str):
                page.meta[key] = reading.strip(page.meta[key])
        cells = notebooks.cells_of(source, self.root, config.mdx_configs.get("pymdownx.snippets"))
        if notebooks.offered(page.meta, cells):
            notebook = notebooks.notebook_of(cells, str(page.title or PurePosixPath(src).stem), f"docs/{src}")
            beside = PurePosixPath(page.file.dest_uri).parent / f"{PurePosixPath(src).stem}.ipynb"
            self.notebooks[src] = (beside, notebook)
        return reading.strip(markdown)

    def _report(self, problem: str) -> None:
        """Log a problem; the build's first also says how moved numbers are brought back."""
        if not self._told:
            problem += "  (`nox -s renumber` rewrites moved numbers)"
            self._told = True
        log.warning(problem)

    def _run(self, path: str, markdown: str, expressions: tuple[str, ...] = ()) -> run.PageRun:
        """`run_page` with this build's environment, folder and time limit."""
        limit = float(self.config.time_limit)
        return run.run_page(
            path, markdown, expressions, limit=limit, environment=self.environment, folder=str(self.root)
        )

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
        src = page.file.src_uri
        if src in self.blocks:
            if self._unshown:
                log.warning(f"{self._page}:{self._unshown[0].fence.line}: markdown-exec never ran this fence")
            html = _mathml(html)
        if src == self.workbench:
            html = notebooks.without_remote_scripts(html)
        if src in self.notebooks:
            html = notebooks.download_button(self.notebooks[src][0].name) + html
        return html

    def check_numbers(
        self, path: str, source: str, found: Reading, values: Mapping[str, run.Value], meta: Mapping[str, Any]
    ) -> list[str]:
        """Every problem with the page's front matter, its numbers and its include lines, one line
        each; `path` is the page's file relative to mkdocs.yml's folder."""
        missing = [key for key in REQUIRED_META if not str(meta.get(key, "")).strip()]
        problems = [f"{path}:1: the front matter has no {key}" for key in missing]
        checked = [*snippets.check(source, self.root), *binding.check(found, values)]
        return problems + [problem.render(path) for problem in checked]

    @event_priority(-100)  # after every other plugin has written its part of the site
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        site = Path(config.site_dir)
        for where, notebook in self.notebooks.values():
            if notebook is not None:
                (site / where).parent.mkdir(parents=True, exist_ok=True)
                nbformat.write(notebook, site / where)
        if self.cache is not None:
            self.cache.prune()
        if self.site is not None and self.building is not None:
            replace_folder(self.site, self.building)
            config.site_dir = str(self.site)

    def on_build_error(self, *, error: Exception) -> None:
        if self.building is not None:
            shutil.rmtree(self.building, ignore_errors=True)


def _prompted(code: str) -> tuple[str, str]:
    """A transcript's commands (what runs) and the same lines prompted (what is shown)."""
    lines = run.commands(code)
    return "\n".join(lines), "\n".join(f"$ {command}" for command in lines)


# pymdownx.arithmatex (generic mode) leaves TeX that needs a script to typeset it; MathML, made by
# latex2mathml at build, is drawn by the browser itself, with no script and no font from anywhere.
_MATH = re.compile(r'<(?P<tag>span|div) class="arithmatex">\\[(\[](?P<tex>.*?)\\[)\]]</(?P=tag)>', re.DOTALL)


def _mathml(page: str) -> str:
    """The page with every arithmatex span (inline) and div (a block) replaced by MathML."""

    def mathml(match: re.Match[str]) -> str:
        tex = unescape(match["tex"]).strip()
        if match["tag"] == "span":
            return _converted(tex, "inline")
        return f'<div class="math-block">{_converted(tex, "block")}</div>'

    return _MATH.sub(mathml, page)


@functools.lru_cache(maxsize=1024)  # the same formulas, rebuild after rebuild under `nox -s serve`
def _converted(tex: str, display: str) -> str:
    return str(convert(tex, display=display))
