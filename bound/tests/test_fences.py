"""The built-in provider: a page's executed python fences, run apart, give its bindings' values."""

from __future__ import annotations

import decimal
import fractions
import sys
import time
from pathlib import Path

import pytest

from bound_numbers import Asked, Executor, Page, Plan, Unavailable, run_here
from bound_numbers.evaluation import plain
from bound_numbers.fences import FenceValues, runs

FENCE = "`" * 3
END = 10**6  # a line past every page here: a value asked there is evaluated after every fence


def page(*bodies: str, header: str = 'python exec="on"') -> str:
    """A page of prose with one fence per body, each opening on a line the tests can name."""
    blocks = [f"{FENCE}{header}\n{body}\n{FENCE}" for body in bodies]
    return "# A page\n\n" + "\n\nSome prose.\n\n".join(blocks) + "\n"


def opening_lines(markdown: str) -> list[int]:
    return [fence.line for fence in Page("docs/p.md", markdown).fences]


def values(markdown: str, *expressions: str, provider: FenceValues | None = None) -> dict[str, object]:
    """Each expression's value after all the page's fences, by expression."""
    asked = [Asked(expression, END) for expression in expressions]
    found = (provider or FenceValues()).bound_values(Page("docs/p.md", markdown), asked)
    return {a.expression: value for a, value in found.items()}


def test_a_page_s_fences_run_in_order_in_one_namespace() -> None:
    markdown = page("deposit = 1_000", "rate = 0.005", "interest = deposit * rate")
    assert values(markdown, "interest", "deposit + 1") == {"interest": 5.0, "deposit + 1": 1001}


@pytest.mark.parametrize("switch", ["on", "1", "true", "yes", "True", "anything"])
def test_every_value_markdown_exec_reads_as_true_runs_a_fence(switch: str) -> None:
    markdown = page("ran = 1", header=f'python exec="{switch}"')
    assert values(markdown, "ran") == {"ran": 1}


def test_a_fence_markdown_exec_would_not_run_is_not_run() -> None:
    markdown = "\n\n".join(
        [
            page("ran = 1"),
            page("raise RuntimeError('exec is off')", header='python exec="off"'),
            page("raise RuntimeError('exec is 0')", header='python exec="0"'),
            page("raise RuntimeError('exec is false')", header="python exec=false"),
            page("raise RuntimeError('no exec')", header="python"),
            page("raise RuntimeError('not python')", header='js exec="on"'),
            page("also = 2", header='py exec="1"'),
        ]
    )
    assert values(markdown, "ran + also") == {"ran + also": 3}


def test_a_language_markdown_exec_runs_unasked_needs_no_exec() -> None:
    [fence] = Page("docs/p.md", page("x = 1", header="python")).fences
    assert runs(fence, auto=["bash", " python"])
    assert not runs(fence, auto=[""])


def test_numpy_arrays_and_scalars_arrive_as_lists_and_numbers() -> None:
    pytest.importorskip("numpy")  # the session that runs these installs it
    markdown = page("import numpy as np\nm = np.arange(6).reshape(2, 3) / 2")
    assert values(markdown, "m", "m[1, 2]", "m.sum()", "m.shape[0]") == {
        "m": [[0.0, 0.5, 1.0], [1.5, 2.0, 2.5]],
        "m[1, 2]": 2.5,
        "m.sum()": 7.5,
        "m.shape[0]": 2,
    }


def test_an_expression_that_fails_has_its_reason_in_one_line() -> None:
    markdown = page("grown = [1005.0, 1010.03]")
    assert values(markdown, "grwn[0]", "grown[5]", "1 / 0", "grown[0] > 1") == {
        "grwn[0]": "NameError: name 'grwn' is not defined; did you mean 'grown'?",
        "grown[5]": "IndexError: list index out of range",
        "1 / 0": "ZeroDivisionError: division by zero",
        "grown[0] > 1": "is a bool, not a number",
    }


def test_a_binding_that_exits_has_a_reason_and_the_page_goes_on() -> None:
    assert values(page("x = 1"), "exit(4)", "x") == {"exit(4)": "SystemExit: 4", "x": 1}


def test_a_folder_that_is_not_there_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(Unavailable) as raised:
        values(page("x = 1"), "x", provider=FenceValues(folder=tmp_path / "gone"))
    assert str(raised.value).startswith("docs/p.md:1: the page's process cannot start: FileNotFoundError:")
    assert "\n" not in str(raised.value)


def test_a_fence_that_raises_names_its_page_and_line() -> None:
    markdown = page("rate = 0.005", "months = 12\ninterest = rate / 0\nlater = 1")
    failing = opening_lines(markdown)[1] + 2
    with pytest.raises(Unavailable) as raised:
        values(markdown, "rate")
    assert str(raised.value) == (
        f"docs/p.md:{failing}: a python fence failed at `interest = rate / 0`: "
        "ZeroDivisionError: float division by zero"
    )


def test_an_error_message_of_many_lines_is_said_in_its_first_and_a_few_more() -> None:
    markdown = page("raise ValueError('first line\\nsecond\\nthird\\nfourth\\nfifth\\nsixth')")
    with pytest.raises(Unavailable) as raised:
        values(markdown)
    first, *rest = str(raised.value).split("\n")
    assert first.endswith(": ValueError: first line")
    assert rest == ["second", "third", "fourth", "(and 2 more lines)"]


def test_a_fence_that_cannot_be_parsed_names_its_line() -> None:
    markdown = page("rate = 0.005\nmonths = (12")
    with pytest.raises(Unavailable) as raised:
        values(markdown)
    said = str(raised.value)
    assert said.startswith(
        f"docs/p.md:{opening_lines(markdown)[0] + 2}: a python fence failed at `months = (12`"
    )
    assert "SyntaxError" in said and "\n" not in said


def test_a_fence_that_exits_fails_its_page_not_the_build() -> None:
    markdown = page("exit(3)")
    with pytest.raises(Unavailable) as raised:
        values(markdown)
    line = opening_lines(markdown)[0] + 1
    assert str(raised.value) == (
        f"docs/p.md:{line}: a python fence failed at `exit(3)`: SystemExit: 3 "
        "(a page's code may not end its process: exit() or sys.exit())"
    )


def test_a_fence_that_ends_its_process_outright_is_named() -> None:
    markdown = page("x = 1", "import os\nos._exit(7)")
    with pytest.raises(Unavailable) as raised:
        values(markdown)
    line = opening_lines(markdown)[1]
    assert str(raised.value) == f"docs/p.md:{line}: this fence ended the page's process (exit status 7)"


def test_a_fence_that_hangs_is_stopped_at_the_time_limit() -> None:
    markdown = page("x = 1", "import time\ntime.sleep(60)")
    started = time.monotonic()
    with pytest.raises(Unavailable) as raised:
        values(markdown, "x", provider=FenceValues(time_limit=2))
    assert time.monotonic() - started < 10
    line = opening_lines(markdown)[1]
    assert str(raised.value) == (
        f"docs/p.md:{line}: this fence ran past the time limit of 2 seconds "
        "(`time_limit` under bound-numbers)"
    )


def test_an_expression_that_hangs_is_stopped_and_named() -> None:
    markdown = page("import time")
    with pytest.raises(Unavailable) as raised:
        values(markdown, "time.sleep(60)", provider=FenceValues(time_limit=2))
    said = f"docs/p.md:{END}:1: the binding {{= time.sleep(60)}} ran past the time limit of 2 seconds"
    assert str(raised.value).startswith(said)


def test_a_fence_that_reads_its_input_fails_at_once() -> None:
    markdown = page("answer = input()")
    started = time.monotonic()
    with pytest.raises(Unavailable) as raised:
        values(markdown, provider=FenceValues(time_limit=20))
    assert time.monotonic() - started < 10
    assert str(raised.value).endswith(
        "a python fence failed at `answer = input()`: ValueError: I/O operation on closed file."
    )


def test_what_a_fence_prints_cannot_pass_for_its_page_s_report() -> None:
    fake = '{"values": {"x": 99}}'
    markdown = page(f"import os\nprint('{fake}')\nos.write(1, b'{fake}\\n')\nx = 1")
    assert values(markdown, "x") == {"x": 1}


def test_a_process_a_fence_leaves_running_fails_its_page_naming_the_fence_and_ends_with_it() -> None:
    markdown = page("import subprocess\nchild = subprocess.Popen(['sleep', '60']).pid")
    asked = Asked("child", END)
    with pytest.raises(Unavailable) as raised:
        FenceValues().bound_values(Page("docs/p.md", markdown), [asked])
    said = "this fence left processes running when its page was done, now ended: `sleep 60`"
    assert str(raised.value).startswith(f"docs/p.md:{opening_lines(markdown)[0]}: {said}")
    child = raised.value.values[asked]  # evaluated before the look for what was left running
    assert isinstance(child, int)
    status = Path(f"/proc/{child}/stat")
    deadline = time.monotonic() + 5
    while status.exists() and status.read_text().split(") ")[-1][0] != "Z" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not status.exists() or status.read_text().split(") ")[-1][0] == "Z"  # gone, or dead and unreaped


def test_fences_run_in_the_folder_given_and_in_their_workdir(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "rates.txt").write_text("0.005\n", encoding="utf-8")
    markdown = page(
        "from pathlib import Path\nhere = len(list(Path('data').iterdir()))",
        "rate = float(Path('rates.txt').read_text())",
        header='python exec="on" workdir="data"',
    )
    markdown = markdown.replace('exec="on" workdir="data"', 'exec="on"', 1)  # the first: no workdir
    assert values(markdown, "here", "rate", provider=FenceValues(folder=tmp_path)) == {
        "here": 1,
        "rate": 0.005,
    }


def test_bindings_on_a_page_without_fences_are_still_evaluated() -> None:
    found = values("# No code\n", "len([1, 2, 3])", "x")
    assert found == {"len([1, 2, 3])": 3, "x": "NameError: name 'x' is not defined"}


def test_a_page_with_nothing_to_run_or_evaluate_gives_nothing() -> None:
    assert values("# Only prose, 3 words\n") == {}


class _Array:
    """What numpy's arrays and scalars offer the provider: `tolist`."""

    def __init__(self, items: object) -> None:
        self.items = items

    def tolist(self) -> object:
        return self.items


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (3, 3),
        (2.5, 2.5),
        ((1, (2, 3.5)), [1, [2, 3.5]]),
        (fractions.Fraction(1, 4), 0.25),
        (decimal.Decimal("1.5"), 1.5),  # a Decimal as well, as the evaluation says
        (decimal.Decimal("NaN"), "its value is NaN (not a number), which no written number can quote"),
        (decimal.Decimal("sNaN"), "its value is sNaN (not a number), which no written number can quote"),
        (
            decimal.Decimal("-Infinity"),
            "its value is -Infinity (infinite), which no written number can quote",
        ),
        (_Array([[1, 2], [3, 4]]), [[1, 2], [3, 4]]),
        (_Array(0.5), 0.5),
        (True, "is a bool, not a number"),
        ("3", "is a str, not a number"),
        (None, "is a NoneType, not a number"),
        ([1, "two"], "is a str, not a number"),
        (float("nan"), "its value is nan (not a number), which no written number can quote"),
        (float("inf"), "its value is inf (infinite), which no written number can quote"),
        # the check says it is past a float's range, at the number it binds
        pytest.param(10**400, 10**400, id="past a float"),
        pytest.param(
            2**100000,
            "is an integer of thousands of digits, past what a written number can quote",
            id="past json's digits",
        ),
    ],
)
def test_a_value_is_a_number_a_nested_list_of_numbers_or_why_not(value: object, expected: object) -> None:
    assert plain(value) == expected


def test_a_fence_that_closes_descriptors_and_opens_a_file_cannot_take_the_report_channel(
    tmp_path: Path,
) -> None:
    """The channel once was `os.dup(1)`, a low descriptor: a fence that closed the descriptors
    above 2 and opened a file got its number, and the check's report went into the file."""
    kept = tmp_path / "kept.txt"
    body = f"import os\nos.closerange(3, 256)\nout = open({str(kept)!r}, 'w')\nout.write('mine')\nout.close()"
    assert values(page(body, "x = 1"), "x") == {"x": 1}
    assert kept.read_text(encoding="utf-8") == "mine"


def test_a_fence_that_closes_the_report_channel_itself_is_named() -> None:
    markdown = page("x = 1", "import os\nos.closerange(3, 4096)\ny = 2")
    with pytest.raises(Unavailable) as raised:
        values(markdown, "x")
    line = opening_lines(markdown)[1]
    assert str(raised.value).startswith(f"docs/p.md:{line}: this fence closed the pipe the page's process")


def test_a_fence_that_puts_its_own_file_at_the_report_channels_number_is_named_and_its_file_kept(
    tmp_path: Path,
) -> None:
    """`os.dup2` onto the channel's descriptor once sent the check's reports into the fence's own
    file, and the page was blamed for ending its process with status 0."""
    kept = tmp_path / "kept.txt"
    channel = "min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], 1024) - 1"  # as the runner places it
    body = "\n".join(
        [
            "import os, resource",
            f"out = open({str(kept)!r}, 'w')",
            f"os.dup2(out.fileno(), {channel})",
            "out.write('mine')",
            "out.flush()",
        ]
    )
    markdown = page(body, "x = 1")
    with pytest.raises(Unavailable) as raised:
        values(markdown, "x")
    line = opening_lines(markdown)[0]
    assert str(raised.value).startswith(
        f"docs/p.md:{line}: this fence put a file of its own in place of the pipe"
    )
    assert kept.read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize(("ending", "status"), [("sys.exit(0)", 0), ("sys.exit(3)", 3), ("1 / 0", 1)])
def test_a_copy_a_fence_forks_ends_on_its_own_as_in_python_and_the_page_goes_on(
    ending: str, status: int
) -> None:
    body = "\n".join(
        [
            "import os, sys",
            "pid = os.fork()",
            "if pid == 0:",
            f"    {ending}",
            "ended = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])",
        ]
    )
    assert values(page(body, "x = 1"), "ended", "x") == {"ended": status, "x": 1}


def test_a_pages_process_loads_neither_mkdocs_nor_the_markdown_reader() -> None:
    loaded = "[m for m in sys.modules if m.startswith(('mkdocs', 'properdocs', 'markdown_it', 'yaml'))]"
    markdown = page(f"import sys\nfound = len({loaded})")
    assert values(markdown, "found", f"len({loaded})") == {"found": 0, f"len({loaded})": 0}


def test_a_page_run_here_inside_another_gives_back_the_module_the_outer_page_runs_in() -> None:
    """A page may run a small page of its own in its process (`run_here`): once that is done, a
    class the outer page defines still finds its module, and a test's run leaves none behind."""
    inner = page("ratio = 3.125")
    outer = page(
        "import sys\nfrom bound_numbers import Executor, Plan, Page, run_here",
        f"inner = Page('docs/inner.md', {inner!r})\n"
        "plan = Plan.of(inner, [], inner.fences)\n"
        "run_here(plan, Executor('docs/inner.md'))",
        "class Kept:\n    pass\nfound = int(sys.modules[Kept.__module__].Kept is Kept)",
    )
    assert values(outer, "found") == {"found": 1}
    before = set(sys.modules)
    plan = Plan.of(Page("docs/inner.md", inner), [Asked("ratio", END)], Page("docs/inner.md", inner).fences)
    assert run_here(plan, Executor("docs/inner.md")).values == {0: 3.125}
    assert set(sys.modules) == before
