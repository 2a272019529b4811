"""A notebook run once, in a Jupyter kernel, as Jupyter runs it: how `values: fences` gives the
values of a notebook page, and what its page shows.

The notebook's code cells run in order in a fresh kernel (nbclient's, the kernel the notebook
names, or mkdocs-jupyter's `kernel_name`), started in the notebook's own folder: a module beside
it imports, a file it opens by a relative path is found, and IPython's own syntax (`%timeit`,
`!pip install`) works as in Jupyter. Between two cells the kernel evaluates the bindings of that
stage (`evaluation.Stages`, `plan.Plan`) in the names the cells made, in one silent request that
leaves no trace in the notebook: the module `evaluation` is loaded into the kernel from its
source, so the kernel needs nothing of bound_numbers installed.

What comes back (`Executed`) is the asked values, or `Unavailable` naming the cell that failed
(`page:LINE: a code cell failed at …`, LINE a line of the notebook's Markdown, which the plugin
names by cell), and the notebook as its page shows it: its outputs those of this run, its
Markdown without bindings. A cell that fails is one line and the run goes on to the end, as a
page's fences do; a cell past the time limit, or one that ends the kernel, stops the run there.

The kernel's client runs on an event loop in a thread of its own, and the build's thread waits
on each step: the build keeps its signal handlers, a Ctrl-C ends the wait where it is, and the
kernel is shut down on the way out, whatever ended the run.

Asked to `record`, the kernel also loads `kernel_reads` before the first cell, and the run
answers what the notebook's code reached (`Executed.reached`), from which `notebook_cache` keeps
the run between builds.
"""

from __future__ import annotations

import ast
import asyncio
import concurrent.futures
import contextlib
import inspect
import json
import os
import tempfile
import threading
import warnings
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bound_numbers import evaluation, kernel_reads
from bound_numbers.evaluation import Stages, said
from bound_numbers.page import Fence, Page
from bound_numbers.plan import Plan
from bound_numbers.running import SETTING, TIME_LIMIT, Heard
from bound_numbers.values import Asked, Unavailable, Value

if TYPE_CHECKING:
    from nbclient import NotebookClient

T = TypeVar("T")
MODULE = "__bound_numbers__"  # what the kernel calls the module that evaluates bindings
READS = "__bound_numbers_reads__"  # and the one that records what the notebook's code reached
SHOWN = 60  # the most characters of a failing line a message quotes
NEEDED = (
    "a notebook runs in a Jupyter kernel, which needs nbclient and ipykernel: "
    "`pip install bound-numbers[notebooks]` (mkdocs-jupyter installs them too)"
)


@dataclass(frozen=True)
class Executed:
    """A notebook's run: `shown`, the notebook its page shows (nbformat JSON), and `values`, each
    asked value, or why its code failed (the values above the cell that failed kept in it);
    `reached`, where the run was recorded and every cell ran, what its code reached
    (`kernel_reads.report`)."""

    shown: str
    values: Mapping[Asked, Value] | Unavailable
    reached: Mapping[str, Any] | None = None


def code_cells(page: Page) -> list[Fence]:
    """The notebook's code cells, as the fences of its Markdown (`notebooks.prose`) stand for them."""
    return [fence for fence in page.fences if "cell" in fence.options]


def run(
    page: Page,
    asked: Sequence[Asked],
    *,
    root: Path,
    limit: float = TIME_LIMIT,
    kernel: str = "",
    record: bool = False,
) -> Executed:
    """The notebook `page` (its path from `root`) run in a Jupyter kernel (`kernel`, or the one
    its metadata names) in its folder, each cell with `limit` seconds, and each asked value
    evaluated there at its stage; with `record`, what its code reached recorded too."""
    plan = Plan.of(page, asked, code_cells(page))
    try:
        import nbclient
    except ImportError:
        return Executed(page.text, Unavailable(f"{page.path}:1: {NEEDED}"))
    notebook = _read(page.text)
    if not plan.fences and not plan.asked:  # nothing to run, nothing to evaluate: no kernel
        return Executed(_shown(notebook, len(notebook.cells)), {})
    heard = Heard(plan)
    values: Mapping[Asked, Value] | Unavailable
    reached = None
    with _Loop() as loop, tempfile.TemporaryDirectory(prefix="bound-numbers-kernel-") as sockets:
        session = _Session(
            notebook, plan, loop, limit, _client(notebook, kernel, limit, root / page.path, sockets), record
        )
        try:
            session.run(heard)
            heard.done()
            values = plan.values_of(heard.values)
            reached = session.reached() if record else None
        except Unavailable as error:
            values = heard.unavailable(str(error))
        except nbclient.exceptions.DeadKernelError:
            values = heard.unavailable(f"{session.where} ended the notebook's kernel")
        except (RuntimeError, OSError) as error:  # the kernel's channels failed under the run
            values = heard.unavailable(f"{session.where}: the notebook's kernel failed: {said(error)}")
        finally:
            session.stop()
    return Executed(_shown(notebook, session.ran), values, reached)


def _client(notebook: Any, kernel: str, limit: float, path: Path, sockets: str) -> NotebookClient:
    """nbclient's client of a kernel started in the notebook's folder, talking over local sockets
    in `sockets` (nothing open to the network, nothing said about unencrypted TCP), which lets
    every cell run to its end, records no timings (the notebook shown changes only when its
    outputs do), and kills the kernel when done."""
    import nbclient
    from traitlets.config import Config

    return nbclient.NotebookClient(
        notebook,
        timeout=limit,
        kernel_name=kernel,
        allow_errors=True,  # a cell that fails is said in one line, and the run goes on
        record_timing=False,
        shutdown_kernel="immediate",
        resources={"metadata": {"path": str(path.parent)}},
        config=Config({"KernelManager": {"transport": "ipc", "ip": os.path.join(sockets, "kernel")}}),
    )


class _Loop:
    """An event loop running in a thread of its own, which the build's thread hands each step of
    the kernel's client and waits on (`run`): a signal reaches the build's thread as ever."""

    def __enter__(self) -> _Loop:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="bound-numbers-kernel", daemon=True)
        self.thread.start()
        return self

    def run(self, step: Coroutine[Any, Any, T]) -> T:
        """The step's result, once it is done; cancelled if the wait is interrupted (Ctrl-C)."""
        future = asyncio.run_coroutine_threadsafe(step, self.loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()
            raise

    def __exit__(self, *exc: object) -> None:
        async def settle() -> None:  # what a cancelled step left behind, let end
            left = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in left:
                task.cancel()
            await asyncio.gather(*left, return_exceptions=True)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(settle(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        if not self.thread.is_alive():
            self.loop.close()


class _Session:
    """The notebook's run in one kernel: started, its cells and its bindings in order, stopped."""

    def __init__(
        self, notebook: Any, plan: Plan, loop: _Loop, limit: float, client: NotebookClient, record: bool
    ) -> None:
        self.notebook, self.plan, self.loop, self.limit, self.client = notebook, plan, loop, limit, client
        self.record = record  # whether what the notebook's code reaches is recorded (`kernel_reads`)
        # the step under way, as messages name it: the kernel is the notebook's, of no cell of it
        self.where = f"{plan.page}: the notebook's kernel"
        self.ran = 0  # how many of the notebook's cells have run (or were passed by) from the top
        self.errors: list[dict[str, Any]] = []  # the reply of each cell that failed
        client.on_cell_error = lambda cell, cell_index, execute_reply: self.errors.append(execute_reply)

    def run(self, heard: Heard) -> None:
        """Start the kernel, then each stage's bindings and each cell in turn, then the last stage's."""
        self.loop.run(self._start())
        given = self.plan.given()
        stages = Stages(given["points"], given["places"])
        for stage, fence in enumerate(self.plan.fences):
            heard.value(stages.evaluate(stage, False, self.each))
            message = self.loop.run(self._cell(fence))
            if message:
                heard.fall(message)
        heard.value(stages.evaluate(len(self.plan.fences), True, self.each))
        self.ran = len(self.notebook.cells)

    def each(self, indexes: list[int]) -> list[tuple[Value, bool]]:
        """The value of each point at `indexes` and whether a name it uses is undefined, from the kernel."""
        points = self.plan.points
        self.where = self.plan.where(points[indexes[0]])
        return self.loop.run(self._evaluate([points[n].expression for n in indexes]))

    def reached(self) -> Mapping[str, Any] | None:
        """What the notebook's code reached (`kernel_reads.report`), or None if the kernel cannot say."""
        asked = {"reached": f"__import__({READS!r}).report()"}
        try:
            found = self.loop.run(self._request("", asked)).get("user_expressions", {}).get("reached", {})
        except Unavailable:  # past the time limit: the run stands, and is not kept
            return None
        if found.get("status") != "ok":
            return None
        with contextlib.suppress(ValueError, SyntaxError):
            report = json.loads(ast.literal_eval(found["data"]["text/plain"]))
            return report if isinstance(report, dict) else None
        return None

    async def _start(self) -> None:
        """A kernel in the notebook's folder, checked to run Python, with the module that
        evaluates bindings loaded from its source."""
        client = self.client
        client.km = client.create_kernel_manager()
        try:
            await client.async_start_new_kernel()
            await client.async_start_new_kernel_client()
        except Exception as error:  # no such kernel, a kernel that does not start
            raise Unavailable(f"{self.where} cannot start: {said(error)}") from None
        info = (await self._kc.kernel_info(reply=True, timeout=self.limit))["content"].get(
            "language_info", {}
        )
        self.notebook.metadata["language_info"] = info
        if info.get("name") != "python":
            said_language = info.get("name") or "no language it names"
            raise Unavailable(
                f"{self.where} runs {said_language}: bindings are Python, evaluated in a Python kernel"
            )
        reply = await self._request(_loaded(MODULE, evaluation))
        if reply["status"] != "ok":
            raise Unavailable(
                f"{self.where} cannot evaluate bindings: {reply.get('ename')}: {reply.get('evalue')}"
            )
        if self.record:  # before the first cell; a kernel that cannot is not recorded (`reached`)
            await self._request(f"{_loaded(READS, kernel_reads)}\n__import__({READS!r}).record()")

    @property
    def _kc(self) -> Any:
        """The kernel's client: jupyter_client's asynchronous one, which nbclient's types call a
        `KernelClient`, whose requests are awaited and may wait for their reply (`reply=True`)."""
        assert self.client.kc is not None
        return self.client.kc

    async def _request(self, code: str, expressions: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A silent request to the kernel (nothing shown, no history, no execution count), its reply."""
        try:
            reply = await self._kc.execute(
                code,
                silent=True,
                store_history=False,
                user_expressions=dict(expressions or {}),
                reply=True,
                timeout=self.limit,
            )
        except TimeoutError:
            raise Unavailable(
                f"{self.where} ran past the time limit of {self.limit:g} seconds ({SETTING})"
            ) from None
        return dict(reply["content"])

    async def _evaluate(self, expressions: list[str]) -> list[tuple[Value, bool]]:
        asked = f"__import__({MODULE!r}).as_json({expressions!r}, globals())"
        found = (await self._request("", {"values": asked})).get("user_expressions", {}).get("values", {})
        if found.get("status") != "ok":  # as_json answers every error: this is the kernel's own
            why = f"{found.get('ename')}: {found.get('evalue')}"
            return [(f"the kernel could not evaluate it: {why}", False) for _ in expressions]
        pairs = json.loads(ast.literal_eval(found["data"]["text/plain"]))
        return [(value, bool(undefined)) for value, undefined in pairs]

    async def _cell(self, fence: Fence) -> str:
        """Run the code cell `fence` stands for; how it failed, in one line, or "" if it did not."""
        import nbclient

        index = int(fence.options["cell"]) - 1
        self.where = f"{self.plan.page}:{fence.line + 1}: this cell"
        before = len(self.errors)
        try:
            await self.client.async_execute_cell(
                self.notebook.cells[index], index, execution_count=self.client.code_cells_executed + 1
            )
        except nbclient.exceptions.CellTimeoutError:
            raise Unavailable(
                f"{self.where} ran past the time limit of {self.limit:g} seconds ({SETTING})"
            ) from None
        except nbclient.exceptions.DeadKernelError:
            raise Unavailable(f"{self.where} ended the notebook's kernel") from None
        finally:
            self.ran = index + 1
        if len(self.errors) == before:
            return ""
        return await self._failure(fence, self.errors[-1]["content"])

    async def _failure(self, fence: Fence, reply: Mapping[str, Any]) -> str:
        """`page:LINE: a code cell failed at `…`: Error: message`, LINE that of the cell's own code
        the error was raised at (where the kernel can tell), from the error the kernel keeps."""
        error = f"{reply.get('ename', 'Error')}: {reply.get('evalue', '')}".splitlines()[0]
        asked = {"raised": f"__import__({MODULE!r}).raised()"}
        found = (await self._request("", asked)).get("user_expressions", {}).get("raised", {})
        line, name = 0, ""
        if found.get("status") == "ok":
            line, name, told = json.loads(ast.literal_eval(found["data"]["text/plain"]))
            error = told if name == reply.get("ename") else error
        lines = fence.body.split("\n")
        if not (name == reply.get("ename") and 1 <= line <= len(lines)):
            return f"{self.plan.page}:{fence.line + 1}: a code cell failed: {error}"
        failing = lines[line - 1].strip()
        quoted = failing if len(failing) <= SHOWN else f"{failing[: SHOWN - 1]}…"
        return f"{self.plan.page}:{fence.line + line}: a code cell failed at `{quoted}`: {error}"

    def stop(self) -> None:
        """The kernel shut down and its client's channels closed, whatever state the run left them in."""
        manager, kc = self.client.km, self.client.kc
        if manager is None:
            return

        async def shut() -> None:
            if kc is not None:
                kc.stop_channels()
            if await _maybe(manager.is_alive()):
                await _maybe(manager.shutdown_kernel(now=True))
            await _maybe(manager.cleanup_resources())

        with contextlib.suppress(Exception, concurrent.futures.CancelledError):  # a kernel already gone
            self.loop.run(asyncio.wait_for(shut(), timeout=10))


def _loaded(name: str, module: Any) -> str:
    """The code that loads `module` into the kernel from its source, as the module `name`."""
    made = f"__import__('sys').modules.setdefault({name!r}, __import__('types').ModuleType({name!r}))"
    return f"exec({inspect.getsource(module)!r}, {made}.__dict__)"


async def _maybe(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _read(text: str) -> Any:
    """The notebook as nbformat reads it, each cell with an id (one of its place where it had
    none: the same each build, so that the notebook shown changes only with its outputs)."""
    import nbformat
    from nbformat.warnings import MissingIDFieldWarning

    with warnings.catch_warnings():  # "Cell is missing an id field": given one below
        warnings.simplefilter("ignore", MissingIDFieldWarning)
        notebook = nbformat.reads(text, as_version=4)
    if (notebook.nbformat, notebook.nbformat_minor) >= (4, 5):
        for index, cell in enumerate(notebook.cells, 1):
            cell.setdefault("id", f"cell-{index}")
    return notebook


def _shown(notebook: Any, ran: int) -> str:
    """The notebook as its page shows it: the outputs of this run (none for a cell below where it
    stopped), its Markdown without bindings."""
    import nbformat

    from bound_numbers.reading import strip

    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            cell.source = strip(cell.source)
        elif cell.cell_type == "code" and index >= ran:
            cell.outputs, cell.execution_count = [], None
    return str(nbformat.writes(notebook))
