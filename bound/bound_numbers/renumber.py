"""`bound-numbers renumber`: rewrite every bound number of a site's pages from what its binding
gives now.

Each page's bindings are evaluated by the site's provider (the build's own, so a page whose
code did not change may come from its cache), and each number whose value moved is rewritten
at the precision it is written to, words as words (`sixteen` → `twenty-five`). Nothing else
changes: not the binding, not another character of the line, not the file's line endings. A
value the number's form cannot show exactly (a whole number that is now 3.125, a word past
those `numerals` spells, a fraction, a power, a value that is not zero shown as 0) is left for
a person, in the one line the build says it in (`check.moved_line`). Each file is written whole
beside itself and renamed into place, and only if it still holds what renumber read: a page
saved while its code ran keeps that edit, is named in one line and fails the run. A page that
is a link has the file it leads to rewritten, and stays a link. A page that cannot be read or
written is one line and is left as it is. A page whose fence fails is one line and is
renumbered still: a value changed on purpose fails the fence that pins it (a test the page
runs) until a person edits that test, so the page's run goes on past that fence, and every
number its code gives is rewritten, above the fence and below it; only a number whose
expression has no value is left.

The run ends with a summary: how many numbers were rewritten on how many pages, each number and
page left for a person by page:line, and (with `--pins MARK`) each test with that mark that fails
now, with the command that runs them. It exits 0 when nothing is left and 1 when something is.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

from mkdocs.exceptions import PluginError

from bound_numbers import check as binding
from bound_numbers import notebooks, numerals, reading
from bound_numbers.declared import Declared
from bound_numbers.page import Page as Source
from bound_numbers.page import as_written, line_named, placed, rendered
from bound_numbers.reading import Problem
from bound_numbers.text import ChangedError, TextError, decoded, write_atomic
from bound_numbers.values import Asked, Provider, Unavailable, Value


class RefusedError(Exception):
    """A page renumber cannot rewrite safely: the one line that says why."""


def renumber(
    page: str,
    markdown: str,
    values: Mapping[Asked, Value],
    prose: Callable[[str], str] = str,
    book: Declared | None = None,
) -> tuple[str, list[str], list[str]]:
    """The page with its moved numbers rewritten, each change as `page:line:column old → new`,
    and each number left for a person, as one line. `prose` is what of the file a reader sees
    as Markdown, line for line and column for column (the workbench's Markdown cells). Only the
    bindings `values` holds are renumbered: of a page whose code failed, those above the fence
    that failed."""
    whole = reading.read(Source(page, markdown, prose), book)
    found = binding.computed(whole, values)
    if whole.unclosed:
        raise RefusedError(f"{whole.unclosed[0].render(page)}: nothing written, nothing past it can be read")
    edits: list[tuple[int, int, str, str]] = []  # line, column, old, new
    left: list[str] = []
    for moved in binding.moved(found, values):
        if isinstance(moved, Problem):
            left.append(moved.render(page))
            continue
        numeral, value, bound = moved
        new = numerals.restate(value, numeral)
        if new is None:  # left for a person, in the line the build says
            left.append(binding.moved_line(numeral, value, bound).render(page))
        else:
            edits.append((numeral.line, numeral.column, numeral.text, new))
    lines = markdown.split("\n")
    for number, column, old, new in sorted(edits, reverse=True):  # from the end: columns stay true
        text = lines[number - 1]
        if text[column : column + len(old)] != old:
            raise RefusedError(f"{page}:{number}: {old} is not at column {column + 1}; nothing written")
        lines[number - 1] = text[:column] + new + text[column + len(old) :]
    rewritten = "\n".join(lines)
    if len(reading.read(Source(page, rewritten, prose), book).bindings) != len(whole.bindings):
        raise RefusedError(f"{page}: rewriting would change how many bindings the page has; nothing written")
    return rewritten, [f"{page}:{n}:{c + 1} {old} → {new}" for n, c, old, new in sorted(edits)], left


@dataclass
class Tally:
    """What one run did and left, for the summary it ends with."""

    rewritten: dict[str, int] = field(default_factory=dict)  # page: numbers rewritten
    by_hand: list[str] = field(default_factory=list)  # page:line:column of each number left for a person
    stopped: list[str] = field(default_factory=list)  # page:line of each page not renumbered
    pins: list[str] = field(default_factory=list)  # the pinned tests that fail now
    failed: list[str] = field(default_factory=list)  # page:line of each fence that failed, and what it hid

    def summary(self, pins_command: str | None) -> list[str]:
        numbers, pages = sum(self.rewritten.values()), len(self.rewritten)
        lines = [f"renumber: {_count(numbers, 'number')} rewritten on {_count(pages, 'page')}"]
        if self.by_hand:
            lines += ["  to edit by hand (each said above):"]
            lines += [f"    {where}" for where in self.by_hand]
        if self.failed:
            lines += ["  renumbered past a fence that fails (each said above; run again once it passes):"]
            lines += [f"    {where}" for where in self.failed]
        if self.stopped:
            lines += ["  not renumbered (each said above; run renumber again once it is fixed):"]
            lines += [f"    {where}" for where in self.stopped]
        if self.pins:
            lines += [f"  pinned tests that fail now (give them the new values; `{pins_command}` runs them):"]
            lines += [f"    {pin}" for pin in self.pins]
        elif pins_command:
            lines += [f"  the pinned tests pass (`{pins_command}`)"]
        return lines


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'s' * (n != 1)}"


def _place(page: str, said: str, column: bool = False) -> str:
    """The page:line a line about `page` starts with (with `column`, its column too, where it
    has one), or the page alone."""
    found = re.match(re.escape(page) + r"(?::cell \d+)?:\d+" + (r"(?::\d+)?" if column else ""), said)
    return found[0] if found else page


def one_line(said: str, limit: int = 200) -> str:
    """A multi-line message as one line, cut at a line's end, never inside a name, past `limit`."""
    kept, *rest = said.splitlines() or [""]
    for line in rest:
        if len(kept) + len(line) >= limit:
            return f"{kept} … (the build prints the rest)"
        kept += f" {line.strip()}"
    return kept


def failing_pins(mark: str) -> list[str]:
    """The tests marked `mark` that do not pass, each as `file::name`, run as pytest runs them
    here (this folder's configuration); one line saying so if they could not be run."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "pins.xml"
        command = [sys.executable, "-m", "pytest", "-m", mark, "-q", "-p", "no:cacheprovider"]
        command += [f"--junitxml={report}"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode not in (0, 1) or not report.exists():
            return [f"(the tests marked {mark} could not be run: pytest exited {done.returncode})"]
        cases = ElementTree.parse(report).getroot().iter("testcase")
        failed = [c for c in cases if any(c.find(o) is not None for o in ("failure", "error"))]
    return [f"{c.get('classname', '').replace('.', '/')}.py::{c.get('name')}" for c in failed]


@dataclass(frozen=True)
class Page:
    """A page to renumber: its file, its path as messages name it, what of its text a reader
    sees as Markdown, and how messages name a line of that (a notebook's: by its cell)."""

    path: Path
    shown: str
    prose: Callable[[str], str] = str
    named: Callable[[str, str, int], tuple[str, int]] = as_written


def renumber_pages(
    pages: Sequence[Page],
    provider: Provider,
    book: Declared,
    problems: Callable[[reading.Reading, Mapping[Asked, Value]], list[Problem]],
    *,
    check: bool = False,
    pins: str | None = None,
    pins_command: str | None = None,
) -> int:
    """Renumber each page (with `check`, write nothing and print each page's `problems`, as the
    build says them), print what was done and the summary; the exit status."""
    tally = Tally()
    status = 0
    for page in pages:
        try:
            raw = page.path.read_bytes()
            text = decoded(raw, page.shown)
            source = Source(page.shown, text, page.prose, page.named)
            found = reading.read(source, book)
            try:
                values = provider.bound_values(source, found.asked)
            except Unavailable as error:  # its code ran on past the fence that failed
                values = error.values if check else {**error.values, **error.after}
                given = binding.computed(found, values)
                said = placed(source, str(error))
                print(one_line(said), file=sys.stderr)
                hidden = len(found.bindings) - len(given.bindings)
                unvalued = f": {_count(hidden, 'bound number')} without a value" if hidden else ""
                tally.failed.append(f"{_place(page.shown, said)}{unvalued}")
                found, status = given, 1
            if check:
                named = functools.partial(line_named, source)
                lines = [rendered(source, p) for p in binding.one_per_cause(problems(found, values), named)]
                failed = bool(lines)
            else:
                new, changes, left = _renumbered(source, values, book)
                if new != text:
                    _write(page, new, changes, raw)
                    tally.rewritten[page.shown] = len(changes)
                tally.by_hand += dict.fromkeys(_place(page.shown, line, column=True) for line in left)
                lines, failed = changes + left, bool(left)
        except (RefusedError, PluginError, TextError, OSError) as stop:
            said = _unreadable(page, stop) if isinstance(stop, OSError) else str(stop)
            print(one_line(said), file=sys.stderr)
            tally.stopped.append(_place(page.shown, said))
            status = 1
            continue
        for line in lines:
            print(line)
        status = max(status, int(failed))
    if check:
        return status
    if pins:
        tally.pins = failing_pins(pins)
    for line in tally.summary(pins and (pins_command or f"python -m pytest -m {pins}")):
        print(line)
    return max(status, int(bool(tally.pins)))


def _renumbered(
    source: Source, values: Mapping[Asked, Value], book: Declared
) -> tuple[str, list[str], list[str]]:
    """`renumber` of the page `source`; a notebook's Markdown cells are renumbered where its
    file has them, every line naming the cell."""
    if not source.path.endswith(notebooks.SUFFIX):
        return renumber(source.path, source.text, values, source.prose, book)
    view, changes, left = renumber(source.path, source.markdown, values, book=book)
    named = functools.partial(placed, source)
    new = notebooks.rewritten(source.text, source.markdown, view)
    return new, list(map(named, changes)), list(map(named, left))


def _unreadable(page: Page, error: OSError) -> str:
    """A page that cannot be opened (absent, a link leading nowhere or round in a loop, not
    readable), said by its reason and not by the path Python tried."""
    link = f", a link to {os.readlink(page.path)}" if page.path.is_symlink() else ""
    return f"{page.shown}: cannot be read{link} ({error.strerror or error})"


def _write(page: Page, new: str, changes: list[str], raw: bytes) -> None:
    """The page rewritten in place, if it still holds `raw`; a link is followed, so the file it
    leads to is rewritten and the link stays a link. A file that changed since it was read, or
    cannot be written, is a `RefusedError` naming the page's first change and how many others,
    not the temporary file beside it."""
    try:
        write_atomic(page.path.resolve(), new, was=raw)
    except ChangedError:
        raise RefusedError(
            f"{page.shown}: changed while renumber ran, so nothing was written and the edit saved "
            "meanwhile is kept: run renumber again"
        ) from None
    except OSError as error:
        more = len(changes) - 1
        others = f", nor the page's {more} other change{'s' * (more != 1)}" if more else ""
        where = f" in {Path(error.filename).parent}" if error.filename else ""
        raise RefusedError(f"{changes[0]} not written ({error.strerror}{where}){others}") from None
