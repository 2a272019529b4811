"""Print the whole book to one PDF with Debian's headless Chromium.

The site's print_page/ (mkdocs-print-site-plugin) holds every page of the book, one after
another, each starting on a new sheet. This serves the built site on 127.0.0.1, opens that
page in the same Chromium the browser tests drive, refuses every request that would leave
the machine (and fails if there was one), and saves the PDF into the site, where the home
page links to it.

`nox -s pdf` prints with these same functions from its tests (tests/browser/test_pdf.py), in
the Chromium they drive: one browser and one load of the print page, for the print and for
the checks of that page, where a run of this script beside them started a second of each.

    python scripts/print_book.py site            # writes site/attend.pdf
    python scripts/print_book.py site --out book.pdf
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HOST = "127.0.0.1"
MARGIN_MM = {"top": 16, "bottom": 18, "left": 14, "right": 14}  # the sheet's margins, which tests read
PDF_NAME = "attend.pdf"  # the name mkdocs.yml's print-site `path_to_pdf` and the home page use
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str:
    return os.environ.get("ATTEND_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def served(root: Path) -> Iterator[str]:
    """`root` served on 127.0.0.1 only, for as long as the block runs; yields its address."""
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
                    raise RuntimeError(f"the site server on {url} never answered") from None
                time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def is_local(url: str) -> bool:
    """Whether a request stays on this machine: 127.0.0.1, or data the page already holds."""
    parts = urlsplit(url)
    return parts.scheme in ("data", "blob", "about", "javascript") or parts.hostname == HOST


def refuse_outside(context: Any, outside: list[str]) -> Any:
    """Refuse every request of a browser context that would leave 127.0.0.1, noting it."""

    def route(route: Any) -> None:
        if is_local(route.request.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort("blockedbyclient")

    context.route("**/*", route)
    return context


def open_print_page(context: Any, url: str) -> Any:
    """The print page of the site at `url`, loaded in a new tab of `context` with its fonts."""
    page = context.new_page()
    page.goto(url + "print_page/", wait_until="networkidle")
    page.evaluate("document.fonts.ready")
    return page


def save_pdf(page: Any, out: Path) -> None:
    """The page as a printer gets it (print media) saved to `out`: A4 sheets with MARGIN_MM, an
    outline of its headings, tagged. print-site's stylesheet numbers the pages. Every folded
    block (an exercise's answer, `<details>`) is opened first, since paper cannot be clicked:
    Material opens them on the browser's `beforeprint` event, which printing to PDF here does
    not fire."""
    page.emulate_media(media="print")
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    out.parent.mkdir(parents=True, exist_ok=True)
    page.pdf(
        path=str(out),
        format="A4",
        print_background=True,
        margin={side: f"{mm}mm" for side, mm in MARGIN_MM.items()},
        outline=True,
        tagged=True,
    )


def print_pdf(browser: Any, url: str, out: Path) -> list[str]:
    """Print the print page of the site at `url` to `out` with `browser` (a Playwright Browser).

    Returns every request that would have left 127.0.0.1; each was refused.
    """
    outside: list[str] = []
    context = refuse_outside(browser.new_context(service_workers="block"), outside)
    try:
        save_pdf(open_print_page(context, url), out)
    finally:
        context.close()
    return outside


def print_book(site: Path, out: Path) -> list[str]:
    """Serve `site`, print its print_page/ to `out` in a Chromium of its own; see `print_pdf`."""
    from playwright.sync_api import sync_playwright

    if not (site / "print_page" / "index.html").exists():
        raise FileNotFoundError(f"{site}/print_page/index.html: build the site first (nox -s docs)")
    with served(site) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        try:
            return print_pdf(browser, url, out)
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print the built book to one PDF.")
    parser.add_argument("site", type=Path, help="the built site (mkdocs build's site_dir)")
    parser.add_argument("--out", type=Path, help=f"where to write the PDF (default SITE/{PDF_NAME})")
    args = parser.parse_args(argv)
    out = args.out or args.site / PDF_NAME
    try:
        outside = print_book(args.site, out)
    except (OSError, RuntimeError) as problem:
        print(f"print_book: {problem}", file=sys.stderr)
        return 1
    if outside:
        print(f"print_book: the print page asked for {sorted(set(outside))}", file=sys.stderr)
        out.unlink(missing_ok=True)
        return 1
    print(f"print_book: {out} ({out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
