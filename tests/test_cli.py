"""The command prints the chapter's tables, digit for digit, and refuses bad flags in one line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from attend import chronicle_ids
from attend.cli import main


def printed(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def rows_of(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines()]


def test_row_prints_the_entry_its_first_four_tokens_and_their_typed_numbers(capsys) -> None:  # type: ignore[no-untyped-def]
    out = printed(capsys, "row")
    assert "year 40: 235 hobbs standing in The Hollow, 1773 born and 1567 gone" in out
    assert "66 bytes, encodes to 7 tokens" in out
    assert "the same 66 bytes: true" in out
    table = [r for r in rows_of(out) if len(r) >= 4 and r[0] in "1234" and r[1].isdigit() and r[2].isdigit()]
    assert [(r[0], r[2]) for r in table] == [("1", "6"), ("2", "1"), ("3", "38"), ("4", "1")]
    assert table[1][1] == "48" and table[3][1] == "55"
    assert '"year 4"' in out and '": 235 hobbs standing...' in out
    typed = [r[-4:] for r in rows_of(out) if len(r) > 5 and r[-1].count(".") == 1 and r[0] in "1234"]
    assert typed == [
        ["0.00", "1.00", "0.00", "0.50"],
        ["1.00", "0.00", "0.00", "0.00"],
        ["0.00", "0.00", "1.00", "1.00"],
        ["1.00", "0.00", "0.00", "0.00"],
    ]


def test_weights_prints_the_three_matrices_one_run_per_slot(capsys) -> None:  # type: ignore[no-untyped-def]
    out = printed(capsys, "weights")
    assert "16 numbers each" in out
    runs = [r[-4:] for r in rows_of(out) if "slot" in r and r[-1].count(".") == 1]
    assert runs[0:4] == [
        ["0.0000", "0.0000", "2.0000", "0.0000"],
        ["3.0000", "0.0000", "0.0000", "0.0000"],
        ["0.5000", "0.0000", "0.0000", "0.0000"],
        ["0.0000", "0.5000", "0.0000", "0.0000"],
    ]
    assert runs[6] == ["0.0000", "0.0000", "1.0000", "0.5000"]
    assert runs[11] == ["0.5000", "0.0000", "0.0000", "1.0000"]


def test_project_prints_each_tokens_query_key_and_value_and_the_layer_agrees(capsys) -> None:  # type: ignore[no-untyped-def]
    out = printed(capsys, "project")
    lines = [r for r in rows_of(out) if len(r) >= 5 and r[-5] in ("query", "key", "value")]
    assert [r[-4:] for r in lines[0:3]] == [
        ["0.0000", "0.0000", "0.0000", "0.5000"],
        ["0.0000", "1.0000", "0.2500", "0.5000"],
        ["0.0000", "1.0000", "0.0000", "0.5000"],
    ]
    assert [r[-4:] for r in lines[3:6]] == [
        ["0.0000", "3.0000", "0.5000", "0.0000"],
        ["1.0000", "0.0000", "0.0000", "0.0000"],
        ["1.0000", "0.0000", "0.0000", "0.5000"],
    ]
    assert [r[-4:] for r in lines[6:9]] == [
        ["2.0000", "0.0000", "0.0000", "0.0000"],
        ["0.0000", "0.0000", "1.5000", "1.0000"],
        ["0.0000", "0.0000", "1.0000", "1.0000"],
    ]
    assert out.count("0.0000   3.0000   0.5000   0.0000") == 4
    assert out.rstrip().endswith("true")


def test_square_prints_the_raw_and_the_divided_square(capsys) -> None:  # type: ignore[no-untyped-def]
    out = printed(capsys, "square")
    assert "by 2.0000, the square root of 4" in out
    for row in (
        "0.2500   0.0000   0.5000   0.0000",
        "3.1250   0.0000   0.7500   0.0000",
        "0.0000   2.0000   0.0000   2.0000",
        "0.1250   0.0000   0.2500   0.0000",
        "1.5625   0.0000   0.3750   0.0000",
        "0.0000   1.0000   0.0000   1.0000",
    ):
        assert row in out


def test_scores_prints_the_shares_the_mixed_values_and_the_multiply_adds(capsys) -> None:  # type: ignore[no-untyped-def]
    out = printed(capsys, "scores")
    for row in (
        "0.2565   0.2264   0.2907   0.2264",
        "0.5800   0.1216   0.1769   0.1216",
        "0.1345   0.3655   0.1345   0.3655",
        "0.4528   0.2565   0.2907   0.6453",
        "0.2431   0.5800   0.1769   0.5884",
        "0.7311   0.1345   0.1345   0.5672",
        "1.0000   0.0000   0.0000   0.0000",
    ):
        assert row in out
    assert out.count("0.5800   0.1216   0.1769   0.1216") == 2
    sums = [r for r in rows_of(out) if r[:1] == ["row"]]
    assert [(r[1], r[4], r[8].rstrip(","), r[-1]) for r in sums] == [
        ("1", "1.0000", "0.2907", "3"),
        ("2", "1.0000", "0.5800", "1"),
        ("3", "1.0000", "0.3655", "2"),
        ("4", "1.0000", "0.5800", "1"),
    ]
    counts = [r[-1] for r in rows_of(out)[-4:]]
    assert counts == ["192", "64", "64", "320"]


def test_scores_without_the_divide_are_more_peaked(capsys) -> None:  # type: ignore[no-untyped-def]
    out = printed(capsys, "scores", "--no-scale")
    for row in (
        "0.2603   0.2027   0.3342   0.2027",
        "0.8468   0.0372   0.0788   0.0372",
        "0.0596   0.4404   0.0596   0.4404",
    ):
        assert row in out
    assert "left off" in out
    square = printed(capsys, "square", "--no-scale")
    assert square.count("3.1250   0.0000   0.7500   0.0000") == 4


def test_cost_prints_the_counted_table_the_check_and_the_crossover(capsys) -> None:  # type: ignore[no-untyped-def]
    out = printed(capsys, "cost")
    table = [r for r in rows_of(out) if len(r) >= 5 and r[0] in ("4", "8", "16", "32") and r[1].isdigit()]
    assert table == [
        ["4", "192", "128", "320", "40.0%"],
        ["8", "384", "512", "896", "2.80", "57.1%"],
        ["16", "768", "2048", "2816", "3.14", "72.7%"],
        ["32", "1536", "8192", "9728", "3.45", "84.2%"],
    ]
    assert [r[-1] for r in rows_of(out) if r[:1] in (["3"], ["2"], ["adding"], ["what"])][:4] == [
        "1536",
        "8192",
        "9728",
        "9728",
    ]
    assert rows_of(out)[-1][-1] == "7"
    assert "the same number" in out and out.count("true") == 1


def test_cost_runs_at_long_rows_on_real_text(capsys) -> None:  # type: ignore[no-untyped-def]
    out = printed(capsys, "cost", "--rows", "128,256,512,1024")
    assert "3 x 1024 x 4 x 4, the projections" in out
    assert "2 x 1024 x 1024 x 4, the pairs" in out
    assert "8437760" in out  # 3·1024·16 + 2·1024²·4, counted by the head


def test_scale_prints_the_law_of_the_divide(capsys) -> None:  # type: ignore[no-untyped-def]
    out = printed(capsys, "scale")
    table = [r for r in rows_of(out) if len(r) == 7 and r[0].isdigit()]
    assert [r[0] for r in table] == ["4", "16", "64", "256"]
    for width, divided, _, divided_sure, undivided, _, _ in (
        (int(r[0]), float(r[1]), r[2], int(r[3]), float(r[4]), r[5], r[6]) for r in table
    ):
        # both columns are rounded to 4 decimals, so allow that rounding, scaled by √width
        assert undivided == pytest.approx(divided * width**0.5, abs=5e-5 * (width**0.5 + 1))
        assert 1.5 < divided < 2.5 and divided_sure == 0
    biggest = [float(r[5]) for r in table]
    assert biggest == sorted(biggest) and biggest[-1] > 0.9
    assert [int(r[6]) for r in table] == sorted(int(r[6]) for r in table)


def test_scale_runs_at_the_wider_widths(capsys) -> None:  # type: ignore[no-untyped-def]
    out = printed(capsys, "scale", "--widths", "64,96,128,160,192")
    assert [r[0] for r in rows_of(out) if len(r) == 7 and r[0].isdigit()] == [
        "64",
        "96",
        "128",
        "160",
        "192",
    ]


def test_a_width_gives_the_same_numbers_whatever_it_is_listed_with(capsys) -> None:  # type: ignore[no-untyped-def]
    alone = printed(capsys, "scale", "--widths", "64").splitlines()[-1]
    listed = [line for line in printed(capsys, "scale").splitlines() if line.split()[:1] == ["64"]]
    assert listed == [alone]


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["cost", "--rows", "abc"], "'abc' is not one"),
        (["cost", "--rows", "0"], "at least 1, not 0"),
        (["cost", "--rows=-4"], "at least 1, not -4"),
        (["cost", "--rows", "4,,8"], "'' is not one"),
        (["cost", "--rows", "999999"], "999999 tokens and the chronicle holds"),
        (["scale", "--widths", "0"], "--widths takes numbers of at least 1, not 0"),
        (["scale", "--count", "0"], "--count takes numbers of at least 1, not 0"),
        (["scale", "--seed", "-1"], "--seed takes numbers of at least 0, not -1"),
        (["scale", "--widths", "100000"], "would draw 100000000 numbers a query"),
        (["fly"], "invalid choice: 'fly'"),
        ([], "required: MODE"),
        (["row", "--rows", "4"], "unrecognized arguments: --rows 4"),
    ],
)
def test_a_bad_flag_gets_one_line_naming_it_and_status_2(capsys, argv, problem) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out, err = capsys.readouterr()
    assert stop.value.code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("attend: ")
    assert problem in err


def test_a_bad_flag_in_a_real_process_leaves_no_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "attend", "cost", "--rows", "abc"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("attend: ") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_the_chronicle_is_long_enough_for_every_row_the_command_offers() -> None:
    assert len(chronicle_ids()) >= 4096
