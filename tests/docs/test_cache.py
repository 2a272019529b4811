"""The execution cache reuses a page's outputs only while nothing they depend on has changed."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
from pathlib import Path

import pytest
from tree import DOCS, ROOT

import attend.core.head
from attend_book import inputs, workbench
from attend_book.cache import Cache, Hashes, Runner, build_versions, fingerprint, source_roots
from attend_book.inputs import Read
from attend_book.page import PageRun
from attend_book.run import plan_of, run_page, run_plan
from bound_numbers import Asked, Page, Plan, Unavailable

F = "```"
PAGE = f'---\ntitle: t\n---\n\nProse.\n\n{F}python exec="1"\nprint(2 + 2)\n{F}\n'
END = 10**6  # a line past every page here: asked there, a value comes after every fence


class Counting:
    """`run_plan`, counting the pages it really runs."""

    def __init__(self) -> None:
        self.pages: list[str] = []

    def __call__(self, plan: Plan) -> PageRun:
        self.pages.append(plan.page)
        return run_plan(plan)


def cached(cache: Cache, text: str, run: Runner, expressions: tuple[str, ...] = ()) -> PageRun:
    """The page `text` from `cache`, or run by `run`, with `expressions` asked after its fences."""
    asked = [Asked(expression, END) for expression in expressions]
    return cache.page(plan_of(Page("docs/p.md", text), asked), run=run)


@pytest.fixture
def run() -> Counting:
    return Counting()


def test_a_page_seen_before_is_not_run_again_and_gives_the_same_blocks(tmp_path: Path, run: Counting) -> None:
    first = cached(Cache(tmp_path, "env"), PAGE, run).blocks
    again = cached(Cache(tmp_path, "env"), PAGE, run).blocks
    assert run.pages == ["docs/p.md"]
    assert again == first and again[0].text == "4\n"


def test_a_prose_edit_reruns_nothing_and_the_blocks_follow_the_new_lines(
    tmp_path: Path, run: Counting
) -> None:
    cached(Cache(tmp_path, "env"), PAGE, run)
    edited = PAGE.replace("Prose.\n", "Prose, rewritten,\nover three\nlines.\n")
    [block] = cached(Cache(tmp_path, "env"), edited, run).blocks
    assert run.pages == ["docs/p.md"]
    assert block.fence.line == 9 and block.text == "4\n"


def test_a_code_edit_reruns_the_page(tmp_path: Path, run: Counting) -> None:
    cached(Cache(tmp_path, "env"), PAGE, run)
    [block] = cached(Cache(tmp_path, "env"), PAGE.replace("2 + 2", "2 + 3"), run).blocks
    assert run.pages == ["docs/p.md", "docs/p.md"] and block.text == "5\n"


def test_an_edit_to_a_fences_options_alone_reruns_the_page(tmp_path: Path, run: Counting) -> None:
    """An exercise's answer is held as the page runs: changing only `answer=` must run it again
    (it once came from the cache, and an answer naming nothing built green)."""
    asked = PAGE.replace('exec="1"', 'exec="1" answer="2 + 2 == 4"')
    cached(Cache(tmp_path, "env"), asked, run)
    wrong = asked.replace('answer="2 + 2 == 4"', 'answer="nothing_named_so"')
    with pytest.raises(Unavailable, match="nothing_named_so"):
        cached(Cache(tmp_path, "env"), wrong, run)
    assert run.pages == ["docs/p.md", "docs/p.md"]


def test_a_changed_environment_reruns_the_page(tmp_path: Path, run: Counting) -> None:
    cached(Cache(tmp_path, "env"), PAGE, run)
    cached(Cache(tmp_path, "another env"), PAGE, run)
    assert len(run.pages) == 2


@pytest.fixture
def package(tmp_path: Path) -> Path:
    root = tmp_path / "attend"
    (root / "data").mkdir(parents=True)
    (root / "head.py").write_text("WQ = 0.5\n", encoding="utf-8")
    (root / "data" / "merges.txt").write_text("a b\n", encoding="utf-8")
    return root


def test_a_changed_package_source_file_changes_the_fingerprint(package: Path) -> None:
    before = fingerprint([package], {"numpy": "2.3.0"})
    (package / "head.py").write_text("WQ = 0.6\n", encoding="utf-8")
    assert fingerprint([package], {"numpy": "2.3.0"}) != before


def test_a_changed_package_data_file_or_a_new_file_changes_the_fingerprint(package: Path) -> None:
    before = fingerprint([package], {})
    (package / "data" / "merges.txt").write_text("a c\n", encoding="utf-8")
    changed = fingerprint([package], {})
    (package / "cost.py").write_text("", encoding="utf-8")
    assert len({before, changed, fingerprint([package], {})}) == 3


def test_a_changed_chapter_test_changes_the_fingerprint_and_the_pages_run_it(package: Path) -> None:
    test = package.parent / "test_chapter.py"
    test.write_text("def test_one():\n    assert 1\n", encoding="utf-8")
    before = fingerprint([package, test], {})
    test.write_text("def test_one():\n    assert 0\n", encoding="utf-8")
    assert fingerprint([package, test], {}) != before
    assert {root.name for root in source_roots()} >= {"test_chapter.py", "conftest.py"}


def test_a_changed_dependency_version_changes_the_fingerprint(package: Path) -> None:
    assert fingerprint([package], {"numpy": "2.3.0"}) != fingerprint([package], {"numpy": "2.3.1"})


def test_bytecode_and_timestamps_do_not_change_the_fingerprint(package: Path) -> None:
    before = fingerprint([package], {})
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "head.cpython-311.pyc").write_bytes(b"\0")
    os.utime(package / "head.py", (0, 0))
    assert fingerprint([package], {}) == before


def test_the_fingerprint_covers_the_package_the_plugin_and_the_build_versions() -> None:
    roots = source_roots()
    assert any((root / "core" / "head.py").is_file() for root in roots), roots
    assert any((root / "plugin.py").is_file() for root in roots), roots
    versions = build_versions()
    assert {"attend-head", "numpy", "properdocs", "mkdocs", "markdown-exec", "matplotlib", "nbclient"} <= set(
        versions
    )


def _distribution(folder: Path, requires: str = "") -> None:
    """A distribution `fake` 1.0 installed in `folder`, requiring `requires`."""
    info = folder / "fake-1.0.dist-info"
    info.mkdir(exist_ok=True)
    lines = [
        "Metadata-Version: 2.1",
        "Name: fake",
        "Version: 1.0",
        *([f"Requires-Dist: {requires}"] * bool(requires)),
    ]
    (info / "METADATA").write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(info, ns=(info.stat().st_mtime_ns + 10**9,) * 2)  # as a new install writes it anew


def test_the_build_versions_are_kept_between_builds_and_asked_again_after_an_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from attend_book import cache

    site = tmp_path / "site-packages"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    kept = tmp_path / "versions.json"
    _distribution(site)
    assert build_versions(("fake",), kept) == {"fake": "1.0"} == json.loads(kept.read_text())["versions"]
    cache._requirements.cache_clear()
    monkeypatch.setattr(
        cache, "_requirements", lambda *_: pytest.fail("the requirements were followed again")
    )
    assert build_versions(("fake",), kept) == {"fake": "1.0"}  # from the file: nothing installed since
    monkeypatch.undo()
    monkeypatch.syspath_prepend(str(site))
    _distribution(site, requires="pytest")  # installed again, now requiring pytest: same name, same version
    again = build_versions(("fake",), kept)
    assert again["fake"] == "1.0" and again["pytest"] == build_versions()["pytest"]
    key = json.loads(kept.read_text())["key"]
    for damaged in ("{not json", json.dumps({"key": key, "versions": ["fake", "9.9"]})):
        kept.write_text(damaged, encoding="utf-8")
        assert build_versions(("fake",), kept)["fake"] == "1.0"  # a damaged file: asked afresh, written again
        assert json.loads(kept.read_text())["versions"]["fake"] == "1.0"


def test_a_tool_installed_beside_the_build_leaves_the_fingerprint_alone() -> None:
    # hypothesis is installed beside the build (the tests use it); nothing the build imports requires
    # it (pytest it does: chapter_tests runs the chapter's tests where a page shows them)
    assert "hypothesis" not in build_versions()
    assert "pytest" in build_versions()


def test_the_fingerprint_covers_the_figures_the_pages_draw() -> None:
    assert any((root / "pictures.py").is_file() for root in source_roots()), source_roots()


def test_the_workbench_is_executed_once_per_environment(tmp_path: Path) -> None:
    source = tmp_path / "workbench.py"
    source.write_text("# %%\nprint(1)\n", encoding="utf-8")
    executed: list[Path] = []

    def execute(notebook: Path, target: Path) -> Read:
        executed.append(notebook)
        target.write_text("{}", encoding="utf-8")
        return Read()

    first, text = Cache(tmp_path / "cache", "env").notebook(source, execute, Path.read_text)
    assert Cache(tmp_path / "cache", "env").notebook(source, execute, Path.read_text) == (first, "{}")
    assert first.name == "workbench.ipynb" and text == "{}"
    Cache(tmp_path / "cache", "another env").notebook(source, execute, Path.read_text)
    source.write_text("# %%\nprint(2)\n", encoding="utf-8")
    Cache(tmp_path / "cache", "env").notebook(source, execute, Path.read_text)
    assert len(executed) == 3


def test_the_workbench_is_executed_again_for_bindings_its_kernel_did_not_evaluate(tmp_path: Path) -> None:
    """A notebook executed for other bindings (a test's run of the workbench, say) has no values
    for the build's: its entry is another."""
    source = tmp_path / "workbench.py"
    source.write_text("# %%\nx = 1\n", encoding="utf-8")
    executed: list[Path] = []

    def execute(notebook: Path, target: Path) -> Read:
        executed.append(notebook)
        target.write_text("{}", encoding="utf-8")
        return Read()

    Cache(tmp_path / "cache", "env").notebook(source, execute, Path.read_text)
    Cache(tmp_path / "cache", "env").notebook(source, execute, Path.read_text, ["x", "len(x)"])
    Cache(tmp_path / "cache", "env").notebook(source, execute, Path.read_text, ["len(x)", "x", "x"])
    assert len(executed) == 2


def test_the_workbench_shown_first_still_gives_the_number_check_its_bindings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whichever plugin asks first: a run made for the page alone, without bindings, does not
    answer the check's later question with values it never evaluated."""
    asked: list[frozenset[Asked]] = []

    def executed(
        script: Path, wanted: frozenset[Asked], cache: Cache, **_: object
    ) -> tuple[Path, dict[Asked, int]]:
        asked.append(wanted)
        return script, {a: 1 for a in wanted}

    monkeypatch.setattr(workbench, "executed", executed)
    bench, cache, script = workbench.Workbench(), Cache(tmp_path, "env"), tmp_path / "workbench.py"
    x, size = Asked("x", 3), Asked("len(x)", 3)
    bench.notebook(script, cache, limit=1, shown="w.py")
    ran = bench.ran(script, [x, size], cache, limit=1, shown="w.py")
    again = bench.ran(script, [x], cache, limit=1, shown="w.py")
    assert not isinstance(ran, Unavailable) and ran[1] == {x: 1, size: 1} and again == ran
    assert asked == [frozenset(), frozenset({x, size})]


# --- every file a page's code read is in its entry's key --------------------------------------


def page_reading(body: str) -> str:
    return f'---\ntitle: t\n---\n\n{F}python exec="1"\n{body}\n{F}\n'


@pytest.mark.parametrize(
    "body",
    [
        "from pathlib import Path\nprint(Path({file!r}).read_text())",
        "import subprocess, sys\n"
        "shown = 'import sys; print(open(sys.argv[1]).read())'\n"
        "done = subprocess.run([sys.executable, '-c', shown, {file!r}], capture_output=True, text=True)\n"
        "print(done.stdout)",
        "import importlib.util\nspec = importlib.util.spec_from_file_location('m', {file!r})\n"
        "m = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(m)\nprint(m.SMALLEST)",
    ],
    ids=["opened", "opened by a python process it started", "imported from its path"],
)
def test_a_file_the_pages_code_read_reruns_it_when_changed_and_again_when_put_back(
    tmp_path: Path, run: Counting, body: str
) -> None:
    read = tmp_path / "figures.py"
    read.write_text("SMALLEST = 11.0\n", encoding="utf-8")
    page = page_reading(body.format(file=str(read)))
    first = cached(Cache(tmp_path / "cache", "env"), page, run).blocks[0].text
    assert cached(Cache(tmp_path / "cache", "env"), page, run).blocks[0].text == first
    assert len(run.pages) == 1 and "11" in first
    # another size: Python's own check of its compiled module (size and whole seconds of mtime)
    # would take an edit of the same size within the same second for no edit at all
    read.write_text("SMALLEST = 12.25\n", encoding="utf-8")
    assert "12.25" in cached(Cache(tmp_path / "cache", "env"), page, run).blocks[0].text
    read.write_text("SMALLEST = 11.0\n", encoding="utf-8")
    assert cached(Cache(tmp_path / "cache", "env"), page, run).blocks[0].text == first
    assert len(run.pages) == 3


def test_the_cache_tells_without_running_whether_it_would_run_a_page(tmp_path: Path, run: Counting) -> None:
    """What `ahead` asks before a rebuild under `serve`: the answer `page` would act on."""
    read = tmp_path / "figures.py"
    read.write_text("SMALLEST = 11.0\n", encoding="utf-8")
    plan = plan_of(Page("docs/p.md", page_reading(f"print(open({str(read)!r}).read())")))
    cache = Cache(tmp_path / "cache", "env")
    assert not cache.holds_page(plan)  # never run
    cache.page(plan, run=run)
    assert cache.holds_page(plan)
    read.write_text("SMALLEST = 12.25\n", encoding="utf-8")
    assert not cache.holds_page(plan)
    cache.page(plan, run=run)
    cache.entry_of(plan).write_text("{", encoding="utf-8")  # cut short
    assert not cache.holds_page(plan) and len(run.pages) == 2


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each path whose contents are read from now on."""
    paths: list[str] = []
    contents = inputs.contents

    def reading(path: str) -> bytes:
        paths.append(path)
        return contents(path)

    monkeypatch.setattr(inputs, "contents", reading)
    return paths


def test_a_file_is_hashed_once_while_it_stands_and_again_once_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hashed: list[str]
) -> None:
    monkeypatch.setattr(Hashes, "SETTLED", 0)  # as if written long ago
    figures, gone = tmp_path / "figures.py", str(tmp_path / "gone.py")
    figures.write_text("SMALLEST = 11.0\n", encoding="utf-8")
    hashes = Hashes()
    first = hashes([str(figures), gone])
    assert hashes([str(figures), gone]) == first and first[gone] == "" and len(hashed) == 1
    kept = figures.stat().st_mtime_ns
    figures.write_text("SMALLEST = 12.0\n", encoding="utf-8")  # the same size,
    os.utime(figures, ns=(kept, kept))  # and its time put back: its change time still moved
    assert hashes([str(figures)])[str(figures)] != first[str(figures)] and len(hashed) == 2


def test_a_file_written_in_the_last_seconds_is_hashed_every_time(tmp_path: Path, hashed: list[str]) -> None:
    figures = tmp_path / "figures.py"
    figures.write_text("SMALLEST = 11.0\n", encoding="utf-8")
    hashes = Hashes()
    assert hashes([str(figures)]) == hashes([str(figures)]) and len(hashed) == 2


def test_a_new_file_in_a_folder_the_page_listed_reruns_it_and_one_outside_the_book_does_not(
    tmp_path: Path,
) -> None:
    book, elsewhere = tmp_path / "book", tmp_path / "elsewhere"
    (book / "tests").mkdir(parents=True)
    elsewhere.mkdir()
    body = f"import os\nprint(sorted(os.listdir('tests')), len(os.listdir({str(elsewhere)!r})))"
    ran: list[str] = []

    def run(plan: Plan) -> PageRun:
        ran.append(plan.page)
        return run_plan(plan, folder=str(book))  # the page's process works in the book

    def shown() -> str:
        return cached(Cache(tmp_path / "cache", "env"), page_reading(body), run).blocks[0].text

    assert shown() == "[] 0\n"
    (elsewhere / "unrelated.txt").write_text("", encoding="utf-8")
    assert shown() == "[] 0\n" and len(ran) == 1  # outside the book: not followed
    (book / "tests" / "test_new.py").write_text("", encoding="utf-8")
    assert shown() == "['test_new.py'] 1\n" and len(ran) == 2


def test_a_file_the_page_wrote_itself_or_one_gone_by_its_end_is_not_followed(tmp_path: Path) -> None:
    written = tmp_path / "written.txt"
    body = f"import tempfile\nopen({str(written)!r}, 'w').write('x')\nprint(open({str(written)!r}).read())\n"
    gone = f"tempfile.NamedTemporaryFile('w+', dir={str(tmp_path)!r})"
    body += f"with {gone} as t:\n    print(open(t.name).read())"
    read = run_page("docs/p.md", page_reading(body)).read.files
    assert not [p for p in read if p.startswith(str(tmp_path))]  # neither the file written nor the one gone


def test_a_page_follows_the_package_sources_it_imported() -> None:
    read = run_page("docs/p.md", page_reading("import attend.core.head")).read.files
    assert str(Path(attend.core.head.__file__).resolve()) in {str(Path(p).resolve()) for p in read}


def test_a_changed_workbench_input_executes_it_again_and_a_corrupt_one_is_thrown_away(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    source, data = tmp_path / "workbench.py", tmp_path / "weights.txt"
    source.write_text("# %%\nprint(1)\n", encoding="utf-8")
    data.write_text("0.5", encoding="utf-8")
    executed: list[str] = []

    def execute(notebook: Path, target: Path) -> Read:
        executed.append(data.read_text(encoding="utf-8"))
        target.write_text(json.dumps({"weight": executed[-1]}), encoding="utf-8")
        return Read((str(data),))

    def weight(notebook: Path) -> str:
        return str(json.loads(notebook.read_text(encoding="utf-8"))["weight"])

    entry, _ = Cache(tmp_path / "cache", "env").notebook(source, execute, weight)
    assert Cache(tmp_path / "cache", "env").notebook(source, execute, weight) == (entry, "0.5")
    data.write_text("0.7", encoding="utf-8")
    assert Cache(tmp_path / "cache", "env").notebook(source, execute, weight)[1] == "0.7"
    entry.write_text('{"cells": [', encoding="utf-8")  # garbage in the executed notebook
    with caplog.at_level(logging.INFO):
        assert Cache(tmp_path / "cache", "env").notebook(source, execute, weight)[1] == "0.7"
    [said] = [r.getMessage().removeprefix("attend_book: ") for r in caplog.records]
    assert said.startswith(f"workbench.py: its cache entry {entry} cannot be read (JSONDecodeError")
    assert "\n" not in said and executed == ["0.5", "0.7", "0.7"]


def test_pruning_keeps_what_the_last_build_used_and_the_newest_environments(
    tmp_path: Path, run: Counting
) -> None:
    cached(Cache(tmp_path, "env-0"), PAGE, run)
    cache = Cache(tmp_path, "env-0")
    cached(cache, PAGE.replace("2 + 2", "2 + 3"), run)
    cache.prune()
    assert len(list(tmp_path.glob("outputs/*/pages/*.json"))) == 1
    os.utime(cache.folder, (0, 0))
    for n in range(1, 5):
        later = Cache(tmp_path, f"env-{n}")
        cached(later, PAGE, run)
        later.prune()
        os.utime(later.folder, (n, n))  # as if built long ago, in this order
    assert sorted(f.name for f in (tmp_path / "outputs").iterdir()) == ["env-2", "env-3", "env-4"]


def test_a_bound_expression_is_evaluated_once_and_kept_with_the_page(tmp_path: Path, run: Counting) -> None:
    first = cached(Cache(tmp_path, "env"), PAGE, run, ("2 * 3", "nope"))
    again = cached(Cache(tmp_path, "env"), PAGE, run, ("nope", "2 * 3"))
    assert run.pages == ["docs/p.md"]
    assert again.values == first.values and first.values[Asked("2 * 3", END)] == 6
    assert first.values[Asked("nope", END)] == "NameError: name 'nope' is not defined"


# --- every input a page's processes used: files opened from C, programs, the environment ---------


def test_a_database_the_page_read_through_sqlite_reruns_it_when_changed(
    tmp_path: Path, run: Counting
) -> None:
    """sqlite3 opens its file from C, where no `open` audit event is raised."""
    database = tmp_path / "weights.db"
    with contextlib.closing(sqlite3.connect(database)) as made, made:
        made.execute("create table weights (wq real)")
        made.execute("insert into weights values (0.5)")
    query = "select wq from weights"
    body = f"import sqlite3\nprint(sqlite3.connect({str(database)!r}).execute({query!r}).fetchone())"

    def shown() -> str:
        return cached(Cache(tmp_path / "cache", "env"), page_reading(body), run).blocks[0].text

    assert shown() == shown() == "(0.5,)\n" and len(run.pages) == 1
    with contextlib.closing(sqlite3.connect(database)) as changed, changed:
        changed.execute("update weights set wq = 0.6")
    assert shown() == "(0.6,)\n" and len(run.pages) == 2


CHILD = "import subprocess, sys\nchild = 'print(open(%r).read())' % {file!r}\n"
STARTED = {
    "cat": "import subprocess\nprint(subprocess.run(['cat', {file!r}], capture_output=True).stdout)",
    "dd": "import subprocess\nprint(subprocess.run(['dd', 'if=' + {file!r}], capture_output=True).stdout)",
    "a shell": "import os\nos.system('cat ' + {file!r})",
    "python -I": CHILD
    + "print(subprocess.run([sys.executable, '-I', '-c', child], capture_output=True).stdout)",
    "python, its environment dropped": CHILD
    + "print(subprocess.run([sys.executable, '-c', child], capture_output=True, env={{}}).stdout)",
}


@pytest.mark.parametrize("body", STARTED.values(), ids=STARTED.keys())
def test_a_page_that_starts_a_program_nothing_records_is_never_served_from_the_cache(
    tmp_path: Path, run: Counting, body: str
) -> None:
    read = tmp_path / "weights.txt"
    read.write_text("0.5", encoding="utf-8")
    page = page_reading(body.format(file=str(read)))
    cached(Cache(tmp_path / "cache", "env"), page, run)
    read.write_text("0.6", encoding="utf-8")
    cached(Cache(tmp_path / "cache", "env"), page, run)
    cached(Cache(tmp_path / "cache", "env"), page, run)
    assert len(run.pages) == 3


def test_a_page_that_starts_a_python_that_records_is_still_kept(tmp_path: Path, run: Counting) -> None:
    body = "import subprocess, sys\nsubprocess.run([sys.executable, '-c', 'print(1)'], check=True)"
    cached(Cache(tmp_path, "env"), page_reading(body), run)
    cached(Cache(tmp_path, "env"), page_reading(body), run)
    assert len(run.pages) == 1


VARIABLE = "ATTEND_TEST_WEIGHT"
READS_VARIABLE = {
    "os.environ.get": f"import os\nprint(os.environ.get({VARIABLE!r}))",
    "os.getenv in a python process it started": "import subprocess, sys\n"
    f"shown = {f'import os; print(os.getenv({VARIABLE!r}))'!r}\n"
    "print(subprocess.run([sys.executable, '-c', shown], capture_output=True, text=True).stdout)",
    "the whole environment": f"import os\nprint(dict(os.environ).get({VARIABLE!r}))",
}


@pytest.mark.parametrize("body", READS_VARIABLE.values(), ids=READS_VARIABLE.keys())
def test_an_environment_variable_the_page_read_reruns_it_when_changed_or_unset(
    tmp_path: Path, body: str
) -> None:
    ran: list[str | None] = []

    def shown(value: str | None) -> str:
        given = {k: v for k, v in os.environ.items() if k != VARIABLE} | ({VARIABLE: value} if value else {})

        def run(plan: Plan) -> PageRun:
            ran.append(value)
            return run_plan(plan, environment=given)

        page = plan_of(Page("docs/p.md", page_reading(body)))
        return Cache(tmp_path, "env").page(page, run, given).blocks[0].text

    assert shown("0.5") == shown("0.5") and "0.5" in shown("0.5")
    assert "0.6" in shown("0.6") and "None" in shown(None)
    assert ran == ["0.5", "0.6", None]


def test_a_variable_the_pages_code_sets_itself_is_its_code_and_not_the_environments(tmp_path: Path) -> None:
    child = f"import os; print(os.environ[{VARIABLE!r}])"
    body = f"import os, subprocess, sys\nos.environ[{VARIABLE!r}] = '0.7'\n"
    body += f"print(subprocess.run([sys.executable, '-c', {child!r}]).returncode)"
    ran: list[str] = []
    for value in ("0.5", "0.6"):
        given = {**os.environ, VARIABLE: value}

        def run(plan: Plan) -> PageRun:
            ran.append(plan.page)
            return run_plan(plan, environment=given)  # noqa: B023

        Cache(tmp_path, "env").page(plan_of(Page("docs/p.md", page_reading(body))), run, given)
    assert len(ran) == 1


def test_the_contributors_page_follows_only_the_variables_its_code_reads() -> None:
    """It ran pytest with a copy of `os.environ`, so its entry followed every variable: a shell's
    `OLDPWD`, or `nox -s serve`'s own settings, ran it again on the next `nox -s docs`."""
    page = DOCS / "contributing.md"
    given = {**os.environ, "ATTEND_TEST_UNREAD": "0.5"}
    ran = run_page(
        "docs/contributing.md", page.read_text(encoding="utf-8"), environment=given, folder=str(ROOT)
    )
    assert ran.read.variables and "ATTEND_TEST_UNREAD" not in ran.read.variables


def test_an_environment_variable_a_workbench_cell_read_executes_it_again_when_changed(tmp_path: Path) -> None:
    script = tmp_path / "workbench.py"
    script.write_text(f"# %%\nimport os\n\nprint(os.environ.get({VARIABLE!r}))\n", encoding="utf-8")
    cache = Cache(tmp_path / "cache", "env")
    for value in ("0.5", "0.5", "0.6"):
        given = {**os.environ, VARIABLE: value}
        made, _ = workbench.executed(script, (), cache, limit=60, environment=given)
        assert value in made.read_text(encoding="utf-8")
    assert cache.runs == 2
