"""What a page, a cache, a file system and a signal can do to the build, and what the user sees.

Each case plants one fault and asserts the one line (or the exit status) a contributor gets.
Most call the runner, the cache and the file helpers directly; three build a small project
with mkdocs itself: one in this process twice over (as `mkdocs serve` rebuilds), and two at
once as processes.

| fault                                              | what the user sees                            |
|----------------------------------------------------|-----------------------------------------------|
| a fence changes attend.chapter.WV, os.environ, the | nothing: the next page runs in a new process  |
|   cwd, PYTEST_ADDOPTS, sys.modules                 |   and the cache holds what it printed alone   |
| exit(), sys.exit(3), raise KeyboardInterrupt       | page:line, the line, why; build fails, strict |
| input(), sys.stdin.read()                          | page:line: I/O operation on closed file       |
| os.read(0, 1), a child process reading stdin       | nothing to read, at once                      |
| while True, time.sleep(600), a child left running  | page:line ran past the time limit; all killed |
| os._exit(0)                                        | page:line ended the page's process (status 0) |
| a SyntaxError                                      | page:line of the bad line, not the fence's    |
| a Latin-1 byte in a page                           | page:line:column: byte 0xe9 is not UTF-8      |
| a corrupt, truncated, mis-shaped cache entry       | one line naming the page; rerun and rewritten |
| a cache folder that cannot be written              | one line; the build runs without it           |
| the cache deleted mid-build                        | nothing: the next entry is written afresh     |
| a rewrite killed or out of disk mid-write          | the old file, whole; no temporary left behind |
| two builds into one site/ at once                  | both succeed; site/ is whole                  |
"""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import markdown_exec
import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort, PluginError

import attend.chapter
from attend_book import files
from attend_book.cache import Cache
from attend_book.files import TextError, read_text, replace_folder, write_atomic
from attend_book.plugin import BookPlugin
from attend_book.run import FenceError, PageRun, run_page

F = "```"
SETTING = "(`time_limit` under attend-book in mkdocs.yml)"


def page_of(*bodies: str) -> str:
    """A page with front matter and one executed python fence per body, after a line of prose:
    the first fence opens on line 8, its body on line 9."""
    fences = "".join(f'Prose.\n\n{F}python exec="1"\n{body}\n{F}\n' for body in bodies)
    return f"---\ntitle: t\ndescription: d\n---\n\n{fences}"


def failure(*bodies: str, limit: float = 30) -> str:
    with pytest.raises(FenceError) as raised:
        run_page("docs/p.md", page_of(*bodies), limit=limit)
    return str(raised.value)


# --- a page cannot reach the pages after it -------------------------------------------------

OBSERVED = page_of(
    "import os, attend.chapter\n"
    "print(attend.chapter.WV[:4], os.environ.get('POISON'), os.environ.get('PYTEST_ADDOPTS'), os.getcwd())\n"
    "print(attend.chapter_head().attend([[1.0, 0, 0, 0]]).out.tolist())"
)
POISONS = {
    "a weight": "import attend.chapter\nattend.chapter.WV = (9.0,) * 16",
    "the environment": "import os\nos.environ['POISON'] = '1'",
    "pytest's options": "import os\nos.environ['PYTEST_ADDOPTS'] = '--collect-only'",
    "the working directory": "import os\nos.chdir('/')",
    "a module": "import sys, types\nsys.modules['attend.chapter'] = types.ModuleType('attend.chapter')",
}


@pytest.fixture(scope="module")
def before() -> PageRun:
    """What the observing page prints run alone, in a process of its own: once for every poison."""
    return run_page("docs/later.md", OBSERVED)


@pytest.mark.parametrize("poison", POISONS.values(), ids=POISONS.keys())
def test_a_page_that_changes_the_package_environment_or_folder_changes_nothing_after_it(
    poison: str, before: PageRun, tmp_path: Path
) -> None:
    cache = Cache(tmp_path, "env")
    cache.page("docs/poison.md", page_of(poison))
    after = cache.page("docs/later.md", OBSERVED)
    assert after == before
    assert (
        Cache(tmp_path, "env").page("docs/later.md", OBSERVED, run=unexpected) == before
    )  # kept as run alone
    assert os.getcwd() == str(Path.cwd()) and "POISON" not in os.environ
    assert attend.chapter.WV[:4] == (1.0, 0.0, 0.0, 0.0)


def unexpected(path: str, markdown: str, expressions: tuple[str, ...] = ()) -> PageRun:
    raise AssertionError(f"{path} ran again")


def test_a_page_runs_in_the_folder_and_environment_it_is_given_with_nothing_to_read(tmp_path: Path) -> None:
    seen = page_of(
        "import os, subprocess\nprint(os.getcwd(), os.environ.get('GIVEN'), os.environ.get('HOME'))\n"
        "print(os.read(0, 1), subprocess.run(['cat'], stdout=subprocess.PIPE).stdout)"  # at once, not waiting
    )
    [block] = run_page("docs/p.md", seen, environment={"GIVEN": "yes"}, folder=str(tmp_path)).blocks
    assert block.text.split() == [str(tmp_path), "yes", "None", "b''", "b''"]


# --- a fence that misbehaves fails its page, naming page:line -------------------------------


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("exit()", "SystemExit: None\n(a page's code may not end the build"),
        ("import sys; sys.exit(3)", "SystemExit: 3\n(a page's code may not end the build"),
        ("raise KeyboardInterrupt", "KeyboardInterrupt\n(a page's code may not raise KeyboardInterrupt)"),
        ("input()", "ValueError: I/O operation on closed file"),
        ("import sys; sys.stdin.read()", "ValueError: I/O operation on closed file"),
    ],
)
def test_a_fence_that_ends_the_build_or_waits_for_a_terminal_fails_naming_its_line(
    body: str, said: str
) -> None:
    message = failure("x = 1", f"y = 2\n{body}")
    assert message.startswith(f"docs/p.md:15: a python fence failed at `{body}`:\n{said}")


def test_a_syntax_error_names_its_own_line_not_the_fences_first() -> None:
    assert (
        failure("x = 1\ny = (\nz = 3")
        == "docs/p.md:10: a python fence failed at `y = (`:\nSyntaxError: '(' was never closed"
    )


@pytest.mark.parametrize("body", ["while True:\n    pass", "import time\ntime.sleep(600)"])
def test_a_fence_past_the_time_limit_fails_naming_its_line_and_the_setting(body: str) -> None:
    assert failure("x = 1", body, limit=1) == (
        f"docs/p.md:13: this fence ran past the time limit of 1 seconds {SETTING}"
    )


def test_a_fence_past_the_time_limit_leaves_nothing_running(tmp_path: Path) -> None:
    child = tmp_path / "child"
    started = "str(subprocess.Popen(['sleep', '600']).pid)"
    start = f"import subprocess, time\nopen({str(child)!r}, 'w').write({started})"
    failure(f"{start}\ntime.sleep(600)", limit=2)
    pid = int(child.read_text())
    deadline = time.monotonic() + 5  # a killed process takes a moment to be gone
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(pid)


def running(pid: int) -> bool:
    """Whether the process is alive: not gone, and not a zombie left for a parent to reap."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def test_a_fence_that_ends_its_process_outright_is_named() -> None:
    assert (
        failure("x = 1", "import os\nos._exit(0)")
        == "docs/p.md:13: this fence ended the page's process (exit status 0)"
    )


# --- what a page's bytes can do ---------------------------------------------------------------


def test_a_latin_1_byte_is_named_by_line_and_column_not_by_offset(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_bytes("---\ntitle: t\n---\n\nCaf\xe9 prose.\n".encode("latin-1"))
    with pytest.raises(TextError) as raised:
        read_text(page, "docs/p.md")
    assert str(raised.value) == "docs/p.md:5:4: byte 0xe9 is not UTF-8; save the file as UTF-8"


def test_a_page_with_a_byte_order_mark_and_crlf_reads_as_plain_lines(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_bytes(files.BOM + b"a\r\nb\r\n")
    assert read_text(page) == "a\nb\n"


# --- what a rewrite can meet -----------------------------------------------------------------


def test_a_rewrite_keeps_line_endings_byte_order_mark_and_permissions(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_bytes(files.BOM + b"one 1\r\ntwo 2\r\n")
    page.chmod(0o640)
    write_atomic(page, read_text(page).replace("2", "3"))
    assert page.read_bytes() == files.BOM + b"one 1\r\ntwo 3\r\n"
    assert page.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize(
    "fault",
    [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()],
    ids=["full disk", "killed"],
)
def test_a_rewrite_that_fails_midway_leaves_the_old_file_whole_and_nothing_beside_it(
    fault: BaseException, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "p.md"
    page.write_text("151 lines\n" * 151, encoding="utf-8")

    def fail(_: int) -> None:
        raise fault

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(type(fault)):
        write_atomic(page, "")
    assert page.read_text(encoding="utf-8") == "151 lines\n" * 151
    assert [p.name for p in tmp_path.iterdir()] == ["p.md"]


def test_a_folder_replaced_by_two_writers_at_once_is_one_of_them_whole(tmp_path: Path) -> None:
    target = tmp_path / "site"
    target.mkdir()
    (target / "old").write_text("old", encoding="utf-8")
    news = []
    for name in ("a", "b"):
        new = tmp_path / f".new-{name}"
        new.mkdir()
        for k in range(200):
            (new / f"{k}.html").write_text(name, encoding="utf-8")
        news.append(new)
    writers = [threading.Thread(target=replace_folder, args=(target, new)) for new in news]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    kept = {p.read_text(encoding="utf-8") for p in target.iterdir()}
    assert len(list(target.iterdir())) == 200 and kept in ({"a"}, {"b"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


# --- what the cache can meet -----------------------------------------------------------------

PAGE = page_of("print(2 + 2)")


def entries(root: Path) -> list[Path]:
    return sorted(root.glob("outputs/*/pages/*.json"))


@pytest.mark.parametrize(
    "spoil",
    [
        lambda text: "{not json",
        lambda text: text[: len(text) // 2],
        lambda text: json.dumps({"blocks": [], "values": {}}),
        lambda text: json.dumps([1, 2]),
        lambda text: "",
    ],
    ids=["garbled", "truncated", "too few blocks", "wrong shape", "empty"],
)
def test_a_cache_entry_that_cannot_be_read_is_a_miss_said_once_and_written_again(
    spoil: Callable[[str], str], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    Cache(tmp_path, "env").page("docs/p.md", PAGE)
    [entry] = entries(tmp_path)
    entry.write_text(spoil(entry.read_text(encoding="utf-8")), encoding="utf-8")
    with caplog.at_level(logging.INFO):
        [block] = Cache(tmp_path, "env").page("docs/p.md", PAGE).blocks
    assert block.text == "4\n"
    [said] = [r.getMessage().removeprefix("attend_book: ") for r in caplog.records]
    assert said.startswith(f"docs/p.md: its cache entry {entry} cannot be read (") and "\n" not in said
    assert Cache(tmp_path, "env").page("docs/p.md", PAGE, run=unexpected).blocks == [block]


def test_a_cache_that_cannot_be_written_is_left_out_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    cache = Cache(blocked, "env")
    with caplog.at_level(logging.INFO):
        first = cache.page("docs/p.md", PAGE)
        cache.page("docs/q.md", page_of("print(3)"))
        notebook, text = cache.notebook(write(tmp_path / "w.py", "1"), copied, Path.read_text)
    assert first.blocks[0].text == "4\n" and text == "1"
    [said] = [r.getMessage().removeprefix("attend_book: ") for r in caplog.records]
    assert said.startswith(f"the cache {blocked} cannot be written") and said.endswith("building without it")
    cache.prune()
    assert not notebook.exists()


def copied(source: Path, target: Path) -> list[str]:
    """A stand-in for executing a notebook: a copy, which reads no file for the cache to follow."""
    shutil.copyfile(source, target)
    return []


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_cache_deleted_mid_build_is_made_again(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache", "env")
    cache.page("docs/p.md", PAGE)
    shutil.rmtree(tmp_path / "cache")
    cache.page("docs/q.md", page_of("print(3)"))
    cache.prune()
    assert len(entries(tmp_path / "cache")) == 1


# --- whole builds ----------------------------------------------------------------------------

PROJECT = textwrap.dedent(
    """\
    site_name: faults
    strict: true
    plugins:
      - attend-book:
          time_limit: 3
      - markdown-exec:
          languages: []
    markdown_extensions:
      - pymdownx.superfences
    """
)


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(PROJECT, encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text(page_of("print('index')"), encoding="utf-8")
    yield tmp_path


def test_a_rebuild_after_a_fence_stopped_or_hung_the_last_one_recovers_in_the_same_process(
    project: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    (project / "docs" / "a.md").write_text(page_of("exit()"), encoding="utf-8")
    # hung asleep, not spinning: the same kill at the limit, without burning a core until then
    (project / "docs" / "b.md").write_text(page_of("import time\ntime.sleep(600)"), encoding="utf-8")
    (project / "docs" / "c.md").write_bytes(page_of("print(1)").replace("Prose", "Caf\xe9").encode("latin-1"))
    config = load_config(str(project / "mkdocs.yml"), site_dir=str(project / "site"))
    with caplog.at_level(logging.ERROR), pytest.raises(Abort, match="3 errors"):
        build(config)  # as `mkdocs serve` does: the process lives on
    said = [
        r.getMessage().removeprefix("attend_book: ") for r in caplog.records if r.levelno == logging.ERROR
    ]
    assert [line.split("\n")[0] for line in said] == [
        "docs/a.md:9: a python fence failed at `exit()`:",
        f"docs/b.md:8: this fence ran past the time limit of 3 seconds {SETTING}",
        "docs/c.md:6:4: byte 0xe9 is not UTF-8; save the file as UTF-8",
    ]
    for name in "abc":
        (project / "docs" / f"{name}.md").write_text(page_of(f"print('{name} fixed')"), encoding="utf-8")
    build(load_config(str(project / "mkdocs.yml"), site_dir=str(project / "site")))
    assert "b fixed" in (project / "site" / "b" / "index.html").read_text(encoding="utf-8")


def test_two_builds_at_once_both_succeed_and_leave_one_whole_site(project: Path) -> None:
    for k in range(6):
        (project / "docs" / f"p{k}.md").write_text(page_of(f"print({k})"), encoding="utf-8")
    command = [str(Path(sys.executable).with_name("mkdocs")), "build", "--strict", "--site-dir", "site"]
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    builds = [
        subprocess.Popen(command, cwd=project, env=environment, stderr=subprocess.PIPE, text=True)
        for _ in "ab"
    ]
    for one in builds:
        assert one.wait(timeout=300) == 0, one.stderr.read() if one.stderr else ""
    pages = sorted(p.parent.name for p in (project / "site").glob("p*/index.html"))
    assert pages == [f"p{k}" for k in range(6)]
    assert not list(project.glob(".site-*"))


# --- one owner of execution ----------------------------------------------------------------


def test_the_plugin_shows_the_books_fences_without_replacing_anything_of_markdown_exec(project: Path) -> None:
    before = dict(markdown_exec.formatters)
    config = load_config(str(project / "mkdocs.yml"))
    config = config.plugins.on_config(config)
    config.plugins.on_pre_build(config=config)
    assert markdown_exec.formatters == before
    fences = config.mdx_configs["pymdownx.superfences"]["custom_fences"]
    assert sorted(fence["name"] for fence in fences) == ["console", "py", "python"]
    plugin = config.plugins["attend-book"]
    assert isinstance(plugin, BookPlugin)
    assert {fence["format"].func for fence in fences} == {plugin._format}


def test_markdown_exec_showing_the_same_fences_is_one_line_saying_what_to_set(project: Path) -> None:
    (project / "mkdocs.yml").write_text(
        PROJECT.replace("languages: []", "languages: [python]"), encoding="utf-8"
    )
    config = load_config(str(project / "mkdocs.yml"))
    config = config.plugins.on_config(config)
    with pytest.raises(PluginError) as raised:
        config.plugins.on_pre_build(config=config)
    assert str(raised.value) == (
        "another plugin shows the python fences, which attend-book runs and shows: "
        "set `languages: []` under markdown-exec in mkdocs.yml"
    )


# --- what a signal can do --------------------------------------------------------------------


def test_a_build_killed_outright_leaves_no_page_running(tmp_path: Path) -> None:
    worker = tmp_path / "worker"
    fence = f"import os, time\nopen({str(worker)!r}, 'w').write(str(os.getpid()))\ntime.sleep(600)"
    build_like = (
        f"from attend_book.run import run_page\nrun_page('docs/p.md', {page_of(fence)!r}, limit=600)\n"
    )
    build = subprocess.Popen([sys.executable, "-c", build_like])
    deadline = time.monotonic() + 30
    while not (worker.exists() and worker.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    build.kill()
    build.wait()
    pid = int(worker.read_text())
    deadline = time.monotonic() + 5
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(pid)
