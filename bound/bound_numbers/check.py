"""Every number of a page held against the value its binding evaluates to now.

The page's bindings (`reading.read`) name expressions; the page's provider evaluates each in the
page's namespace as the fences above it left it (`values.Asked`). A number holds when the value,
rounded to the decimals written, is what is written; a group holds element by element; a given
is held to its declared value like any other; a label holds when it counts from 1 to its range's
value; a worked sum holds when its written operands give its written result at the result's
precision (`≈` allows one unit in the last place written). Each failure is one `Problem`.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Callable, Iterator, Mapping

from bound_numbers import numerals
from bound_numbers.numerals import Numeral
from bound_numbers.reading import Binding, Problem, Reading
from bound_numbers.values import Asked, Value


def values_of(binding: Binding, value: Value) -> list[float] | str:
    """The value each of the binding's numbers quotes, or why the expression gives none that fits."""
    if isinstance(value, str):
        return f"cannot be worked out: {value}"
    if not binding.group:
        if isinstance(value, list):
            return f"is a list of {len(value)} values, not one number: bind a group, or index it"
        value = [value]
    elif not isinstance(value, list) or any(isinstance(v, list | str) for v in value):
        return f"gives {value!r:.80}, not a flat list of {len(binding.numerals)} numbers"
    elif len(value) != len(binding.numerals):
        return f"gives {len(value)} number{'s' * (len(value) != 1)} for the {len(binding.numerals)} written"
    numbers = [v for v in value if not isinstance(v, list | str)]
    if any(isinstance(v, int) and abs(v) > sys.float_info.max for v in numbers):
        return "gives an integer past a float's range, which no written number here can quote"
    return [float(v) for v in numbers]


def moved(
    reading: Reading, values: Mapping[Asked, Value]
) -> Iterator[Problem | tuple[Numeral, float, Binding]]:
    """Each binding whose value no longer fits its numbers (a `Problem`), and each number whose
    value moved, with that value: what the check reports and what renumber rewrites. A
    percentage bound to the share it shows (at the precision written, or rounded to it: 27% of
    0.2737) is the binding's fault, not a moved number: a `Problem`, which renumber leaves to a
    person as the build says it."""
    for bound in reading.bindings:
        value = values.get(bound.asked, "it was never evaluated")
        quoted = values_of(bound, value)
        if isinstance(quoted, str):
            first = bound.numerals[0]
            cause = (value, bound.brace) if isinstance(value, str) else None
            yield Problem(first.line, f"{bound.written}{bound.brace} {quoted}", first.column, cause=cause)
            continue
        asked_below = bound.below
        below = (
            values_of(bound, values[asked_below]) if asked_below is not None and asked_below in values else ""
        )
        for n, (numeral, value) in enumerate(zip(bound.numerals, quoted, strict=True)):
            if numerals.holds(numeral, value):
                continue
            rounded = dataclasses.replace(numeral, approximate=True)  # 27% of 0.2737 too
            if numeral.percent and numerals.holds(rounded, value * 100):
                why = "a percentage quotes its number as written, so bind it to 100 × the share"
                yield Problem(numeral.line, f"{_said(numeral, f'{value:.6g}', bound)}: {why}", numeral.column)
            elif not isinstance(below, str) and numerals.holds(numeral, below[n]):
                yield Problem(numeral.line, _announced(numeral, value, bound, reading.part), numeral.column)
            else:
                yield numeral, value, bound


def _announced(numeral: Numeral, value: float, bound: Binding, part: str) -> str:
    """A number that the code below gives and the code above does not: prose that announces the
    next fence or cell, whose binding does not say so. Renumber would write the value above into
    it; the line says how to bind it instead."""
    said = f"{_said(numeral, f'{value:.6g}', bound)}: the {part} below gives {numeral.text}"
    return f"{said}: if the sentence announces it, write {bound.brace[:-1].rstrip()}; after the next {part}}}"


def _said(numeral: Numeral, now: str, bound: Binding) -> str:
    return f"{numeral.text} is written, {now} is computed now, bound to {bound.brace}"


def moved_line(numeral: Numeral, value: float, bound: Binding) -> Problem:
    """The one line a moved number is said in, by the build and by renumber alike: the value as
    renumber writes it (`renumbered`), or why renumber cannot and what a person writes instead."""
    now = numerals.restate(value, numeral)
    if now is not None:
        return Problem(numeral.line, _said(numeral, now, bound), numeral.column, renumbered=True)
    return Problem(
        numeral.line, f"{_said(numeral, f'{value:.6g}', bound)}: {_by_hand(numeral, value)}", numeral.column
    )


def _by_hand(numeral: Numeral, value: float) -> str:
    """Why renumber cannot write `value` in the numeral's form, and what a person does instead."""
    reason = numerals.unwritable(value, numeral)
    if reason != numerals.CANNOT:
        return f"{reason}: show more digits"
    found = numeral.form
    plain = found is not None and not (found.hex or found.power or found.unit.lower() in numerals.ORDINALS)
    if plain and numeral.places is None and math.isfinite(value) and value != round(value):
        return (
            "a whole number quotes its value exactly: write ≈ or “about” before it to quote the value "
            "rounded, or show its decimals"
        )
    return f"{reason}: edit it"


def out_of_range(reading: Reading, values: Mapping[Asked, Value]) -> Iterator[Problem]:
    """Each label past the range declared for its word, or whose range has no value."""
    unranged = set()  # a range that has no value is said once, at its first label
    for label in reading.labels:
        last, at = values.get(label.asked, "it was never evaluated"), label.numeral
        if isinstance(last, str | list):
            why = f"cannot be worked out: {last}" if isinstance(last, str) else "is a list, not a count"
            if label.word not in unranged:
                unranged.add(label.word)
                cause = (last, f"the range of {label.word}") if isinstance(last, str) else None
                yield Problem(
                    at.line,
                    f"{label.word} {at.text}: the range of {label.word}, {label.limit}, {why}",
                    at.column,
                    cause=cause,
                )
        elif not 1 <= at.value <= last:
            why = f"{label.word} counts from 1 to {last:g} ({label.limit})"
            yield Problem(at.line, f"{label.word} {at.text} is out of range: {why}", at.column)


def check(reading: Reading, values: Mapping[Asked, Value]) -> list[Problem]:
    """Every problem with the numbers of one page, in the order of its lines."""
    problems = [*reading.problems, *out_of_range(reading, values)]
    for found in moved(reading, values):
        if isinstance(found, Problem):
            problems.append(found)
            continue
        problems.append(moved_line(*found))
    for worked in reading.sums:
        result = worked.result
        try:
            value = numerals.work_out(worked.left, result.mark)
        except (ArithmeticError, ValueError, SyntaxError) as error:
            message = f"{worked.text} cannot be worked out: {error}"
        else:
            places = result.places or 0
            slack = 10.0**-places * 1.000001 if worked.approximate else 0.0
            if numerals.holds(result, value) or abs(value - result.value) <= slack:
                continue
            message = (
                f"{worked.text} does not hold: the written operands give {value:.{places + 2}f}; "
                "show more digits, or write ≈"
            )
        problems.append(Problem(result.line, message, result.column))
    return sorted(problems, key=lambda p: (p.line, p.column or 0))


def computed(reading: Reading, values: Mapping[Asked, Value]) -> Reading:
    """The reading of a page whose code failed, kept to the bindings and labels that `values`
    holds: those above the fence that failed (which is said once, for all below it)."""
    return dataclasses.replace(
        reading,
        bindings=[bound for bound in reading.bindings if bound.asked in values],
        labels=[label for label in reading.labels if label.asked in values],
    )


SHOWN = 12  # bindings named on the line of a cause they share


def one_per_cause(problems: list[Problem], named: Callable[[int], str] = "line {}".format) -> list[Problem]:
    """`problems` with the bindings that cannot be worked out for one and the same reason (the
    fence that defined a name they use gone) made one line, at the first, naming the others, each
    by its line as `named` says it (a notebook's by its cell): what the build reports. `check`
    keeps one each, for the tools that count them."""
    shared: dict[str, list[Problem]] = {}
    for problem in problems:
        if problem.cause is not None:
            shared.setdefault(problem.cause[0], []).append(problem)
    kept = []
    for problem in problems:
        group = shared.get(problem.cause[0], []) if problem.cause else []
        if len(group) < 2:
            kept.append(problem)
        elif problem is group[0]:
            others = list(dict.fromkeys(f"{p.cause[1]} ({named(p.line)})" for p in group[1:] if p.cause))
            more = f" and {len(others) - SHOWN} more" if len(others) > SHOWN else ""
            said = f"; nor, for that reason, can {len(group) - 1} more: {', '.join(others[:SHOWN])}{more}"
            kept.append(dataclasses.replace(problem, message=problem.message + said))
    return kept
