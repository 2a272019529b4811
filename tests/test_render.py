"""The tables' wording follows what the head did, not what its numbers happen to look like."""

from __future__ import annotations

import pytest

from attend import Head
from attend.book.layout import divide_line


@pytest.mark.parametrize("divide", [True, False])
def test_a_head_one_slot_wide_is_said_to_divide_exactly_when_its_switch_is_on(divide: bool) -> None:
    run = Head(2, 1, [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], divide=divide).attend([[1.0, 2.0], [3.0, 4.0]])
    assert run.div == 1.0  # √1: the number alone cannot tell the two runs apart
    assert run.divided is divide
    said_divided = "not scaled" not in divide_line(run)
    assert said_divided is divide
    assert ("the square root of d_k = 1" in divide_line(run)) is divide
