"""Count the share of a module's code lines that check input rather than compute: issue 35's measure.

A code line is one `scripts/code_lines.py` counts (a code token, not a comment or a docstring).
It is a check line when it stands in

- a checks module (a file named `checks.py`): all of it;
- a check function: a private function (`_name`, or `__post_init__`) that raises, or a private
  one every caller of which is a check function (named in the report, found to a fixed point);
- elsewhere, a check statement: a `raise`; an `if` whose every branch holds only check
  statements; a statement whose expression calls a function of the checks module or a check
  function; the line of a `with np.errstate(...)` (the arithmetic is let overflow to be checked
  after).

    python3 scripts/check_lines.py src/attend/core/*.py
    git show REV:path | ...  (or pass files of an older checkout)
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path

NOT_CODE = frozenset(
    {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
)
Function = ast.FunctionDef | ast.AsyncFunctionDef


def code_lines(source: str, tree: ast.Module) -> set[int]:
    """The lines holding a code token, docstrings left out (as scripts/code_lines.py counts)."""
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in NOT_CODE:
            lines.update(range(token.start[0], token.end[0] + 1))
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | Function) and ast.get_docstring(node, clean=False):
            first = node.body[0]
            lines -= set(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def span(node: ast.AST) -> set[int]:
    start, end = getattr(node, "lineno", 0), getattr(node, "end_lineno", 0) or 0
    return set(range(start, end + 1))


def called(node: ast.AST) -> set[str]:
    """The names a node calls: `f(...)`, `self.f(...)`, `obj.f(...)` all give `f`."""
    names = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            if isinstance(sub.func, ast.Name):
                names.add(sub.func.id)
            elif isinstance(sub.func, ast.Attribute):
                names.add(sub.func.attr)
    return names


class Counter:
    def __init__(self, files: list[Path]) -> None:
        self.trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in files}
        self.helpers: set[str] = set()  # the checks modules' functions and imported names
        for path, tree in self.trees.items():
            if path.name == "checks.py":
                self.helpers |= {n.name for n in tree.body if isinstance(n, Function)}
        self.checks = self._check_functions()

    def _functions(self) -> list[tuple[Path, Function]]:
        return [
            (path, node)
            for path, tree in self.trees.items()
            if path.name != "checks.py"
            for node in ast.walk(tree)
            if isinstance(node, Function)
        ]

    def _check_functions(self) -> set[str]:
        functions = self._functions()
        found = {
            f.name
            for _, f in functions
            if ((f.name.startswith("_") and not f.name.startswith("__")) or f.name == "__post_init__")
            and any(isinstance(n, ast.Raise) for n in ast.walk(f))
        }
        while True:  # private helpers every caller of which is a check
            more = set()
            for _, f in functions:
                if f.name in found or not f.name.startswith("_") or f.name.startswith("__"):
                    continue
                callers = [g for _, g in functions if g is not f and f.name in called(g)]
                if callers and all(g.name in found for g in callers):
                    more.add(f.name)
            if not more:
                return found
            found |= more

    def is_check(self, statement: ast.stmt, found: set[str] | None = None) -> bool:
        found = self.checks if found is None else found
        if isinstance(statement, ast.Raise):
            return True
        if isinstance(statement, ast.If):
            branches = [statement.body, statement.orelse] if statement.orelse else [statement.body]
            return all(self.is_check(s, found) for branch in branches for s in branch)
        if isinstance(statement, ast.Expr | ast.Assign | ast.AnnAssign | ast.AugAssign | ast.Return):
            value = statement.value
            return value is not None and bool(called(value) & (self.helpers | found))
        return False

    def check_lines(self, path: Path) -> tuple[int, int]:
        tree = self.trees[path]
        code = code_lines(path.read_text(encoding="utf-8"), tree)
        if path.name == "checks.py":
            return len(code), len(code)
        checked: set[int] = set()
        for node in ast.walk(tree):
            if (isinstance(node, Function) and node.name in self.checks) or (
                isinstance(node, ast.stmt) and self.is_check(node)
            ):
                checked |= span(node)
            elif isinstance(node, ast.With) and any(
                "errstate" in called(item.context_expr) for item in node.items
            ):
                checked.add(node.lineno)
        return len(code & checked), len(code)


def main(paths: list[str]) -> None:
    files = [Path(p) for p in paths]
    counter = Counter(files)
    total_checks = total = 0
    for path in files:
        checks, lines = counter.check_lines(path)
        total_checks, total = total_checks + checks, total + lines
        print(f"{checks:5d} of {lines:5d}  {path}")
    print(f"{total_checks:5d} of {total:5d}  in all: {100 * total_checks / max(total, 1):.1f}% checks")
    print("check functions:", ", ".join(sorted(counter.checks)) or "none")


if __name__ == "__main__":
    main(sys.argv[1:])
