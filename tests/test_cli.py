"""The command: each mode's table as data, its text laid out from that data, and refusals.

The numbers are checked on the tables themselves (`attend.book.modes`); the printed text is
checked only for holding what the renderer made of those numbers, never parsed back.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

from attend import D_K, D_MODEL, WK, WQ, WV, chapter_embeddings, chronicle_ids, modes
from attend.book.cli import DISTRIBUTION, main, parser
from attend.book.registry import modes as registered
from attend.core.checks import WORK_LIMIT


class ByNumpy(NamedTuple):
    """The chapter's run worked again with plain numpy from the flat weights, apart from the
    head's code: what the tables must hold, so that a weight changed on purpose moves both."""

    matrices: list[np.ndarray]
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    raw: np.ndarray
    weights: np.ndarray
    out: np.ndarray


def by_numpy(*, divide: bool = True) -> ByNumpy:
    x = chapter_embeddings()
    matrices = [
        np.reshape(w, (D_K, D_MODEL)) for w in (WQ, WK, WV)
    ]  # row j: the d_model weights of output dimension j
    q, k, v = (x @ m.T for m in matrices)
    raw = q @ k.T
    scores = raw / (np.sqrt(D_K) if divide else 1.0)
    powers = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights = powers / powers.sum(axis=1, keepdims=True)
    return ByNumpy(matrices, q, k, v, raw, weights, weights @ v)


def printed(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_the_embeddings_table_holds_the_entry_its_seven_tokens_and_the_first_four() -> None:
    entry = modes.embeddings.table()
    assert entry.text == "year 40: 235 hobbs standing in The Hollow, 1773 born and 1567 gone"
    assert (entry.size, len(entry.ids), entry.round_trip, entry.vocabulary) == (66, 7, True, 512)
    assert [t.id for t in entry.tokens] == [309, 48, 422, 55]
    assert [len(t.piece) for t in entry.tokens] == [6, 1, 38, 1]
    assert entry.typed.tolist() == [[0, 1, 0, 0.5], [1, 0, 0, 0], [0, 0, 1, 1], [1, 0, 0, 0]]
    assert not entry.typed.flags.writeable


def test_attend_embeddings_prints_token_3_whole_in_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    out = printed(capsys, "embeddings")
    assert '      3    422     38  ": 235 hobbs standing in The Hollow, 17"\n' in out
    assert out == modes.embeddings.text(modes.embeddings.table()) + "\n"


def test_the_weights_table_holds_the_three_chapter_matrices_a_row_per_output_dimension() -> None:
    table = modes.weights.table()
    assert [name for name, _ in table.matrices] == ["W_Q", "W_K", "W_V"]
    assert [matrix.tolist() for _, matrix in table.matrices] == [m.tolist() for m in by_numpy().matrices]
    assert "row j holds the 4 weights that make output dimension j" in modes.weights.text(table)


def test_the_project_table_holds_each_projection_and_the_layer_agrees() -> None:
    table = modes.project.table()
    run, expected = table.run, by_numpy()
    for projected, worked in ((run.q, expected.q), (run.k, expected.k), (run.v, expected.v)):
        np.testing.assert_allclose(projected, worked, rtol=1e-12)
    assert table.by_head.tolist() == table.by_layer.tolist() == run.q[1].tolist()
    assert table.same
    assert modes.project.text(table).rstrip().endswith("true")


@pytest.mark.parametrize("divide", [True, False])
def test_the_square_table_is_the_raw_square_and_the_same_divided(divide: bool) -> None:
    run = modes.square.table(divide=divide).run
    np.testing.assert_allclose(run.raw, by_numpy().raw, rtol=1e-12)
    assert run.div == (2.0 if divide else 1.0)
    assert np.array_equal(run.scaled, run.raw / run.div)


def test_the_scores_table_holds_the_shares_what_each_comes_to_and_the_count() -> None:
    table, expected = modes.scores.table(), by_numpy()
    np.testing.assert_allclose(table.run.weights, expected.weights, rtol=1e-12)
    assert [s.top for s in table.rows] == [
        tuple(np.flatnonzero(row == row.max()) + 1) for row in expected.weights
    ]
    np.testing.assert_allclose(
        [(s.total, s.largest) for s in table.rows], [(1.0, row.max()) for row in expected.weights], rtol=1e-12
    )
    np.testing.assert_allclose(table.run.out, expected.out, rtol=1e-12)
    n = len(expected.q)
    cost = table.run.cost
    assert (cost.project, cost.score, cost.mix) == (3 * n * D_MODEL * D_K, n * n * D_K, n * n * D_K)
    assert cost.total == cost.project + cost.score + cost.mix


def test_the_scores_without_the_divide_are_more_peaked() -> None:
    undivided = modes.scores.table(divide=False).run.weights
    np.testing.assert_allclose(undivided, by_numpy(divide=False).weights, rtol=1e-12)
    assert undivided.max() > modes.scores.table().run.weights.max()


def test_the_output_is_labelled_by_token_and_dimension_and_the_weights_by_query_and_key() -> None:
    text = modes.scores.text(modes.scores.table())
    weights, output = text.split("the head's output: the values summed in each row's weights")
    assert "query \\ key" in weights and "token \\ dim" not in weights
    assert "token \\ dim" in output and "query \\ key" not in output


@pytest.mark.parametrize("mode", ["square", "scores"])
def test_no_scale_prints_the_table_without_the_divide(capsys: pytest.CaptureFixture[str], mode: str) -> None:
    out = printed(capsys, mode, "--no-scale")
    module = getattr(modes, mode)
    assert out == module.text(module.table(divide=False)) + "\n"
    assert "not scaled" in out


def test_the_cost_table_holds_the_counts_the_growth_and_the_crossover() -> None:
    table = modes.cost.table([4, 8, 16, 32])
    assert [(c.length, c.project, c.quadratic, c.total) for c in table.costs] == [
        (4, 192, 128, 320),
        (8, 384, 512, 896),
        (16, 768, 2048, 2816),
        (32, 1536, 8192, 9728),
    ]
    assert [None if g is None else round(g, 2) for g in table.growth] == [None, 2.8, 3.14, 3.45]
    assert [round(p, 1) for p in table.pair_percent] == [40.0, 57.1, 72.7, 84.2]
    assert (table.projections, table.pairs, table.agrees, table.crossover) == (1536, 8192, True, 7)
    assert table.tie == 6  # 3·6·4·4 = 2·6·6·4 = 288: level one token before the pairs lead


def test_the_cost_table_at_long_rows_agrees_with_the_formula() -> None:
    table = modes.cost.table([128, 256, 512, 1024])
    assert table.costs[-1].total == table.projections + table.pairs == 8437760


def test_the_scale_table_shows_the_law_of_the_divide() -> None:
    table = modes.scale.table([4, 16, 64, 256], count=1000, seed=82)
    assert [m.width for m in table.measured] == [4, 16, 64, 256]
    for m in table.measured:
        assert m.undivided.spread == pytest.approx(m.divided.spread * m.width**0.5)
        assert 1.5 < m.divided.spread < 2.5 and m.divided.confident == 0
    biggest = [m.undivided.biggest for m in table.measured]
    assert biggest == sorted(biggest) and biggest[-1] > 0.9


def test_a_width_gives_the_same_numbers_whatever_it_is_listed_with() -> None:
    alone = modes.scale.table([64], count=1000, seed=82).measured
    listed = modes.scale.table([4, 16, 64, 256], count=1000, seed=82).measured
    assert alone[0] == listed[2]


@pytest.mark.parametrize(
    ("argv", "made"),
    [
        (["embeddings"], lambda: modes.embeddings.text(modes.embeddings.table())),
        (["weights"], lambda: modes.weights.text(modes.weights.table())),
        (["project"], lambda: modes.project.text(modes.project.table())),
        (["square"], lambda: modes.square.text(modes.square.table())),
        (["scores"], lambda: modes.scores.text(modes.scores.table())),
        (["scale"], lambda: modes.scale.text(modes.scale.table([4, 16, 64, 256], count=1000, seed=82))),
        (
            ["scale", "--widths", "64,96", "--count", "10", "--seed", "3"],
            lambda: modes.scale.text(modes.scale.table([64, 96], count=10, seed=3)),
        ),
        (["cost"], lambda: modes.cost.text(modes.cost.table([4, 8, 16, 32]))),
        (["cost", "--lengths", "1,2"], lambda: modes.cost.text(modes.cost.table([1, 2]))),
        (["positions"], lambda: modes.positions.text(modes.positions.table())),
        (["mask"], lambda: modes.mask.text(modes.mask.table())),
        (["heads"], lambda: modes.heads.text(modes.heads.table(2))),
        (["heads", "--heads", "4"], lambda: modes.heads.text(modes.heads.table(4))),
        (["kvcache"], lambda: modes.kvcache.text(modes.kvcache.table(8, 1))),
        (
            ["kvcache", "--tokens", "40", "--heads", "2"],
            lambda: modes.kvcache.text(modes.kvcache.table(40, 2)),
        ),
    ],
)
def test_every_mode_prints_exactly_its_rendered_table(
    capsys: pytest.CaptureFixture[str], argv: list[str], made: Callable[[], str]
) -> None:
    assert printed(capsys, *argv) == made() + "\n"


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["scale", "--count", "1", "--widths", "4"], "1 draw at each width"),
        (["cost", "--lengths", "1"], "the count held against the formula, at 1 token\n"),
        (["cost", "--lengths", "2"], "the count held against the formula, at 2 tokens\n"),
    ],
)
def test_a_count_of_one_takes_the_singular(
    capsys: pytest.CaptureFixture[str], argv: list[str], phrase: str
) -> None:
    assert phrase in printed(capsys, *argv)


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["cost", "--lengths", "abc"], "'abc' is not one"),
        (["cost", "--lengths", "0"], "at least 1, not 0"),
        (["cost", "--lengths=-4"], "at least 1, not -4"),
        (["cost", "--lengths", "4,,8"], "'' is not one"),
        (["cost", "--lengths", "999999"], "999999 tokens and the chronicle holds"),
        (["cost", "--lengths", "１６"], "'１６' is not one"),
        (["cost", "--lengths", "٤"], "'٤' is not one"),
        (["cost", "--lengths", "𝟒"], "'𝟒' is not one"),
        (["cost", "--lengths", "1_000"], "'1_000' is not one"),
        (["cost", "--lengths", "+8"], "'+8' is not one"),
        (["cost", "--lengths", "9" * 30], "at most 20 digits"),
        (["cost", "--lengths", ",".join(["4"] * 101)], "takes at most 100"),
        (["cost", "--lengths", "6000"], "would handle 108,000,000 numbers"),
        (["cost", "--lengths", "4096,4096"], "would handle 100,663,296 numbers"),
        (["scale", "--widths", "0"], "--widths takes numbers of at least 1, not 0"),
        (["scale", "--count", "0"], "--count takes numbers of at least 1, not 0"),
        (["scale", "--seed", "-1"], "--seed takes numbers of at least 0, not -1"),
        (["scale", "--widths", "100000"], "would handle 500,020,000 numbers"),
        (["scale", "--count", "8388608", "--widths", "1"], "would handle 209,715,200 numbers"),
        (["cost", "--r", "4"], "unrecognized arguments: --r 4"),
        (["scores", "--no"], "unrecognized arguments: --no"),
        (["scale", "--wid", "4"], "unrecognized arguments: --wid 4"),
        (["fly"], "invalid choice: 'fly'"),
        ([], "required: MODE"),
        (["embeddings", "--lengths", "4"], "unrecognized arguments: --lengths 4"),
        (["embeddings", "a\nb"], "unrecognized arguments: a\\nb"),
        (["heads", "--heads", "3"], "--heads takes 1, 2 or 4: the chapter's 4 numbers split into heads"),
        (["kvcache", "--heads", "8"], "--heads takes 1, 2 or 4"),
        (["kvcache", "--tokens", "0"], "--tokens takes numbers of at least 1, not 0"),
        (["kvcache", "--tokens", "7000"], "--tokens asks for 7000 tokens and the chronicle holds"),
        (["kvcache", "--tokens", "500"], "kvcache would handle 125,375,250 numbers"),
        (["kvcache", "--tokens", "300", "--heads", "4"], "would handle 108,540,600 numbers"),
        (["mask", "--heads", "2"], "unrecognized arguments: --heads 2"),
    ],
)
def test_a_bad_flag_gets_one_line_naming_it_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], problem: str
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out, err = capsys.readouterr()
    assert stop.value.code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("attend: ")
    assert problem in err


def test_the_longest_rows_the_book_prints_are_within_the_bound() -> None:
    ladder = ",".join(str(2**p) for p in range(2, 13))  # 4 .. 4096, as longer-rows.md asks
    args = parser().parse_args(["cost", "--lengths", ladder])
    handled = registered()["cost"].handled({"lengths": args.lengths})
    assert 0 < handled <= WORK_LIMIT


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"attend {version('attend-head')}\n"


def test_the_version_is_read_from_the_distribution_pyproject_builds() -> None:
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    assert tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["name"] == DISTRIBUTION


def test_version_from_a_source_tree_never_installed_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from importlib.metadata import PackageNotFoundError

    def missing(name: str) -> str:
        raise PackageNotFoundError(name)

    monkeypatch.setattr("importlib.metadata.version", missing)
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == "attend (not installed, so of no version)\n"


def test_the_help_states_the_bound_on_one_run(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["cost", "--help"], ["scale", "--help"], ["kvcache", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        assert f"{WORK_LIMIT:,}" in " ".join(capsys.readouterr().out.split())


def test_a_bad_flag_in_a_real_process_leaves_no_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "attend", "cost", "--lengths", "abc"],
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


def test_a_kvcache_run_is_reckoned_as_its_uncached_steps_squares() -> None:
    args = parser().parse_args(["kvcache", "--tokens", "10", "--heads", "2"])
    handled = registered()["kvcache"].handled({"tokens": args.tokens, "heads": args.heads})
    assert handled == sum(3 * 2 * t * t for t in range(1, 11))


def test_the_kvcache_table_shows_every_step_to_16_then_the_doublings_and_the_last() -> None:
    assert modes.kvcache.table(40, 1).shown == (*range(1, 17), 32, 40)
    assert modes.kvcache.table(3, 1).shown == (1, 2, 3)
