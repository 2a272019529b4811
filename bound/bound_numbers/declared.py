"""What a book and each of its pages declare for the number check: givens, label ranges, the
numbers that are not results, and the decimal mark.

Nothing here names a book. The plugin's configuration in mkdocs.yml declares, for every page:

    labels: {month: "len(balances)", row: "table.shape[0]", step: null}
    givens: {months: [12, "a year has twelve months"]}
    not_results: {after: [chapter, version], years: [1900, 2030], dates: true, quotes: true,
                  patterns: ['CC BY \\d\\.\\d']}
    decimal_mark: "."
    front_matter: [title, description]

A label word makes an integer after it (`month 2`) a position counted from 1; its range is an
expression of the page's namespace giving the last position (null: each page that uses the
word declares it). A given is a constant the prose states and no code computes: a name, its
value and the reason it holds; the prose writes `twelve{= months}` and the check holds the
literal to the value. `not_results` names the numbers that quote no value and need no binding
(`Exempt`). `decimal_mark` settles how `1,234` reads. A page's front matter declares its own the
same way, over the book's; each entry of it that cannot be read is one line, and the others hold.
"""

from __future__ import annotations

import ast
import functools
import keyword
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import yaml

from bound_numbers.page import FRONT


@dataclass(frozen=True)
class Given:
    value: float
    reason: str


@dataclass(frozen=True)
class Exempt:
    """The numbers a page may write with no binding because they quote no value: those after
    one of the words `after` ("chapter 5", "version 4.0"), years from `years[0]` to `years[1]`
    written as four digits, dates (`dates`: "May 23", "23 May 2014", "2014-05-23"), numbers
    between quotation marks (`quotes`), and numbers inside a match of one of `patterns`."""

    after: frozenset[str] = frozenset()
    years: tuple[int, int] | None = None
    dates: bool = False
    quotes: bool = False
    patterns: tuple[str, ...] = ()

    def over(self, page: Exempt, said: Iterable[str]) -> Exempt:
        """These with a page's laid over them: its words and patterns added, and each of the
        other keys it `said` taken from it."""
        return Exempt(
            self.after | page.after,
            page.years if "years" in said else self.years,
            page.dates if "dates" in said else self.dates,
            page.quotes if "quotes" in said else self.quotes,
            self.patterns + page.patterns,
        )


@dataclass(frozen=True)
class Declared:
    """The label words with their ranges, the givens, the numbers that are not results and the
    decimal mark that hold on a page; `errors`: a line for each of the page's declarations that
    cannot be read, and `broken`: the givens they name, which no binding can use."""

    labels: Mapping[str, str | None] = field(default_factory=dict)
    givens: Mapping[str, Given] = field(default_factory=dict)
    exempt: Exempt = field(default_factory=Exempt)
    decimal_mark: str | None = None
    errors: tuple[str, ...] = ()
    broken: frozenset[str] = frozenset()

    def over(self, labels: Mapping[str, str | None], givens: Mapping[str, Given]) -> Declared:
        """These declarations with a page's own labels and givens laid over them."""
        return replace(self, labels={**self.labels, **labels}, givens={**self.givens, **givens})

    def resolve(self, expression: str) -> str:
        """The expression with each given's name replaced by its value: what the page's namespace
        evaluates (a given is not a name of the page's code). Unchanged if it names none."""
        try:
            tree = ast.parse(expression.strip(), mode="eval")
        except SyntaxError:
            return expression  # the page's namespace says why, in the check's one line
        named = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} & self.givens.keys()
        if not named:
            return expression
        return ast.unparse(_Substituted(self.givens).visit(tree))


class _Substituted(ast.NodeTransformer):
    def __init__(self, givens: Mapping[str, Given]) -> None:
        self.givens = givens

    def visit_Name(self, node: ast.Name) -> ast.AST:
        given = self.givens.get(node.id)
        if given is None or not isinstance(node.ctx, ast.Load):
            return node
        value = int(given.value) if given.value == int(given.value) else given.value
        return ast.copy_location(ast.Constant(value), node)


class DeclarationError(ValueError):
    """A declaration that cannot be read: the one line that says why."""


@dataclass
class _Entries:
    """Declarations read entry by entry: what holds, and a line for each entry that cannot."""

    where: str
    errors: list[str] = field(default_factory=list)
    broken: set[str] = field(default_factory=set)

    def refuse(self, message: str) -> None:
        self.errors.append(f"{self.where} {message}")

    def raise_first(self) -> None:
        if self.errors:
            raise DeclarationError(self.errors[0])


def givens_of(raw: object, entries: _Entries) -> dict[str, Given]:
    """`{name: [value, reason]}` as declared, each entry checked."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        entries.refuse("givens: write a mapping, name: [value, reason]")
        return {}
    found = {}
    for name, entry in raw.items():
        if not (isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name)):
            entries.refuse(f"givens: {name!r} is not a name an expression can use")
            continue
        ok = isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str) and entry[1].strip()
        if not ok or isinstance(entry[0], bool) or not isinstance(entry[0], int | float):
            entries.refuse(f"givens: {name} must be [value, reason], a number and why it holds")
            entries.broken.add(name)
            continue
        found[name] = Given(float(entry[0]), " ".join(entry[1].split()))
    return found


def labels_of(raw: object, entries: _Entries) -> dict[str, str | None]:
    """`{word: range}` as declared: a range is an expression giving the last position (a whole
    number is one too), or null."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        entries.refuse("labels: write a mapping, word: an expression for the last one")
        return {}
    found: dict[str, str | None] = {}
    for word, limit in raw.items():
        if isinstance(limit, int) and not isinstance(limit, bool):
            limit = str(limit)
        if not (isinstance(word, str) and word.isalpha()) or not (limit is None or isinstance(limit, str)):
            entries.refuse(f"labels: {word}: write a word, then an expression for the last one")
            continue
        found[word.lower()] = limit
    return found


def exempt_of(raw: object, entries: _Entries) -> tuple[Exempt, set[str]]:
    """`not_results:` as declared, each key checked; and the keys it sets."""
    if raw is None:
        return Exempt(), set()
    if not isinstance(raw, Mapping):
        entries.refuse(f"not_results: write a mapping of {', '.join(_EXEMPT_CHECKS)}")
        return Exempt(), set()
    kept: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in _EXEMPT_CHECKS:
            entries.refuse(f"not_results: {key!r} is not one of {', '.join(_EXEMPT_CHECKS)}")
        elif reason := _exempt_error(key, value):
            entries.refuse(f"not_results: {key} {reason}")
        else:
            kept[key] = value
    years = kept.get("years")
    exempt = Exempt(
        frozenset(" ".join(w.lower().split()) for w in kept.get("after", [])),
        (years[0], years[1]) if years else None,
        bool(kept.get("dates", False)),
        bool(kept.get("quotes", False)),
        tuple(kept.get("patterns", [])),
    )
    return exempt, set(kept)


def _exempt_error(key: str, value: object) -> str:
    """Why a key of `not_results` cannot be read, or ""."""
    return _EXEMPT_CHECKS[key](value)


def _switch(value: object) -> str:
    return "" if isinstance(value, bool) else "must be true or false"


def _years(value: object) -> str:
    ok = value is None or (
        isinstance(value, list)
        and len(value) == 2
        and all(type(y) is int for y in value)
        and value[0] <= value[1]
    )
    return "" if ok else "must be [first, last], the years a four-digit number may be"


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value)


def _words(value: object) -> str:
    return "" if _texts(value) else "must be a list of words"


def _patterns(value: object) -> str:
    if not isinstance(value, list) or not _texts(value):
        return "must be a list of regular expressions"
    for pattern in value:
        try:
            re.compile(pattern)
        except re.error as error:
            return f"{pattern!r} is not a regular expression: {error}"
    return ""


_EXEMPT_CHECKS = {
    "after": _words,
    "years": _years,
    "dates": _switch,
    "quotes": _switch,
    "patterns": _patterns,
}


def _mark_of(raw: object, entries: _Entries) -> str | None:
    if raw is None:
        return None
    if raw in (".", ","):
        return str(raw)
    entries.refuse('decimal_mark: must be "." or ","')
    return None


def front_matter(markdown: str) -> dict[str, Any]:
    """The page's front matter as a mapping ({} if it has none)."""
    front = FRONT.match(markdown)
    if front is None:
        return {}
    return dict(_loaded(front.group(0).strip("-\n")))


@functools.lru_cache(maxsize=512)
def _loaded(text: str) -> Mapping[str, Any]:
    """Front matter read once for the check and once for the page's own settings: kept, and read
    by libyaml where PyYAML has it (the pure-Python reader took a tenth of a small site's check)."""
    try:
        found = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as error:
        raise DeclarationError(f"the front matter is not YAML: {str(error).splitlines()[0]}") from None
    return MappingProxyType(found) if isinstance(found, dict) else MappingProxyType({})


def for_page(markdown: str, book: Declared) -> Declared:
    """The book's declarations with the page's front matter's laid over them; each entry of the
    page's that cannot be read is a line of `errors`, and the rest hold."""
    try:
        front = front_matter(markdown)
    except DeclarationError as error:
        return replace(book, errors=(str(error),))
    entries = _Entries("front matter")
    labels, givens = labels_of(front.get("labels"), entries), givens_of(front.get("givens"), entries)
    exempt, said = exempt_of(front.get("not_results"), entries)
    mark = _mark_of(front.get("decimal_mark"), entries)
    return replace(
        book.over(labels, givens),
        exempt=book.exempt.over(exempt, said),
        decimal_mark=mark or book.decimal_mark,
        errors=tuple(entries.errors),
        broken=frozenset(entries.broken - givens.keys()),
    )


def of_config(config: Mapping[str, Any]) -> Declared:
    """The book's declarations from the plugin's configuration; a `DeclarationError` naming the
    first that cannot be read."""
    entries = _Entries("mkdocs.yml")
    declared = Declared(
        labels_of(config.get("labels"), entries),
        givens_of(config.get("givens"), entries),
        exempt_of(config.get("not_results"), entries)[0],
        _mark_of(config.get("decimal_mark"), entries),
    )
    entries.raise_first()
    return declared
