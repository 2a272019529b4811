"""Building a book as the nox sessions and CI do, for the tests that build one.

The `properdocs` command runs as a separate process (ProperDocs redirects the plugins'
`mkdocs.*` imports to its own modules only when its command starts), so each test that builds
the book (test_site.py, tests/browser) or needs the real engine calls it the same way, through
`properdocs_build`. Only a test that plants a fault inside the build of a small project (a
function replaced, a signal sent at a given step) drives MkDocs' API in its own process, since
only there can it reach into the build. MINIMAL is the smallest project the book's plugins
build: strict, the number check with the book's values and messages, the book's plugin,
markdown-exec running no fences of its own, and superfences.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

MINIMAL = textwrap.dedent(
    """\
    site_name: check
    strict: true
    plugins:
      - bound-numbers:
          values: attend-book
          front_matter: [title, description]
          checklist: see "Add a page" in docs/contributing.md
          hint: "`nox -s renumber` rewrites moved numbers"
      - attend-book
      - markdown-exec:
          languages: []
    markdown_extensions:
      - pymdownx.superfences:
          relaxed_headers: true
    """
)


def properdocs_build(
    project: Path, site: Path, env: Mapping[str, str] | None = None, flags: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    """`properdocs build --strict` of `project`'s mkdocs.yml into `site`, with `flags` (`-q`, say),
    its output kept for the test."""
    command = [sys.executable, "-m", "properdocs", "build", "-f", "mkdocs.yml", "--strict", *flags]
    command += ["--site-dir", str(site)]
    return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, check=False)
