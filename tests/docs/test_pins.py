"""`nox -s pins`: each failing pinned test on its own lines, the value it holds and the value the
code gives now, taken from the failing comparison (tests/conftest.py), not from printed text."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

from tree import ROOT

PINNED = """import pytest

pytestmark = pytest.mark.pins_chapter


def test_a_score(run):
    assert run.raw[1, 0] == 3.5


def test_a_row(run):
    assert run.raw[1].tolist() == pytest.approx([3.125, 0, 0.7, 0], abs=1e-12)


def test_a_refusal():
    assert not "refused"


def test_kept(run):
    assert run.raw.size == 16
"""
UNPINNED = "def test_unpinned_is_not_told(run):\n    assert run.raw[1, 0] == 4\n"


def test_each_failing_pin_gives_its_place_the_value_it_holds_and_the_value_computed(tmp_path: Path) -> None:
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_pinned.py").write_text(PINNED, encoding="utf-8")
    (tmp_path / "test_other.py").write_text(UNPINNED, encoding="utf-8")
    report = tmp_path / "report.xml"
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts="]
    subprocess.run([*command, f"--junitxml={report}"], cwd=tmp_path, capture_output=True, check=False)
    told = {
        case.get("name"): [p.get("value") for p in case.iter("property") if p.get("name") == "pins_chapter"]
        for case in ElementTree.parse(report).getroot().iter("testcase")
    }
    assert told == {
        "test_a_score": ["test_pinned.py:7: test_a_score\n  expected 3.5\n  obtained 3.125"],
        "test_a_row": [
            "test_pinned.py:11: test_a_row\n  expected [3.125, 0, 0.7, 0]\n  obtained [3.125, 0.0, 0.75, 0.0]"
        ],
        "test_a_refusal": ["test_pinned.py:15: test_a_refusal\n  AssertionError: assert not 'refused'"],
        "test_kept": [],
        "test_unpinned_is_not_told": [],
    }
