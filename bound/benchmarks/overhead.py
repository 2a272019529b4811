"""What bound-numbers adds to a markdown-exec site's build: the same site built with the plugin
and without it, in turns, and the ratio of the median times.

    python bound/benchmarks/overhead.py [SITE] [--runs 10] [--copies 1]

SITE (default: bound/tests/site, savings compounding monthly) is copied twice into a scratch
folder: once as it is, once with the bound-numbers entry taken out of its mkdocs.yml and every
binding taken out of its pages (`bound_numbers.strip`), so that both builds render the same
pages. `--copies K` makes each page K pages, for a site of more than a few. The builds run
`properdocs build --strict` in turns (with, without, with, ...), `--runs` times each, in a fresh
process each time with the site's folder on PYTHONPATH, as the site's own tests build it. The
target (issue 33): the build with the plugin at most 1.2 times the build without it.

Machines here are shared and noisy: the medians and the spread are printed, not asserted.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bound_numbers import strip

SITE = Path(__file__).resolve().parents[1] / "tests" / "site"
# The plugin's entry under `plugins:`: its line and every line indented under it.
ENTRY = re.compile(
    r"^(?P<indent>[ \t]*)- bound-numbers:?[^\n]*\n(?:(?P=indent)[ \t]+[^\n]*\n)*", re.MULTILINE
)


def prepared(site: Path, scratch: Path, copies: int) -> tuple[Path, Path]:
    """The site with the plugin, and the same site without it, each in a folder of `scratch`."""
    with_plugin = Path(
        shutil.copytree(site, scratch / "with", ignore=shutil.ignore_patterns("built", "__pycache__"))
    )
    for page in sorted((with_plugin / "docs").glob("*.md")):
        for copy in range(2, copies + 1):
            shutil.copyfile(page, page.with_name(f"{page.stem}-{copy}.md"))
    config = (with_plugin / "mkdocs.yml").read_text(encoding="utf-8")
    if copies > 1:  # every page in the build, the nav left to mkdocs
        config = re.sub(r"^nav:\n(?:[ \t]+- [^\n]*\n)*", "", config, flags=re.MULTILINE)
        (with_plugin / "mkdocs.yml").write_text(config, encoding="utf-8")
    without = Path(shutil.copytree(with_plugin, scratch / "without"))
    (without / "mkdocs.yml").write_text(ENTRY.sub("", config), encoding="utf-8")
    for page in (without / "docs").glob("*.md"):
        page.write_text(strip(page.read_text(encoding="utf-8")), encoding="utf-8")
    return with_plugin, without


def built(site: Path) -> float:
    """Seconds one strict build of `site` takes; a failed build stops the benchmark."""
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    environment = {**os.environ, "PYTHONPATH": path, "NO_MKDOCS_2_WARNING": "1"}
    command = [
        sys.executable,
        "-m",
        "properdocs",
        "build",
        "--strict",
        "-q",
        "-f",
        "mkdocs.yml",
        "-d",
        "built",
    ]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=site, env=environment, capture_output=True, text=True, check=False)
    took = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{site.name}: the build failed:\n{done.stderr[-2000:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("site", nargs="?", type=Path, default=SITE)
    parser.add_argument("--runs", type=int, default=10, help="builds of each (default 10)")
    parser.add_argument("--copies", type=int, default=1, help="pages made of each page (default 1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bound-overhead-") as scratch:
        with_plugin, without = prepared(args.site, Path(scratch), args.copies)
        pages = len(list((with_plugin / "docs").glob("*.md")))
        built(with_plugin), built(without)  # once each, unmeasured: the bytecode written
        times: dict[str, list[float]] = {"with": [], "without": []}
        for _ in range(args.runs):
            times["with"].append(built(with_plugin))
            times["without"].append(built(without))
    print(f"{args.site} ({pages} pages), {args.runs} builds of each, in turns")
    for name, taken in times.items():
        spread = f"{min(taken):.2f}-{max(taken):.2f}"
        print(f"  {name:>7} the plugin: median {statistics.median(taken):.2f} s (from {spread} s)")
    ratio = statistics.median(times["with"]) / statistics.median(times["without"])
    print(f"  ratio: {ratio:.2f} (target: at most 1.2)")


if __name__ == "__main__":
    main()
