"""The number check's log, which no log level can silence in a strict build.

MkDocs and ProperDocs fail a strict build by counting the warnings that reach their own logger.
A warning dropped on the way is never counted: `-q` raises that logger to ERROR (mkdocs#4126),
and a logging configuration may raise a plugin's logger, disable it or stop it propagating. A
wrong number would then be published by a green build. `Log` logs each of the check's lines as
before and knows whether the build heard it; in a strict build, a line it did not hear is
printed to standard error as the log prints it (it is the reason the build fails), and
`verdict` fails the build at its end, whatever `-q`, `-v` or a logging configuration did.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from mkdocs.exceptions import PluginError


class Log:
    """A plugin's logger (an adapter that prefixes its name) that counts what the build did not
    hear; `begin` each build, saying whether it is strict, and `verdict` at its end. Another
    plugin (attend-book) holds its own lines with one of its own: `plugin` names it in the
    verdict, and `problems` the problem it counts, one and many."""

    def __init__(
        self,
        adapter: logging.LoggerAdapter[logging.Logger],
        plugin: str = "bound-numbers",
        problems: tuple[str, str] = ("problem with a number", "problems with numbers"),
    ) -> None:
        self.adapter = adapter
        self.plugin, self.problems = plugin, problems
        self.strict = False
        self.unheard = 0

    def begin(self, *, strict: bool) -> None:
        self.strict, self.unheard = strict, 0

    def warning(self, message: str) -> None:
        self._log(logging.WARNING, message)

    def error(self, message: str) -> None:
        self._log(logging.ERROR, message)

    def info(self, message: str) -> None:
        self.adapter.info(message)

    def _log(self, level: int, message: str) -> None:
        self.adapter.log(level, message)
        if self.strict and not heard(self.adapter.logger, level):
            self.unheard += 1
            said, _ = self.adapter.process(message, {})
            print(f"{logging.getLevelName(level):<8}-  {said}", file=sys.stderr, flush=True)

    def verdict(self) -> None:
        """Fail a strict build that logged lines its count of warnings never heard."""
        if self.strict and self.unheard:
            one = self.unheard == 1
            some = f"1 {self.problems[0]}" if one else f"{self.unheard} {self.problems[1]}"
            raise PluginError(
                f"{self.plugin}: {some} (above) {'fails' if one else 'fail'} this strict build, "
                f"though the log level kept {'it' if one else 'them'} from its count of warnings"
            )


def heard(logger: logging.Logger, level: int) -> bool:
    """Whether a record of `level` logged by `logger` reaches the logger its name starts with
    (`properdocs` or `mkdocs`), where a strict build counts warnings: enabled at that level,
    not disabled nor filtered out, and propagated all the way up."""
    if logger.disabled or not logger.isEnabledFor(level):
        return False
    if not logger.filter(logger.makeRecord(logger.name, level, __file__, 0, "", (), None)):
        return False
    top = logger.name.split(".", 1)[0]
    current: Any = logger
    while current is not None:
        if current.name == top:
            return True
        if not current.propagate:
            return False
        current = current.parent
    return False
