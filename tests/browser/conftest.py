"""The built site, served on 127.0.0.1 and opened in Debian's headless Chromium.

These tests are kept out of the default `pytest` run: they build the whole book and need a
browser. `nox -s browser` runs them (it sets ATTEND_BROWSER=1); naming this folder on the
command line runs them too. pytest-playwright provides the browser and the `page` and
`context` fixtures; this file points them at Debian's chromium, refuses every request that
would leave 127.0.0.1 (and records it, so a test can fail on it), and serves the book.
Every page is visited once in each palette, by the session fixtures `visits` (light) and
`dark_visits`, and most tests read what those visits recorded: axe-core's verdicts, the size of
figure text on a laptop, the keyboard's walk. A page load is most of a check's cost, and a new
tab more than the load (it starts a renderer), so each pass opens every page in one tab.
Screenshots land in artifacts/screenshots/.

Settings, all optional: BOOK_SITE (a site already built, as CI passes it; otherwise
`properdocs build --strict` runs into a temporary folder), ATTEND_CHROMIUM (default
/usr/bin/chromium), ATTEND_ARTIFACTS (default artifacts/ at the repository root).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

# One server, one Chromium command line and one notion of "local" for the tests and the PDF.
from book_build import properdocs_build

from scripts.print_book import CHROMIUM_ARGS, chromium_path, refuse_outside, served
from tests.browser.figures import MEASURE, measured_page, shoot_figures
from tests.browser.keyboard_walk import KeyboardWalk, walk_by_tab

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
VIEWPORT = {"width": 1280, "height": 900}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave the browser out of a plain `pytest` run unless asked for by name or by nox."""
    if os.environ.get("ATTEND_BROWSER") == "1":
        return None
    for arg in config.args:
        asked = Path(arg.split("::")[0]).resolve()
        if asked == HERE or HERE in asked.parents:
            return None
    return True if collection_path.suffix == ".py" and collection_path.name != "conftest.py" else None


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
    listings: int = 0  # code blocks in the article
    sideways: list[dict[str, Any]] = field(default_factory=list)  # those wider than their box
    transcripts: int = 0  # of the listings, those that show what a command or a block printed
    misset: list[dict[str, Any]] = field(default_factory=list)  # code that keeps, transcripts that wrap
    fences: list[dict[str, Any]] = field(default_factory=list)  # display formulas with a fraction
    axe: AxeVerdict | None = None  # in the light palette; the dark one is DarkVisit's
    screenshot: Path | None = None
    figure_text: dict[str, Any] | None = None  # figures.MEASURE's reading, on measured pages
    keyboard: KeyboardWalk | None = None


@dataclass
class AxeVerdict:
    """What axe-core found on one page: the WCAG rules it ran, and each violation in short."""

    rules: int
    violations: list[str]


@dataclass
class DarkVisit:
    """One page opened in the dark palette: the palette it took, axe-core's verdict on it, and on
    a page with figures the ground each figure's drawing is shown on and a screenshot of each."""

    palette: str
    axe: AxeVerdict
    grounds: list[str] = field(default_factory=list)
    screenshots: list[Path] = field(default_factory=list)


@dataclass
class Site:
    root: Path
    url: str
    pages: list[str]
    outside: list[str] = field(default_factory=list)  # every request not to 127.0.0.1


def artifacts() -> Path:
    """Where screenshots and logs go: artifacts/ at the repository root unless told otherwise."""
    return Path(os.environ.get("ATTEND_ARTIFACTS", ROOT / "artifacts"))


def given_site() -> Path | None:
    """A site built before the tests (CI builds once and passes it on), if one is named."""
    given = os.environ.get("BOOK_SITE")
    if not given:
        return None
    root = Path(given)
    return root if root.is_absolute() else ROOT / root


def build_site(into: Path) -> Path:
    """`properdocs build --strict` of the repository's book into `into`, as CI builds it."""
    done = properdocs_build(ROOT, into)
    artifacts().mkdir(parents=True, exist_ok=True)
    (artifacts() / "properdocs-build.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode != 0:
        pytest.fail(f"properdocs build --strict failed:\n{done.stderr[-4000:]}", pytrace=False)
    return into


def site_pages(root: Path) -> list[str]:
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
    """The book, built once (or taken from BOOK_SITE) and served on 127.0.0.1."""
    root = given_site() or build_site(tmp_path_factory.mktemp("site"))
    with served(root) as url:
        yield Site(root=root, url=url, pages=site_pages(root))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch, on Debian's chromium instead of a downloaded build."""
    path = chromium_path()
    if not Path(path).exists():
        pytest.fail(
            f"no Chromium at {path}: run scripts/install-browser.sh (Debian's chromium)", pytrace=False
        )
    return {**browser_type_launch_args, "executable_path": path, "headless": True, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": VIEWPORT, "locale": "en-GB", "service_workers": "block"}


@pytest.fixture
def open_context(new_context: Callable[..., Any], site: Site) -> Callable[..., Any]:
    """pytest-playwright's `new_context`, with every outside request refused and noted."""
    return lambda **options: refuse_outside(new_context(**options), site.outside)


@pytest.fixture
def context(open_context: Callable[..., Any]) -> Any:
    """pytest-playwright's per-test context (and so its `page`), guarded as above."""
    return open_context()


@pytest.fixture(scope="session")
def book_context(browser: Any, browser_context_args: dict[str, Any], site: Site) -> Iterator[Any]:
    """One context the whole session shares, for the visit of every page."""
    ctx = refuse_outside(browser.new_context(**browser_context_args), site.outside)
    try:
        yield ctx
    finally:
        ctx.close()


# Everything the page says about itself once loaded, in one round trip.
INSPECT = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {w: r.width, h: r.height}; };
  const math = [...document.querySelectorAll('article math')].map((el) => ({
    ...box(el), display: getComputedStyle(el).display, text: el.textContent.slice(0, 60),
  }));
  const figures = [...document.querySelectorAll('article figure')].map((fig) => {
    const pic = fig.querySelector('[role=img], svg, img');  // a figure's panels share one alt text
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
  // Every listing wider than its box, with its longest line (the 1280 x 900 viewport).
  const listings = [...document.querySelectorAll('article pre')]
    .filter((pre) => !pre.closest('.jupyter-wrapper'));
  const sideways = listings.map((pre) => {
    const code = pre.querySelector('code') || pre;
    const longest = code.textContent.split('\\n').reduce((a, b) => (b.length > a.length ? b : a), '');
    return {over: Math.max(pre.scrollWidth - pre.clientWidth, code.scrollWidth - code.clientWidth),
            chars: longest.length, line: longest.slice(0, 90)};
  }).filter((listing) => listing.over > 1);
  // The rule those widths rest on: code wraps, a transcript keeps its lines as printed.
  const transcript = (pre) => Boolean(pre.closest('.language-console, .language-text'));
  const wraps = (pre) => getComputedStyle(pre.querySelector('code') || pre).whiteSpace !== 'pre';
  const misset = listings.filter((pre) => transcript(pre) === wraps(pre))
    .map((pre) => ({transcript: transcript(pre), line: pre.textContent.split('\\n')[0].slice(0, 60)}));
  // Each stretchy fence of each display formula that holds a fraction, against its letters.
  const height = (el) => el.getBoundingClientRect().height;
  const fences = [...document.querySelectorAll('article .math-block math')]
    .filter((formula) => formula.querySelector('mfrac'))
    .map((formula) => ({
      text: formula.textContent.slice(0, 40),
      fences: [...formula.querySelectorAll('mo[stretchy="true"]')]
        .filter((mo) => mo.parentElement.querySelector(':scope > mfrac')).map(height),
      letter: Math.max(...[...formula.querySelectorAll('mi')]
        .filter((mi) => !mi.closest('mfrac, msub, msup')).map(height)),
      fraction: height(formula.querySelector('mfrac')),
    }));
  return {title: document.title, math, figures, images, raw, listings: listings.length, sideways,
          transcripts: listings.filter(transcript).length, misset,
          fences, notebook: notebook ? notebook.href : null};
}"""

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


# print_page/ holds every page again, each in a `section.print-page` named by the page's id,
# with the same styles: those copies are read where they are written, on their own pages, and
# here only what the print page adds (its cover and contents). The copies were half of all the
# time axe took.
COPIES = {"exclude": [["section.print-page[id]"]]}


def axe_verdict(page: Any) -> AxeVerdict:
    """axe-core's WCAG 2.1 A and AA rules run on the page as it stands."""
    from axe_playwright_python.sync_playwright import Axe

    # Every node of a violation; of the rules that passed, one node each is enough to show
    # they ran, and skipping the rest halves the time axe takes.
    options = {"runOnly": {"type": "tag", "values": WCAG}, "resultTypes": ["violations"]}
    found = Axe().run(page, context=COPIES, options=options).response
    violations = [
        f"{rule['id']} ({len(rule['nodes'])}): {[' '.join(map(str, n['target'])) for n in rule['nodes'][:5]]}"
        for rule in found["violations"]
    ]
    return AxeVerdict(len(found["passes"]) + len(found["violations"]), violations)


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """artifacts/screenshots/, emptied at the start of the session."""
    shots = artifacts() / "screenshots"
    if shots.exists():
        shutil.rmtree(shots)
    shots.mkdir(parents=True)
    return shots


def shot_name(path: str) -> str:
    return (path.strip("/").replace("/", "__") or "index").removesuffix(".html")


class Recorder:
    """Notes what a tab does into the visit under way: its console errors, failed requests and
    answers over 400. Between visits `visit` is None and the tab goes to about:blank, so what a
    page does as it is left goes unnoted, as when each page had a tab of its own, closed after."""

    def __init__(self, page: Any) -> None:
        self.visit: Visit | None = None
        page.on("console", lambda m: self._note("console_errors", m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self._note("page_errors", str(e)))
        page.on("requestfailed", lambda r: self._note("failed_requests", f"{r.url} ({r.failure})"))
        page.on(
            "response",
            lambda r: self._note("bad_responses", f"{r.status} {r.url}") if r.status >= 400 else None,
        )

    def _note(self, what: str, line: str) -> None:
        if self.visit is None or (what == "bad_responses" and self.visit.path.endswith("404.html")):
            return
        getattr(self.visit, what).append(line)


@pytest.fixture(scope="session")
def visits(site: Site, book_context: Any, screenshots: Path) -> dict[str, Visit]:
    """Every page of the site, opened once: what it logged, fetched, drew, and looked like; last,
    its walk by keyboard."""
    seen: dict[str, Visit] = {}
    page = book_context.new_page()
    recorder = Recorder(page)
    for path in site.pages:
        visit = recorder.visit = seen[path] = Visit(path)
        response = page.goto(site.url + path, wait_until="networkidle")
        visit.status = response.status if response else 0
        page.evaluate("document.fonts.ready")
        found = page.evaluate(INSPECT)
        visit.title = found["title"]
        visit.math, visit.figures = found["math"], found["figures"]
        visit.images, visit.raw_tex = found["images"], found["raw"]
        visit.notebook = found["notebook"]
        visit.listings, visit.sideways, visit.fences = found["listings"], found["sideways"], found["fences"]
        visit.transcripts, visit.misset = found["transcripts"], found["misset"]
        if measured_page(path):
            visit.figure_text = page.evaluate(MEASURE)
        visit.axe = axe_verdict(page)
        visit.screenshot = screenshots / f"{shot_name(path)}.png"
        page.screenshot(path=str(visit.screenshot), full_page=True)
        visit.keyboard = walk_by_tab(page)
        recorder.visit = None
        page.goto("about:blank")
    page.close()
    return seen


# The colour each figure's drawing is shown on: white in both palettes, or its lines are lost.
GROUNDS = """() => [...document.querySelectorAll('figure.attend-figure svg')]
  .map((svg) => getComputedStyle(svg).backgroundColor)"""


@pytest.fixture(scope="session")
def dark_visits(
    site: Site,
    browser: Any,
    browser_context_args: dict[str, Any],
    visits: dict[str, Visit],
    screenshots: Path,
) -> Iterator[dict[str, DarkVisit]]:
    """Every page opened once in the dark palette, as a reader whose system asks for it sees it.

    Each load forgets the palette the one before stored, so that every page takes it from the
    reader's preference alone.
    """
    context = refuse_outside(browser.new_context(**browser_context_args, color_scheme="dark"), site.outside)
    context.add_init_script("localStorage.clear()")
    page = context.new_page()
    seen: dict[str, DarkVisit] = {}
    try:
        for path in site.pages:
            page.goto(site.url + path, wait_until="load")
            palette = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
            visit = seen[path] = DarkVisit(palette, axe_verdict(page))
            if visits[path].figures:
                visit.grounds = page.evaluate(GROUNDS)
                visit.screenshots = shoot_figures(page, screenshots, "dark-{}.png")
        yield seen
    finally:
        context.close()
