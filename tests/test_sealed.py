"""The package needs nothing but numpy and the standard library, and reaches nothing outside.

Run in a fresh interpreter: an audit hook refuses every socket and every new process, then
every mode of the command runs, and the modules the package pulled in are listed.
"""

from __future__ import annotations

import json
import subprocess
import sys

SEALED = r"""
import json, sys

def refuse(event, args):
    if event.startswith(("socket.", "subprocess.", "os.system", "os.exec", "os.spawn",
                         "os.posix_spawn", "os.fork", "urllib.Request")):
        raise RuntimeError(f"sealed: {event}")

before = set(sys.modules)
sys.addaudithook(refuse)
import io, contextlib
import attend.book.cli
from attend.book.registry import modes
quick = {"learn": ["--steps", "5"]}  # every mode at its defaults, learn briefly
runs = [[name, *quick.get(name, [])] for name in modes()]
runs += [["square", "--no-scale"], ["scores", "--no-scale"]]
codes = []
for argv in runs:
    with contextlib.redirect_stdout(io.StringIO()):
        codes.append(attend.book.cli.main(argv))
pulled = {name.partition(".")[0] for name in set(sys.modules) - before}
print(json.dumps({"codes": codes, "pulled": sorted(pulled)}))
"""


def test_every_mode_runs_sealed_on_numpy_and_the_standard_library() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SEALED], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["codes"] and set(result["codes"]) == {0}
    # numpy's compiled extensions register these two Cython runtime modules; no file is imported
    cython = {name for name in result["pulled"] if name.startswith("_cython_") or name == "cython_runtime"}
    outside = set(result["pulled"]) - set(sys.stdlib_module_names) - {"attend", "numpy"} - cython
    assert outside == set(), f"the package imported {sorted(outside)}"
    assert "attend" in result["pulled"] and "numpy" in result["pulled"]


def test_the_seal_does_catch_a_socket() -> None:
    reach_out = SEALED.replace("import attend.book.cli", "import attend.book.cli, socket; socket.socket()")
    done = subprocess.run(
        [sys.executable, "-c", reach_out], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode != 0
    assert "sealed: socket." in done.stderr
