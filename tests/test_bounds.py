"""The package bounds a call's work as the command bounds a run: refused in one line, up front.

A call that would handle more than `WORK_LIMIT` numbers is a ValueError raised before any of
its arrays exist, so a typo of a few zeros costs a line, not the machine's memory.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from attend import chapter_head, scale_experiment
from attend.book.cli import main
from attend.book.experiments import cost_sweep
from attend.book.modes import cost, scale
from attend.core.checks import WORK_LIMIT, draw_work, sequence_work

LONGEST_ROW = max(n for n in range(1, 10_000) if sequence_work(n) <= WORK_LIMIT)
MOST_DRAWS = WORK_LIMIT // draw_work(1, 64)  # at width 64 against the usual four keys


@pytest.fixture
def allocated() -> Iterator[Callable[[], int]]:
    """The most memory Python and numpy held at once since the test started, in bytes."""
    tracemalloc.start()
    yield lambda: tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()


def refusal(call: Callable[[], object]) -> str:
    with pytest.raises(ValueError) as raised:
        call()
    message = str(raised.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    "call",
    [
        lambda: chapter_head().attend(np.broadcast_to(np.zeros(4), (30_000, 4))),  # a view: nothing allocated
        lambda: chapter_head().attend(np.broadcast_to(np.zeros(4), (LONGEST_ROW + 1, 4))),
        lambda: scale_experiment([64], count=10**12),
        lambda: scale_experiment([64, 128], count=MOST_DRAWS),
        lambda: scale.table([64], count=10**12, seed=0),
        lambda: cost_sweep([LONGEST_ROW + 1]),
        lambda: cost_sweep([4_000, 4_000, 4_000]),
        lambda: cost.table([6_000]),
    ],
    ids=[
        "30,000 tokens",
        "one token too many",
        "10**12 draws",
        "two widths",
        "scale table",
        "sweep",
        "sum",
        "cost",
    ],
)
def test_a_call_over_the_bound_is_one_value_error_before_anything_is_allocated(
    call: Callable[[], object], allocated: Callable[[], int]
) -> None:
    message = refusal(call)
    assert f"one run handles at most {WORK_LIMIT:,}" in message
    assert allocated() < 1_000_000


def test_the_longest_row_the_bound_allows_is_about_five_thousand_tokens() -> None:
    assert sequence_work(LONGEST_ROW) <= WORK_LIMIT < sequence_work(LONGEST_ROW + 1)
    assert 5_000 < LONGEST_ROW < 6_000


def test_a_row_within_the_bound_is_run() -> None:
    assert chapter_head().attend(np.zeros((64, 4))).raw.shape == (64, 64)


@pytest.mark.parametrize("count", [MOST_DRAWS + 1, 10**12])
def test_the_command_and_the_package_refuse_the_same_work_in_the_same_words(
    count: int, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["scale", "--widths", "64", "--count", str(count)])
    reckoned = f"would handle {draw_work(count, 64):,} numbers and one run handles at most {WORK_LIMIT:,}"
    assert stopped.value.code == 2 and reckoned in capsys.readouterr().err
    assert reckoned in refusal(lambda: scale_experiment([64], count=count))
