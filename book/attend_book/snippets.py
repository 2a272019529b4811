"""The include lines of a page checked against the marked sections they name.

pymdownx.snippets includes `--8<-- "src/attend/core/head.py:attend"` as the lines between
`# --8<-- [start:attend]` and `# --8<-- [end:attend]`; with the end marker gone it includes the
rest of the file, and of a marker written twice it picks one, neither an error there. `check`
reports both, naming the file and the section. An escaped line, `;--8<-- …`, is shown as text.
"""

from __future__ import annotations

from pathlib import Path

from bound_numbers import INCLUDE, Problem


def check(markdown: str, root: Path) -> list[Problem]:
    """Every include line of the page whose file or marked section is not there exactly once."""
    problems = []
    for number, line in enumerate(markdown.splitlines(), 1):
        if (found := INCLUDE.match(line)) is None:
            continue
        path, part, source = found["path"], found["part"], root / found["path"]
        if not source.is_file():
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
