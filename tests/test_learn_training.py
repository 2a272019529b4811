"""Training on the chronicle: the word tokens, the split, the run repeated exactly from its
seed, the head beating the baseline on the place, and `attend learn` printing the run and
refusing what it cannot do in one line."""

from __future__ import annotations

import numpy as np
import pytest

from attend import modes
from attend.book.cli import main
from attend.core import training
from attend.core.chronicle import entries
from attend.core.learn import HEAD, Params, Shape, initial
from attend.core.training import (
    DEFAULTS,
    MOST_STEPS,
    MOST_WIDTH,
    PARTS,
    Settings,
    corpus,
    line_weights,
    place_of,
    train,
    weights_from,
    word_tokenizer,
    words,
)

QUICK = Settings(steps=20, every=10)


def test_every_word_of_the_chronicle_is_one_token_and_the_lines_read_back_whole() -> None:
    tokenizer, data = word_tokenizer(), corpus()
    for number, line in enumerate(entries()):
        assert all(len(tokenizer.encode(w)) == 1 for w in words(line))
        shown = "".join(data.names[i] for i in data.ids[number, : data.length[number]])
        assert shown == line


def test_every_line_is_trained_on_or_held_out_and_never_both() -> None:
    data = corpus()
    assert not set(data.train) & set(data.held)
    assert sorted([*data.train, *data.held]) == list(range(len(entries())))
    assert len(data.held) == len(entries()) // 5


def test_the_place_is_what_comes_between_in_and_the_comma() -> None:
    for number, line in enumerate(entries()):
        assert place_of(number) == line.split(" standing in ")[1].split(",")[0]


def test_the_same_seed_trains_the_same_numbers_and_another_seed_others() -> None:
    first, again, other = train(QUICK), train(QUICK), train(Settings(seed=2, steps=20, every=10))
    assert first.held_loss == again.held_loss and first.train_loss == again.train_loss
    for name, value in first.params.items():
        assert np.array_equal(value, again.params[name]), name
    assert first.held_loss != other.held_loss


def test_a_rounding_difference_at_the_start_stays_far_below_the_places_the_book_prints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another machine's BLAS or exp may round the last bit of a product differently; nudged by
    that much at every starting weight, the book's run must end where it did to the places the
    page prints (four), with the same places named."""
    book = modes.learn.table(DEFAULTS).head
    start = initial

    def nudged(shape: Shape, seed: int, *, attends: bool = True) -> Params:
        rng = np.random.default_rng(99)
        made = start(shape, seed, attends=attends)
        return {name: value * (1 + 1e-15 * rng.standard_normal(value.shape)) for name, value in made.items()}

    monkeypatch.setattr(training, "initial", nudged)
    again = train(DEFAULTS)
    assert again.params["W_Q"][0, 0] != book.params["W_Q"][0, 0]
    assert np.abs(np.subtract(again.held_loss, book.held_loss)).max() < 1e-7
    assert again.places_named == book.places_named


def test_the_loss_is_measured_at_the_start_every_so_often_and_at_the_end() -> None:
    run = train(Settings(steps=25, every=10))
    assert run.steps == (0, 10, 20, 25)
    assert len(run.train_loss) == 25
    assert run.held_loss[-1] < run.held_loss[0]


def test_the_baseline_trains_without_the_head_on_the_same_batches() -> None:
    head, baseline = train(QUICK), train(QUICK, attends=False)
    assert set(head.params) - set(baseline.params) == set(HEAD)
    assert baseline.train_loss != head.train_loss


def test_the_head_names_the_place_far_more_often_than_the_baseline_at_the_books_settings() -> None:
    table = modes.learn.table(DEFAULTS)
    head, baseline = table.head, table.baseline
    assert head.final_loss < baseline.final_loss - 0.1
    assert head.place_accuracy > baseline.place_accuracy + 0.5
    assert head.held_lines == baseline.held_lines == len(corpus().held)


def test_the_attention_weights_from_in_add_to_one_over_the_parts_of_the_line() -> None:
    run = modes.learn.table(DEFAULTS).head
    shares = weights_from(run.params, " in", corpus().held)
    assert tuple(shares) == PARTS
    assert sum(shares.values()) == pytest.approx(1)
    assert shares["standing"] > 0 and shares["in"] > 0


def test_a_lines_square_ends_at_the_word_asked_for_and_is_causal() -> None:
    run = modes.learn.table(DEFAULTS).head
    names, square = line_weights(run.params, int(corpus().held[0]), " in")
    assert names[-1] == " in" and square.shape == (len(names), len(names))
    assert np.all(np.triu(square, k=1) == 0)
    assert np.allclose(square.sum(axis=1), 1)


def test_the_baseline_has_no_attention_weights_to_show() -> None:
    baseline = train(QUICK, attends=False)
    with pytest.raises(ValueError, match="no head"):
        weights_from(baseline.params, " in", corpus().held)


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"d_model": 3}, "d_model must be even"),
        ({"d_model": MOST_WIDTH + 2}, f"at most {MOST_WIDTH}"),
        ({"steps": MOST_STEPS + 1}, f"at most {MOST_STEPS:,} steps"),
        ({"d_model": 0}, "d_model"),
        ({"steps": 0}, "steps"),
        ({"seed": -1}, "seed"),
        ({"batch": 10_000}, "a batch holds at most"),
        ({"rate": 0.0}, "the rate"),
        ({"rate": "fast"}, "the rate"),
    ],
)
def test_settings_a_model_cannot_train_with_are_refused_in_one_line(
    changes: dict[str, object], problem: str
) -> None:
    with pytest.raises((ValueError, TypeError), match=problem) as refused:
        Settings(**changes)  # type: ignore[arg-type]
    assert "\n" not in str(refused.value)


def test_a_batch_may_hold_every_training_line_of_the_corpus_and_no_more() -> None:
    """Settings count the training lines from line numbers, before anything is tokenized: the
    count must be the corpus's own."""
    most = len(corpus().train)
    assert Settings(batch=most).batch == most
    with pytest.raises(ValueError, match=f"at most the {most} training lines"):
        Settings(batch=most + 1)


def test_attend_learn_prints_the_rendered_table_of_its_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--steps", "20", "--width", "8", "--seed", "3"]) == 0
    settings = Settings(seed=3, d_model=8, steps=20)
    assert capsys.readouterr().out == modes.learn.text(modes.learn.table(settings)) + "\n"


def test_the_learn_table_prints_a_row_per_measurement_with_both_losses() -> None:
    table = modes.learn.table(QUICK)
    rows = modes.learn.text(table).splitlines()
    head, baseline = table.head, table.baseline
    for step, ours, theirs in zip(head.steps, head.held_loss, baseline.held_loss, strict=True):
        assert f"    {step:6d}{ours:10.4f}{theirs:10.4f}" in rows


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["learn", "--width", "3"], f"--width takes an even number from 2 to {MOST_WIDTH}, not 3"),
        (["learn", "--width", str(MOST_WIDTH + 2)], "--width takes an even number"),
        (["learn", "--width", "0"], "--width takes numbers of at least 2, not 0"),
        (["learn", "--steps", str(MOST_STEPS + 1)], f"--steps takes at most {MOST_STEPS:,} steps"),
        (["learn", "--steps", "0"], "--steps takes numbers of at least 1, not 0"),
        (["learn", "--seed", "-1"], "--seed takes numbers of at least 0, not -1"),
        (["learn", "--steps", "1e3"], "--steps takes whole numbers in the digits 0 to 9"),
        (["learn", "--lengths", "4"], "unrecognized arguments: --lengths 4"),
    ],
)
def test_a_bad_learn_flag_gets_one_line_naming_it_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], problem: str
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("attend: ")
    assert problem in err


def test_the_help_of_learn_states_its_bound(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["learn", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert f"at most {MOST_STEPS:,} steps at a width of at most {MOST_WIDTH}" in said
