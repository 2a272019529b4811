"""The pages' fences as tests, each fence's code run once, as the build runs a page.

pytest-markdown-docs makes the test of a `continuation` fence the code of every fence before it
and its own, run from the top: a page of fourteen fences ran its first one fourteen times, and
every later one as often as the fences after it, its pinned tests' runs and figures among them
(a sixth of `nox -s tests`). This runner keeps the namespace a page's test left when it passed;
the next test of that page, whose code is that code and more, runs only the more in it: each
fence once, in order, in one namespace, as the build runs it. A test whose code does not carry
on from the last one's (a page's first fence, one without `continuation`, a fence chosen alone
with -k, the one after a failure) runs whole from the top, as before; a failure is reported
as before, at the same lines.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

from pytest_markdown_docs._runners import DefaultRunner, register_runner
from pytest_markdown_docs.definitions import FenceTestDefinition


@register_runner(default=True)  # every fence's: the pages name no runner
class ContinuedRunner(DefaultRunner):
    def __init__(self) -> None:
        self.passed: tuple[Path, str, dict[str, Any]] | None = None  # the last test's page, code, namespace

    def runtest(self, test: FenceTestDefinition, args: dict[str, Any], *, asyncio_runner: Any = None) -> None:
        done, self.passed = self.passed, None  # a test that fails leaves nothing to carry on from
        if done is not None and done[0] == test.source_path and test.source.startswith(done[1]):
            _, code, namespace = done
            more = compile(
                "\n" * code.count("\n") + test.source[len(code) :],  # the file's line numbers kept
                filename=test.source_path,
                mode="exec",
                flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                dont_inherit=True,
            )
            if not more.co_flags & inspect.CO_COROUTINE:  # top-level await: the plugin's own way
                exec(more, namespace)
                self.passed = test.source_path, test.source, namespace
                return
        super().runtest(test, args, asyncio_runner=asyncio_runner)
        self.passed = test.source_path, test.source, args
