"""Time the faults issues 28 and 34 found hanging the build, as the build now meets them.

    .nox/docs/bin/python scripts/bench_faults.py [--skip-workbench] [--book-output [SIZE ...]] [--stop S]

* output: a fence printing 100 MB at once, which the build stops at its output limit (8 MB);
  then fences printing 25, 50 and 100 MB with the limit raised past them, so the report is read
  whole: its time should grow with its size, not with its square.
* workbench: a workbench cell that sleeps for ever, under the book's `time_limit` (30 s).
* book output (with --book-output, instead of the above): the book's strict build, whole-book page
  and all, with a last workbench cell printing SIZE characters without a space (default 100 KB
  and 1 MB; `properdocs build` with the cache warm, so what is timed is the workbench run again
  and everything after it), stopped at S seconds (600). docs/workbench.py is put back after each.

Figures go in the issue notes; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from attend_book import workbench
from attend_book.page import OUTPUT_LIMIT, TIME_LIMIT
from attend_book.run import run_page
from bound_numbers import Unavailable

FENCE = "```"
ROOT = Path(__file__).resolve().parents[1]


def page(body: str) -> str:
    return f'---\ntitle: t\n---\n\n{FENCE}python exec="1"\n{body}\n{FENCE}\n'


def timed_page(body: str, most: int = OUTPUT_LIMIT) -> tuple[float, str]:
    """Seconds to run the page, and what became of it (its first line)."""
    start = time.perf_counter()
    try:
        ran = run_page("docs/p.md", page(body), most=most)
        said = f"shown: {len(ran.blocks[0].text) / 1e6:.0f} MB"
    except Unavailable as error:
        said = str(error).splitlines()[0]
    return time.perf_counter() - start, said


def book_output(size: int, stop: float) -> str:
    """The book's strict build with the workbench's last cell printing `size` characters and no
    space: its seconds, or that it was stopped."""
    script = ROOT / "docs" / "workbench.py"
    kept = script.read_text(encoding="utf-8")
    command = [sys.executable, "-m", "properdocs", "build", "-q", "-f", "mkdocs.yml", "--strict"]
    with tempfile.TemporaryDirectory() as site:
        command += ["--site-dir", site]
        subprocess.run(command, cwd=ROOT, capture_output=True, check=False)  # the cache warm
        try:
            script.write_text(f"{kept}\n# %%\nprint('x' * {size})\n", encoding="utf-8")
            start = time.perf_counter()
            try:
                done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=stop)
            except subprocess.TimeoutExpired:
                return f"stopped at {stop:g} s"
            said = "built" if done.returncode == 0 else f"failed: {done.stdout.strip().splitlines()[-1:]}"
            return f"{time.perf_counter() - start:.1f} s ({said})"
        finally:
            script.write_text(kept, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-workbench", action="store_true")
    parser.add_argument("--book-output", type=int, nargs="*", metavar="SIZE")
    parser.add_argument("--stop", type=float, default=600.0, help="seconds a --book-output build may take")
    arguments = parser.parse_args()
    if arguments.book_output is not None:
        for size in arguments.book_output or [100_000, 1_000_000]:
            said = book_output(size, arguments.stop)
            print(f"the book with a workbench cell printing {size:,} characters, no space: {said}")
        return
    seconds, said = timed_page("print('x' * 100_000_000)")
    print(f"100 MB printed at once, the build's limit: {seconds:.2f} s  ({said})")
    for size in (25, 50, 100):
        seconds, said = timed_page(f"print('x' * {size}_000_000)", most=200_000_000)
        print(f"{size} MB printed, limit raised to 200 MB: {seconds:.2f} s  ({said})")
    if arguments.skip_workbench:
        return
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder, "bench.py")
        script.write_text("# %%\nimport time\n\n# %%\ntime.sleep(600)\n", encoding="utf-8")
        start = time.perf_counter()
        try:
            workbench.execute(script, Path(folder, "bench.ipynb"), limit=TIME_LIMIT, shown="docs/bench.py")
        except Unavailable as error:
            said = str(error)
        print(f"a workbench cell that hangs: {time.perf_counter() - start:.2f} s  ({said})")


if __name__ == "__main__":
    main()
