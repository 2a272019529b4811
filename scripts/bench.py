"""Time the command as a reader runs it: whole processes, best of several runs.

Not a test: these machines are shared and noisy, so the figures go in notes, never in
assertions. Run it as `python scripts/bench.py` after `pip install -e .`.

  1. `attend cost --lengths 128,256,512,1024` against a plain numpy script doing the same
     projections, scores, softmax and mixing on rows of the same sizes (target: within 1.5x);
  2. every other mode at its defaults (target: under 0.3 s each);
  3. the heaviest runs the command's bound lets through, time and peak memory (target: a
     few seconds and under 1 GiB each): the longest cost row, the book's longest ladder, and
     scale at the limit;
  4. training as the book's build does it (the head and the baseline at the page's settings),
     the seconds of CPU one core spends, with numpy's BLAS held to one thread (target: at most
     10 s), and `attend learn` at its bound, time and peak memory.

`python scripts/bench.py learn` runs part 4 alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAIN_NUMPY = """
import numpy as np
rng = np.random.default_rng(0)
wq, wk, wv = (rng.standard_normal((4, 4)) for _ in range(3))
for n in (128, 256, 512, 1024):
    x = rng.standard_normal((n, 4))
    q, k, v = x @ wq.T, x @ wk.T, x @ wv.T
    s = q @ k.T / 2.0
    e = np.exp(s - s.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    out = a @ v
    print(n, out.sum())
"""

ATTEND = [sys.executable, "-m", "attend"]
# At the bound: 3 x 5773² is just under 100,000,000 numbers, and so is 1000 x (5 x 19996 + 20).
HEAVY = [
    ["cost", "--lengths", "5773"],
    ["cost", "--lengths", ",".join(str(2**p) for p in range(2, 13))],
    ["scale", "--count", "1000", "--widths", "19996"],
    ["scale", "--count", "3999999", "--widths", "1"],
]


ONE_CORE = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
BOOK_TRAINING = (  # every run docs/learning.md trains: the page's pair and its two exercises'
    "import resource, time; start = time.perf_counter(); "
    "from attend import modes; from attend.core.training import DEFAULTS, Settings, train; "
    "modes.learn.table(DEFAULTS); train(Settings(steps=3 * DEFAULTS.steps), attends=False); "
    "modes.learn.table(Settings(d_model=4)); "
    "used = resource.getrusage(resource.RUSAGE_SELF); "
    "print(used.ru_utime + used.ru_stime, time.perf_counter() - start)"
)
LEARN_BOUND = ["learn", "--steps", "2000", "--width", "64"]


def best_of(argv: list[str], runs: int = 5) -> float:
    """The fastest of several runs of a whole process, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def peak_mib(argv: list[str]) -> tuple[float, float]:
    """Seconds and peak resident memory of one run, in a child of its own."""
    probe = (
        "import resource, subprocess, sys, time; start = time.perf_counter(); "
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
        "print(time.perf_counter() - start, "
        "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)"
    )
    done = subprocess.run([sys.executable, "-c", probe, *argv], check=True, capture_output=True, text=True)
    seconds, mib = done.stdout.split()
    return float(seconds), float(mib)


def learning() -> None:
    """Part 4: the book's training on one core, best of three, and `attend learn` at its bound."""
    runs = []
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", BOOK_TRAINING],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, **ONE_CORE},
        )
        runs.append(tuple(map(float, done.stdout.split())))
    cpu, wall = min(runs)
    print(f"the page's training, every run it makes  {cpu:6.2f} s of CPU, {wall:6.2f} s   (target: 10 s)")
    seconds, mib = peak_mib([*ATTEND, *LEARN_BOUND])
    print(f"attend {' '.join(LEARN_BOUND):<32} {seconds:6.2f} s, peak {mib:5.0f} MiB   (bound: 1024 MiB)")


def main() -> None:
    if sys.argv[1:] == ["learn"]:
        learning()
        return
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "plain.py"
        script.write_text(PLAIN_NUMPY)
        plain = best_of([sys.executable, str(script)])
    ours = best_of([*ATTEND, "cost", "--lengths", "128,256,512,1024"])
    print(f"attend cost --lengths 128,256,512,1024   {ours:6.3f} s")
    print(f"plain numpy script, same sizes        {plain:6.3f} s")
    print(f"ratio                                 {ours / plain:6.2f} x   (target: within 1.5x)")
    for mode in ("embeddings", "weights", "project", "square", "scores", "scale", "cost"):
        print(f"attend {mode:<30} {best_of([*ATTEND, mode]):6.3f} s   (target: 0.3 s)")
    for argv in HEAVY:
        seconds, mib = peak_mib([*ATTEND, *argv])
        shown = " ".join(argv) if len(" ".join(argv)) < 40 else " ".join(argv)[:37] + "..."
        print(f"attend {shown:<40} {seconds:6.2f} s, peak {mib:5.0f} MiB   (bound: 1024 MiB)")
    learning()


if __name__ == "__main__":
    main()
