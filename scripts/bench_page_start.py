"""Time what a page's own process costs before its code runs, as the build starts one per page.

    .nox/docs/bin/python scripts/bench_page_start.py [--runs N]

A one-fence page with one binding, run by `run_page` N times (default 15): the median wall time
of a run, and how many modules the page's process had loaded when its fence ran. To measure
another version of the plugin, put its `book/` folder first on PYTHONPATH (the page's process
inherits it): `PYTHONPATH=OTHER/book .nox/docs/bin/python scripts/bench_page_start.py`.
Figures go in the issue notes; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

import attend_book
from attend_book.run import run_page
from bound_numbers import Asked

F = "```"
PAGE = f'{F}python exec="1"\nimport sys\nprint(len(sys.modules))\n{F}\n\nIt is 1{{= 1}}.\n'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="how many times the page is run")
    runs = parser.parse_args().runs
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        ran = run_page("docs/p.md", PAGE, [Asked("1", 6)])
        times.append(time.perf_counter() - start)
    print(f"plugin: {attend_book.__file__}")
    print(f"a page's run: median {statistics.median(times) * 1000:.0f} ms over {runs} runs")
    print(f"modules loaded in the page's process: {ran.blocks[0].text.strip()}")


if __name__ == "__main__":
    main()
