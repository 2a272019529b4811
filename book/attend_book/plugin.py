"""The book's mkdocs plugin, `attend-book` under `plugins:` in mkdocs.yml.

Before a page is rendered, its blocks and the values of the expressions its numbers are bound to
come from the execution cache or, when its code or anything that code runs on changed, from
running it (`run.run_page`); markdown-exec renders each fence through its public `base_format`,
handed the block already made, so a fence runs once per change. Each bound number is checked
against its value (`binding.check`) and every binding is stripped before anything renders; its
math becomes MathML, and a button offers its code as a notebook. The workbench is executed on a
cache miss only, its bindings evaluated in its kernel, for mkdocs-jupyter to show.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from collections.abc import Mapping
from html import unescape
from pathlib import Path, PurePosixPath
from typing import Any

from jinja2 import Environment, FileSystemBytecodeCache
from latex2mathml.converter import convert
from markdown import Markdown
from markdown_exec import base_format, formatters
from mkdocs.config import Config
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from attend_book import binding, notebooks, reading, snippets
from attend_book.cache import FOLDER, Cache, build_versions, fingerprint, source_roots
from attend_book.reading import Reading
from attend_book.run import LANGUAGES, Block, FenceError, Value, commands

log = get_plugin_logger(__name__)

REQUIRED_META = ("title", "description")
# The packages the pages' code imports: under `mkdocs serve` they are imported afresh on every
# build, so a rerun page never runs or draws with the code as it was first loaded.
PAGE_IMPORTS = ("attend", "attend_figures")


class BookConfig(Config):
    cache_dir = c.Type(str, default=FOLDER)  # beside mkdocs.yml
    workbench = c.Type(str, default="workbench.py")  # the notebook page, under docs/


class BookPlugin(BasePlugin[BookConfig]):
    """One build's state: the cache, each page's blocks, the notebooks to write."""

    def __init__(self) -> None:
        self.cache: Cache | None = None
        self.blocks: dict[str, list[Block]] = {}  # src_uri -> the page's blocks, in page order
        # src_uri -> (where in the site the page's notebook goes, the notebook if the plugin writes it)
        self.notebooks: dict[str, tuple[PurePosixPath, dict[str, Any] | None]] = {}
        self.workbench = ""  # the workbench page's src_uri, once it is executed
        self._page = ""  # the page being rendered, as errors name it
        self._unshown: list[Block] | None = []  # its blocks not shown yet; None: its code failed
        self.root = Path.cwd()  # mkdocs.yml's folder, which page paths and include lines start from
        self._told = False  # whether this build's first problem said how to renumber

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Nothing to start; defined because mkdocs keeps a plugin that has it, this very object,
        from one `mkdocs serve` rebuild to the next, and with it what the plugin remembers."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path).parent
        for language, kind in LANGUAGES.items():
            formatters[language] = functools.partial(self._format, kind)  # type: ignore[assignment]
        return config

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        # `mkdocs serve` builds again in one process: a page that reruns must run the package as
        # it is on disk now, not as it was first imported.
        for name in [n for n in sys.modules if n.partition(".")[0] in PAGE_IMPORTS]:
            del sys.modules[name]
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
            (self.cache.root / "templates").mkdir(parents=True, exist_ok=True)
            env.bytecode_cache = FileSystemBytecodeCache(str(self.cache.root / "templates"))
        return env

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
            run = self.cache.page(self._page, source, found.expressions)
        except FenceError as error:
            # One build reports every problem of every page: a page whose code fails is logged
            # (which --strict counts), drawn without outputs, and the build goes on to the next.
            log.error(str(error))
            self.blocks.pop(src, None)
            self._unshown = None
        else:
            self.blocks[src] = run.blocks
            self._unshown = list(run.blocks)
            for problem in self.check_numbers(self._page, source, found, run.values, page.meta):
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

    def _format(self, kind: str, *, code: str, md: Markdown, **options: Any) -> Any:
        """markdown-exec's formatter for `kind`: show the block the page's run made for this fence."""
        if self._unshown is None:
            text = "(not shown: this page's code failed)"
        elif self._unshown and self._unshown[0].code.rstrip("\n") == code.rstrip("\n"):
            text = self._unshown.pop(0).text
            if kind == "console":
                options["source"] = options.get("source") or "console"
                options["transform_source"] = _prompted
        else:
            raise FenceError(f"{self._page}: markdown-exec met a fence the book's reader did not:\n{code}")
        return base_format(language=kind, run=lambda *_, **__: text, code=code, md=md, **options)

    # Ahead of every other plugin (priority 0): print-site keeps each page's HTML for the whole-book
    # page as its own on_page_content sees it, so the math must be MathML by then.
    @event_priority(100)
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        src = page.file.src_uri
        if src in self.blocks:
            if self._unshown:
                log.warning(f"{self._page}:{self._unshown[0].line}: markdown-exec never ran this fence")
            html = _mathml(html)
        if src == self.workbench:
            html = notebooks.without_remote_scripts(html)
        if src in self.notebooks:
            html = notebooks.download_button(self.notebooks[src][0].name) + html
        return html

    def check_numbers(
        self, path: str, source: str, found: Reading, values: Mapping[str, Value], meta: Mapping[str, Any]
    ) -> list[str]:
        """Every problem with the page's front matter, its numbers and its include lines, one line
        each; `path` is the page's file relative to mkdocs.yml's folder."""
        missing = [key for key in REQUIRED_META if not str(meta.get(key, "")).strip()]
        problems = [f"{path}:1: the front matter has no {key}" for key in missing]
        checked = [*snippets.check(source, self.root), *binding.check(found, values)]
        return problems + [problem.render(path) for problem in checked]

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        site = Path(config.site_dir)
        for where, notebook in self.notebooks.values():
            if notebook is not None:
                target = site / where
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        if self.cache is not None:
            self.cache.prune()


def _prompted(code: str) -> tuple[str, str]:
    """A transcript's commands (what runs) and the same lines prompted (what is shown)."""
    run = commands(code)
    return "\n".join(run), "\n".join(f"$ {command}" for command in run)


# pymdownx.arithmatex (generic mode) leaves TeX that needs a script to typeset it; MathML, made by
# latex2mathml at build, is drawn by the browser itself, with no script and no font from anywhere.
_INLINE_MATH = re.compile(r'<span class="arithmatex">\\\((?P<tex>.*?)\\\)</span>', re.DOTALL)
_BLOCK_MATH = re.compile(r'<div class="arithmatex">\\\[(?P<tex>.*?)\\\]</div>', re.DOTALL)


def _mathml(page: str) -> str:
    """The page with every arithmatex span and div replaced by MathML."""

    def block(match: re.Match[str]) -> str:
        return f'<div class="math-block">{_converted(unescape(match.group("tex")).strip(), "block")}</div>'

    def inline(match: re.Match[str]) -> str:
        return _converted(unescape(match.group("tex")).strip(), "inline")

    return _INLINE_MATH.sub(inline, _BLOCK_MATH.sub(block, page))


@functools.lru_cache(maxsize=1024)  # the same formulas, rebuild after rebuild under `nox -s serve`
def _converted(tex: str, display: str) -> str:
    return str(convert(tex, display=display))
