"""The include lines of a page checked against the marked sections they name.

pymdownx.snippets includes `--8<-- "src/attend/head.py:attend"` as the lines between
`# --8<-- [start:attend]` and `# --8<-- [end:attend]`. With the end marker gone it includes
everything to the end of the file, and with a marker written twice it picks one of them; neither
is an error there. `check(markdown, root)` reports both, naming the source file and the section.
A line written `;--8<-- …` is the escaped form, shown literally, and is not checked.
"""

from __future__ import annotations

import re
from pathlib import Path

from attend_book.binding import Problem

__all__ = ["check"]

_INCLUDE = re.compile(r'^\s*-{1,3}8<-{1,3}\s+"(?P<path>[^":]+)(?::(?P<section>[\w-]+))?"\s*$')


def check(markdown: str, root: Path) -> list[Problem]:
    """Every include line of the page whose file or marked section is not there exactly once."""
    problems = []
    for number, line in enumerate(markdown.splitlines(), 1):
        found = _INCLUDE.match(line)
        if found is None:
            continue
        path, section = found.group("path"), found.group("section")
        source = root / path
        if not source.is_file():
            problems.append(Problem(number, f"the include names {path}, which is not there"))
            continue
        if section is None:
            continue
        text = source.read_text(encoding="utf-8")
        for marker in ("start", "end"):
            count = len(re.findall(rf"--8<-- \[{marker}:{re.escape(section)}\]", text))
            if count != 1:
                problems.append(
                    Problem(number, f"{path} has {count} `[{marker}:{section}]` markers where one belongs")
                )
        starts = text.find(f"[start:{section}]")
        if 0 <= text.find(f"[end:{section}]") < starts:
            problems.append(Problem(number, f"{path} ends section {section} before it starts it"))
    return problems
