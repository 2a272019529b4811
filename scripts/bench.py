"""Time the command as a reader runs it: whole processes, best of several runs.

Not a test: these machines are shared and noisy, so the figures go in notes, never in
assertions. Run it as `python scripts/bench.py` after `pip install -e .`.

  1. `attend cost --rows 128,256,512,1024` against a plain numpy script doing the same
     projections, scores, softmax and mixing on rows of the same sizes (target: within 3x);
  2. `attend cost --rows 4096`, time and peak memory (target: under 3 s and 1 GiB);
  3. every other mode at its defaults (target: under 0.5 s each).
"""

from __future__ import annotations

import resource
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


def best_of(argv: list[str], runs: int = 5) -> float:
    """The fastest of several runs of a whole process, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def peak_child_mib() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "plain.py"
        script.write_text(PLAIN_NUMPY)
        plain = best_of([sys.executable, str(script)])
    ours = best_of([*ATTEND, "cost", "--rows", "128,256,512,1024"])
    print(f"attend cost --rows 128,256,512,1024   {ours:6.3f} s")
    print(f"plain numpy script, same sizes        {plain:6.3f} s")
    print(f"ratio                                 {ours / plain:6.2f} x   (target: within 3x)")

    big = best_of([*ATTEND, "cost", "--rows", "4096"], runs=3)
    print(
        f"attend cost --rows 4096               {big:6.3f} s, peak {peak_child_mib():.0f} MiB"
        "   (targets: 3 s, 1024 MiB)"
    )
    for mode in ("row", "weights", "project", "square", "scores", "scale", "cost"):
        print(f"attend {mode:<30} {best_of([*ATTEND, mode]):6.3f} s   (target: 0.5 s)")


if __name__ == "__main__":
    main()
