"""The runner the build, the tests and the number check share: `run_page` and its blocks."""

from __future__ import annotations

import json
import threading

import pytest

from attend_book.execution import run_transcript
from attend_book.page import Block
from attend_book.run import run_page
from bound_numbers import Asked, Page, Unavailable, processes

F = "```"


def test_each_executed_fence_becomes_a_block_with_its_fence_and_printed_text() -> None:
    page = (
        "---\ntitle: t\n---\n\nProse.\n\n"
        f'{F}python exec="1" session="p"\nx = 3\nprint(x * 2)\n{F}\n\n'
        f"{F}python\nprint('not run')\n{F}\n\n"
        f'{F}console exec="1"\n$ attend weights\n{F}\n'
    )
    python, console = run_page("docs/p.md", page).blocks
    assert (python.fence.language, python.fence.line, python.text) == ("python", 7, "6\n")
    assert (console.fence.language, console.fence.line) == ("console", 16)
    assert console.text == run_transcript("$ attend weights") and console.text.strip()


def test_a_page_run_here_gives_the_blocks_and_values_of_its_own_process_and_fails_alike() -> None:
    page = (
        f'{F}python exec="1"\nratio = 3.125\nprint(ratio * 2)\n{F}\n\n'
        f'{F}console exec="1"\n$ attend weights\n{F}\n\nIt is 3.125.\n'
    )
    asked = [Asked("ratio", 10**6)]
    here, own = run_page("docs/p.md", page, asked, here=True), run_page("docs/p.md", page, asked)
    assert (here.blocks, here.values) == (own.blocks, own.values) == (own.blocks, {asked[0]: 3.125})
    broken = f'{F}python exec="1"\nassert 1 == 2, "not so"\n{F}\n'
    with pytest.raises(Unavailable, match=r"^docs/p.md:2: a python fence failed at .*not so"):
        run_page("docs/p.md", broken, here=True)


def test_a_page_shares_one_namespace_and_pages_share_none() -> None:
    first = f'{F}python exec="1"\nshared = 5\n{F}\n\n{F}python exec="1"\nprint(shared)\n{F}\n'
    assert [b.text for b in run_page("docs/a.md", first).blocks] == ["", "5\n"]
    with pytest.raises(Unavailable, match="NameError"):
        run_page("docs/b.md", f'{F}python exec="1"\nprint(shared)\n{F}\n')


def test_a_fence_that_raises_is_named_by_page_line_and_the_failing_line() -> None:
    page = f'Prose.\n\n{F}python exec="1"\nx = 1\nassert x == 2, "x is not 2"\n{F}\n'
    with pytest.raises(Unavailable) as raised:
        run_page("docs/p.md", page)
    message = str(raised.value)
    assert message.startswith("docs/p.md:5: a python fence failed at `assert x == 2")
    assert "AssertionError: x is not 2" in message


def test_a_figure_fence_keeps_its_html_as_printed() -> None:
    code = "from attend_figures import square_figure\n\nprint(square_figure().html())"
    page = f'{F}python exec="1" html="1"\n{code}\n{F}\n'
    [block] = run_page("docs/p.md", page).blocks
    assert block.fence.switched_on("html") and block.text.startswith('<figure class="attend-figure"')
    assert block.text.endswith("</figure>\n")


def test_a_block_is_plain_data_equal_by_value() -> None:
    page = f'{F}python exec="1"\nprint(1)\n{F}\n'
    [fence], [moved] = Page("p", page).fences, Page("p", f"Prose.\n\n{page}").fences  # two lines down
    assert Block(fence, "1\n") == Block(moved, "1\n")


@pytest.mark.parametrize(
    ("expression", "said"),
    [
        ("missing", "NameError: name 'missing' is not defined"),
        ("'0.58'", "str '0.58'"),
        ("[]", "list []"),
        ("float('nan')", "float nan"),
    ],
)
def test_an_answer_that_gives_no_number_fails_its_page_in_one_line(expression: str, said: str) -> None:
    page = f'Prose.\n\n{F}python exec="1" answer="{expression}"\nx = 1\n{F}\n'
    with pytest.raises(Unavailable) as raised:
        run_page("docs/p.md", page)
    message = str(raised.value)
    assert message == f"docs/p.md:3: the answer `{expression}` gives no number to check against: {said}"


@pytest.mark.parametrize("expression", ["x", "x > 0", "[x, 2.5]", "np.array([[1.0, 2.0]])", "np.bool_(True)"])
def test_an_answer_may_be_a_number_a_bool_or_an_array_of_them(expression: str) -> None:
    page = f'{F}python exec="1" answer="{expression}"\nimport numpy as np\nx = 3\n{F}\n'
    [block] = run_page("docs/p.md", page).blocks
    assert block.fence.options["answer"] == expression


BROKEN = {
    "its tolist raises": "class A:\n    def tolist(self):\n        raise ValueError('no list')\nx = A()",
    "its repr raises": "class B:\n    def __repr__(self):\n        raise ValueError('no repr')\nx = B()",
    "nested 100,000 deep": "x = []\nfor _ in range(100_000):\n    x = [x]",
}


@pytest.mark.parametrize("body", BROKEN.values(), ids=BROKEN.keys())
def test_an_answer_whose_value_breaks_when_read_fails_its_page_in_one_line_without_a_traceback(
    body: str, capfd: pytest.CaptureFixture[str]
) -> None:
    page = f'Prose.\n\n{F}python exec="1" answer="x"\n{body}\n{F}\n'
    with pytest.raises(Unavailable) as raised:
        run_page("docs/p.md", page)
    said = str(raised.value)
    assert (
        said.startswith("docs/p.md:3: the answer `x` gives no number to check against: ") and "\n" not in said
    )
    assert "Traceback" not in capfd.readouterr().err


# What a page's process may not load: the site builder and its extensions, and the prose reader.
UNLOADED = ("mkdocs", "pymdownx", "properdocs", "markdown_it", "bound_numbers.reading")


def test_a_pages_process_runs_without_mkdocs_its_extensions_or_the_prose_reader() -> None:
    """The page's process, started afresh as the build starts it, runs a fence, an exercise's
    answer, a transcript and a binding without loading any of those modules: what it imports is
    only what running a page needs, and where each binding is written comes from the build."""
    loaded = f"[m for m in sys.modules if m.startswith({UNLOADED!r})]"
    page = (
        f'{F}python exec="1" answer="x"\nx = 3\n{F}\n\n'
        f'{F}console exec="1"\n$ attend weights\n{F}\n\n'
        f'It is 3{{= x}}.\n\n{F}python exec="1"\nimport json, sys\nprint(json.dumps({loaded}))\n{F}\n'
    )
    x, after = Asked("x", 7), Asked(f"len({loaded})", 99)
    ran = run_page("docs/p.md", page, [x, after])
    assert json.loads(ran.blocks[-1].text) == []  # after its fences, none of them
    assert ran.values == {x: 3, after: 0}  # nor after its bindings


def test_a_page_whose_search_for_leftovers_fails_still_has_its_process_ended(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Looking for what a page left running once met a process ending as it was read, and the
    error skipped the kill of the page's process, so the build waited on it for ever."""

    def vanished(pid: int) -> None:
        raise FileNotFoundError(2, "No such file or directory", f"/proc/{pid}/task")

    monkeypatch.setattr(processes, "end_below", vanished)
    ended: list[BaseException] = []

    def build() -> None:
        try:
            run_page("docs/p.md", f'{F}python exec="1"\nprint(1)\n{F}\n')
        except BaseException as error:  # what the build would meet
            ended.append(error)

    page = threading.Thread(target=build, daemon=True)
    page.start()
    page.join(timeout=60)
    assert not page.is_alive(), "the build is still waiting on the page's process"
    assert [type(error) for error in ended] == [FileNotFoundError]
