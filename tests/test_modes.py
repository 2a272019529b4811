"""The command's modes come from one registry: each mode is one module, and the command, its help,
its bound, the README's list and these tests read that registry and nothing else."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from attend.book import modes as package
from attend.book import registry
from attend.book.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
LISTED = re.compile(r"<!-- modes:[^\n]*-->\n(.*?)\n<!-- /modes -->", re.S)

# A mode as a contributor would add one: one module, nothing else touched.
ECHO = """
from dataclasses import dataclass

from attend.book.flags import Flag, whole_number
from attend.book.modes import Mode


@dataclass(frozen=True)
class Echo:
    times: int


def table(times: int = 2) -> Echo:
    return Echo(times)


def text(echo: Echo) -> str:
    return "\\n".join(["echo"] * echo.times)


MODE = Mode(
    name="echo",
    help="says echo, as often as asked",
    order=5,
    table=table,
    text=text,
    flags=(Flag("--times", "how often", whole_number, 2, "N"),),
    work=lambda times: times * 1_000,
    instead="ask for fewer --times",
    bound="echo counts a thousand numbers a time",
)
"""


@pytest.fixture
def one_more_mode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The registry as it is with one module more in the modes' package, and as it was after."""
    (tmp_path / "echo.py").write_text(ECHO, encoding="utf-8")
    monkeypatch.setattr(package, "__path__", [*package.__path__, str(tmp_path)])
    registry.modes.cache_clear()
    yield
    monkeypatch.undo()
    registry.modes.cache_clear()


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int | str | None, str, str]:
    try:
        status: int | str | None = main(argv)
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.usefixtures("one_more_mode")
def test_a_mode_added_as_one_module_is_in_the_command_its_help_and_its_bound(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert next(iter(registry.modes())) == "echo"  # its order puts it first
    assert run(["echo", "--times", "3"], capsys) == (0, "echo\necho\necho\n", "")
    status, out, _ = run(["--help"], capsys)
    assert status == 0 and "says echo, as often as asked" in out
    assert "echo counts a thousand numbers a time" in " ".join(out.split())
    status, _, err = run(["echo", "--times", "200000"], capsys)
    assert status == 2 and "echo would handle 200,000,000 numbers" in err and "--times" in err
    assert "- `attend echo` `--times N`: says echo, as often as asked" in registry.listing()


def test_the_registry_is_as_it_was_once_the_added_mode_is_gone() -> None:
    assert "echo" not in registry.modes()


def test_every_mode_is_a_module_of_the_modes_package_named_for_its_word() -> None:
    for name, mode in registry.modes().items():
        assert mode.name == name
        assert getattr(package, name).MODE is mode


def test_a_mode_module_that_declares_another_modes_word_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "echoes.py").write_text(ECHO, encoding="utf-8")  # declares "echo"
    monkeypatch.setattr(package, "__path__", [*package.__path__, str(tmp_path)])
    registry.modes.cache_clear()
    try:
        with pytest.raises(ValueError, match="declares the mode 'echo', not its own"):
            registry.modes()
    finally:
        monkeypatch.undo()
        registry.modes.cache_clear()


@pytest.mark.parametrize("word", ["fly", "ro", "rows", "Cost", ""])
def test_a_word_that_is_no_mode_is_refused_and_runs_nothing(
    word: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run([word], capsys)
    assert status == 2 and out == ""
    assert err.startswith("attend: ") and "invalid choice" in err


@pytest.mark.parametrize("name", list(registry.modes()))
def test_each_mode_prints_its_own_table_and_no_other(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    mode = registry.modes()[name]
    values: dict[str, object]
    if name == "learn":
        values = {"seed": 1, "d_model": 4, "steps": 5}
        argv = [name, "--seed", "1", "--width", "4", "--steps", "5"]
    else:
        values = {flag.dest: flag.default for flag in mode.flags}
        argv = [name]
    status, out, err = run(argv, capsys)
    assert (status, err) == (0, "")
    assert out == mode.printout(values) + "\n"


def test_the_readme_lists_every_mode_as_the_registry_declares_it() -> None:
    found = LISTED.search(README.read_text(encoding="utf-8"))
    assert found, "README.md has no <!-- modes --> list"
    assert found.group(1) == registry.listing()


def test_the_help_lists_the_modes_in_the_registrys_order(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["--help"], capsys)
    shown = [found[1] for found in re.finditer(r"^ {4}(\w+)", out, re.M)]  # a long help wraps deeper
    assert shown == list(registry.modes())
