"""What bound-numbers adds to a site's build: the same site built with the plugin and without
it, in turns, and the ratio of the median times.

    python bound/benchmarks/overhead.py [SITE] [--runs 10] [--copies 1] [--path FOLDER ...]

SITE (default: bound/tests/site, savings compounding monthly, rendered by markdown-exec; or a
site of notebooks shown by mkdocs-jupyter, such as bound/tests/notebook_site with
`execute: true`) is copied twice into a scratch folder: once as it is, once with the
bound-numbers entry taken out of its configuration (mkdocs.yml or properdocs.yml) and every
binding taken out of its pages and its notebooks' Markdown cells, so that both builds render the
same pages. Without the plugin, markdown-exec runs a page's fences, and mkdocs-jupyter, where
the configuration says `execute: true`, runs each notebook; with it, the check's run of each is
the one the page shows. `--copies K` makes each Markdown page K pages, for a site of more than a
few. The builds run `properdocs build --strict` in turns (with, without; then without, with;
...), `--runs` times each, in a fresh process each time with the site's folder (and each
`--path` folder of it) on PYTHONPATH, as the site's own tests build it. The target (issue 33):
the build with the plugin at most 1.2 times the build without it.

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
from bound_numbers.notebooks import stripped

SITE = Path(__file__).resolve().parents[1] / "tests" / "site"
CONFIGS = ("mkdocs.yml", "properdocs.yml")
# The plugin's entry under `plugins:`: its line and every line indented under it.
ENTRY = re.compile(
    r"^(?P<indent>[ \t]*)- bound-numbers:?[^\n]*\n(?:(?P=indent)[ \t]+[^\n]*\n)*", re.MULTILINE
)


def configuration(site: Path) -> str:
    """The name of the site's configuration file."""
    return next(name for name in CONFIGS if (site / name).is_file())


def prepared(site: Path, scratch: Path, copies: int) -> tuple[Path, Path]:
    """The site with the plugin, and the same site without it, each in a folder of `scratch`."""
    ignored = shutil.ignore_patterns("built", "site", "__pycache__", ".cache")
    with_plugin = Path(shutil.copytree(site, scratch / "with", ignore=ignored))
    for page in sorted((with_plugin / "docs").glob("*.md")):
        for copy in range(2, copies + 1):
            shutil.copyfile(page, page.with_name(f"{page.stem}-{copy}.md"))
    name = configuration(with_plugin)
    config = (with_plugin / name).read_text(encoding="utf-8")
    if copies > 1:  # every page in the build, the nav left to mkdocs
        config = re.sub(r"^nav:\n(?:[ \t]+- [^\n]*\n)*", "", config, flags=re.MULTILINE)
        (with_plugin / name).write_text(config, encoding="utf-8")
    without = Path(shutil.copytree(with_plugin, scratch / "without"))
    (without / name).write_text(ENTRY.sub("", config), encoding="utf-8")
    for page in (without / "docs").rglob("*.md"):
        page.write_text(strip(page.read_text(encoding="utf-8")), encoding="utf-8")
    for notebook in (without / "docs").rglob("*.ipynb"):
        notebook.write_text(stripped(notebook.read_text(encoding="utf-8")), encoding="utf-8")
    return with_plugin, without


def built(site: Path, paths: list[str]) -> float:
    """Seconds one strict build of `site` takes; a failed build stops the benchmark."""
    folders = [str(site), *(str(site / path) for path in paths), os.environ.get("PYTHONPATH")]
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, folders)),
        "NO_MKDOCS_2_WARNING": "1",
    }
    command = [
        sys.executable,
        "-m",
        "properdocs",
        "build",
        "--strict",
        "-q",
        "-f",
        configuration(site),
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
    parser.add_argument(
        "--path", action="append", default=[], help="a folder of the site put on PYTHONPATH too (repeatable)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bound-overhead-") as scratch:
        with_plugin, without = prepared(args.site, Path(scratch), args.copies)
        docs = with_plugin / "docs"
        pages = len([*docs.rglob("*.md"), *docs.rglob("*.ipynb")])
        built(with_plugin, args.path), built(without, args.path)  # once each, unmeasured: bytecode, caches
        times: dict[str, list[float]] = {"with": [], "without": []}
        for run in range(args.runs):
            for name in ("with", "without") if run % 2 == 0 else ("without", "with"):
                times[name].append(built(with_plugin if name == "with" else without, args.path))
    print(f"{args.site} ({pages} pages), {args.runs} builds of each, in turns")
    for name, taken in times.items():
        spread = f"{min(taken):.2f}-{max(taken):.2f}"
        print(f"  {name:>7} the plugin: median {statistics.median(taken):.2f} s (from {spread} s)")
    ratio = statistics.median(times["with"]) / statistics.median(times["without"])
    print(f"  ratio: {ratio:.2f} (target: at most 1.2)")


if __name__ == "__main__":
    main()
