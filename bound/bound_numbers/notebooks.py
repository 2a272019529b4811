"""Jupyter notebooks as pages: the numbers of their Markdown cells bound to their own code cells.

A notebook (`.ipynb`, nbformat 4) is read as Markdown (`prose`): each Markdown cell as it is
written, each code cell as a fence the page runs (` ```python exec="on" `), a blank line between
cells. So the check reads its numbers and a provider runs its cells in order, each binding
evaluated after the code cells above it, as on any page. Messages name the notebook and the
cell (`where`: `docs/trial.ipynb:cell 4:2:15`, cells counted from 1, the line within the cell).

`rewritten` writes numbers back into the notebook's own text: only the characters that changed
are replaced, each where the file has it, escaped as the file escapes, so outputs, metadata and
every other byte of the file stay as they were. In a build that lists mkdocs-jupyter, the
plugin checks each notebook before any page (`Shown`) and hands mkdocs-jupyter a copy without
its bindings to show.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from bound_numbers.page import Page
from bound_numbers.text import TextError, read_text

SUFFIX = ".ipynb"
_SPACE = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)  # a JSON string, quotes and all


def _string(text: str, at: int) -> tuple[str, int]:
    """The JSON string whose opening quote is at `at`: its value, and where it ends."""
    found = _STRING.match(text, at)
    if found is None:
        raise ValueError(f"no JSON string at {at}")
    return str(json.loads(found.group(0))), found.end()


@dataclass(frozen=True)
class _Line:
    """Where a line of the notebook's Markdown comes from: its cell (0-based; -1 for a line
    between cells) and its line within the cell (1-based; 0 for a fence's own line)."""

    cell: int
    line: int


def _cells(text: str) -> list[dict[str, Any]]:
    try:
        found = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):  # not a notebook: nothing of it is read
        return []
    return [cell for cell in found if isinstance(cell, dict)]


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _read(text: str, workdir: str = "") -> tuple[list[str], list[_Line]]:
    """The notebook's Markdown, line by line, and where each line comes from; its code cells run
    in `workdir` (from where the site's pages run), as Jupyter runs them in the notebook's folder."""
    run = f'exec="on" workdir="{workdir}"' if workdir not in ("", ".") else 'exec="on"'
    lines: list[str] = []
    places: list[_Line] = []
    for index, cell in enumerate(_cells(text)):
        source = _source(cell)
        numbered = [_Line(index, n) for n in range(1, source.count("\n") + 2)]
        if cell.get("cell_type") == "markdown":
            lines += source.split("\n")
            places += numbered
        elif cell.get("cell_type") == "code":
            fence = "`" * max([3, *(len(ticks) + 1 for ticks in re.findall(r"`+", source))])
            lines += [f'{fence}python {run} cell="{index + 1}"', *source.split("\n"), fence]
            places += [_Line(index, 0), *numbered, _Line(index, 0)]
        else:
            continue
        lines.append("")
        places.append(_Line(-1, 0))
    return lines, places


def prose(text: str, workdir: str = "") -> str:
    """The notebook `text` as the Markdown the check reads and a provider runs, its code cells
    run in `workdir`."""
    return "\n".join(_read(text, workdir)[0])


def where(path: str, text: str, line: int) -> tuple[str, int]:
    """How messages name line `line` of the notebook's Markdown: `path:cell N` (from 1) and the
    line within the cell; a line between cells by the notebook and the line itself."""
    places = _read(text)[1]
    place = places[line - 1] if 0 < line <= len(places) else _Line(-1, 0)
    return (path, line) if place.cell < 0 else (f"{path}:cell {place.cell + 1}", place.line)


def rewritten(text: str, old: str, new: str) -> str:
    """The notebook `text`, read as the Markdown `old` (its `prose`), with that Markdown now
    reading `new` (some numbers rewritten): each changed run of characters replaced where the
    file has it, escaped as the file escapes; a change outside a Markdown cell is a ValueError."""
    places = _read(text)[1]
    lines = old.split("\n")
    cells = _cells(text)
    spans = _source_spans(text)
    ascii_only = text.isascii()  # written with every character past ASCII escaped
    edits: list[tuple[int, int, str]] = []  # raw start, raw end, replacement
    for number, (before, after) in enumerate(zip(lines, new.split("\n"), strict=True)):
        if before == after:
            continue
        place = places[number]
        if place.cell < 0 or cells[place.cell].get("cell_type") != "markdown":
            raise ValueError(f"line {number + 1} of the notebook's Markdown is not in a Markdown cell")
        start = _shared(before, after)
        tail = _shared(before[start:][::-1], after[start:][::-1])
        offsets = _line_offsets(text, spans[place.cell], place.line)
        replacement = json.dumps(after[start : len(after) - tail], ensure_ascii=ascii_only)[1:-1]
        edits.append((offsets[start], offsets[len(before) - tail], replacement))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _shared(a: str, b: str) -> int:
    """How many characters `a` and `b` begin with alike."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _line_offsets(text: str, spans: list[tuple[int, int]], line: int) -> list[int]:
    """The raw offset in `text` of each character of line `line` of a cell whose source is the
    JSON strings at `spans`, and of the line's end."""
    characters = [offset for start, end in spans for offset in _characters(text, start, end)]
    ends = [spans[-1][1]] if spans else [0]
    source = "".join(_string(text, start - 1)[0] for start, _ in spans)
    starts = [0, *(n + 1 for n, c in enumerate(source) if c == "\n")]
    first = starts[line - 1]
    last = starts[line] - 1 if line < len(starts) else len(source)
    return [*characters, *ends][first : last + 1]


def _characters(text: str, start: int, end: int) -> list[int]:
    """The raw offset of each character the JSON string at `start:end` (inside its quotes) decodes to."""
    found, at = [], start
    while at < end:
        found.append(at)
        if text[at] != "\\":
            at += 1
        elif text[at + 1] != "u":
            at += 2
        elif 0xD800 <= int(text[at + 2 : at + 6], 16) < 0xDC00 and text[at + 6 : at + 8] == "\\u":
            at += 12  # a surrogate pair: one character
        else:
            at += 6
    return found


def _source_spans(text: str) -> dict[int, list[tuple[int, int]]]:
    """For each cell, the raw span (inside its quotes) of each JSON string of its `source`."""
    found: dict[int, list[tuple[int, int]]] = {}
    strings: list[tuple[tuple[Any, ...], int, int]] = []
    _value(text, 0, (), strings)
    for path, start, end in strings:
        if len(path) >= 3 and path[0] == "cells" and path[2] == "source":
            found.setdefault(int(path[1]), []).append((start, end))
    return found


def _value(text: str, at: int, path: tuple[Any, ...], strings: list[tuple[tuple[Any, ...], int, int]]) -> int:
    """Read the JSON value at `at`, each string in it added to `strings` with its path (keys and
    indexes) and raw span; where the value ends."""
    at = _space(text, at)
    if text[at] == '"':
        end = _string(text, at)[1]
        strings.append((path, at + 1, end - 1))
        return end
    if text[at] in "{[":
        closing, index = "}" if text[at] == "{" else "]", 0
        at = _space(text, at + 1)
        while text[at] != closing:
            key: Any = index
            if closing == "}":
                key, at = _string(text, at)
                at = _space(text, at) + 1  # past the colon
            at = _space(text, _value(text, at, (*path, key), strings))
            at, index = (_space(text, at + 1) if text[at] == "," else at), index + 1
        return at + 1
    return int(json.JSONDecoder().raw_decode(text, at)[1])


def _space(text: str, at: int) -> int:
    found = _SPACE.match(text, at)
    return found.end() if found else at


def stripped(text: str) -> str:
    """The notebook as a reader gets it: each Markdown cell without its bindings."""
    from bound_numbers.reading import strip

    notebook = json.loads(text)
    for cell in notebook.get("cells", []):
        if isinstance(cell, dict) and cell.get("cell_type") == "markdown":
            cell["source"] = strip(_source(cell)).splitlines(keepends=True)
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def page_of(path: Path, root: Path, text: str) -> Page:
    """The notebook at `path` (its `text`) as a page, named from `root`, its code run in its folder."""
    workdir = os.path.relpath(path.parent, root)
    return Page(os.path.relpath(path, root), text, functools.partial(prose, workdir=workdir), where)


class Shown:
    """The site's notebooks in one build, which mkdocs-jupyter shows: each checked as a page, and
    handed to mkdocs-jupyter as the check gives it (`shown`: run, or at least without its
    bindings), a copy that mkdocs-jupyter is told not to execute (its `execute_ignore`), so that
    the notebook runs once, in the check. The copies are kept in `.cache/bound-numbers/shown/`
    beside the site's configuration, each where the last build put it: mkdocs-jupyter's cache,
    which knows a notebook by its path and its bytes, then finds a notebook whose outputs did
    not change."""

    FOLDER = Path(".cache", "bound-numbers", "shown")

    def __init__(self) -> None:
        self._told: list[str] = []  # what this build added to mkdocs-jupyter's execute_ignore

    def check(self, files: Files, config: MkDocsConfig, shown: Callable[[Page], str]) -> None:
        """Check each notebook among `files`, and put the notebook its page shows (`shown`) in its place."""
        root = Path(config.config_file_path).parent
        copies = root / self.FOLDER
        ignored = _execute_ignore(config)
        for file in [f for f in files if f.src_uri.endswith(SUFFIX) and f.abs_src_path]:
            source = Path(str(file.abs_src_path))
            try:
                text = read_text(source, os.path.relpath(source, root))
            except (TextError, OSError):  # mkdocs-jupyter says what it cannot read
                continue
            copy = copies / file.src_uri
            _write(copy, shown(page_of(source, root, text)))
            files.remove(file)
            files.append(File(file.src_uri, str(copies), config.site_dir, config.use_directory_urls))
            if str(copy) not in ignored:
                ignored.append(str(copy))
                self._told.append(str(copy))

    def done(self, config: MkDocsConfig) -> None:
        """The build is over: mkdocs-jupyter's execute_ignore as the site's configuration says it."""
        ignored = _execute_ignore(config)
        for told in self._told:
            if told in ignored:
                ignored.remove(told)
        self._told = []


def _write(path: Path, text: str) -> None:
    """`text` in the file at `path`, unless it holds it already (then its time stays)."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except OSError:
        path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _execute_ignore(config: MkDocsConfig) -> list[str]:
    """mkdocs-jupyter's `execute_ignore`: the notebooks it shows without executing them."""
    settings = getattr(config.plugins.get("mkdocs-jupyter"), "config", None)
    if settings is None:
        return []
    found = settings.get("execute_ignore")
    if not isinstance(found, list):
        found = settings["execute_ignore"] = list(found or [])
    return found
