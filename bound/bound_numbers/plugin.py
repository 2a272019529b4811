"""The mkdocs / ProperDocs plugin, `bound-numbers` under `plugins:` in mkdocs.yml.

Every Markdown page is read twice. As mkdocs reads it, its bindings are taken out
(`on_page_read_source`), so that neither the rendered page nor its title and description nor
any plugin after this one sees them. Then its numbers are read from the source, each binding's
expression is evaluated by the provider `values:` names (`values.py`), and every problem is one
warning line, `page:line:column: message`, which `--strict` turns into a failed build; the
first moved number of a build also says how moved numbers are rewritten (`hint:`). A page
that is not Markdown (the provider's `bound_sources`) is checked the same way before any page.
A strict build fails on these lines whatever the log level lets through (`strict.py`).

Configuration: `values` (the provider: `fences`, or the name of another plugin of the build),
`labels`, `givens`, `not_results` and `decimal_mark` (declared.py), `front_matter` (the keys
every page must have), `checklist` (what a missing key's line adds: where a page's rules are
written down), `hint`, `time_limit` (seconds, for the `fences` provider), and `cache` (whether
a build keeps each page's reading, `reading_cache.py`, and the `fences` provider a notebook's run,
`notebook_cache.py`, for the next build).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mkdocs.config import Config
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page as MkDocsPage

from bound_numbers import check, declared, strict
from bound_numbers.notebooks import Shown, stripped
from bound_numbers.page import Page, line_named, placed, rendered
from bound_numbers.plan import END_OF_PAGE, Plan, bindings_of
from bound_numbers.reading import Problem, Reading, read
from bound_numbers.reading_cache import FOLDER as READINGS
from bound_numbers.reading_cache import ReadingCache
from bound_numbers.text import TextError, read_text
from bound_numbers.values import Asked, Provider, Unavailable, Value
from bound_numbers.watched import Watch, Watching

log = strict.Log(get_plugin_logger(__name__))


class BoundNumbersConfig(Config):
    # `values:` (its trailing _ keeps it from hiding the mapping's values()): `fences`, or the name
    # of the plugin that provides them.
    values_ = c.Type(str, default="fences")
    labels = c.Type(dict, default={})  # word: expression for the last position (null: each page's own)
    givens = c.Type(dict, default={})  # name: [value, reason]
    not_results = c.Type(dict, default={})  # the numbers that need no binding (declared.Exempt)
    decimal_mark = c.Optional(c.Choice((".", ",")))  # how "1,234" reads; by default, with a point
    front_matter = c.ListOfItems(c.Type(str), default=[])  # keys every page's front matter must say
    checklist = c.Type(str, default="")  # added to a missing key's line: where the rules are written
    hint = c.Type(str, default="`bound-numbers renumber` rewrites moved numbers")
    time_limit = c.Type((int, float), default=30)  # seconds a page's fences may take (`values: fences`)
    cache = c.Type(bool, default=True)  # each page's reading, and a notebook's run, kept between builds


class BoundNumbersPlugin(BasePlugin[BoundNumbersConfig]):
    """One build's state: what every page declares, the provider, the pages that could not be
    read, and whether this build said the hint yet."""

    def __init__(self) -> None:
        self.root = Path.cwd()  # mkdocs.yml's folder, which page paths in messages start from
        self.declared = declared.Declared()  # what the check holds on every page
        self._provider: Provider | None = None
        self._plugins: Mapping[str, object] = {}  # the build's plugins, by name (on_config)
        self._unread: set[str] = set()  # the src_uri of each page that could not be read
        self._read: tuple[str, Page] | None = None  # the page mkdocs read last: its src_uri, and it
        self._told = False
        # With `values: fences` and markdown-exec rendering the python fences, markdown-exec's
        # run gives the values (`watched`): the page being rendered is checked once it is.
        self._watch = Watch()
        self._watching = False
        self._rendered: tuple[Page, Reading, Mapping[str, Any]] | None = None
        self._readings: ReadingCache | None = None  # each page's reading kept between builds (on_config)
        self._notebooks = Shown()  # the site's notebooks, which mkdocs-jupyter shows

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        log.begin(strict=bool(config.strict))
        self.root = Path(config.config_file_path).parent
        try:
            self.declared = declared.of_config(self.config)
        except declared.DeclarationError as error:
            raise PluginError(str(error)) from None
        self._provider = None  # found once every plugin's on_config ran
        self._plugins = config.plugins
        cache = self.config.cache
        self._readings = ReadingCache(self.root / READINGS, self.declared, self.config) if cache else None
        return config

    def reading(self, page: Page) -> Reading:
        """The page's numbers, bindings, labels and sums (`reading.read`), kept between builds
        unless `cache: false` (`reading_cache.py`)."""
        return self._readings.read(page) if self._readings is not None else read(page, self.declared)

    @property
    def provider(self) -> Provider:
        """What `values:` names, found once every plugin's on_config ran."""
        if self._provider is None:
            self._provider = self._named_provider()
        return self._provider

    def _named_provider(self) -> Provider:
        """The plugin `values:` names, or the built-in evaluation of a page's own fences."""
        chosen = self.config.values_
        if chosen == "fences":
            from bound_numbers.fences import FenceValues  # the built-in provider: only a site that uses it
            from bound_numbers.notebook_cache import FOLDER, NotebookCache

            jupyter = getattr(self._plugins.get("mkdocs-jupyter"), "config", {})
            kernel = str(jupyter.get("kernel_name") or "")  # a notebook's kernel, as mkdocs-jupyter names it
            cache = NotebookCache(self.root / FOLDER) if self.config.cache else None
            limit = float(self.config.time_limit)
            return FenceValues(time_limit=limit, folder=self.root, kernel=kernel, cache=cache)
        found = self._plugins.get(chosen)
        if not isinstance(found, Provider):
            said = "is not a plugin of this build" if found is None else "lacks bound_values or bound_sources"
            raise PluginError(
                f"bound-numbers: values: {chosen} {said}; name `fences` or a plugin listed "
                "under plugins: that provides the values"
            )
        return found

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        self._told = False
        self._unread = set()
        self._provider = self._named_provider()  # a misnamed one stops the build before any page
        # every plugin's on_config has run, markdown-exec's among them: its fences are registered
        self._watching = self.config.values_ == "fences" and self._watch.wrap(config.mdx_configs)

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        from bound_numbers.fences import FenceValues

        self._notebooks.done(config)
        if self._readings is not None:
            self._readings.prune()  # the entries of pages since edited, or gone
        if isinstance(self._provider, FenceValues) and self._provider.cache is not None:
            self._provider.cache.prune()  # the entries of notebooks since edited, or gone
        log.verdict()

    # The check asks before any other plugin of the page's (priority 50, every other one's 0
    # unless it says), wherever it is listed: a provider that shows the page keeps the run the
    # check asked for, and runs it once.
    @event_priority(50)
    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        """The provider's pages that are not Markdown files, checked before any page."""
        for path, prose in self.provider.bound_sources().items():
            try:
                source = read_text(self.root / path, path)
            except TextError as error:
                log.error(str(error))
                continue
            except OSError as error:
                log.error(f"{path}:1: the page cannot be read: {error.strerror or error}")
                continue
            self.report(Page(path, source, prose), self.check(Page(path, source, prose)))
        if "mkdocs-jupyter" in self._plugins:  # it shows the site's notebooks as pages
            self._notebooks.check(files, config, self.notebook)
        return files

    def notebook(self, page: Page) -> str:
        """A notebook page checked, and what its page shows: with `values: fences`, the notebook
        run once in a Jupyter kernel, outputs and all (`kernel.py`); else the notebook as it is.
        Either way without its bindings."""
        from bound_numbers.fences import FenceValues

        found = self.reading(page)
        provider = self.provider
        if not isinstance(provider, FenceValues):
            self.report(page, self.check(page, found=found))
            return stripped(page.text)
        ran = provider.notebook(page, found.asked)
        self.report(page, self.check(page, found=found, values=ran.values))
        return ran.shown

    def on_page_read_source(self, *, page: MkDocsPage, config: MkDocsConfig) -> str | None:
        """A page as mkdocs reads it, without its bindings; read once, kept for the check. A byte
        that is not UTF-8 is one error naming its line, and the build goes on (with the byte
        replaced) to report every other problem; a page that cannot be read is one error, and
        left empty."""
        where = page.file.abs_src_path
        if where is None or not where.endswith(".md"):
            return None
        shown = os.path.relpath(where, self.root)
        try:
            source = read_text(Path(where), shown)
        except TextError as error:
            log.error(str(error))
            source = page.file.content_string = Path(where).read_bytes().decode("utf-8", errors="replace")
        except OSError as error:  # a link to nothing, or to itself
            log.error(f"{shown}:1: the page cannot be read: {error.strerror or error}")
            source = page.file.content_string = ""
            self._unread.add(page.file.src_uri)
        read = Page(shown, source)
        self._read = (page.file.src_uri, read)
        if self._readings is not None:
            self._readings.read(read)  # kept from a build before, it is not parsed again
        return read.stripped

    @event_priority(50)
    def on_page_markdown(self, markdown: str, *, page: MkDocsPage, config: MkDocsConfig, files: Files) -> str:
        src = page.file.src_uri
        if not src.endswith(".md") or src in self._unread:
            return markdown
        kept, self._read = self._read, None
        if kept is not None and kept[0] == src:
            checked = kept[1]
        else:  # read by another plugin's on_page_read_source
            shown = os.path.relpath(os.path.join(config.docs_dir, page.file.src_path), self.root)
            checked = Page(shown, page.file.content_string)  # with its front matter: lines are the file's
        if not self._watching:
            self.report(checked, self.check(checked, meta=page.meta))
            return markdown
        from bound_numbers.fences import runs

        found = self.reading(checked)
        self._watch.page = Watching(Plan.of(checked, found.asked, filter(runs, checked.fences)))
        self._rendered = (checked, found, page.meta)
        return markdown

    def on_page_content(self, html: str, *, page: MkDocsPage, config: MkDocsConfig, files: Files) -> str:
        """The page markdown-exec rendered, checked against the values its run gave (`watched`);
        if a fence did not run there, against the check's own run of the page."""
        if self._rendered is None or self._watch.page is None:
            return html
        (checked, found, meta), self._rendered = self._rendered, None
        watching, self._watch.page = self._watch.page, None
        values = watching.done()
        if (refused := watching.disagreement(checked)) is not None:
            log.error(rendered(checked, refused))
            return html
        self.report(checked, self.check(checked, meta, found, values))
        return html

    def check(
        self,
        page: Page,
        meta: Mapping[str, Any] | None = None,
        found: Reading | None = None,
        values: Mapping[Asked, Value] | Unavailable | None = None,
    ) -> list[Problem]:
        """Every problem of `page` (`found` as read) with its numbers and, given its `meta`, its
        front matter: one line each (bindings stopped by one cause: one line), in the order of
        its lines, against `values` (or why the page's code failed) or else the provider's. A
        page whose code fails is one error, and is checked for all but the bindings and labels
        below the fence that failed, which have no values."""
        found = found or self.reading(page)
        if values is None:
            try:
                values = self.provider.bound_values(page, found.asked)
            except Unavailable as error:
                values = error
        if isinstance(values, Unavailable):
            log.error(placed(page, str(values)))
            values = values.values
            # its labels' ranges come from its code too: one line for the page, not one per range
            found = check.computed(found, values)
        problems = self.problems(found, values, meta, bindings_of(page))
        return check.one_per_cause(problems, functools.partial(line_named, page))

    def problems(
        self,
        found: Reading,
        values: Mapping[Asked, Value],
        meta: Mapping[str, Any] | None = None,
        bindings: str = "",
    ) -> list[Problem]:
        """The problems of a page read as `found`, its bindings' `values` at hand, one each, in
        the order of its lines; `bindings`: what its front matter says under `bindings:`."""
        see = f"; {self.config.checklist}" if self.config.checklist else ""
        missing = [
            Problem(1, f"the front matter has no {key}{see}")
            for key in self.config.front_matter
            if meta is not None and not str(meta.get(key, "")).strip()
        ]
        if bindings not in ("", END_OF_PAGE):
            said = f"bindings: {bindings} in the front matter: write `bindings: {END_OF_PAGE}` (every"
            missing.append(Problem(1, f"{said} binding evaluated after the page's last fence), or nothing"))
        return sorted([*missing, *check.check(found, values)], key=lambda p: (p.line, p.column or 0))

    def report(self, page: Page, problems: list[Problem]) -> None:
        """Log each problem of `page`; the build's first moved number also says how moved
        numbers are brought back."""
        for problem in problems:
            said = rendered(page, problem)
            if problem.renumbered and not self._told:
                said += f"  ({self.config.hint})"
                self._told = True
            log.warning(said)
