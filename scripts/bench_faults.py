"""Time the two faults issue 28 found hanging the build, as the build now meets them.

    .nox/docs/bin/python scripts/bench_faults.py [--skip-workbench]

* output: a fence printing 100 MB at once, which the build stops at its output limit (8 MB);
  then fences printing 25, 50 and 100 MB with the limit raised past them, so the report is read
  whole: its time should grow with its size, not with its square.
* workbench: a workbench cell that sleeps for ever, under the book's `time_limit` (30 s).

Figures go in the issue notes; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from attend_book import workbench
from attend_book.page import OUTPUT_LIMIT, TIME_LIMIT
from attend_book.run import run_page
from bound_numbers import Unavailable

FENCE = "```"


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-workbench", action="store_true")
    arguments = parser.parse_args()
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
