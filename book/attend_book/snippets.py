"""The include lines of a page checked against the files and marked sections they name.

pymdownx.snippets includes `--8<-- "src/attend/core/head.py:attend"` as the lines between
`# --8<-- [start:attend]` and `# --8<-- [end:attend]`; with the end marker gone it includes the
rest of the file, and of a marker written twice it picks one, neither an error there. A file
outside the repository (`/etc/passwd`, `../x`, a link that leads out) it leaves out in silence,
or, for a link, follows. `check` reports each, naming the file and the section. An escaped line,
`;--8<-- …`, is shown as text; a block between two `--8<--` lines names one file a line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from bound_numbers import INCLUDE, Problem

BLOCK = re.compile(r"^[ \t]*-+8<-+[ \t]*$")  # opens and closes a block of include lines


def includes(markdown: str) -> Iterator[tuple[int, str, str]]:
    """Each file the page includes: its line, its path and the section named (or "")."""
    block = False
    for number, line in enumerate(markdown.splitlines(), 1):
        if BLOCK.match(line):
            block = not block
        elif (found := INCLUDE.match(line)) is not None:
            yield number, found["path"], found["part"]
        elif block and (named := line.strip()) and not named.startswith(";"):
            path, _, part = named.partition(":")
            yield number, path, part


def check(markdown: str, root: Path) -> list[Problem]:
    """Every include of the page whose file is outside `root` (the repository) or not there, or
    whose marked section is not there exactly once."""
    problems = []
    for number, path, part in includes(markdown):
        source = root / path
        if not source.resolve().is_relative_to(root.resolve()):
            said = (
                f"the include names {path}, which is outside the repository: a page includes only its files"
            )
            problems.append(Problem(number, said))
        elif not source.is_file():
            problems.append(Problem(number, f"the include names {path}, which is not there"))
        elif part:
            text = source.read_text(encoding="utf-8")
            markers = {kind: f"--8<-- [{kind}:{part}]" for kind in ("start", "end")}
            for marker in markers.values():
                if (count := text.count(marker)) != 1:
                    said = f"{path} has {count} `{marker[7:]}` markers where one belongs"
                    problems.append(Problem(number, said))
            if -1 < text.find(markers["end"]) < text.find(markers["start"]):
                problems.append(Problem(number, f"{path} ends section {part} before it starts it"))
    return problems
