"""Where the values of a page's bindings come from: the provider the plugin's `values:` names.

The check reads numbers and compares; it never runs a page's code. A provider does: the plugin's
own evaluation of a page's fences (`values: fences`), or another plugin of the same build that
already runs each page (`values: <its name>`), which then shows and checks the same run.

The check asks for each binding's value where the binding is written (`Asked`): in the namespace
the page's code left by then, after the fences above it and none below, as a reader reading down
the page has met it. A number in the front matter (the page's title and description speak for
the whole page), and every number of a page whose front matter says `bindings: end-of-page`, is
asked for after the page's last fence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from bound_numbers.page import Page

# A number, an integer, a list of them (a group, nested as the value is), or the one line saying
# why the expression gives no value (a name the page's code never defined, an exception).
Value = float | int | list["Value"] | str
# The pages a provider checks beyond the Markdown files of docs_dir: each path, from mkdocs.yml's
# folder, with what of its text a reader sees as Markdown, line for line and column for column.
Sources = Mapping[str, Callable[[str], str]]


@dataclass(frozen=True)
class Asked:
    """One value the check asks a provider for: `expression`, evaluated after the page's fences
    that open above line `line`, or where `when` says (`plan.WHEN`: "next", the fence or cell
    after them; "cell 12", "fence 3"; "end", after the last). `column` (from 0) only names the
    place in messages: two bindings of one expression on one line are one value."""

    expression: str
    line: int
    column: int = field(default=0, compare=False)
    when: str = ""

    @property
    def place(self) -> str:
        return f"{self.line}:{self.column + 1}"


class Unavailable(Exception):  # noqa: N818 (the public name: what a provider raises)
    """The page's code failed: the message says where and why, its first line in one line. The
    bindings above the fence that failed were evaluated before it ran, and keep their `values`;
    the rest of the page is still checked for everything but the bindings below it. `after`:
    the values the page's code gave below the fence that failed, where its run went on past it,
    which renumber writes and the check does not hold."""

    def __init__(
        self,
        message: str,
        values: Mapping[Asked, Value] | None = None,
        after: Mapping[Asked, Value] | None = None,
    ) -> None:
        super().__init__(message)
        self.values: dict[Asked, Value] = dict(values or {})
        self.after: dict[Asked, Value] = dict(after or {})


@runtime_checkable
class Provider(Protocol):
    """What `values:` names: something that runs a page's code and evaluates its bindings."""

    def bound_values(self, page: Page, asked: Sequence[Asked]) -> Mapping[Asked, Value]:
        """Each asked value, or the one line saying why it has none; `Unavailable` when a fence of
        the page fails (with the values of the bindings above it)."""
        ...

    def bound_sources(self) -> Sources:
        """The pages it checks that are not Markdown files under docs_dir ({} for none)."""
        ...
