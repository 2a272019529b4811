"""A page's executed fences run in this process, without mkdocs: what the binding check reads.

`run_page(path, markdown)` runs every fence marked `exec` in page order, the Python ones in one
namespace for the page (as the page's markdown-exec session does at build) and each `$ attend …`
line of a console fence through `attend.cli.main`, and returns one `Block` per fence: its kind,
the line of its opening mark and the text a reader sees under it. The tests, `nox -s renumber`
and the mutation suite all use it, so none of them needs a site build.

A fence that raises stops the page with a `FenceRunError` that names the page, the line of the
statement that failed and, for a failed `assert`, the values the assertion compared.
"""

from __future__ import annotations

import ast
import contextlib
import io
import shlex
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from book.execute import commands, run_transcript
from book.numerals import parser

__all__ = ["Block", "FenceRunError", "blocks", "executed", "run_page"]


@dataclass(frozen=True)
class Block:
    """One executed fence: "python" or "console", the line of its opening mark, what it shows."""

    kind: str
    line: int
    text: str


class FenceRunError(Exception):
    """A fence of a page raised; the message is one line naming where and why."""


def _switched_on(value: str) -> bool:
    return value.lower() not in {"", "0", "no", "off", "false"}


def executed(markdown: str) -> list[tuple[int, str, str]]:
    """(line of the opening mark, language, body) of every fence marked `exec`, in page order."""
    found = []
    for token in parser().parse(markdown):
        if token.type != "fence" or not token.map:
            continue
        words = shlex.split(token.info) if token.info.strip() else []
        options = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        if words and _switched_on(options.get("exec", "")):
            found.append((token.map[0] + 1, words[0], token.content))
    return found


def _values(node: ast.expr, namespace: dict[str, Any]) -> list[str]:
    """What the parts of a failed assertion evaluate to, `expression = value` each."""
    parts: list[ast.expr]
    if isinstance(node, ast.Compare):
        parts = [node.left, *node.comparators]
    elif isinstance(node, ast.BoolOp):
        parts = list(node.values)
    elif isinstance(node, ast.UnaryOp):
        parts = [node.operand]
    elif isinstance(node, ast.Call):
        parts = [*node.args, *(k.value for k in node.keywords)]
    else:
        parts = [node]
    shown = []
    for part in parts:
        if isinstance(part, ast.Constant):
            continue
        try:
            value = eval(compile(ast.Expression(part), "<assert>", "eval"), namespace)
        except Exception as error:  # the value cannot be shown; say why instead
            value = error
        shown.append(f"{ast.unparse(part)} = {value!r:.200}")
    return shown


def _failure(path: str, fence: int, source: str, error: BaseException, namespace: dict[str, Any]) -> str:
    name = f"{path}:{fence}"
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == name]
    if not frames or frames[-1].lineno is None:
        return f"{path}:{fence}: the fence failed: {type(error).__name__}: {error}"
    inner = frames[-1].lineno
    statement = source.splitlines()[inner - 1].strip()
    message = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if isinstance(error, AssertionError):
        tests = [
            n.test for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Assert) and n.lineno == inner
        ]
        if tests:
            message = "assertion failed: " + ", ".join(_values(tests[0], namespace))
    return f"{path}:{fence + inner}: the fence at line {fence} failed at `{statement}`: {message}"


def run_page(path: str | Path, markdown: str) -> list[Block]:
    """Run the page's executed fences and return what each shows, in page order."""
    shown_path = Path(path).as_posix()
    namespace: dict[str, Any] = {"__name__": "__main__"}
    found = []
    for line, language, body in executed(markdown):
        if language == "console":
            found.append(_block(line, language, body, run_transcript("\n".join(commands(body)))))
            continue
        printed_to = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed_to):
                exec(compile(body, f"{shown_path}:{line}", "exec"), namespace)
        except Exception as error:
            raise FenceRunError(_failure(shown_path, line, body, error, namespace)) from error
        found.append(Block("python", line, printed_to.getvalue()))
    return found


def _block(line: int, language: str, body: str, printed: str) -> Block:
    """A console fence shows each command after its prompt, then what the commands printed."""
    if language != "console":
        return Block("python", line, printed)
    return Block("console", line, "".join(f"$ {command}\n" for command in commands(body)) + printed)


def blocks(markdown: str, printed: list[str]) -> list[Block]:
    """The page's blocks from what a build recorded, one output per executed fence in order."""
    return [
        _block(line, language, body, out)
        for (line, language, body), out in zip(executed(markdown), printed, strict=False)
    ]
