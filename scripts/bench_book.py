"""Time the writer's loop and the book's builds, as a contributor meets them.

    python scripts/bench_book.py [--repo PATH] [--runs N] [--page PAGE] [--fresh] [--tests]

* serve: `nox -s serve` running, a one-word prose edit is written to a page's title (PAGE,
  default docs/score-square.md, whose source the contributors' page quotes, so that page runs
  again too); the time until the served page shows it (polled over HTTP every 20 ms). Then the
  edit is undone.
* warm docs: `nox -R -s docs` after a build with nothing changed, as whole processes.
* fresh docs (with --fresh): a new clone of the repository's HEAD and its first `nox -s docs`.
* tests (with --tests, instead of the above): `nox -R -s tests -p 3.11` after a warm build, in
  CPU seconds (user + system time of every process it started, as `/usr/bin/time` counts
  them: what a machine shared with other work still measures fairly), wall seconds, and the
  lines its log holds.

`--repo` measures another checkout (an older commit in a worktree, say) the same way. Figures
go in the issue notes; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

PAGE = "docs/score-square.md"


def nox(repo: Path, *args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "nox", *args]
    return subprocess.run(command, cwd=repo, capture_output=True, text=True, check=True, **kwargs)  # type: ignore[call-overload, no-any-return]


def timed(repo: Path, *args: str) -> float:
    start = time.perf_counter()
    nox(repo, *args)
    return time.perf_counter() - start


def tests_run(repo: Path) -> str:
    """`nox -R -s tests -p 3.11` once: its CPU seconds, wall seconds and log lines, as a line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = nox(repo, "-R", "-s", "tests", "-p", "3.11")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    lines = len(done.stdout.splitlines()) + len(done.stderr.splitlines())
    return f"nox -R -s tests -p 3.11: {cpu:.1f} CPU s (user + sys), {wall:.1f} s wall, {lines} lines"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def served(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return str(answer.read().decode("utf-8"))
    except OSError:
        return ""


def wait_for(url: str, marker: str, limit: float = 120.0, *, shown: bool = True) -> float:
    """Seconds until the page at `url` contains `marker` (with `shown=False`: no longer does)."""
    start = time.perf_counter()
    while (marker in served(url)) != shown:
        if time.perf_counter() - start > limit:
            raise TimeoutError(f"{url} never {'showed' if shown else 'stopped showing'} {marker!r}")
        time.sleep(0.02)
    return time.perf_counter() - start


def saved(page: Path, text: str, repo: Path) -> None:
    """`text` saved to `page` whole, as an editor saves it: written to a file of its own (in the
    repository, where the server watches nothing) and moved over it. Written in place, the server
    could read the page half written (no front matter, a fence cut), fail that rebuild in strict
    mode and wait for the next: a second or two more, in one edit of three."""
    beside = repo / f".{page.name}.saving"
    beside.write_text(text, encoding="utf-8")
    os.replace(beside, page)


def serve_edits(repo: Path, runs: int, edited: str = PAGE) -> list[float]:
    """Seconds from writing a prose edit to the page `edited` to the served page showing it,
    once per run."""
    page = repo / edited
    original = page.read_text(encoding="utf-8")
    # the page's title: prose on every page, whatever its sentences say this year
    title = next(line for line in original.splitlines() if line.startswith("# "))
    port = free_port()
    url = f"http://127.0.0.1:{port}/{'' if page.stem == 'index' else page.stem + '/'}"
    server = subprocess.Popen(
        [sys.executable, "-m", "nox", "-R", "-s", "serve", "--", "-a", f"127.0.0.1:{port}"],
        cwd=repo,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    times = []
    try:
        wait_for(url, "</html>", limit=600)
        for n in range(runs):
            marker = f"benchmarkword{n}x"
            saved(page, original.replace(title, f"{title} {marker}", 1), repo)
            times.append(wait_for(url, marker))
            saved(page, original, repo)
            # Let the rebuild that undoes the edit finish: the served page shows its title again
            # without the word. An edit saved while that rebuild still ran would be read by it,
            # if the page comes after the slow one in its order, and shown sooner than any
            # rebuild of its own could show it (0.4 s against 1.9 s for score-square.md, whose
            # source the contributors' page reads and runs again for). Then a pause: polling
            # (attend-book's `watch: polling`) looks for changes every 0.5 s, and a pause drawn
            # at random lands the next edit anywhere in that cycle, as a writer's do.
            wait_for(url, marker, shown=False)
            time.sleep(0.5 + random.uniform(0.0, 0.5))
    finally:
        page.write_text(original, encoding="utf-8")
        os.killpg(server.pid, 15)
        server.wait()
    return times


def report(name: str, times: list[float]) -> None:
    shown = ", ".join(f"{t:.2f}" for t in times)
    print(f"{name}: best {min(times):.2f} s, median {statistics.median(times):.2f} s ({shown})")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--page", default=PAGE, help=f"the page the serve edit is made to (default {PAGE})")
    parser.add_argument("--fresh", action="store_true", help="also time a fresh clone's first nox -s docs")
    parser.add_argument("--tests", action="store_true", help="time nox -s tests (CPU seconds) instead")
    args = parser.parse_args()
    repo = args.repo.resolve()
    nox(repo, "-s", "docs")  # environments made, cache filled: what "warm" means
    if args.tests:
        nox(repo, "-s", "tests", "-p", "3.11", "--install-only")
        for _ in range(args.runs):
            print(tests_run(repo))
        return
    report("warm nox -R -s docs", [timed(repo, "-R", "-s", "docs") for _ in range(args.runs)])
    report(f"serve: prose edit to {args.page} shown", serve_edits(repo, args.runs, args.page))
    if args.fresh:
        with tempfile.TemporaryDirectory() as folder:
            clone = Path(folder) / "clone"
            subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
            report("fresh clone: first nox -s docs", [timed(clone, "-s", "docs")])


if __name__ == "__main__":
    main()
