"""The built site, served on 127.0.0.1 and opened page by page in headless Chromium.

These tests are kept out of the default `pytest` run: they build the whole book and need a
browser. `nox -s browser` runs them (it sets ATTEND_BROWSER=1); naming this folder on the
command line runs them too. Every page is visited once, by the session fixture `visits`, and
each test reads what that visit recorded: the console, every request, the math, the
figures. A screenshot of each page is kept in artifacts/screenshots/.

Settings, all optional: ATTEND_SITE (a site already built; otherwise `mkdocs build --strict`
runs into a temporary folder), ATTEND_CHROMIUM (default /usr/bin/chromium), ATTEND_ARTIFACTS
(default artifacts/ at the repository root).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
HOST = "127.0.0.1"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--metrics-recording-only",
    "--no-default-browser-check",
]


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave the browser out of a plain `pytest` run unless asked for by name or by nox."""
    if os.environ.get("ATTEND_BROWSER") == "1":
        return None
    for arg in config.args:
        asked = Path(arg.split("::")[0]).resolve()
        if asked == HERE or HERE in asked.parents:
            return None
    return True if collection_path.suffix == ".py" and collection_path.name != "conftest.py" else None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: opens the built site in headless Chromium")


@dataclass
class Visit:
    """What one page did while it loaded in the browser."""

    path: str
    status: int = 0
    title: str = ""
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    bad_responses: list[str] = field(default_factory=list)
    math: list[dict[str, Any]] = field(default_factory=list)
    raw_tex: list[str] = field(default_factory=list)
    figures: list[dict[str, Any]] = field(default_factory=list)
    notebook: str | None = None  # the page's "download as a notebook" link, if it has one
    images: list[dict[str, Any]] = field(default_factory=list)
    screenshot: Path | None = None


@dataclass
class Site:
    root: Path
    url: str
    pages: list[str]
    outside: list[str] = field(default_factory=list)  # every request not to 127.0.0.1


def _artifacts() -> Path:
    return Path(os.environ.get("ATTEND_ARTIFACTS", ROOT / "artifacts"))


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _build(into: Path) -> Path:
    """`mkdocs build --strict` of the repository's book into `into`."""
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(into)]
    done = subprocess.run(mkdocs, cwd=ROOT, capture_output=True, text=True, check=False)
    (_artifacts()).mkdir(parents=True, exist_ok=True)
    (_artifacts() / "mkdocs-build.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{done.stderr[-4000:]}", pytrace=False)
    return into


def _pages(root: Path) -> list[str]:
    """Every HTML page of the built site as a path from its root, the 404 page included."""
    pages = []
    for html in sorted(root.rglob("*.html")):
        rel = html.relative_to(root).as_posix()
        if rel.startswith(("assets/", "search/")):
            continue
        pages.append(rel.removesuffix("index.html"))
    return pages


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The book, built once and served by `python -m http.server` on 127.0.0.1 only."""
    given = os.environ.get("ATTEND_SITE")
    root = Path(given) if given else _build(tmp_path_factory.mktemp("site"))
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", HOST, "--directory", str(root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://{HOST}:{port}/"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(url, timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail(f"the site server on {url} never answered", pytrace=False)
                time.sleep(0.1)
        yield Site(root=root, url=url, pages=_pages(root))
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=10)
        if server.poll() is None:
            server.kill()


@pytest.fixture(scope="session")
def chromium() -> str:
    path = os.environ.get("ATTEND_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail(
            f"no Chromium at {path}: run scripts/install-browser.sh (Debian's chromium)",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def browser_context(site: Site, chromium: str) -> Iterator[Any]:
    """One headless Chromium whose every request outside 127.0.0.1 is recorded and refused."""
    from playwright.sync_api import Route, sync_playwright

    def guard(route: Route) -> None:
        url = route.request.url
        if _local(url):
            route.continue_()
        else:
            site.outside.append(url)
            route.abort("blockedbyclient")

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        context = browser.new_context(
            viewport={"width": 1280, "height": 900}, locale="en-GB", service_workers="block"
        )
        context.route("**/*", guard)
        context.on("request", lambda r: None if _local(r.url) else site.outside.append(r.url))
        try:
            yield context
        finally:
            context.close()
            browser.close()


def _local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about", "javascript"):
        return True
    return parts.hostname == HOST


# Everything the page says about itself once loaded, in one round trip.
INSPECT = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {w: r.width, h: r.height}; };
  const math = [...document.querySelectorAll('article math')].map((el) => ({
    ...box(el), display: getComputedStyle(el).display, text: el.textContent.slice(0, 60),
  }));
  const figures = [...document.querySelectorAll('article figure')].map((fig) => {
    const pic = fig.querySelector('svg, img');
    return {
      id: fig.id, caption: (fig.querySelector('figcaption') || {}).textContent || '',
      kind: pic ? pic.tagName.toLowerCase() : null, ...(pic ? box(pic) : {w: 0, h: 0}),
      alt: pic ? (pic.getAttribute('aria-label') || pic.getAttribute('alt') || '') : '',
      loaded: pic && pic.tagName === 'IMG' ? pic.complete && pic.naturalWidth > 0 : true,
    };
  });
  const images = [...document.querySelectorAll('article img')].map((img) => ({
    src: img.currentSrc || img.src, ok: img.complete && img.naturalWidth > 0, ...box(img),
  }));
  // TeX a reader would see raw: delimiters or commands outside code, scripts and math.
  const tex = /\\$\\$|\\\\\\(|\\\\\\[|\\\\(frac|sqrt|cdot|top|sum|mathrm|operatorname|times)\\b/;
  const raw = [];
  const walker = document.createTreeWalker(document.querySelector('article') || document.body,
                                           NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('pre, code, script, style, math, svg, .jupyter-wrapper')) continue;
    if (tex.test(node.textContent)) raw.push(node.textContent.trim().slice(0, 80));
  }
  const notebook = document.querySelector('a.attend-notebook');
  return {title: document.title, math, figures, images, raw,
          notebook: notebook ? notebook.href : null};
}"""


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """artifacts/screenshots/, emptied at the start of the session."""
    shots = _artifacts() / "screenshots"
    if shots.exists():
        shutil.rmtree(shots)
    shots.mkdir(parents=True)
    return shots


@pytest.fixture(scope="session")
def visits(site: Site, browser_context: Any, screenshots: Path) -> dict[str, Visit]:
    """Every page of the site, opened once: what it logged, fetched, drew, and looked like."""
    shots = screenshots
    seen: dict[str, Visit] = {}
    for path in site.pages:
        visit = Visit(path)
        page = browser_context.new_page()
        page.on("console", lambda m, v=visit: v.console_errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e, v=visit: v.page_errors.append(str(e)))
        page.on("requestfailed", lambda r, v=visit: v.failed_requests.append(f"{r.url} ({r.failure})"))
        page.on(
            "response",
            lambda r, v=visit, p=path: (
                v.bad_responses.append(f"{r.status} {r.url}")
                if r.status >= 400 and not p.endswith("404.html")
                else None
            ),
        )
        response = page.goto(site.url + path, wait_until="networkidle")
        visit.status = response.status if response else 0
        page.evaluate("document.fonts.ready")
        found = page.evaluate(INSPECT)
        visit.title = found["title"]
        visit.math, visit.figures = found["math"], found["figures"]
        visit.images, visit.raw_tex = found["images"], found["raw"]
        visit.notebook = found["notebook"]
        name = (path.strip("/").replace("/", "__") or "index").removesuffix(".html")
        visit.screenshot = shots / f"{name}.png"
        page.screenshot(path=str(visit.screenshot), full_page=True)
        page.close()
        seen[path] = visit
    return seen
