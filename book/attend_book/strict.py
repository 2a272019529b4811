"""The book's own problems fail a strict build whatever the log level lets through.

mkdocs' strict mode counts the warnings that reach its top logger (`properdocs`, or `mkdocs`),
where the handler that prints them sits too. `-q` raises that logger to ERROR, so a warning
line is never made, never counted and never shown, and the build passes green (mkdocs#4126);
`logging.disable`, a filter or a logger switched off in a logging configuration do the same.
So the plugin keeps each of its problems (`Problems.say`, or `Problems.count` for one the
number check said), and watches which lines reach that top logger. Those that never did, a
strict build fails on at its end (`hidden`), printing them in the error that ends it, since
they are the reason.
"""

from __future__ import annotations

import logging

from mkdocs.plugins import PrefixedLogger


class Problems(logging.Handler):
    """One build's problems of the book, and the lines that reached the top logger (this handler
    is put there between `watch` and `unwatch`)."""

    def __init__(self, log: PrefixedLogger) -> None:
        super().__init__(logging.WARNING)
        self.log = log
        self.kept: list[str] = []  # each problem, as its line says it (without the plugin's name)
        self._reached: set[str] = set()
        self._top = logging.getLogger(log.logger.name.partition(".")[0])  # `properdocs` or `mkdocs`

    def watch(self) -> None:
        """A new build: no problem yet, and every line that reaches the top noted from now on."""
        self.kept, self._reached = [], set()
        self._top.addHandler(self)

    def unwatch(self) -> None:
        self._top.removeHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        said = record.getMessage()  # `plugin_name: message`, as a plugin's logger writes it
        self._reached.update((said, said.partition(": ")[2]))

    def say(self, message: str, level: int = logging.WARNING) -> None:
        """Log one problem of the book, and keep it."""
        self.kept.append(message)
        self.log.log(level, message)

    def count(self, message: str) -> None:
        """Keep a problem of the book that another plugin logged (the number check, a page's
        failure): it too fails the build, should its line be hidden."""
        self.kept.append(message)

    def hidden(self) -> list[str]:
        """The problems no line of which reached the top logger: neither shown nor counted."""
        return [message for message in dict.fromkeys(self.kept) if message not in self._reached]
