"""The second site, `site/`: savings compounding monthly, with no code of the book anywhere, built
by the installed ProperDocs with markdown-exec and bound-numbers (`values: fences`).

Each test builds a copy of the site strict, once, and holds the build's outcome and the set of
warning lines it logged against what the change made to the copy must produce: nothing for the
site as it is; one line naming the place for a wrong number, word, worked sum, given or label,
a missing front-matter key or a fence that fails; and, for a rate changed in the package, a
failed build naming exactly the lines that `bound-numbers renumber` then rewrites, after which
the build passes again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

SITE = Path(__file__).parent / "site"
BIN = Path(sys.executable).parent  # the installed commands, beside the Python running the tests
HINT = "  (`bound-numbers renumber` rewrites moved numbers)"  # said beside the first moved number
PLUGIN = "bound_numbers: "  # what the plugin's logger puts before each of its lines
LEVELS = ("WARNING", "ERROR")
LIMIT = 300  # seconds a build may take before the test fails instead of waiting


@dataclass(frozen=True)
class Build:
    """How a build ended, and each warning or error it logged, as the line it logged."""

    status: int
    said: frozenset[str]


def command(name: str) -> str:
    found = BIN / name
    assert found.exists(), f"{name} is not installed beside {sys.executable}"
    return str(found)


def run(folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """A command in the site's folder, the site's package importable as an installed one is."""
    path = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    environment = {**os.environ, "PYTHONPATH": path, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        argv, cwd=folder, env=environment, capture_output=True, text=True, timeout=LIMIT, check=False
    )


def build(folder: Path) -> Build:
    done = run(folder, command("properdocs"), "build", "--strict", "-f", "mkdocs.yml", "-d", "built")
    said = set()
    for line in done.stderr.splitlines():  # "WARNING -  docs/index.md:12:5: ..."
        level, _, message = line.partition("-  ")
        if level.strip() in LEVELS:
            said.add(message)
    return Build(done.returncode, frozenset(said))


def copy(destination: Path) -> Path:
    return Path(
        shutil.copytree(SITE, destination / "site", ignore=shutil.ignore_patterns("built", "__pycache__"))
    )


def place(folder: Path, page: str, text: str, offset: int = 0) -> str:
    """`page:line:column` of the one place `text` is written on the page, `offset` into it."""
    source = (folder / page).read_text(encoding="utf-8")
    assert source.count(text) == 1, f"{text!r} is not written exactly once on {page}"
    at = source.index(text) + offset
    line = source.count("\n", 0, at) + 1
    return f"{page}:{line}:{at - source.rfind(chr(10), 0, at)}"


def edit(folder: Path, page: str, old: str, new: str, offset: int = 0) -> str:
    """Write `new` where `old` is written (once) on the page; the place it is written, `offset`
    into it (where the number a message names starts)."""
    where = place(folder, page, old, offset)
    path = folder / page
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return where


@pytest.fixture(scope="session")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the site as committed, built once: what the tests that change nothing read."""
    return copy(tmp_path_factory.mktemp("pristine"))


@pytest.fixture(scope="session")
def pristine_build(pristine: Path) -> Build:
    return build(pristine)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return copy(tmp_path)


def test_the_site_as_written_builds_strict_with_nothing_to_say(pristine_build: Build) -> None:
    assert pristine_build == Build(0, frozenset())


def test_the_reader_sees_each_number_and_no_binding(pristine: Path, pristine_build: Build) -> None:
    assert pristine_build.status == 0
    built = {page.relative_to(pristine / "built").as_posix() for page in (pristine / "built").rglob("*.html")}
    assert {"index.html", "year/index.html", "doubling/index.html"} <= built
    assert not [page for page in built if "{=" in (pristine / "built" / page).read_text(encoding="utf-8")]
    page = (pristine / "built" / "index.html").read_text(encoding="utf-8")
    assert "1,061.68:" in page  # the balance at the close of the year, as written
    description = "What a deposit earns when the bank pays a share of 6% every month."
    assert f'<meta name="description" content="{description}">' in page  # front matter too


def test_a_wrong_number_fails_the_build_naming_it(site: Path) -> None:
    where = edit(site, "docs/index.md", "1,061.68{= grown[-1]}:", "1,061.69{= grown[-1]}:")
    said = f"{PLUGIN}{where}: 1,061.69 is written, 1,061.68 is computed now, bound to {{= grown[-1]}}{HINT}"
    assert build(site) == Build(1, frozenset({said}))


def test_a_wrong_number_word_fails_the_build_naming_it(site: Path) -> None:
    where = edit(site, "docs/index.md", "twelve{= MONTHS}", "eleven{= MONTHS}")
    said = f"{PLUGIN}{where}: eleven is written, twelve is computed now, bound to {{= MONTHS}}{HINT}"
    assert build(site) == Build(1, frozenset({said}))


def test_a_worked_sum_that_does_not_hold_fails_the_build(site: Path) -> None:
    edit(site, "docs/index.md", "= 5{= deposit * rate}", "= 6{= deposit * rate}")
    where = place(site, "docs/index.md", "6{= deposit * rate}")
    assert build(site) == Build(
        1,
        frozenset(
            {
                f"{PLUGIN}{where}: 6 is written, 5 is computed now, bound to {{= deposit * rate}}{HINT}",
                f"{PLUGIN}{where}: 1,000 × 0.005 = 6 does not hold: the written operands give 5.00; "
                "show more digits, or write ≈",
            }
        ),
    )


def test_a_given_written_other_than_declared_fails_the_build(site: Path) -> None:
    where = edit(site, "docs/doubling.md", "72{= rule}", "73{= rule}")
    said = f"{PLUGIN}{where}: 73 is written, 72 is computed now, bound to {{= rule}}{HINT}"
    assert build(site) == Build(1, frozenset({said}))


def test_a_label_past_its_range_fails_the_build(site: Path) -> None:
    where = edit(site, "docs/index.md", "month 12", "month 13", offset=len("month "))
    said = f"{PLUGIN}{where}: month 13 is out of range: month counts from 1 to 12 (MONTHS)"
    assert build(site) == Build(1, frozenset({said}))


def test_a_label_in_a_table_column_past_its_range_fails_the_build(site: Path) -> None:
    where = edit(site, "docs/year.md", "| 12 |", "| 14 |", offset=len("| "))
    said = f"{PLUGIN}{where}: month 14 is out of range: month counts from 1 to 12 (MONTHS)"
    assert build(site) == Build(1, frozenset({said}))


def test_a_page_without_a_front_matter_key_the_site_requires_fails_the_build(site: Path) -> None:
    edit(
        site,
        "docs/year.md",
        "description: The balance at the close of each of the twelve{= MONTHS} months.\n",
        "",
    )
    said = f"{PLUGIN}docs/year.md:1: the front matter has no description"
    assert build(site) == Build(1, frozenset({said}))


def test_a_fence_that_fails_is_one_line_naming_it_and_the_build_fails(site: Path) -> None:
    where = edit(site, "docs/doubling.md", "years = months / MONTHS", "years = months / 0")
    line = where.split(":")[1]
    built = build(site)
    ours = {said for said in built.said if said.startswith(PLUGIN)}  # markdown-exec says its own
    failed = "a python fence failed at `years = months / 0`: ZeroDivisionError: division by zero"
    assert (built.status, ours) == (1, {f"{PLUGIN}docs/doubling.md:{line}: {failed}"})


def test_a_fence_that_fails_on_a_page_with_labels_is_still_one_line(site: Path) -> None:
    """A label's range is the page's code's too: with that code failed, the failure is the
    page's one line, not one more for each range it could not work out."""
    where = edit(site, "docs/index.md", "rate = monthly_rate()", "rate = monthly_rate() / 0")
    line = where.split(":")[1]
    built = build(site)
    ours = {said for said in built.said if said.startswith(PLUGIN)}
    failed = "a python fence failed at `rate = monthly_rate() / 0`: ZeroDivisionError: float division by zero"
    assert (built.status, ours) == (1, {f"{PLUGIN}docs/index.md:{line}: {failed}"})


def _lines(folder: Path) -> dict[tuple[str, int], str]:
    """Each line of each page, by page and line number."""
    return {
        (f"docs/{page.name}", number): line
        for page in sorted((folder / "docs").glob("*.md"))
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
    }


def test_a_moved_number_fails_the_build_until_renumber_rewrites_it(site: Path) -> None:
    package = site / "compound.py"
    package.write_text(package.read_text(encoding="utf-8").replace("RATE = 0.06", "RATE = 0.12"), "utf-8")
    before = _lines(site)
    failed = build(site)
    renumbered = run(site, command("bound-numbers"), "renumber", "-f", "mkdocs.yml")
    after = _lines(site)
    rewritten = {where for where, line in after.items() if before[where] != line}
    named = {(page, int(line)) for page, line, *_ in (s.removeprefix(PLUGIN).split(":") for s in failed.said)}
    assert failed.status == 1
    assert renumbered.returncode == 0, renumbered.stdout + renumbered.stderr
    assert named == rewritten  # the build named exactly the lines renumber rewrote, no other
    assert after.keys() == before.keys()  # no line added or taken away
    assert "RATE = 0.12" in package.read_text(encoding="utf-8")  # the code is left as it was changed
    assert "at 12%{= 100 * RATE} a year" in (site / "docs/index.md").read_text("utf-8")  # as rewritten
    assert build(site) == Build(0, frozenset())
    again = run(site, command("bound-numbers"), "renumber", "-f", "mkdocs.yml")
    assert (again.returncode, _lines(site)) == (0, after)  # a second run has nothing to rewrite


def test_a_page_markdown_exec_renders_runs_its_code_once_in_a_build(site: Path) -> None:
    """The check takes its values from markdown-exec's run of the page, not from a second run
    of its own (which once doubled the build's time)."""
    page = site / "docs" / "doubling.md"
    counting = 'with open("runs.log", "a") as log:\n    log.write("ran\\n")'
    counting = f'\n```python exec="on" session="doubling"\n{counting}\n```\n'
    page.write_text(page.read_text(encoding="utf-8") + counting, encoding="utf-8")
    assert build(site) == Build(0, frozenset())
    assert (site / "runs.log").read_text(encoding="utf-8") == "ran\n"
