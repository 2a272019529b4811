"""Pages run ahead of a rebuild under `nox -s serve` (`attend_book.ahead`): which start, which
the build takes, and the order it reaches them in."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Literal

import pytest
from book_build import MINIMAL
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files

import attend_book.run
from attend_book.ahead import Ahead
from attend_book.inputs import Read
from attend_book.page import PageRun
from attend_book.run import plan_of
from bound_numbers import Page, Plan, Unavailable

SOURCE = '---\ntitle: t\n---\n\n```python exec="1"\nprint(1)\n```\n'


class Runs:
    """A stand-in for a page's process: the plans it ran, each answered with a run of its own."""

    def __init__(self, go: threading.Event | None = None) -> None:
        self.plans: list[str] = []
        self.go = go
        self.running = threading.Event()  # one has started

    def __call__(self, plan: Plan) -> PageRun:
        self.plans.append(plan.page)
        self.running.set()
        if self.go is not None:
            assert self.go.wait(10)
        return PageRun([], {}, Read((), {}, ()))


def remembered(root: Path, *names: str, threads: int | None = None) -> tuple[Ahead, dict[str, Plan]]:
    """An Ahead that ran each page `name` (written under `root`) once before."""
    ahead, plans = Ahead(threads), {}
    for name in names:
        (root / name).write_text(SOURCE, encoding="utf-8")
        plans[name] = plan_of(Page(name, SOURCE))
        ahead.remember(SOURCE, plans[name])
    return ahead, plans


def entry(plan: Plan) -> Path:
    return Path(f"{plan.page}.json")


def test_a_page_whose_kept_run_no_longer_holds_runs_ahead_and_the_build_takes_its_run(
    tmp_path: Path,
) -> None:
    ahead, plans = remembered(tmp_path, "a.md")
    runs = Runs()
    ahead.start(tmp_path, entry, holds=lambda plan: False, run=runs)
    runner = ahead.taken(entry(plans["a.md"]))
    assert runner is not None
    assert runner(plans["a.md"]).blocks == [] and runs.plans == ["a.md"]
    assert ahead.taken(entry(plans["a.md"])) is None  # taken once


def test_a_page_whose_run_holds_or_whose_source_changed_or_went_is_left_to_the_build(tmp_path: Path) -> None:
    ahead, plans = remembered(tmp_path, "kept.md", "edited.md", "gone.md")
    (tmp_path / "edited.md").write_text(SOURCE + "\nprose\n", encoding="utf-8")
    (tmp_path / "gone.md").unlink()
    runs = Runs()
    ahead.start(tmp_path, entry, holds=lambda plan: plan.page == "kept.md", run=runs)
    assert all(ahead.taken(entry(plan)) is None for plan in plans.values())


def test_a_page_the_build_reaches_before_its_thread_has_a_core_is_left_to_the_build(tmp_path: Path) -> None:
    ahead, plans = remembered(tmp_path, "one.md", "other.md", threads=1)
    go = threading.Event()
    runs = Runs(go)
    ahead.start(tmp_path, entry, holds=lambda plan: False, run=runs)
    assert runs.running.wait(10)
    [running] = runs.plans  # it holds the one core; the other page waits for it
    [waiting] = {"one.md", "other.md"} - {running}
    assert ahead.taken(entry(plans[waiting])) is None
    go.set()
    taken = ahead.taken(entry(plans[running]))
    assert taken is not None
    taken(plans[running])
    assert runs.plans == [running]  # the page left to the build never ran ahead


def test_a_page_run_ahead_that_failed_fails_when_the_build_takes_it(tmp_path: Path) -> None:
    ahead, plans = remembered(tmp_path, "a.md")

    def failing(plan: Plan) -> PageRun:
        raise Unavailable(f"{plan.page}:6: failed: ZeroDivisionError: division by zero")

    ahead.start(tmp_path, entry, holds=lambda plan: False, run=failing)
    runner = ahead.taken(entry(plans["a.md"]))
    assert runner is not None
    with pytest.raises(Unavailable, match="a.md:6: failed"):
        runner(plans["a.md"])


def test_the_pages_run_ahead_come_after_every_other_file_in_their_order(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    ahead, _ = remembered(docs, "b.md", "d.md")
    names = ["a.md", "b.md", "c.md", "d.md", "e.css"]
    files = Files([File(name, str(docs), str(tmp_path / "site"), use_directory_urls=True) for name in names])
    assert [f.src_uri for f in ahead.later(files, docs)] == names  # none started: as they were
    ahead.start(docs, entry, holds=lambda plan: False, run=Runs())
    assert [f.src_uri for f in ahead.later(files, docs)] == ["a.md", "c.md", "e.css", "b.md", "d.md"]


@pytest.mark.parametrize("command", ["serve", "build"])
def test_a_rebuild_under_serve_runs_a_page_whose_input_changed_ahead_and_shows_what_it_read_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: Literal["serve", "build"]
) -> None:
    """As under `serve`, mkdocs keeps the plugin between two builds in one process; the page that
    reads a file runs again, in a thread of its own started before any page is rendered. A
    `build` runs it where the build reaches it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(MINIMAL, encoding="utf-8")
    quoted = tmp_path / "quoted.txt"
    reading = "from pathlib import Path\nprint(Path('quoted.txt').read_text())"
    page = f'---\ntitle: t\ndescription: d\n---\n\n```python exec="1"\n{reading}\n```\n'
    (tmp_path / "docs" / "index.md").write_text(page, encoding="utf-8")
    threads: list[str] = []
    real = attend_book.run.run_plan

    def noted(plan: Plan, **given: object) -> PageRun:
        threads.append(threading.current_thread().name)
        return real(plan, **given)  # type: ignore[arg-type]

    monkeypatch.setattr(attend_book.run, "run_plan", noted)
    site = tmp_path / "site"
    for rebuild, words in enumerate(("first words", "second words")):
        quoted.write_text(words, encoding="utf-8")
        config = load_config("mkdocs.yml", site_dir=str(site))
        if command == "build" or not rebuild:  # `serve` starts once, then rebuilds
            config.plugins.on_startup(command=command, dirty=False)
        try:
            build(config)
        finally:
            if command == "build" or rebuild:
                config.plugins.on_shutdown()
    assert threads == ["MainThread", "ahead docs/index.md" if command == "serve" else "MainThread"]
    assert "second words" in (site / "index.html").read_text(encoding="utf-8")
