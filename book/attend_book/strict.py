"""The book's own problems fail a strict build whatever the log level lets through.

mkdocs' strict mode counts the warnings that reach its top logger (`properdocs`, or `mkdocs`),
where the handler that prints them sits too. `-q` raises that logger to ERROR, so a warning
line is never made, never counted and never shown, and the build passes green (mkdocs#4126);
`logging.disable`, a filter or a logger switched off in a logging configuration do the same.
So the plugin says each of its problems through `Problems.say`, which watches whether the line
reached that top logger (this handler sits there for the build). In a strict build, a line that
did not is printed to standard error as the log prints it, since it is the reason the build
fails, and `verdict` fails the build at its end. bound-numbers holds its own lines the same way
(`bound_numbers.strict`), each plugin its own.
"""

from __future__ import annotations

import logging
import sys

from mkdocs.exceptions import PluginError
from mkdocs.plugins import PrefixedLogger


class Problems(logging.Handler):
    """One build's problems of the book, said through `log`, and how many of them the build's
    count of warnings never heard (this handler is put on the top logger by `watch`)."""

    def __init__(self, log: PrefixedLogger) -> None:
        super().__init__(logging.WARNING)
        self.log = log
        self.strict = False
        self.unheard = 0
        self._heard = False  # whether the line being said reached the top logger
        self._top = logging.getLogger(log.logger.name.partition(".")[0])  # `properdocs` or `mkdocs`

    def watch(self, *, strict: bool) -> None:
        """A new build, strict or not: from now on, each line of `log` that reaches the top is seen."""
        self.strict, self.unheard = strict, 0
        self._top.addHandler(self)

    def unwatch(self) -> None:
        self._top.removeHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == self.log.logger.name:
            self._heard = True

    def say(self, message: str, level: int = logging.WARNING) -> None:
        """Log one problem of the book; in a strict build, one the count did not hear is printed
        and counted."""
        self._heard = False
        self.log.log(level, message)
        if self.strict and not self._heard:
            self.unheard += 1
            said, _ = self.log.process(message, {})
            print(f"{logging.getLevelName(level):<8}-  {said}", file=sys.stderr, flush=True)

    def verdict(self) -> None:
        """Fail a strict build whose problems the count of warnings did not hear, all or some."""
        if self.strict and self.unheard:
            one = self.unheard == 1
            some = "1 problem of the book" if one else f"{self.unheard} problems of the book"
            raise PluginError(
                f"attend-book: {some} (above) {'fails' if one else 'fail'} this strict build, "
                f"though the log level kept {'it' if one else 'them'} from its count of warnings"
            )
