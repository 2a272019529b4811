"""The book's executed fences: markdown-exec does the running, this module keeps the receipts.

Two things are added to markdown-exec, both through its public `formatters` table:

* every output a page's code prints is recorded against that page, so that the prose-number
  check can hold the page's numerals against what its code really printed (and against
  nothing else: the source of the fences, with its asserts full of typed numbers, is not
  output and is not recorded);
* a fence that raises fails the build. markdown-exec's own behaviour is to log a warning and
  render the traceback into the page, which `--strict` turns into a failure only at the end
  of a build that has already written the traceback into `site/`. Here the error propagates
  and mkdocs stops before it writes a page.

`console` fences are transcripts: each `$ attend …` line is run by calling `attend.cli.main`
with those arguments, the very function the `attend` command calls, and its output is shown
under the prompt. Only `attend` may be run; any other command is a build error.
"""

from __future__ import annotations

import contextlib
import io
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import markdown_exec
from markdown_exec import ExecutionError, base_format

# markdown-exec's own Python runner and its session table; pinned by the `docs` extra, and
# tests/docs/test_traps.py fails loudly if a new version moves them.
from markdown_exec._internal.formatters import python as _python
from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException  # type: ignore[import-untyped]

__all__ = ["RECORDER", "FenceError", "Recorder", "commands", "install", "run_transcript"]


class FenceError(SuperFencesException, PluginError):  # type: ignore[misc]
    """A fence on a page raised, or a transcript asked for something other than `attend`.

    It is a `SuperFencesException` because SuperFences swallows any other exception a fence
    formatter raises and renders the fence as plain text, which would pass a broken page. It
    is a `PluginError` so that mkdocs stops with this message rather than a Python traceback.
    """


@dataclass
class Recorder:
    """What the code of the page being rendered printed, one entry per fence."""

    page: str | None = None
    outputs: list[str] = field(default_factory=list)

    def start(self, page: str) -> None:
        self.page, self.outputs = page, []

    def add(self, output: str) -> None:
        self.outputs.append(output)

    def finish(self) -> list[str]:
        outputs, self.page, self.outputs = self.outputs, None, []
        return outputs


RECORDER = Recorder()


def _where() -> str:
    return f"docs/{RECORDER.page}" if RECORDER.page else "a page"


def _recording(run: Callable[..., str], language: str, record: bool) -> Callable[..., str]:
    def recorded(code: str, **kwargs: Any) -> str:
        try:
            output = run(code, **kwargs)
        except ExecutionError as error:
            shown = "\n".join(line for line in str(error).splitlines() if not line.startswith("```"))
            raise FenceError(
                f"{_where()}: a {language} fence failed, so the page is not built:\n{shown}"
            ) from error
        if record:
            RECORDER.add(output)
        return output

    return recorded


def run_transcript(code: str) -> str:
    """The output of each `attend …` command in `code`, run in this process, in order."""
    from attend.cli import main

    printed = io.StringIO()
    for line in code.splitlines():
        if not line.strip():
            continue
        argv = shlex.split(line)
        if argv[0] != "attend":
            raise FenceError(f"{_where()}: a transcript may only run `attend`, not {line!r}")
        with contextlib.redirect_stdout(printed):
            try:
                status = main(argv[1:])
            except SystemExit as stop:  # argparse refusing a flag: a status, not a crash
                status = stop.code if isinstance(stop.code, int) else 1
        if status != 0:
            raise FenceError(f"{_where()}: `{line}` exited with status {status}")
    return printed.getvalue()


def _run_console(code: str, **kwargs: Any) -> str:
    return run_transcript(code)


def commands(transcript: str) -> list[str]:
    """The commands of a transcript: each line after a `$ ` prompt, prompt removed."""
    return [line[2:] for line in transcript.splitlines() if line.startswith("$ ")]


def _console_source(code: str) -> tuple[str, str]:
    """What to run (the commands) and what to show (the same, prompted)."""
    run = commands(code)
    return "\n".join(run), "\n".join(f"$ {command}" for command in run)


def _format_python(**kwargs: Any) -> Any:
    record = not kwargs.get("html", False)  # an HTML figure's SVG numbers are drawing, not prose
    return base_format(language="python", run=_recording(_python._run_python, "python", record), **kwargs)


def _format_console(**kwargs: Any) -> Any:
    kwargs["source"] = kwargs.get("source") or "console"
    return base_format(
        language="console",
        run=_recording(_run_console, "console", True),
        transform_source=_console_source,
        **kwargs,
    )


def install() -> None:
    """Put the recording formatters in markdown-exec's table (idempotent)."""
    markdown_exec.formatters["python"] = _format_python
    markdown_exec.formatters["py"] = _format_python
    markdown_exec.formatters["console"] = _format_console


def reset_sessions() -> None:
    """Forget every session's globals, so a rebuild under `serve` starts each page afresh."""
    _python._sessions_globals.clear()
