"""What a page, a cache, a file system and a signal can do to the build, and what the user sees.

Each case plants one fault and asserts the one line (or the exit status) a contributor gets.
Most call the runner, the cache and the file helpers directly; the rest build a small project
with mkdocs itself: in this process, as `mkdocs build` runs it (`build_command`) or as `mkdocs
serve` rebuilds, and as processes (two builds at once, Ctrl-C, SIGTERM).

| fault                                              | what the user sees                            |
|----------------------------------------------------|-----------------------------------------------|
| a fence changes attend.book.chapter.WV, os.environ, the | nothing: the next page runs in a new process  |
|   cwd, PYTEST_ADDOPTS, sys.modules                 |   and the cache holds what it printed alone   |
| exit(), sys.exit(3), raise KeyboardInterrupt       | page:line, the line, why; build fails, strict |
| input(), sys.stdin.read()                          | page:line: I/O operation on closed file       |
| os.read(0, 1), a child process reading stdin       | nothing to read, at once                      |
| while True, time.sleep(600), a child left running  | page:line ran past the time limit; all killed |
| os._exit(0)                                        | page:line ended the page's process (status 0) |
| os.fork(), the copy running on into the page       | page:line forked ...; end a copy with _exit() |
| json.dumps or os.write replaced, closerange(3, 256)| nothing: the page is reported as ever         |
| every descriptor closed, the report pipe too       | page:line closed the pipe the page reports on |
| an assert whose operand's repr raises              | the assert's page:line; (its repr raised ...) |
| a SyntaxError                                      | page:line of the bad line, not the fence's    |
| a page printing past its output limit (8 MB; 2 MB  | page:line printed more than 2 MB, the most    |
|   here), at once or forever                        |   one page may print                          |
| bytes trickling onto the report pipe               | page:line ran past the time limit             |
| a line that is no report written on its pipe       | page:line wrote on the page's report pipe     |
| a process left running, in its own session or      | page:line left processes running ..., now     |
|   orphaned                                         |   ended: `sleep 1007` (pid N)                 |
| `$ attend "cost` in a transcript, in the build or  | page:line of that `$` line (not the fence's): |
|   its notebook                                     |   the transcript line ... cannot be split: No |
|                                                    |   closing quotation                           |
| an unclosed quote in a fence's info string         | page:line: this fence's info string ...       |
| a workbench cell that raises, ends its kernel,     | workbench:line: this cell failed: ValueError, |
|   hangs                                            |   ended the kernel, ran past the time limit;  |
|                                                    |   not a cache fault; in a build, the page     |
|                                                    |   shows the cells without outputs, goes on    |
| Ctrl-C or SIGTERM while the workbench runs (which | Aborted!, as anywhere else in the build; its   |
|   nbclient would take over)                        |   kernel shut down, the build's handlers back |
| a Latin-1 byte in a page                           | page:line:column: byte 0xe9 is not UTF-8      |
| a page that links to nothing, or to itself         | page:1: the page cannot be read: why          |
| a page whose fence fails                           | that line, and every other problem it has     |
| a corrupt, truncated, mis-shaped cache entry       | one line naming the page; rerun and rewritten |
| a cache folder that cannot be written              | one line; the build runs without it           |
| the cache deleted mid-build                        | nothing: the next entry is written afresh     |
| a rewrite killed or out of disk mid-write          | the old file, whole; no temporary left behind |
| two builds into one site/ at once                  | both succeed; site/ is whole                  |
| a binding to 10**400 (a number, a group, a word)   | page:line:col: past a float's range; renumber |
|                                                    |   says so and goes on to the later pages      |
| a binding to 2**100000 (past json's digits)        | page:line:col: an integer of thousands of     |
|                                                    |   digits, which no written number can quote   |
| a binding that sleeps, is killed                   | page:line:col: the binding {= …} ran past the |
|                                                    |   time limit / ended the page's process       |
| a binding that calls exit()                        | page:line:col: cannot be worked out (why)     |
| a fence in a blockquote that does close            | nothing: it is closed                         |
| renumber on a docs/ it cannot write                | page:line:col old → new not written (why)     |
| renumber --docs /nonexistent, an absent page       | renumber: … does not exist; exit status 2     |
| renumber on a linked page; on a dangling link      | the file it leads to rewritten; one line      |
| a build that succeeds                              | site/ moved in whole, readable by all (umask) |
| a build that fails (a fence, a strict warning, a   | the last site/ exactly as it was; nothing     |
|   page gone from the nav) or is interrupted        |   left beside it                              |
| a full disk while the site is written              | Aborted: FILE: No space left on device        |
| what a killed build left beside site/              | deleted by the next build (not a living one's)|
| site/ a file or a symbolic link                    | one line, before any page runs                |
| Ctrl-C; SIGTERM (kill, a cancelled CI job), even   | Aborted!, exit status 1, no traceback; the    |
|   as --strict counts warnings once the site is     |   last site/ as it was, nothing beside it, no |
|   written                                          |   page's process running                      |
| SIGKILL (kill -9), which no process can catch      | the staged .site-XXXX stays until the next    |
|                                                    |   build deletes it; pages end as below        |
| a fence raising a 5 KB message of many lines       | its first 4 lines, each cut at 200 characters,|
|                                                    |   and how many more there were                |
| the build killed outright                          | its page's process and all below it end       |
| `-q`, or a logging configuration hiding every line,| each of the book's lines printed anyway; the  |
|   on a broken fence rule, an include of nothing or |   strict build fails, the last site as it was |
|   a fence that fails                               |                                               |
| a page's python writing into site/ or the site     | page:line of the write: PermissionError ...   |
|   being built, or removing from site/              |   the build writes the site there             |
| a page's shell writing there, or emptying site/    | page:1: the page's code changed the site      |
|                                                    |   folder (...); last site put back, the new   |
|                                                    |   one never moved in (not even unstrict)      |
| a workbench cell doing either (python, a shell)    | the same, at the cell's line or line 1        |
| a workbench cell printing past the output limit    | workbench:line: printed more than 2 MB, the   |
|   (8 MB; 2 MB here), at once or for ever           |   most the workbench may print                |
| a page and a workbench cell each printing a MB     | the build, whole-book page and all, in time   |
|   without a space                                  |   linear in its size (it ran past 300 s)      |
"""

from __future__ import annotations

import errno
import fcntl
import functools
import gc
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import markdown_exec
import pytest
from book_build import properdocs_build
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort, PluginError

import attend.book.chapter
from attend_book import notebooks, workbench
from attend_book.cache import Cache, Runner
from attend_book.files import replace_folder
from attend_book.inputs import Read
from attend_book.page import PageRun
from attend_book.plugin import BookPlugin
from attend_book.run import plan_of, run_page, run_plan
from bound_numbers import Asked, Page, Plan, Unavailable, cli
from bound_numbers.check import check
from bound_numbers.reading import read
from bound_numbers.text import BOM, TextError, read_text, write_atomic

F = "```"
SETTING = "(`time_limit` under attend-book in mkdocs.yml)"


def page_of(*bodies: str) -> str:
    """A page with front matter and one executed python fence per body, after a line of prose:
    the first fence opens on line 8, its body on line 9."""
    fences = "".join(f'Prose.\n\n{F}python exec="1"\n{body}\n{F}\n' for body in bodies)
    return f"---\ntitle: t\ndescription: d\n---\n\n{fences}"


def failure(*bodies: str, limit: float = 30) -> str:
    with pytest.raises(Unavailable) as raised:
        run_page("docs/p.md", page_of(*bodies), limit=limit)
    return str(raised.value)


# --- a page cannot reach the pages after it -------------------------------------------------

OBSERVED = page_of(
    "import os, attend.book.chapter\n"
    "print(attend.book.chapter.WV[:4], os.environ.get('POISON'), os.environ.get('PYTEST_ADDOPTS'), "
    "os.getcwd())\n"
    "print(attend.chapter_head().attend([[1.0, 0, 0, 0]]).out.tolist())"
)
POISONS = {
    "a weight": "import attend.book.chapter\nattend.book.chapter.WV = (9.0,) * 16",
    "the environment": "import os\nos.environ['POISON'] = '1'",
    "pytest's options": "import os\nos.environ['PYTEST_ADDOPTS'] = '--collect-only'",
    "the working directory": "import os\nos.chdir('/')",
    "a module": "import sys, types\n"
    "sys.modules['attend.book.chapter'] = types.ModuleType('attend.book.chapter')",
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
    cached(cache, "docs/poison.md", page_of(poison))
    after = cached(cache, "docs/later.md", OBSERVED)
    assert after == before
    assert (
        cached(Cache(tmp_path, "env"), "docs/later.md", OBSERVED, run=unexpected) == before
    )  # kept as run alone
    assert os.getcwd() == str(Path.cwd()) and "POISON" not in os.environ
    assert attend.book.chapter.WV[:4] == (1.0, 0.0, 0.0, 0.0)


def unexpected(plan: Plan, **_: object) -> PageRun:
    raise AssertionError(f"{plan.page} ran again")


def cached(cache: Cache, path: str, text: str, run: Runner = run_plan) -> PageRun:
    """The page `text` from `cache`, or run by `run`."""
    return cache.page(plan_of(Page(path, text)), run=run)


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
        ("exit()", "SystemExit: None (a page's code may not end its process"),
        ("import sys; sys.exit(3)", "SystemExit: 3 (a page's code may not end its process"),
        ("raise KeyboardInterrupt", "KeyboardInterrupt (a page's code may not raise KeyboardInterrupt)"),
        ("input()", "ValueError: I/O operation on closed file"),
        ("import sys; sys.stdin.read()", "ValueError: I/O operation on closed file"),
    ],
)
def test_a_fence_that_ends_the_build_or_waits_for_a_terminal_fails_naming_its_line(
    body: str, said: str
) -> None:
    message = failure("x = 1", f"y = 2\n{body}")
    assert message.startswith(f"docs/p.md:15: a python fence failed at `{body}`: {said}")


def test_a_syntax_error_names_its_own_line_not_the_fences_first() -> None:
    assert (
        failure("x = 1\ny = (\nz = 3")
        == "docs/p.md:10: a python fence failed at `y = (`: SyntaxError: '(' was never closed"
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
    page.write_bytes(BOM + b"a\r\nb\r\n")
    assert read_text(page) == "a\nb\n"


# --- what a rewrite can meet -----------------------------------------------------------------


def test_a_rewrite_keeps_line_endings_byte_order_mark_and_permissions(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_bytes(BOM + b"one 1\r\ntwo 2\r\n")
    page.chmod(0o640)
    write_atomic(page, read_text(page).replace("2", "3"))
    assert page.read_bytes() == BOM + b"one 1\r\ntwo 3\r\n"
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
    cached(Cache(tmp_path, "env"), "docs/p.md", PAGE)
    [entry] = entries(tmp_path)
    entry.write_text(spoil(entry.read_text(encoding="utf-8")), encoding="utf-8")
    with caplog.at_level(logging.INFO):
        [block] = cached(Cache(tmp_path, "env"), "docs/p.md", PAGE).blocks
    assert block.text == "4\n"
    [said] = [r.getMessage().removeprefix("attend_book: ") for r in caplog.records]
    assert said.startswith(f"docs/p.md: its cache entry {entry} cannot be read (") and "\n" not in said
    assert cached(Cache(tmp_path, "env"), "docs/p.md", PAGE, run=unexpected).blocks == [block]


def test_a_cache_that_cannot_be_written_is_left_out_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    cache = Cache(blocked, "env")
    with caplog.at_level(logging.INFO):
        first = cached(cache, "docs/p.md", PAGE)
        cached(cache, "docs/q.md", page_of("print(3)"))
        notebook, text = cache.notebook(write(tmp_path / "w.py", "1"), copied, Path.read_text)
    assert first.blocks[0].text == "4\n" and text == "1"
    [said] = [r.getMessage().removeprefix("attend_book: ") for r in caplog.records]
    assert said.startswith(f"the cache {blocked} cannot be written") and said.endswith("building without it")
    cache.prune()
    assert not notebook.exists()


def copied(source: Path, target: Path) -> Read:
    """A stand-in for executing a notebook: a copy, which reads no file for the cache to follow."""
    shutil.copyfile(source, target)
    return Read()


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_cache_deleted_mid_build_is_made_again(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache", "env")
    cached(cache, "docs/p.md", PAGE)
    shutil.rmtree(tmp_path / "cache")
    cached(cache, "docs/q.md", page_of("print(3)"))
    cache.prune()
    assert len(entries(tmp_path / "cache")) == 1


# --- whole builds ----------------------------------------------------------------------------

PROJECT = textwrap.dedent(
    """\
    site_name: faults
    strict: true
    plugins:
      - bound-numbers:
          values: attend-book
          front_matter: [title, description]
          checklist: see "Add a page" in docs/contributing.md
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
    said = [unprefixed(r.getMessage()) for r in caplog.records if r.levelno == logging.ERROR]
    assert [line.split("\n")[0] for line in said] == [
        "docs/a.md:9: a python fence failed at `exit()`: SystemExit: None "
        "(a page's code may not end its process: exit() or sys.exit())",
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


@pytest.mark.parametrize(
    ("named", "said"),
    [
        ("attend-bok", "is not a plugin of this build"),
        ("markdown-exec", "lacks bound_values or bound_sources"),
    ],
)
def test_a_number_check_whose_values_name_no_provider_stops_the_build_with_one_line(
    named: str, said: str, project: Path
) -> None:
    (project / "mkdocs.yml").write_text(
        PROJECT.replace("values: attend-book", f"values: {named}"), encoding="utf-8"
    )
    config = load_config(str(project / "mkdocs.yml"))
    config = config.plugins.on_config(config)
    with pytest.raises(PluginError) as raised:
        config.plugins.on_pre_build(config=config)
    assert str(raised.value) == (
        f"bound-numbers: values: {named} {said}; name `fences` or a plugin listed under plugins: "
        "that provides the values"
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


# --- what a binding can do -------------------------------------------------------------------


def bound_page(expression: str) -> str:
    """A page whose prose, on line 13, binds a number at column 6 to `expression`."""
    return f"{page_of('x = 1')}\nIt is 1{{= x}} and\nthen 5{{= {expression}}}.\n"


def checked(markdown: str, limit: float = 30) -> list[str]:
    found = read(markdown)
    values = run_page("docs/p.md", markdown, found.asked, limit=limit).values
    return [p.render("docs/p.md") for p in check(found, values)]


@pytest.mark.parametrize(
    ("expression", "said"),
    [
        ("x * 10**400", "gives an integer past a float's range, which no written number here can quote"),
        (
            "x * 2**100000",
            "cannot be worked out: is an integer of thousands of digits, past what a written "
            "number can quote",
        ),
    ],
    ids=["past a float", "past json's digits"],
)
def test_a_binding_to_a_huge_integer_is_one_line_at_its_number(expression: str, said: str) -> None:
    assert checked(bound_page(expression)) == [f"docs/p.md:13:6: 5{{= {expression}}} {said}"]


def test_a_binding_that_calls_exit_is_one_line_at_its_number() -> None:
    """exit() in a binding is that binding's reason, as any exception is: the page still ran."""
    expression, said = "exit(3)", "cannot be worked out: SystemExit: 3"
    assert checked(bound_page(expression)) == [f"docs/p.md:13:6: 5{{= {expression}}} {said}"]


@pytest.mark.parametrize(
    ("expression", "said"),
    [
        ("__import__('time').sleep(600)", f"ran past the time limit of 1 seconds {SETTING}"),
        ("__import__('os').kill(__import__('os').getpid(), 9)", "ended the page's process (exit status -9)"),
    ],
    ids=["asleep", "killed"],
)
def test_a_binding_that_hangs_or_ends_the_process_is_named_by_its_line_and_column(
    expression: str, said: str
) -> None:
    with pytest.raises(Unavailable) as raised:
        checked(bound_page(expression), limit=1)
    assert str(raised.value) == f"docs/p.md:13:6: the binding {{= {expression}}} {said}"


def test_a_fence_inside_a_blockquote_that_closes_is_not_called_unclosed() -> None:
    page = f"> {F}python\n> x = 1\n> {F}\n\nIt is 3 rows.\n"
    found = read(page)
    assert found.unclosed == []
    assert [p.render("p.md") for p in found.problems] == [
        "p.md:5:7: 3 is not bound: bind it {= …} (a given by its name) or make it a label"
    ]
    assert read(page.replace(f"> {F}\n", "")).unclosed != []  # one that does not close still is


# --- what renumber can meet ------------------------------------------------------------------

MOVED_PAGE = f"{page_of('x = 4')}\nIt is 3{{= x}} rows and 2{{= x - 1}} more.\n"


@pytest.fixture
def docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A site's docs/ folder, the working directory its parent (renumber's cache goes there)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mkdocs.yml").write_text(PROJECT, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    return tmp_path / "docs"


def test_renumber_past_a_huge_binding_says_one_line_and_renumbers_the_pages_after_it(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(docs / "a.md", bound_page("x * 10**400"))
    write(docs / "b.md", MOVED_PAGE)
    assert cli.main(["renumber"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        "docs/a.md:13:6: 5{= x * 10**400} gives an integer past a float's range, which no written number "
        "here can quote",
        "docs/b.md:12:7 3 → 4",
        "docs/b.md:12:23 2 → 3",
    ]
    assert out[3:] == [
        "renumber: 2 numbers rewritten on 1 page",
        "  to edit by hand (each said above):",
        "    docs/a.md:13:6",
    ]
    assert "It is 4{= x} rows and 3{= x - 1} more." in (docs / "b.md").read_text(encoding="utf-8")


def test_renumber_on_a_folder_it_cannot_write_names_the_page_the_line_and_the_change(
    docs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As root a read-only folder is still written, so docs/ refuses as mkstemp does there."""
    write(docs / "p.md", MOVED_PAGE)
    mkstemp = tempfile.mkstemp

    def refused(dir: str, prefix: str, suffix: str) -> tuple[int, str]:
        if Path(dir) != docs.resolve():
            return mkstemp(dir=dir, prefix=prefix, suffix=suffix)  # the cache's
        raise PermissionError(errno.EACCES, "Permission denied", f"{dir}/{prefix}x1y2{suffix}")

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    assert cli.main(["renumber"]) == 1
    said = capsys.readouterr()
    assert said.err == (
        f"docs/p.md:12:7 3 → 4 not written (Permission denied in {docs.resolve()}), "
        "nor the page's 1 other change\n"
    )
    assert "    docs/p.md:12" in said.out.splitlines()
    assert (docs / "p.md").read_text(encoding="utf-8") == MOVED_PAGE


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["renumber", "-f", "absent.yml"], "renumber: absent.yml does not exist\n"),
        (["renumber", "docs/absent.md"], "renumber: docs/absent.md does not exist\n"),
        (["check", "docs/absent.md"], "check: docs/absent.md does not exist\n"),
    ],
)
def test_renumber_given_a_path_that_does_not_exist_says_so_and_exits_2(
    argv: list[str], said: str, docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    assert capsys.readouterr().err == said


@pytest.mark.parametrize(
    ("config", "said"),
    [
        (
            PROJECT.replace("values: attend-book", "values: attend-bok"),
            "renumber: bound-numbers: values: attend-bok is not a plugin of this build; name `fences` "
            "or a plugin listed under plugins: that provides the values\n",
        ),
        (
            PROJECT.replace("  - bound-numbers:\n", "  - bound-numbers-off:\n"),
            "renumber: mkdocs.yml: Aborted with a configuration error!\n",
        ),
        (
            PROJECT.replace(
                PROJECT[PROJECT.index("  - bound-numbers:") : PROJECT.index("  - attend-book:")], ""
            ),
            "renumber: mkdocs.yml lists no bound-numbers plugin under plugins:\n",
        ),
    ],
    ids=["a provider that is not there", "a plugin mkdocs does not know", "no number check"],
)
def test_renumber_on_a_site_it_cannot_renumber_says_why_in_one_line_and_exits_2(
    config: str, said: str, docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (docs.parent / "mkdocs.yml").write_text(config, encoding="utf-8")
    write(docs / "p.md", MOVED_PAGE)
    assert cli.main(["renumber"]) == 2
    assert capsys.readouterr().err == said
    assert (docs / "p.md").read_text(encoding="utf-8") == MOVED_PAGE


def test_renumber_rewrites_the_file_a_linked_page_leads_to_and_the_link_stays_a_link(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = write(docs.parent / "shared.md", MOVED_PAGE)
    (docs / "p.md").symlink_to(shared)
    (docs / "q.md").symlink_to(docs.parent / "nowhere.md")
    assert cli.main(["renumber"]) == 1
    said = capsys.readouterr()
    assert (docs / "p.md").is_symlink() and "It is 4{= x} rows" in shared.read_text(encoding="utf-8")
    assert (
        said.err
        == f"docs/q.md: cannot be read, a link to {docs.parent}/nowhere.md (No such file or directory)\n"
    )


# --- what a fence can do to its page's process and its report ------------------------------


def test_a_fence_whose_forked_copy_runs_on_into_the_page_fails_naming_it() -> None:
    # the copy reaches the second fence at once; the runner is asleep in it by then
    assert failure("import os\nos.fork()", "import time\ntime.sleep(2)") == (
        "docs/p.md:8: this fence forked the page's process (os.fork()) and the copy ran on into the "
        "page; a forked copy must end with os._exit()"
    )


def test_a_fence_whose_forked_copy_ends_itself_runs_as_any_other() -> None:
    [block] = run_page(
        "docs/p.md", page_of("import os\nif os.fork() == 0:\n    os._exit(0)\nprint('one')")
    ).blocks
    assert block.text == "one\n"


@pytest.mark.parametrize(
    "body",
    [
        "import json\njson.dumps = lambda *args, **kwargs: 'not json'",
        "import os\nos.write = lambda fd, data: len(data)",
        "import os\nos.closerange(3, 256)",
    ],
    ids=["json.dumps replaced", "os.write replaced", "descriptors 3 to 255 closed"],
)
def test_a_fence_that_replaces_or_closes_what_a_page_reports_with_changes_nothing_of_its_report(
    body: str,
) -> None:
    asked = Asked("2 * 3", 99)  # after both fences
    ran = run_page("docs/p.md", page_of(body, "print(2 + 2)"), [asked])
    assert [block.text for block in ran.blocks] == ["", "4\n"] and ran.values == {asked: 6}


def test_a_fence_that_closes_the_report_pipe_itself_is_named() -> None:
    assert failure("x = 1", "import os\nos.closerange(3, 1 << 16)") == (
        "docs/p.md:13: this fence closed the pipe the page's process reports on "
        "(a page's code may close only what it opened)"
    )


def test_a_failed_assert_whose_operand_cannot_be_shown_names_the_asserts_line() -> None:
    broken = "class Broken:\n    def __repr__(self) -> str:\n        raise ValueError('no repr')\n"
    assert failure(f"{broken}\nassert Broken() == 2") == (
        "docs/p.md:13: a python fence failed at `assert Broken() == 2`: "
        "AssertionError\n  Broken() = (its repr raised ValueError: no repr)"
    )


def test_a_fence_raising_a_long_many_lined_message_is_reported_in_a_few_short_lines() -> None:
    raising = "raise ValueError('\\n'.join(['x' * 300] * 20))"
    lines = failure(raising).splitlines()
    assert lines[0] == f"docs/p.md:9: a python fence failed at `{raising}`: ValueError: " + "x" * 187 + "…"
    assert lines[-1] == "(and 16 more lines)"
    assert len(lines) == 5 and max(map(len, lines[1:])) <= 200


# --- what a page may print, and how long the build reads it ----------------------------------

SMALL = 2 << 20  # a page's output limit in these tests: 2 MB, not the build's 8, to stay quick


@pytest.mark.parametrize(
    "body",
    ["print('x' * (3 << 20))", "while True:\n    print('y' * 1000)"],
    ids=["at once", "forever"],
)
def test_a_page_printing_past_its_output_limit_fails_naming_the_fence(body: str) -> None:
    with pytest.raises(Unavailable) as raised:
        run_page("docs/p.md", page_of("print('x' * (1 << 20))", body), most=SMALL)
    assert str(raised.value) == (
        "docs/p.md:13: this fence printed more than 2 MB, the most one page may print (its fences together)"
    )


def test_a_page_just_under_its_output_limit_is_shown_whole() -> None:
    [block] = run_page("docs/p.md", page_of("print('é' * ((2 << 20) - 1))"), most=SMALL).blocks
    assert len(block.text) == SMALL


def test_a_fence_that_writes_a_line_on_the_report_pipe_is_named() -> None:
    garble = "import os\nos.write(max(map(int, os.listdir('/proc/self/fd'))), b'garbage\\n')"
    assert failure(garble) == "docs/p.md:8: this fence wrote on the page's report pipe: b'garbage'"


def test_the_time_limit_holds_while_bytes_keep_arriving_on_the_report_pipe() -> None:
    trickle = (
        "import os, time\nreports = max(map(int, os.listdir('/proc/self/fd')))\n"
        "while True:\n    os.write(reports, b' ')\n    time.sleep(0.01)"
    )
    assert (
        failure(trickle, limit=1) == f"docs/p.md:8: this fence ran past the time limit of 1 seconds {SETTING}"
    )


# --- what a page leaves running --------------------------------------------------------------


@pytest.mark.parametrize(
    "start",
    [
        "subprocess.Popen(['sleep', '1007'], start_new_session=True).pid",
        "int(subprocess.run(['sh', '-c', DAEMON], capture_output=True).stdout)",
    ],
    ids=["in a session of its own", "orphaned by its parent"],
)
def test_a_process_a_page_leaves_running_is_ended_and_named_by_the_fence_that_started_it(
    start: str, tmp_path: Path
) -> None:
    record = tmp_path / "pid"
    daemon = "DAEMON = 'sleep 1007 >/dev/null 2>&1 & echo $!'  # its shell ends at once\n"
    fence = f"import subprocess\n{daemon}open({str(record)!r}, 'w').write(str({start}))"
    said = failure("x = 1", fence, "y = 2")
    pid = int(record.read_text())
    assert said == (
        "docs/p.md:13: this fence left processes running when its page was done, "
        f"now ended: `sleep 1007` (pid {pid})"
    )
    assert gone(pid)


def gone(pid: int) -> bool:
    """Whether the process stops running within a few seconds (a killed one takes a moment)."""
    deadline = time.monotonic() + 5
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not running(pid)


# --- what a transcript or a fence's info string can hold ---------------------------------------


def test_an_unclosed_quote_in_a_transcript_is_one_line_at_its_command_in_the_page_and_notebook() -> None:
    page = f'---\ntitle: t\n---\n\n{F}console exec="1"\n$ attend weights\n$ attend "cost\n{F}\n'
    said = 'docs/p.md:7: the transcript line `$ attend "cost` cannot be split: No closing quotation'
    with pytest.raises(Unavailable) as raised:  # the fence opens on line 5, the command is on line 7
        run_page("docs/p.md", page)
    assert str(raised.value) == said
    with pytest.raises(PluginError) as made:  # mkdocs' own error: one line, no traceback
        notebooks.cells_of(Page("docs/p.md", page))
    assert str(made.value) == said


def test_a_fence_whose_info_string_has_an_unclosed_quote_is_read_as_unreadable_and_not_run() -> None:
    [fence] = Page("docs/p.md", f'Prose.\n\n{F}python exec="1\nprint(1)\n{F}\n').fences
    assert fence.line == 3 and not fence.executed
    assert fence.unread == (
        "this fence's info string `python exec=\"1` cannot be read (No closing quotation), "
        "so it is shown as text"
    )


# --- what the workbench can do -----------------------------------------------------------------

WORKBENCH = "# %% [markdown]\n# # A bench\n\n# %%\nx = 1\n\n# %%\n"


@pytest.mark.parametrize(
    ("cell", "said"),
    [
        ("y = 2\nraise ValueError('no')", "docs/bench.py:8: this cell failed: ValueError: no"),
        ("import os\nos._exit(1)", "docs/bench.py:8: this cell ended the notebook's kernel"),
        (
            "import time\ntime.sleep(600)",
            f"docs/bench.py:8: this cell ran past the time limit of 2 seconds {SETTING}",
        ),
    ],
    ids=["raises", "ends its kernel", "hangs"],
)
def test_a_workbench_cell_that_fails_is_one_line_naming_its_line_and_not_a_cache_fault(
    cell: str, said: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    script = write(tmp_path / "bench.py", WORKBENCH + cell + "\n")
    execute = functools.partial(workbench.execute, limit=2, shown="docs/bench.py")
    with caplog.at_level(logging.INFO), pytest.raises(Unavailable) as raised:
        Cache(tmp_path / "cache", "env").notebook(script, execute, workbench.values_of)
    assert str(raised.value) == said
    assert not [r for r in caplog.records if "attend_book" in r.name]  # not taken for the cache's fault


@pytest.mark.parametrize(
    "cell",
    ["print('x' * 3_000_000)", "while True:\n    print('x' * 10_000)"],
    ids=["at once", "for ever"],
)
def test_a_workbench_printing_past_a_pages_output_limit_fails_naming_the_cell(
    cell: str, tmp_path: Path
) -> None:
    script = write(tmp_path / "bench.py", WORKBENCH + cell + "\n")
    execute = functools.partial(workbench.execute, limit=60, shown="docs/bench.py", most=SMALL)
    with pytest.raises(Unavailable, match=r"^docs/bench\.py:8: .*more than 2 MB"):  # the cell, and the limit
        Cache(tmp_path / "cache", "env").notebook(script, execute, workbench.values_of)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_ctrl_c_or_sigterm_while_the_workbench_runs_stops_it_as_a_build_ending_its_kernel(
    number: signal.Signals, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    kernel = tmp_path / "kernel"
    cell = (
        f"import os, time\nopen({str(kernel)!r}, 'w').write(str(os.getpid()))\n"
        f"os.kill({os.getpid()}, {int(number)})  # this test's process, as the build\ntime.sleep(600)"
    )
    script = write(tmp_path / "bench.py", WORKBENCH + cell + "\n")
    kept = signal.signal(number, found)
    try:
        with pytest.raises(KeyboardInterrupt):
            workbench.execute(script, tmp_path / "bench.ipynb", limit=60, shown="docs/bench.py")
        assert signal.getsignal(number) is found  # the handler it found, put back
    finally:
        signal.signal(number, kept)
    assert gone(int(kernel.read_text()))
    again = write(tmp_path / "again.py", WORKBENCH)  # a run after it, on the same event loop
    with caplog.at_level(logging.ERROR):
        workbench.execute(again, tmp_path / "again.ipynb", limit=60)
        gc.collect()  # a task the stopped run left failing is said as it is collected
    assert [r.getMessage() for r in caplog.records] == []


# --- what the site folder can meet ---------------------------------------------------------


def build_command(project: Path, site: Path) -> None:
    """What `mkdocs build` does, in this process: the plugins told the command as it starts and
    that it ended, whatever became of the build."""
    config = load_config(str(project / "mkdocs.yml"), site_dir=str(site))
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config)
    finally:
        config.plugins.on_shutdown()


def staged_left(project: Path) -> list[str]:
    """The staging folders (`.site-*`) a build left beside the site."""
    return [p.name for p in project.iterdir() if p.name.startswith(".site")]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_successful_build_moves_in_a_site_a_web_server_can_read(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    umask = os.umask(0o022)
    try:
        build_command(project, project / "site")
    finally:
        os.umask(umask)
    assert (project / "site").stat().st_mode & 0o777 == 0o755
    assert "index" in (project / "site" / "index.html").read_text(encoding="utf-8")
    assert sorted(p.name for p in project.iterdir() if p.name.startswith(".site")) == []


@pytest.mark.parametrize(
    ("spoil", "why"),
    [
        (lambda docs: write(docs / "index.md", page_of("raise ValueError('no')")), Abort),
        (lambda docs: write(docs / "index.md", "---\ntitle: t\n---\n\nNo description."), Abort),
        (lambda docs: (docs / "other.md").unlink(), Abort),
        (lambda docs: write(docs / "index.md", page_of("print('changed')")), None),
    ],
    ids=["a fence fails", "a warning under --strict", "a page goes missing from the nav", "Ctrl-C"],
)
def test_a_build_that_fails_or_is_interrupted_leaves_the_last_site_exactly_as_it_was(
    spoil: Callable[[Path], object],
    why: type[Exception] | None,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(project)
    (project / "mkdocs.yml").write_text(PROJECT + "nav: [index.md, other.md]\n", encoding="utf-8")
    write(project / "docs" / "other.md", page_of("print('other')"))
    build_command(project, project / "site")
    before = snapshot(project / "site")
    spoil(project / "docs")
    if why is None:  # Ctrl-C as the build meets it: in the build's own process, while a page runs
        monkeypatch.setattr("attend_book.plugin.run.run_plan", interrupted)
    with pytest.raises(why or KeyboardInterrupt):
        build_command(project, project / "site")
    assert snapshot(project / "site") == before
    assert staged_left(project) == []


def interrupted(*args: object, **kwargs: object) -> PageRun:
    raise KeyboardInterrupt


def test_a_build_that_runs_out_of_disk_writing_the_site_is_one_line_and_keeps_the_last_site(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    build_command(project, project / "site")
    before = snapshot(project / "site")

    def full(source: str, target: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", target)

    monkeypatch.setattr("mkdocs.utils.copy_file", full)
    with pytest.raises(Abort) as raised:
        build_command(project, project / "site")
    assert str(raised.value).startswith(f"Aborted: {project}/.site-")
    assert str(raised.value).endswith(": No space left on device") and "\n" not in str(raised.value)
    assert snapshot(project / "site") == before
    assert staged_left(project) == []


def test_what_a_killed_build_left_beside_the_site_goes_but_not_what_a_living_one_holds(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    left = project / ".site-0badc0de"
    (left / "assets").mkdir(parents=True)
    held = project / ".site-5ca1ab1e"
    held.mkdir()
    lock = os.open(held, os.O_RDONLY)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build_command(project, project / "site")
        assert not left.exists() and held.exists()
    finally:
        os.close(lock)


@pytest.mark.parametrize("kind", ["file", "symbolic link"])
def test_a_site_that_is_a_file_or_a_link_is_one_line_before_any_page_runs(
    kind: str, project: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(project)
    (project / "elsewhere").mkdir()
    site = project / "site"
    site.write_text("a file", encoding="utf-8") if kind == "file" else site.symlink_to("elsewhere")
    monkeypatch.setattr("attend_book.plugin.run.run_plan", unexpected)
    with caplog.at_level(logging.ERROR), pytest.raises(Abort):
        build_command(project, site)
    said = {
        "file": f"{site} is a file, not a folder: move it, or give --site-dir another path",
        "symbolic link": (
            f"{site} is a symbolic link; the site is built beside it and moved into its place, "
            "which would replace the link: give --site-dir the folder it points to"
        ),
    }
    assert [r.getMessage() for r in caplog.records] == [said[kind]]


# --- what a page's file can be -----------------------------------------------------------------


def test_a_page_that_links_to_nothing_or_to_itself_is_one_line_and_every_other_page_is_checked(
    project: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(project)
    (project / "docs" / "dangling.md").symlink_to("nowhere.md")
    (project / "docs" / "looping.md").symlink_to("looping.md")
    write(project / "docs" / "later.md", page_of("print(1)").replace("Prose.", "Prose of 3 lines."))
    with caplog.at_level(logging.WARNING), pytest.raises(Abort, match="2 errors, 1 warnings"):
        build_command(project, project / "site")
    assert messages(caplog) == [
        "docs/dangling.md:1: the page cannot be read: No such file or directory",
        "docs/later.md:6:10: 3 is not bound: bind it {= …} (a given by its name) or make it a label",
        "docs/looping.md:1: the page cannot be read: Too many levels of symbolic links",
    ]


def messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [unprefixed(r.getMessage()) for r in caplog.records if r.levelno >= logging.WARNING]


def unprefixed(message: str) -> str:
    """A plugin's line without the name of the plugin that said it (the book's or the number check's)."""
    return message.removeprefix("attend_book: ").removeprefix("bound_numbers: ")


def test_a_page_whose_fence_fails_is_still_checked_for_front_matter_includes_numbers_and_fences(
    project: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(project)
    page = (
        f'---\ntitle: t\n---\n\n{F}python exec="1"\nraise ValueError("no")\n{F}\n\n'
        f'It is 3 wide.\n\n{F}python\n--8<-- "missing.py"\n{F}\n\n{F}python exec="1\nprint(1)\n{F}\n'
    )
    write(project / "docs" / "index.md", page)
    with caplog.at_level(logging.WARNING), pytest.raises(Abort):
        build_command(project, project / "site")
    assert messages(caplog) == [
        "docs/index.md:15: this fence's info string `python exec=\"1` cannot be read (No closing quotation), "
        "so it is shown as text",
        'docs/index.md:6: a python fence failed at `raise ValueError("no")`: ValueError: no',
        'docs/index.md:1: the front matter has no description; see "Add a page" in docs/contributing.md',
        "docs/index.md:9:7: 3 is not bound: bind it {= …} (a given by its name) or make it a label",
        "docs/index.md:11: this fence holds an include line, so it must be a listing marked notest, not "
        'executed; see "Add a page" in docs/contributing.md',
        "docs/index.md:12: the include names missing.py, which is not there",
    ]


@pytest.mark.parametrize(
    ("number", "sent"),
    [(signal.SIGINT, os.killpg), (signal.SIGTERM, os.kill)],
    ids=["Ctrl-C, to the build's whole group as a terminal sends it", "SIGTERM, to the build alone (kill)"],
)
def test_ctrl_c_or_sigterm_during_a_build_ends_it_in_one_line_keeping_the_last_site_and_no_page_running(
    number: signal.Signals, sent: Callable[[int, int], None], project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    # A time limit the signal always beats, however loaded the machine: the signal ends the page.
    settings = PROJECT.replace("time_limit: 3", "time_limit: 120") + "theme:\n  name: material\n"
    (project / "mkdocs.yml").write_text(settings, encoding="utf-8")
    build_command(project, project / "site")
    before = snapshot(project / "site")
    started = project / "started"
    fence = f"import os, time\nopen({str(started)!r}, 'w').write(str(os.getpid()))\ntime.sleep(600)"
    write(project / "docs" / "index.md", page_of(fence))
    command = [sys.executable, "-m", "properdocs", "build", "-f", "mkdocs.yml", "--strict"]
    build = subprocess.Popen(
        command,
        cwd=project,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # as a terminal's shell starts it: a script's background job (CI's streams) ignores
        # SIGINT, and an ignored signal is inherited through exec, so the build never heard it
        preexec_fn=functools.partial(signal.signal, signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not (started.exists() and started.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    sent(build.pid, number)
    said = build.communicate(timeout=60)[1]
    assert build.returncode == 1 and said.rstrip().endswith("\nAborted!") and "Traceback" not in said
    assert staged_left(project) == []
    assert snapshot(project / "site") == before
    assert gone(int(started.read_text()))


class UnhandledSignalError(Exception):
    """A signal met the handler the code under test found, not the one it should have set."""


def found(number: int, frame: object) -> None:
    raise UnhandledSignalError


@pytest.mark.parametrize(
    "where",
    ["attend_book.plugin.run.run_plan", "mkdocs.utils.CountHandler.get_counts"],
    ids=["while a page runs", "once the site is written, as --strict counts warnings"],
)
def test_sigterm_in_a_build_is_ctrl_c_keeping_the_last_site_and_then_the_handler_it_found(
    where: str, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    build_command(project, project / "site")
    before = snapshot(project / "site")
    write(project / "docs" / "index.md", page_of("print('changed')"))
    monkeypatch.setattr(where, terminating)
    kept = signal.signal(signal.SIGTERM, found)
    try:
        with pytest.raises(KeyboardInterrupt):
            build_command(project, project / "site")
        assert signal.getsignal(signal.SIGTERM) is found
    finally:
        signal.signal(signal.SIGTERM, kept)
    assert snapshot(project / "site") == before
    assert staged_left(project) == []


def terminating(*args: object, **kwargs: object) -> None:
    """SIGTERM sent to this very process, met before this returns."""
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)


def test_a_workbench_whose_cell_fails_is_one_line_shown_without_outputs_and_the_build_goes_on(
    project: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(project)
    jupyter = "  - mkdocs-jupyter:\n      include: [workbench.ipynb]\n      execute: false\n"
    (project / "mkdocs.yml").write_text(
        PROJECT.replace("markdown_extensions:", f"{jupyter}markdown_extensions:"), encoding="utf-8"
    )
    write(project / "docs" / "workbench.py", WORKBENCH + "y = 2\nraise ValueError('no')\n")
    write(project / "docs" / "later.md", page_of("print(1)").replace("Prose.", "Prose of 3 lines."))
    with caplog.at_level(logging.WARNING), pytest.raises(Abort, match="1 errors, 1 warnings"):
        build(load_config(str(project / "mkdocs.yml"), site_dir=str(project / "site")))
    assert [line.split("  (")[0] for line in messages(caplog)] == [
        "docs/workbench.py:8: this cell failed: ValueError: no",
        "docs/later.md:6:10: 3 is not bound: bind it {= …} (a given by its name) or make it a label",
    ]
    shown = (project / "site" / "workbench" / "index.html").read_text(encoding="utf-8")
    assert "raise ValueError" in shown and "Traceback" not in shown


# --- a strict build fails on the book's problems, whatever hides their lines ---------------------

HUSH = (
    "import logging\n\nlogging.disable(logging.CRITICAL)  # a logging configuration that hides every line\n"
)


@pytest.mark.parametrize("hidden_by", ["-q", "a logging configuration"])
@pytest.mark.parametrize(
    ("page", "said"),
    [
        (
            page_of("x = 1", "y = 2") + '\n--8<-- "nothere.py"\n',
            [
                "docs/index.md:13: this python fence runs after the page's first but does not say",
                "docs/index.md:17: the include names nothere.py",
            ],
        ),
        (
            page_of("raise ValueError('no')"),
            ["docs/index.md:9: a python fence failed at `raise ValueError('no')`"],
        ),
    ],
    ids=["a fence rule broken, an include of nothing", "a fence that fails"],
)
def test_a_strict_build_fails_on_the_books_problems_and_says_them_whatever_hides_their_lines(
    hidden_by: str, page: str, said: list[str], project: Path
) -> None:
    settings, flags = PROJECT + "theme:\n  name: material\n", ["-q"]
    if hidden_by != "-q":
        (project / "hush.py").write_text(HUSH, encoding="utf-8")
        settings, flags = f"{settings}hooks: [hush.py]\n", []
    (project / "mkdocs.yml").write_text(settings, encoding="utf-8")
    assert properdocs_build(project, project / "site", flags=flags).returncode == 0
    before = snapshot(project / "site")
    write(project / "docs" / "index.md", page)
    done = properdocs_build(project, project / "site", flags=flags)
    assert done.returncode == 1
    shown = done.stdout + done.stderr
    assert all(line in shown for line in said), shown
    assert snapshot(project / "site") == before


# --- the site folders are out of a page's reach ---------------------------------------------------

SHELL = "import subprocess\nsubprocess.run(['sh', '-c', {!r}], check=True)"
REACHES = {
    "python into the last site": ("open('site/planted.html', 'w').write('x')", "docs/index.md:9: "),
    "python into the new site": (
        "import glob\nopen(glob.glob('.site-*')[0] + '/planted.html', 'w').write('x')",
        "docs/index.md:10: ",
    ),
    "python removing from the last site": ("import os\nos.remove('site/index.html')", "docs/index.md:10: "),
    "a shell into the last site": (SHELL.format("echo x > site/planted.html"), "docs/index.md:1: "),
    "a shell into the new site": (
        SHELL.format("for new in .site-*; do echo x > $new/planted.html; done"),
        "docs/index.md:1: ",
    ),
    "a shell emptying the last site": (SHELL.format("rm -rf site/*"), "docs/index.md:1: "),
}


@pytest.mark.parametrize(("fence", "where"), REACHES.values(), ids=REACHES.keys())
def test_what_a_pages_code_writes_into_a_site_folder_reaches_neither_the_kept_site_nor_the_new_one(
    fence: str, where: str, project: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(project)
    build_command(project, project / "site")
    before = snapshot(project / "site")
    write(project / "docs" / "index.md", page_of(fence))
    with caplog.at_level(logging.ERROR), pytest.raises(Abort):
        build_command(project, project / "site")
    [said] = [unprefixed(r.getMessage()) for r in caplog.records]
    assert said.startswith(where) and "site" in said
    assert snapshot(project / "site") == before
    assert staged_left(project) == []


def test_a_new_site_a_pages_code_changed_is_not_moved_in_even_by_a_build_that_is_not_strict(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    (project / "mkdocs.yml").write_text(PROJECT.replace("strict: true", "strict: false"), encoding="utf-8")
    build_command(project, project / "site")
    before = snapshot(project / "site")
    write(project / "docs" / "index.md", page_of(REACHES["a shell into the new site"][0]))
    build_command(project, project / "site")  # the page's failure is an error, which only --strict stops on
    assert snapshot(project / "site") == before
    assert staged_left(project) == []


@pytest.mark.parametrize(
    "cell",
    ["open({planted!r}, 'w').write('x')", "import os\nos.system('echo x > ' + {planted!r})"],
    ids=["python", "a shell"],
)
def test_what_a_workbench_cell_writes_into_the_site_reaches_neither_the_kept_site_nor_the_new_one(
    cell: str, project: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(project)
    jupyter = "  - mkdocs-jupyter:\n      include: [workbench.ipynb]\n      execute: false\n"
    (project / "mkdocs.yml").write_text(
        PROJECT.replace("markdown_extensions:", f"{jupyter}markdown_extensions:"), encoding="utf-8"
    )
    write(project / "docs" / "workbench.py", WORKBENCH + "print(1)\n")
    build_command(project, project / "site")
    before = snapshot(project / "site")
    planted = str(project / "site" / "planted.html")  # the kernel runs in docs/
    write(project / "docs" / "workbench.py", WORKBENCH + cell.format(planted=planted) + "\n")
    with caplog.at_level(logging.ERROR), pytest.raises(Abort):
        build_command(project, project / "site")
    [said] = [unprefixed(r.getMessage()) for r in caplog.records if r.levelno >= logging.ERROR]
    assert said.startswith("docs/workbench.py:") and planted in said
    assert snapshot(project / "site") == before
    assert staged_left(project) == []


# --- every output bounded, and the build linear in its size -----------------------------------------

WHOLE_BOOK = textwrap.dedent(  # the workbench and the whole-book page, as the book has them
    """\
      - mkdocs-jupyter:
          include: [workbench.ipynb]
          execute: false
      - print-site:
          add_cover_page: false
          add_to_navigation: false
    markdown_extensions:"""
)


def test_a_page_and_a_workbench_cell_printing_a_megabyte_without_a_space_build_in_linear_time(
    project: Path,
) -> None:
    """print-site's anchor pattern met `<pre>` and an unbroken megabyte on one line and took time
    growing with its square: the build ran past 300 s, and on past 600 s. Here it must finish; the
    time it takes is measured by `scripts/bench_faults.py --book-output` (14.5 s), not asserted,
    and the 600 s stop only keeps a build that hangs from holding the suite for ever."""
    settings = PROJECT.replace("time_limit: 3", "time_limit: 600").replace("markdown_extensions:", WHOLE_BOOK)
    (project / "mkdocs.yml").write_text(f"{settings}theme:\n  name: material\n", encoding="utf-8")
    write(project / "docs" / "index.md", page_of("print('y' * 1_000_000)"))
    write(project / "docs" / "workbench.py", WORKBENCH + "print('x' * 1_000_000)\n")
    command = [sys.executable, "-m", "properdocs", "build", "-q", "-f", "mkdocs.yml", "--strict"]
    done = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    printed = (project / "site" / "print_page" / "index.html").read_text(encoding="utf-8")
    assert "y" * 1_000_000 in printed and "x" * 1_000_000 in printed
