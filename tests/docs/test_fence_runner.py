"""The pages' fences as tests (fence_runner.py): each fence's code runs once, and a failure is
reported where it happened and fails every fence that carries on from it, as before."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

HERE = Path(__file__).resolve().parent
F = "```"


def fence(code: str, continued: bool = True) -> str:
    return f"{F}python{' continuation' if continued else ''}\n{code}\n{F}\n\n"


def test_each_fence_runs_once_and_a_failure_fails_the_fences_that_carry_on_from_it(tmp_path: Path) -> None:
    ran = tmp_path / "ran.txt"
    said = f"open({str(ran)!r}, 'a').write"
    page = tmp_path / "p.md"
    page.write_text(
        "# p\n\n"
        + fence(f"{said}('1')\nx = 1", continued=False)
        + fence(f"{said}('2')\nassert x == 1")
        + fence(f"{said}('3')\nx = 2\nraise ValueError('the third fails')")
        + fence(f"{said}('4')")
        + fence(f"{said}('5')\nassert 'x' not in globals()", continued=False)
        + fence(f"{said}('6')"),
        encoding="utf-8",
    )
    report = tmp_path / "report.xml"
    command = [sys.executable, "-m", "pytest", "-p", "fence_runner", "--markdown-docs", "--noconftest"]
    options = ["-p", "no:cacheprovider", "-o", "addopts=", "--rootdir", str(tmp_path), f"--junitxml={report}"]
    path = os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))  # fence_runner first
    env = {**os.environ, "PYTHONPATH": path}
    subprocess.run([*command, *options, str(page)], cwd=tmp_path, capture_output=True, env=env, check=False)
    cases = ElementTree.parse(report).getroot().iter("testcase")
    failed = {case.get("name", ""): [f.get("message", "") for f in case.iter("failure")] for case in cases}
    assert [bool(messages) for messages in failed.values()] == [False, False, True, True, False, False]
    assert all("the third fails" in m for messages in failed.values() for m in messages)
    # 1, 2 and 3 once each; 4 after the failure runs whole from the top (and stops at 3 again);
    # 5 starts a page's namespace afresh, and 6 carries on from it
    assert ran.read_text(encoding="utf-8") == "123" + "123" + "56"
