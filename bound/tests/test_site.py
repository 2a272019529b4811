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
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from bound_numbers.reading_cache import FOLDER as READINGS
from bound_numbers.watched import SHOWN_UNREAD, UNSHOWN

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


# A hook a site might load that silences the plugin's logger (as a logging configuration can).
SILENCING = {
    "raised": "logging.getLogger('properdocs.plugins.bound_numbers').setLevel(logging.CRITICAL)",
    "disabled": "logging.getLogger('properdocs.plugins.bound_numbers.plugin').disabled = True",
    "not propagated": "logging.getLogger('properdocs.plugins').propagate = False",
}


def quiet_build(folder: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return run(folder, command("properdocs"), "build", *flags, "-f", "mkdocs.yml", "-d", "built")


@pytest.mark.parametrize(
    "how", ["-q", "strict: true and -q", "-v", *SILENCING], ids=lambda how: how.replace(" ", "-")
)
def test_a_wrong_number_fails_a_strict_build_whatever_the_log_level_and_is_said_in_its_one_line(
    site: Path, how: str
) -> None:
    where = edit(site, "docs/index.md", "1,061.68{= grown[-1]}:", "1,061.69{= grown[-1]}:")
    flags = ["--strict"]
    if how == "strict: true and -q":
        config = site / "mkdocs.yml"
        config.write_text("strict: true\n" + config.read_text(encoding="utf-8"), encoding="utf-8")
        flags = ["-q"]
    elif how in SILENCING:
        (site / "hook.py").write_text(f"import logging\n\n{SILENCING[how]}\n", encoding="utf-8")
        config = site / "mkdocs.yml"
        config.write_text(config.read_text(encoding="utf-8") + "hooks:\n  - hook.py\n", encoding="utf-8")
    else:
        flags.append(how)
    done = quiet_build(site, *flags)
    said = f"{PLUGIN}{where}: 1,061.69 is written, 1,061.68 is computed now, bound to {{= grown[-1]}}{HINT}"
    assert done.returncode == 1, done.stderr
    assert f"WARNING -  {said}" in done.stderr.splitlines()  # printed as the log prints it, even under -q


def test_the_site_as_written_builds_strict_and_quiet_with_nothing_said(pristine: Path) -> None:
    done = quiet_build(pristine, "--strict", "-q")
    assert (done.returncode, done.stderr) == (0, "")


def test_the_command_finds_a_properdocs_yml_or_a_mkdocs_yml_where_it_runs(site: Path) -> None:
    checked = run(site, command("bound-numbers"), "check")
    assert (checked.returncode, checked.stdout, checked.stderr) == (0, "", "")
    (site / "mkdocs.yml").rename(site / "properdocs.yml")
    where = edit(site, "docs/index.md", "1,061.68{= grown[-1]}:", "1,061.69{= grown[-1]}:")
    checked = run(site, command("bound-numbers"), "check")
    assert checked.returncode == 1 and checked.stdout.startswith(f"{where}: 1,061.69 is written")
    (site / "properdocs.yml").unlink()
    none = run(site, command("bound-numbers"), "renumber")
    assert (none.returncode, none.stderr) == (
        2,
        "renumber: no properdocs.yml or mkdocs.yml here: name the site's with -f\n",
    )


def test_the_command_says_its_version() -> None:
    from importlib import metadata

    done = subprocess.run(
        [command("bound-numbers"), "--version"], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (0, f"bound-numbers {metadata.version('bound-numbers')}\n")


README = Path(__file__).parents[1] / "README.md"
# A fence of README's quick start that names the file it is (`title="docs/savings.md"`).
TITLED = re.compile(r'^(?P<fence>`{3,})\w+ title="(?P<path>[^"]+)"\n(?P<body>.*?)\n(?P=fence)$', re.M | re.S)


def test_the_readme_quick_start_builds_a_new_properdocs_site(tmp_path: Path) -> None:
    """README's quick start as a new user follows it: `properdocs new`, then each file its
    fences name (properdocs.yml's lines added to what `properdocs new` wrote), then a strict
    build; then a changed rate fails the build until `bound-numbers renumber` rewrites it."""
    folder = tmp_path / "new"
    folder.mkdir()
    assert run(folder, command("properdocs"), "new", ".").returncode == 0
    written = {m["path"]: m["body"] + "\n" for m in TITLED.finditer(README.read_text(encoding="utf-8"))}
    assert set(written) == {"properdocs.yml", "docs/savings.md"}
    config = folder / "properdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + written["properdocs.yml"], encoding="utf-8")
    (folder / "docs" / "savings.md").write_text(written["docs/savings.md"], encoding="utf-8")
    built = run(folder, command("properdocs"), "build", "--strict")
    assert built.returncode == 0, built.stderr
    page = (folder / "site" / "savings" / "index.html").read_text(encoding="utf-8")
    assert "At 5% a year, a deposit of 1,000 grows to 1,628.89 in\nten years" in page and "{=" not in page
    savings = folder / "docs" / "savings.md"
    savings.write_text(savings.read_text(encoding="utf-8").replace("rate = 0.05", "rate = 0.06"), "utf-8")
    failed = run(folder, command("properdocs"), "build", "--strict")
    said = [line for line in failed.stderr.splitlines() if "bound_numbers" in line]
    assert failed.returncode == 1 and said[0] in README.read_text(encoding="utf-8")  # as README shows it
    assert run(folder, command("bound-numbers"), "renumber").returncode == 0
    assert "6%{= 100 * rate}" in savings.read_text(encoding="utf-8")
    assert "about 791{= grown - deposit}" in savings.read_text(encoding="utf-8")
    assert run(folder, command("properdocs"), "build", "--strict").returncode == 0


def test_numbers_the_sites_configuration_declares_no_results_build_strict_without_a_binding(
    site: Path,
) -> None:
    edit(
        site,
        "docs/doubling.md",
        "# Doubling\n",
        "# Doubling\n\nThe rule was in print by 1494, in chapter 3.\n",
    )
    where = place(site, "docs/doubling.md", "1494")
    failed = build(site)
    assert failed.status == 1 and f"{PLUGIN}{where}: 1494 is not bound" in " ".join(failed.said)
    config = site / "mkdocs.yml"
    declared = '      not_results: {after: [chapter], years: [1400, 2100]}\n      decimal_mark: "."\n'
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            "      time_limit: 20\n", f"      time_limit: 20\n{declared}"
        ),
        "utf-8",
    )
    assert build(site) == Build(0, frozenset())


def test_a_page_markdown_exec_renders_runs_its_code_once_in_a_build(site: Path) -> None:
    """The check takes its values from markdown-exec's run of the page, not from a second run
    of its own (which once doubled the build's time)."""
    page = site / "docs" / "doubling.md"
    counting = 'with open("runs.log", "a") as log:\n    log.write("ran\\n")'
    counting = f'\n```python exec="on" session="doubling"\n{counting}\n```\n'
    page.write_text(page.read_text(encoding="utf-8") + counting, encoding="utf-8")
    assert build(site) == Build(0, frozenset())
    assert (site / "runs.log").read_text(encoding="utf-8") == "ran\n"


def test_a_fence_in_a_folded_block_runs_all_the_code_the_reader_is_shown_past_a_double_blank_line(
    site: Path,
) -> None:
    """markdown-it's admonition plugin ended a folded block at two blank lines: the check ran
    the fence cut there, called it unclosed, and read no number below it, while markdown-exec
    ran and showed the whole fence."""
    config = site / "mkdocs.yml"
    extensions = "markdown_extensions:\n  - admonition\n  - pymdownx.details\n"
    config.write_text(config.read_text("utf-8").replace("markdown_extensions:\n", extensions), "utf-8")
    folded = (
        '??? note "In depth: a rounder rule"\n\n'
        '    ```python exec="on" source="above" session="doubling"\n'
        "    def guessed(rule):\n        return rule / (100 * RATE)\n\n\n"
        "    rounder = 70\n    guess = guessed(rounder)\n    ```\n\n"
        "    A rule of 70{= rounder} guesses 11.67{= guess} years.\n"
    )
    page = site / "docs" / "doubling.md"
    page.write_text(f"{page.read_text(encoding='utf-8')}\n{folded}", encoding="utf-8")
    assert build(site) == Build(0, frozenset())


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ('An aside.\n\n    ```python exec="on"\n    print(months)\n    ```\n', SHOWN_UNREAD),
        ('```python exec="on"\nprint(months)\n`````\n', UNSHOWN),
    ],
    ids=["indented past its block", "closed by a longer line"],
)
def test_a_fence_superfences_and_the_check_read_differently_refuses_the_page_in_one_line(
    site: Path, written: str, said: str
) -> None:
    """CommonMark and SuperFences disagree on a few fences: one indented four spaces in no
    container is code to one and a fence to the other; one closed by a longer line of backticks
    is closed for one and runs to the page's end for the other. The reader is then shown code
    the check does not run, or the check runs code no reader sees: the page is refused, at the
    fence."""
    page = site / "docs" / "doubling.md"
    before = page.read_text(encoding="utf-8")
    page.write_text(f"{before}\n{written}", encoding="utf-8")
    opening = next(n for n, line in enumerate(written.split("\n")) if "```" in line)
    line = before.count("\n") + 2 + opening  # a blank line between the page and what was added
    built = build(site)
    ours = {said for said in built.said if said.startswith(PLUGIN)}
    assert (built.status, ours) == (1, {f"{PLUGIN}docs/doubling.md:{line}: {said}"})


def test_a_site_keeps_one_reading_a_page_and_with_cache_false_none(tmp_path: Path) -> None:
    site = copy(tmp_path)
    assert build(site).status == 0
    assert len(list((site / READINGS).glob("*.pickle"))) == len(list((site / "docs").glob("*.md")))
    where = edit(site, "docs/index.md", "1,061.68{= grown[-1]}:", "1,061.69{= grown[-1]}:")
    assert any(where in said for said in build(site).said)  # the edited page was read again
    config = site / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("time_limit: 20", "time_limit: 20\n      cache: false"),
        encoding="utf-8",
    )
    shutil.rmtree(site / READINGS)
    assert build(site).status == 1  # the wrong number still said
    assert not (site / READINGS).exists()
