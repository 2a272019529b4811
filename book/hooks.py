"""The mkdocs hooks of the book, listed under `hooks:` in mkdocs.yml.

* `on_config` puts the recording formatters into markdown-exec (see `book.execute`);
* `on_page_markdown` starts recording what the page's code prints;
* `on_page_content` holds every numeral of the page against the output its ledger binds it to
  and checks its include lines (`book.verify`), logging one warning per problem, which
  `mkdocs build --strict` counts and turns into one failed build at the end; then it renders
  the page's math to MathML.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # mkdocs loads this file by path; `book` is its parent package
    sys.path.insert(0, str(ROOT))

from book import execute, mathml, runner, verify  # noqa: E402

log = logging.getLogger("mkdocs.plugins.book")

REQUIRED_META = ("title", "description")


def on_config(config: Any) -> Any:
    execute.install()
    return config


def on_pre_build(config: Any) -> None:
    forget("attend", "book.figures")
    execute.reset_sessions()


def forget(*packages: str) -> None:
    """Drop modules so the next build imports them as they are on disk now.

    `mkdocs serve` builds again and again in one process; without this a change to
    `src/attend` would trigger a rebuild that still ran the old code (and its cached counts
    and figures), and the preview would show numbers the code no longer produces.
    """
    for name in list(sys.modules):
        if any(name == package or name.startswith(f"{package}.") for package in packages):
            del sys.modules[name]


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    execute.RECORDER.start(page.file.src_uri)
    return markdown


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    printed = execute.RECORDER.finish()
    if not page.file.src_uri.endswith(".md"):
        return html  # the workbench notebook (mkdocs-jupyter): its numbers are its own cells' output
    source = Path(page.file.abs_src_path)
    root = Path(config.config_file_path).parent
    for key in REQUIRED_META:
        if not str(page.meta.get(key, "")).strip():
            log.warning(f"{page.file.src_uri}:1: the front matter has no {key}")
    markdown = source.read_text(encoding="utf-8")
    for problem in verify.page(source, markdown, runner.blocks(markdown, printed), root):
        log.warning(problem)
    return mathml.render_math(html)
