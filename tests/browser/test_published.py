"""The book as GitHub Pages publishes it: addresses from the environment, still nothing fetched.

The Pages workflow builds with BOOK_SITE_URL, BOOK_REPO_URL and BOOK_EDIT_URI set from the
repository it runs in. With a real GitHub address in repo_url, Material's script would ask the
GitHub API for the repository's stars and forks on every page view; overrides/partials/
source.html is what stops it, and this holds it to that.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from book_build import properdocs_build

from scripts.print_book import served

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
FORK = {
    "BOOK_SITE_URL": "https://someone.github.io/attend/",
    "BOOK_REPO_URL": "https://github.com/someone/attend",
    "BOOK_REPO_NAME": "someone/attend",
    "BOOK_EDIT_URI": "edit/trunk/docs/",
}


def test_a_forks_build_links_to_the_fork_and_asks_github_for_nothing(
    tmp_path: Path, open_context: Any, site: Any
) -> None:
    env = {**os.environ, **FORK, "NO_MKDOCS_2_WARNING": "1"}
    done = properdocs_build(ROOT, tmp_path, env)
    assert done.returncode == 0, done.stderr[-3000:]
    before = len(site.outside)
    page = open_context().new_page()
    with served(tmp_path) as url:
        page.goto(url + "score-square/", wait_until="networkidle")
        edit = page.locator("a[rel=edit]").get_attribute("href")
        source = page.locator("a.md-source").first.get_attribute("href")
        canonical = page.locator("link[rel=canonical]").get_attribute("href")
    assert edit == "https://github.com/someone/attend/edit/trunk/docs/score-square.md"
    assert source == FORK["BOOK_REPO_URL"]
    assert canonical == "https://someone.github.io/attend/score-square/"
    assert site.outside[before:] == [], f"the published page asked for {site.outside[before:]}"
