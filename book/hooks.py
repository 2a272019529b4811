"""The mkdocs hooks of the book, listed under `hooks:` in mkdocs.yml.

* `on_config` puts the recording formatters into markdown-exec (see `book.execute`);
* `on_page_markdown` starts recording what the page's code prints;
* `on_page_content` holds every numeral in the page's prose against those outputs, evaluates
  the worked equations, and logs one warning per problem (which `mkdocs build --strict`
  turns into a failed build); then it renders the page's math to MathML.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # mkdocs loads this file by path; `book` is its parent package
    sys.path.insert(0, str(ROOT))

from book import execute, mathml, numerals  # noqa: E402

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


def _shown_path(page: Any, config: Any) -> str:
    source = Path(page.file.abs_src_path)
    try:
        return source.relative_to(Path(config.config_file_path).parent).as_posix()
    except ValueError:
        return source.as_posix()


# Before every plugin's (priority 0): print-site keeps each page's HTML for the whole-book page
# as its own on_page_content sees it, so the math must be MathML by then.
@event_priority(100)
def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    outputs = execute.RECORDER.finish()
    if not page.file.src_uri.endswith(".md"):
        return html  # the workbench notebook (mkdocs-jupyter): its numbers are its own cells' output
    path = _shown_path(page, config)
    for key in REQUIRED_META:
        if not str(page.meta.get(key, "")).strip():
            log.warning(f"{path}:1: the front matter has no {key}")
    givens = page.meta.get("givens") or {}
    if not isinstance(givens, dict):
        log.warning(f"{path}:1: givens must map each numeral to the reason it is given")
        givens = {}
    source = Path(page.file.abs_src_path).read_text(encoding="utf-8")
    for problem in numerals.check_page(source, outputs, {str(k): str(v) for k, v in givens.items()}):
        log.warning(problem.render(path))
    return mathml.render_math(html)
