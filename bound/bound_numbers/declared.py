"""What a book and each of its pages declare for the number check: givens and label ranges.

Nothing here names a book. The plugin's configuration in mkdocs.yml declares, for every page:

    labels: {month: "len(balances)", row: "table.shape[0]", step: null}
    givens: {months: [12, "a year has twelve months"]}
    front_matter: [title, description]

A label word makes an integer after it (`month 2`) a position counted from 1; its range is an
expression of the page's namespace giving the last position (null: each page that uses the
word declares it). A given is a constant the prose states and no code computes: a name, its
value and the reason it holds; the prose writes `twelve{= months}` and the check holds the
literal to the value. A page's front matter declares its own `labels` and `givens` the same way,
over the book's.
"""

from __future__ import annotations

import ast
import keyword
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from bound_numbers.page import FRONT


@dataclass(frozen=True)
class Given:
    value: float
    reason: str


@dataclass(frozen=True)
class Declared:
    """The label words with their ranges, and the givens, that hold on a page."""

    labels: Mapping[str, str | None] = field(default_factory=dict)
    givens: Mapping[str, Given] = field(default_factory=dict)

    def over(self, labels: Mapping[str, str | None], givens: Mapping[str, Given]) -> Declared:
        """These declarations with a page's own laid over them."""
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


def givens_of(raw: object, where: str) -> dict[str, Given]:
    """`{name: [value, reason]}` as declared, each entry checked."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise DeclarationError(f"{where} givens: write a mapping, name: [value, reason]")
    found = {}
    for name, entry in raw.items():
        if not (isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name)):
            raise DeclarationError(f"{where} givens: {name!r} is not a name an expression can use")
        ok = isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str) and entry[1].strip()
        if not ok or isinstance(entry[0], bool) or not isinstance(entry[0], int | float):
            raise DeclarationError(
                f"{where} givens: {name} must be [value, reason], a number and why it holds"
            )
        found[name] = Given(float(entry[0]), " ".join(entry[1].split()))
    return found


def labels_of(raw: object, where: str) -> dict[str, str | None]:
    """`{word: range}` as declared: a range is an expression giving the last position, or null."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping) or not all(
        isinstance(word, str) and word.isalpha() and (limit is None or isinstance(limit, str))
        for word, limit in raw.items()
    ):
        raise DeclarationError(f"{where} labels: write a mapping, word: an expression for the last one")
    return {word.lower(): limit for word, limit in raw.items()}


def front_matter(markdown: str) -> dict[str, Any]:
    """The page's front matter as a mapping ({} if it has none)."""
    front = FRONT.match(markdown)
    if front is None:
        return {}
    try:
        found = yaml.safe_load(front.group(0).strip("-\n"))
    except yaml.YAMLError as error:
        raise DeclarationError(f"the front matter is not YAML: {str(error).splitlines()[0]}") from None
    return found if isinstance(found, dict) else {}


def for_page(markdown: str, book: Declared) -> Declared:
    """The book's declarations with the page's front matter's laid over them."""
    front = front_matter(markdown)
    return book.over(
        labels_of(front.get("labels"), "front matter"), givens_of(front.get("givens"), "front matter")
    )


def of_config(config: Mapping[str, Any]) -> Declared:
    """The book's declarations from the plugin's configuration."""
    return Declared(
        labels_of(config.get("labels"), "mkdocs.yml"), givens_of(config.get("givens"), "mkdocs.yml")
    )
