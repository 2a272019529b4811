"""`nox -s renumber`: rewrite every bound number of the pages from what its binding gives now.

Each page's fences run (or come from the build's cache), its bindings are evaluated, and each
number whose value moved is rewritten at the precision it is written to, words as words
(`sixteen` → `twenty-five`). Nothing else changes: not the binding, not another character of
the line, not the file's line endings. A value the number's form cannot show exactly (a whole
number that is now 3.125, a word past the book's vocabulary, a fraction, a power) is left for a
person, with one line saying so. Each file is written whole beside itself and renamed into
place. A page that cannot be read or run is one line and is left as it is; the other pages
are still renumbered, since a weight changed on purpose fails the contributors' page (its pinned
tests) until a person edits those tests, and that must not hold back every later page.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from mkdocs.exceptions import PluginError

from attend_book import binding, notebooks, numerals, reading
from attend_book.cache import FOLDER, Cache, build_versions, fingerprint, source_roots
from attend_book.files import TextError, read_text, write_atomic
from attend_book.reading import Problem
from attend_book.run import FenceError, Value


class RefusedError(Exception):
    """A page renumber cannot rewrite safely: the one line that says why."""


def renumber(
    page: str, markdown: str, values: Mapping[str, Value], prose: Callable[[str], str] = str
) -> tuple[str, list[str], list[str]]:
    """The page with its moved numbers rewritten, each change as `page:line:column old → new`,
    and each number left for a person, as one line. `prose` is what of the file a reader sees
    as Markdown, line for line and column for column (the workbench's Markdown cells)."""
    found = reading.read(prose(markdown))
    if found.unclosed:
        raise RefusedError(f"{found.unclosed[0].render(page)}: nothing written, nothing past it can be read")
    edits: list[tuple[int, int, str, str]] = []  # line, column, old, new
    left: list[str] = []
    for moved in binding.moved(found, values):
        if isinstance(moved, Problem):
            left.append(moved.render(page))
            continue
        numeral, value, _ = moved
        new = numerals.restate(value, numeral)
        if new is None:
            why = f"{numeral.text} should now read {value:.6g}, but its form cannot show it: edit it"
            left.append(f"{page}:{numeral.line}: {why}")
        else:
            edits.append((numeral.line, numeral.column, numeral.text, new))
    lines = markdown.split("\n")
    for number, column, old, new in sorted(edits, reverse=True):  # from the end: columns stay true
        text = lines[number - 1]
        if text[column : column + len(old)] != old:
            raise RefusedError(f"{page}:{number}: {old} is not at column {column + 1}; nothing written")
        lines[number - 1] = text[:column] + new + text[column + len(old) :]
    rewritten = "\n".join(lines)
    if len(reading.read(prose(rewritten)).bindings) != len(found.bindings):
        raise RefusedError(f"{page}: rewriting would change how many bindings the page has; nothing written")
    return rewritten, [f"{page}:{n}:{c + 1} {old} → {new}" for n, c, old, new in sorted(edits)], left


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="renumber", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("pages", nargs="*", type=Path, help="the pages to renumber (default: all in --docs)")
    parser.add_argument("--docs", type=Path, default=Path("docs"), help="the book's pages and workbench.py")
    parser.add_argument("--check", action="store_true", help="write nothing: print each page's problems")
    args = parser.parse_args(argv)
    # The build's own cache: a page whose code did not change is not run again, and what runs
    # here is not run again by the next build either.
    cache = Cache(Path(FOLDER), fingerprint(source_roots(), build_versions()))
    status = 0
    for path in args.pages or [*sorted(args.docs.glob("*.md")), *args.docs.glob("workbench.py")]:
        try:
            text = read_text(path)
            prose: Callable[[str], str] = notebooks.prose_of if path.suffix == ".py" else str
            if path.suffix == ".py":  # the workbench: its values come from its kernel
                values = cache.notebook(path, notebooks.execute, notebooks.values_of)[1]
            else:
                values = cache.page(path.as_posix(), text, reading.read(text).expressions).values
            if args.check:
                lines = [p.render(path.as_posix()) for p in binding.check(reading.read(prose(text)), values)]
                failed = bool(lines)
            else:
                new, changes, left = renumber(path.as_posix(), text, values, prose)
                if new != text:
                    write_atomic(path, new)
                lines, failed = changes + left, bool(left)
        except (RefusedError, FenceError, PluginError, TextError, OSError) as stop:
            print(str(stop).replace("\n", " "), file=sys.stderr)  # one line
            status = 1
            continue
        for line in lines:
            print(line)
        status = max(status, int(failed))
    return status


if __name__ == "__main__":
    sys.exit(main())
