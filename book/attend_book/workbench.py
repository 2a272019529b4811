"""The workbench: the book's one notebook page, a jupytext script under docs/ (`workbench` under
attend-book in mkdocs.yml) that mkdocs-jupyter shows executed, outputs and all.

All the build does with it is here, and the plugin's hooks call it: the script is run top to
bottom in a fresh Jupyter kernel on a cache miss only (`execute`, kept by `Cache.notebook`), its
prose's bindings evaluated in that kernel as a page's are in its own process, and the executed
notebook takes the script's place among the build's files (`Workbench.take_place`). When a cell
fails, that is one line in the log, and the page shows the cells without outputs, so the build
goes on to report every other problem. Its page gets the script's front matter and edit link
(`Workbench.dress`), and loses the MathJax nbconvert loads from a CDN (`without_remote_scripts`).
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import signal
import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import nbformat
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page as MkDocsPage
from nbformat.v4 import new_code_cell

from attend_book.cache import Cache
from attend_book.inputs import Read
from attend_book.notebooks import Cell, install_cell
from attend_book.page import OUTPUT_LIMIT, TIME_LIMIT
from bound_numbers import Asked, Fence, Page, Plan, Unavailable, Value, strip

if TYPE_CHECKING:
    from nbclient import NotebookClient

Run = Callable[[Path, Path], Read]  # what executes the workbench into a notebook: `execute`
_FULL = "printed more than {:g} MB, the most the workbench may print (its cells together)"
RECORDING = "from attend_book import inputs"  # what records the files the kernel reads
_STAGES = "__bound_stages__"  # the name, in the kernel, of what evaluates the bindings stage by stage
_MATHJAX = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.DOTALL)


class Workbench:
    """The workbench in one build: executed once (as the number check asks for its bindings'
    values, or else as the page needs it), the page that shows it, and where a notebook made
    without outputs is kept until the build ends."""

    def __init__(self) -> None:
        self.page = ""  # the executed notebook's src_uri, once it took the script's place
        self.said = False  # whether the number check said why it failed (then it is not said again)
        # The bindings the kept run evaluated, and the run (or why a cell failed).
        self._ran: tuple[frozenset[Asked], tuple[Path, dict[Asked, Value]] | Unavailable] | None = None
        self._scratch: tempfile.TemporaryDirectory[str] | None = None  # an unexecuted workbench
        self._environment: Mapping[str, str] | None = None  # its kernel's; None: this process's
        self._watched: Callable[[Run], Run] = lambda run: run  # what its run is held to

    def start(
        self, environment: Mapping[str, str] | None = None, watched: Callable[[Run], Run] | None = None
    ) -> None:
        """A new build: the workbench is executed (or taken from the cache) afresh, its kernel
        started with `environment`, its run held by `watched` (the plugin's: no site folder changed)."""
        self._ran, self.said = None, False
        self._environment, self._watched = environment, watched or (lambda run: run)

    def ran(
        self, script: Path, asked: Iterable[Asked], cache: Cache, *, limit: float, shown: str
    ) -> tuple[Path, dict[Asked, Value]] | Unavailable:
        """The script `executed` with the asked values, or why a cell failed: once a build,
        unless a later caller wants bindings the kept run did not evaluate (whichever plugin
        asks first); a failed run is not tried again."""
        wanted = frozenset(asked)
        if self._ran is not None and (isinstance(self._ran[1], Unavailable) or wanted <= self._ran[0]):
            return self._ran[1]
        try:
            made: tuple[Path, dict[Asked, Value]] | Unavailable = executed(
                script,
                wanted,
                cache,
                limit=limit,
                shown=shown,
                environment=self._environment,
                watched=self._watched,
            )
        except Unavailable as error:
            made = error
        self._ran = wanted, made
        return made

    @property
    def failed(self) -> Unavailable | None:
        """Why this build's run of the workbench failed, if it did (the plugin says it, unless
        the number check did: `said`)."""
        return self._ran[1] if self._ran is not None and isinstance(self._ran[1], Unavailable) else None

    def notebook(self, script: Path, cache: Cache, *, limit: float, shown: str) -> Path:
        """The notebook the page shows: the script executed; if a cell failed (`failed`), the
        notebook without outputs."""
        ran = self.ran(script, (), cache, limit=limit, shown=shown)
        if not isinstance(ran, Unavailable):
            return ran[0]
        self._scratch = tempfile.TemporaryDirectory(prefix="attend-book-")
        return unexecuted(script, Path(self._scratch.name))

    def take_place(self, files: Files, script: File, notebook: Path, config: MkDocsConfig) -> None:
        """The notebook in the script's place among the build's files: mkdocs-jupyter renders
        (and offers) it, and the script is not published."""
        files.remove(script)
        page = File(notebook.name, str(notebook.parent), config.site_dir, config.use_directory_urls)
        files.append(page)
        self.page = page.src_uri  # the executed notebook's name: no folder

    def dress(self, page: MkDocsPage, script: str) -> None:
        """The workbench's page as a page of the book: "edit this page" opens the script (its
        path under docs/), not what it made, and its front matter (description, hide) is the
        notebook's `mkdocs` metadata."""
        if page.edit_url:
            page.edit_url = page.edit_url.removesuffix(page.file.src_uri) + script
        # The notebook is this plugin's own, written as nbformat 4: its metadata is read as JSON,
        # without the schema validation of nbformat.read, which took 0.04 s of every build.
        made = json.loads(Path(str(page.file.abs_src_path)).read_text(encoding="utf-8"))
        page.meta.update(made.get("metadata", {}).get("mkdocs", {}))


def executed(
    script: Path,
    asked: Iterable[Asked],
    cache: Cache,
    *,
    limit: float = TIME_LIMIT,
    shown: str = "",
    environment: Mapping[str, str] | None = None,
    watched: Callable[[Run], Run] = lambda run: run,
) -> tuple[Path, dict[Asked, Value]]:
    """The script executed (`execute` in a kernel given `environment`, held by `watched`, or from
    `cache` while nothing it ran on changed) and the asked values, its prose's bindings
    (`prose_of`), each evaluated in its kernel after the code cells above it."""
    plan = plan_of(Page(shown or script.name, script.read_text(encoding="utf-8"), prose_of), asked)
    run = functools.partial(execute, plan=plan, limit=limit, environment=environment)
    points = [f"{point.stage}\0{point.expression}" for point in plan.points]
    made, values = cache.notebook(script, watched(run), values_of, points, environment)
    return made, plan.values_of(dict(enumerate(values)))


def plan_of(page: Page, asked: Iterable[Asked] = ()) -> Plan:
    """The script's code cells, each a fence from its `# %%` line on, and each asked value at
    its stage among them: after the code cells above it."""
    lines = page.text.split("\n")
    starts = [n for n, line in enumerate(lines, 1) if line.startswith("# %%")]
    cells = [
        Fence(start, end - 1, "# %%", "python", frozenset(), {}, "\n".join(lines[start : end - 1]))
        for start, end in zip(starts, [*starts[1:], len(lines) + 1], strict=True)
        if "[markdown]" not in lines[start - 1]
    ]
    return Plan.of(page, asked, cells)


def prose_of(script: str) -> str:
    """A jupytext percent script's Markdown cells as Markdown, every line where the script has it
    and `# ` turned to two spaces so columns agree; code blank. What the number check reads."""
    out, markdown = [], False
    for line in script.split("\n"):
        if line.startswith("# %%"):
            markdown, line = "[markdown]" in line, ""
        out.append("  " + line[2:] if markdown and line.startswith("# ") else "")
    return "\n".join(out)


def execute(
    source: Path,
    target: Path,
    *,
    plan: Plan | None = None,
    limit: float = TIME_LIMIT,
    shown: str = "",
    environment: Mapping[str, str] | None = None,
    most: int = OUTPUT_LIMIT,
) -> Read:
    """Run a jupytext notebook top to bottom in a fresh kernel and write it, outputs and all, its
    Markdown without bindings and the value of each point of `plan` (its prose's bindings,
    `prose_of`, each after the code cells above it) in its metadata (`attend_book.values`);
    answer what its kernel, started with `environment` (default: this process's), read
    (`inputs.Read`), for the cache.

    Each cell has `limit` seconds, as a page's fence has, and all the cells' outputs together
    `most` characters, as a page's fences have. A cell that fails, runs past the limit, prints
    past the most or ends its kernel is a `Unavailable` naming its line in `plan.page` (default: `shown`, else
    the file's name), with the values of the bindings above it; Ctrl-C or SIGTERM stops the run
    as it stops the build, a KeyboardInterrupt (`Stop`)."""
    import jupytext  # type: ignore[import-untyped]
    import nbclient
    from traitlets.config import Config

    text = source.read_text(encoding="utf-8")
    plan = plan or plan_of(Page(shown or source.name, text, prose_of))
    notebook = jupytext.read(source)
    notebook.metadata.pop("jupytext", None)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = strip(cell.source)
    # Where each cell's code starts in the script: the line after its `# %%` (or the first line).
    markers = [n + 1 for n, line in enumerate(text.split("\n"), 1) if line.startswith("# %%")]
    starts = [1] * (len(notebook.cells) - len(markers)) + markers
    where = {id(cell): f"{plan.page}:{n}: this cell" for cell, n in zip(notebook.cells, starts, strict=False)}
    evaluations = _evaluations(notebook, plan, where)
    # Run last, in the kernel: what it read since the first cell, which starts recording it.
    notebook.cells.append(new_code_cell(f"import json\n{RECORDING}\n\nprint(json.dumps(inputs.read()))"))
    where[id(notebook.cells[-1])] = f"{plan.page}:1: the notebook's kernel"
    code = [Cell("code", cell.source) for cell in notebook.cells if cell.cell_type == "code"]
    notebook.cells.insert(1, install_cell(code))  # under the title, as on a page
    points = plan.given()["points"]
    starting = f"import json\n\n{RECORDING}\nfrom bound_numbers import Stages\n\ninputs.record()\n"
    notebook.cells.insert(0, new_code_cell(f"{starting}{_STAGES} = Stages({points!r})"))
    folder = {"metadata": {"path": str(source.parent)}}  # where the notebook's cells run
    running = [f"{plan.page}:1: the notebook's kernel"]

    def started(cell: Any, cell_index: int) -> None:
        running[0] = where.get(id(cell), running[0])

    def failed(said: str, where: str = "") -> Unavailable:
        return Unavailable(f"{where or running[0]} {said}", plan.values_of(_values(evaluations)))

    # Over local sockets (IPC) in a folder of its own, not TCP: nothing is open to the network,
    # and the kernel says nothing about running over TCP without encryption into the build's output.
    with tempfile.TemporaryDirectory(prefix="attend-book-kernel-") as sockets, Stop() as stop:
        ipc = Config({"KernelManager": {"transport": "ipc", "ip": os.path.join(sockets, "kernel")}})
        room = Room(most, running)
        client = _client(
            stop,
            room,
            notebook,
            timeout=limit,
            kernel_name="python3",
            resources=folder,
            config=ipc,
            on_cell_execute=started,
            shutdown_kernel="immediate",  # a cell past the limit is killed, not asked, mid-reply, to stop
        )
        try:
            client.execute(**({} if environment is None else {"env": dict(environment)}))
        except nbclient.exceptions.CellExecutionError as error:
            if room.full:  # the interrupt that stopped it
                raise failed(_FULL.format(most / (1 << 20)), room.full) from None
            raise failed(f"failed: {f'{error.ename}: {error.evalue}'.splitlines()[0]}") from None
        except nbclient.exceptions.CellTimeoutError:
            raise failed(
                f"ran past the time limit of {limit:g} seconds (`time_limit` under attend-book in mkdocs.yml)"
            ) from None
        except nbclient.exceptions.DeadKernelError:
            raise failed("ended the notebook's kernel") from None
        if room.full:  # a cell that printed it all before the interrupt came
            raise failed(_FULL.format(most / (1 << 20)), room.full)
    read = json.loads(notebook.cells.pop().outputs[0]["text"])
    values = _values(evaluations)
    notebook.cells = [cell for cell in notebook.cells[1:] if all(cell is not e for e in evaluations)]
    _renumbered(notebook.cells)  # as if the cells the build added had never run
    notebook.metadata["attend_book"] = {"values": [values[n] for n in range(len(values))]}
    nbformat.write(notebook, target)
    return Read.of(read)


def _evaluations(notebook: Any, plan: Plan, where: dict[int, str]) -> list[Any]:
    """A cell before each code cell of the plan's, and one last, that evaluates the bindings of
    that stage (and those still waiting for a name, `bound_numbers.Stages`) and prints the index
    and value of each; those cells, in order, or none for a plan that asks nothing."""
    if not plan.asked:
        return []
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    code = code[len(code) - len(plan.fences) :]  # those under a `# %%` line: the plan's fences
    made = []
    for stage in range(len(plan.fences) + 1):
        last = stage == len(plan.fences)
        cell = new_code_cell(f"print(json.dumps({_STAGES}.at({stage}, globals(), last={last}, step=str)))")
        ahead = (n for n, c in enumerate(notebook.cells) if not last and c is code[stage])
        at = next(ahead, len(notebook.cells))
        notebook.cells.insert(at, cell)
        where[id(cell)] = f"{plan.page}:1: the bindings after cell {stage}"
        made.append(cell)
    return made


def _values(evaluations: list[Any]) -> dict[int, Value]:
    """The index and value of each point the evaluation cells that ran printed."""
    printed = [json.loads(cell.outputs[0]["text"]) for cell in evaluations if cell.get("outputs")]
    return {index: value for pairs in printed for index, value in pairs}


def _renumbered(cells: list[Any]) -> None:
    """The code cells' execution counts (and their results') made 1, 2, 3, … in order."""
    count = 0
    for cell in cells:
        if cell.cell_type == "code" and cell.get("execution_count"):
            count += 1
            cell.execution_count = count
            for output in cell.outputs:
                if "execution_count" in output:
                    output.execution_count = count


class Stop:
    """Ctrl-C or SIGTERM while the workbench runs, met as the build meets it anywhere else.

    While nbclient runs a notebook it takes both signals over: one shuts the kernel down, nbclient
    then fails in its own clean-up (a traceback, not `Aborted!`), and it leaves SIGTERM to its
    default, which would end the rest of the build where it stands (the plugin's handler gone).
    So the run takes them back (`take`): a signal cancels it, nbclient shuts the kernel down on
    the way out (or, if it came as the kernel started, at exit, by the hook it registers for
    that), and the block ends by putting back the handlers the build had and raising
    KeyboardInterrupt."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.came = False
        self._kept = {number: signal.getsignal(number) for number in self.SIGNALS}
        self._loop: asyncio.AbstractEventLoop | None = None  # the run's, once it took the signals

    def take(self) -> None:
        """In the notebook's run, before its kernel starts: a signal cancels the run."""
        loop, run = asyncio.get_running_loop(), asyncio.current_task()
        self._loop = loop

        def stop() -> None:
            self.came = True
            if run is not None:
                run.cancel()

        if threading.current_thread() is threading.main_thread():  # else nbclient took none either
            for number in self.SIGNALS:
                loop.add_signal_handler(number, stop)

    def __enter__(self) -> Stop:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if threading.current_thread() is threading.main_thread():
            for number, handler in self._kept.items():
                if handler is not None:  # None: set outside Python, which cannot be put back
                    signal.signal(number, handler)
        if self.came:  # whatever the cancelled run raised on its way out
            self._settle()
            raise KeyboardInterrupt from None

    def _settle(self) -> None:
        """What the cancelled run left on its event loop (nbclient's poll of the kernel), cancelled
        and let end: else the next notebook run on that loop meets it failing."""
        if self._loop is None or self._loop.is_closed():
            return
        if left := asyncio.all_tasks(self._loop):
            for task in left:
                task.cancel()
            self._loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))


class Room:
    """How many more characters the workbench's cells may print, all together, and the cell that
    printed past them (its place, as `running` said it then), if one did."""

    def __init__(self, most: int, running: list[str]) -> None:
        self.left, self.running, self.full = most, running, ""

    def take(self, output: Any) -> bool:
        """Count one output; whether it is the one that passed the most."""
        if self.full:
            return False
        self.left -= len(json.dumps(output))
        if self.left < 0:
            self.full = self.running[0]
        return bool(self.full)


def _client(stop: Stop, room: Room, *args: Any, **traits: Any) -> NotebookClient:
    """nbclient's NotebookClient, whose run `stop` takes the signals back for as its kernel starts
    (nbclient's `async_start_new_kernel`, called once it has taken them), and whose outputs are
    counted against `room` as the kernel sends them (nbclient's `output`): the one that passes
    the most interrupts the kernel, which stops a cell that would print for ever."""
    import nbclient
    from jupyter_core.utils import ensure_async

    class Client(nbclient.NotebookClient):
        async def async_start_new_kernel(self, **kwargs: Any) -> None:
            stop.take()
            await super().async_start_new_kernel(**kwargs)

        def output(
            self, outs: list[Any], msg: dict[str, Any], display_id: str | None, cell_index: int
        ) -> Any:
            made = super().output(outs, msg, display_id, cell_index)
            if made is not None and room.take(made) and self.km is not None:
                interrupted.append(asyncio.ensure_future(ensure_async(self.km.interrupt_kernel())))
            return made

    interrupted: list[asyncio.Future[Any]] = []  # kept until done
    return Client(*args, **traits)


def unexecuted(source: Path, folder: Path) -> Path:
    """The jupytext notebook as a notebook in `folder`, without outputs: what the workbench page
    shows when its cells failed, so the build goes on to report every other problem."""
    import jupytext

    target = folder / f"{source.stem}.ipynb"
    nbformat.write(jupytext.read(source), target)
    return target


def values_of(executed: Path) -> list[Value]:
    """The value of each point of its plan, as `execute` kept them in the notebook."""
    return list(json.loads(executed.read_text(encoding="utf-8"))["metadata"]["attend_book"]["values"])


def without_remote_scripts(content: str) -> str:
    """nbconvert's page loads MathJax from a CDN; the book renders no TeX on that page, and the
    site asks nothing of the network, so that block goes."""
    return _MATHJAX.sub("", content)
