"""Every number of a page held against the value its binding evaluates to now.

The page's bindings (`reading.read`) name expressions; `run.run_page` evaluates them in the
page's namespace after its fences ran. A number holds when the value, rounded to the decimals
written, is what is written; a group holds element by element; a given holds by definition; a
worked sum holds when its written operands give its written result at the result's precision
(`≈` allows one unit in the last place written). Each failure is one `Problem`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from attend_book import numerals
from attend_book.numerals import Numeral
from attend_book.reading import Binding, Problem, Reading
from attend_book.run import Value


def values_of(binding: Binding, value: Value) -> list[float] | str:
    """The value each of the binding's numbers quotes, or why the expression gives none that fits."""
    if isinstance(value, str):
        return f"cannot be worked out: {value}"
    if not binding.group:
        if isinstance(value, list):
            return f"is a list of {len(value)} values, not one number: bind a group, or index it"
        return [float(value)]
    if not isinstance(value, list) or any(isinstance(v, list | str) for v in value):
        return f"gives {value!r:.80}, not a flat list of {len(binding.numerals)} numbers"
    if len(value) != len(binding.numerals):
        return f"gives {len(value)} numbers for the {len(binding.numerals)} written"
    return [float(v) for v in value if not isinstance(v, list | str)]


def moved(
    reading: Reading, values: Mapping[str, Value]
) -> Iterator[Problem | tuple[Numeral, float, Binding]]:
    """Each binding whose value no longer fits its numbers (a `Problem`), and each number whose
    value moved, with that value: what the check reports and what renumber rewrites."""
    for bound in reading.bindings:
        if bound.expression is None:
            continue
        quoted = values_of(bound, values.get(bound.expression, "it was never evaluated"))
        if isinstance(quoted, str):
            first = bound.numerals[0]
            yield Problem(first.line, f"{bound.written}{bound.brace} {quoted}", first.column)
            continue
        for numeral, value in zip(bound.numerals, quoted, strict=True):
            if not numerals.holds(numeral, value):
                yield numeral, value, bound


def check(reading: Reading, values: Mapping[str, Value]) -> list[Problem]:
    """Every problem with the numbers of one page, in the order of its lines; bindings that
    cannot be worked out for one and the same reason (a fence that defined their names gone)
    are one line, at the first, naming the others."""
    problems = list(reading.problems)
    stopped = _stopped(reading, values)
    for found in moved(reading, values):
        if isinstance(found, Problem):
            if (found.line, found.column) not in stopped:
                problems.append(found)
            continue
        numeral, value, bound = found
        now = numerals.restate(value, numeral) or f"{value:.6g}"  # as renumber would write it
        message = f"{numeral.text} is written, {now} is computed now, bound to {bound.brace}"
        problems.append(Problem(numeral.line, message, numeral.column, renumbered=True))
    for worked in reading.sums:
        result = worked.result
        try:
            value = numerals.evaluate(worked.left)
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
    for first, *others in {id(bs): bs for bs in stopped.values()}.values():
        distinct = list(dict.fromkeys(f"{b.brace} (line {b.numerals[0].line})" for b in others))
        named = ", ".join(distinct[:SHOWN])
        more = f" and {len(distinct) - SHOWN} more" if len(distinct) > SHOWN else ""
        said = f"{first.written}{first.brace} cannot be worked out: {values[first.expression or '']}"
        if others:
            said += f"; nor, for that reason, can {len(others)} more: {named}{more}"
        problems.append(Problem(first.numerals[0].line, said, first.numerals[0].column))
    return sorted(problems, key=lambda p: (p.line, p.column or 0))


SHOWN = 12  # bindings named on the line of a reason they share


def _stopped(reading: Reading, values: Mapping[str, Value]) -> dict[tuple[int, int | None], list[Binding]]:
    """Each binding whose expression has no value, by the place of its first number, mapped to
    every binding stopped by the same reason (one list, shared), in page order."""
    by_reason: dict[str, list[Binding]] = {}
    for bound in reading.bindings:
        if bound.expression is not None and isinstance(reason := values.get(bound.expression), str):
            by_reason.setdefault(reason, []).append(bound)
    return {(b.numerals[0].line, b.numerals[0].column): bs for bs in by_reason.values() for b in bs}
