"""One binding for a whole worked sum: its expression has the sum's shape.

`0.5×0.25 = 0.125{= a[2] * b[2]}` holds 0.5 to `a[2]`, 0.25 to `b[2]` and 0.125 to the
product: the written operands and the expression's are paired in order, operator by operator,
as Python groups them (so `512 + 512 = 1,024{= 4*n*d + 2*n*n*d}` pairs the two terms).
Where the result is a value of its own, `{= a[2] * b[2] == table[1, 2]}` holds the
operands to the left side and the result to the right. A literal in the expression holds its
written number to itself.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

# The operators a worked sum may write between its numbers, as Python writes them.
_OPERATORS = {"×": "*", "*": "*", "·": "*", "x": "*", "/": "/", "÷": "/", "+": "+", "−": "-", "-": "-"}


class ShapeError(ValueError):
    """The expression does not have the sum's shape, or the sum cannot be shaped: why."""


def written(left: str, terms: Sequence[tuple[int, int]]) -> ast.expr:
    """The written left side as a Python tree, each term (its span in `left`) a name `_i`."""
    source, at = [], 0
    for i, (start, end) in enumerate(terms):
        gap = left[at:start].strip()
        if i and gap not in _OPERATORS:
            raise ShapeError(f"{gap!r} between its numbers is not an operator one binding can pair")
        source += [_OPERATORS[gap] if i else "", f"_{i}"]
        at = end
    return ast.parse(" ".join(source).strip(), mode="eval").body


def pattern(shape: ast.expr) -> str:
    """The shape as a reader is asked to write it: `a * b + c`."""
    letters = _Renamed(lambda i: chr(ord("a") + i) if i < 26 else f"x{i}")
    return ast.unparse(letters.visit(_copy(shape)))


def paired(shape: ast.expr, expression: str) -> tuple[list[str], str]:
    """The expression for each written operand, in order, and the one for the result."""
    try:
        tree = ast.parse(expression.strip(), mode="eval").body
    except SyntaxError as error:
        raise ShapeError(f"is not Python: {error.msg}") from None
    result = tree
    if isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.Eq):
        result = tree.comparators[0]
        tree = tree.left
    found: dict[int, ast.expr] = {}
    if not _pair(shape, tree, found):
        want = pattern(shape)
        raise ShapeError(f"is not in the sum's shape: write {want}, or {want} == the result")
    return [ast.unparse(found[i]) for i in range(len(found))], ast.unparse(result)


def _pair(shape: ast.expr, tree: ast.expr, found: dict[int, ast.expr]) -> bool:
    if isinstance(shape, ast.Name):
        found[int(shape.id[1:])] = tree
        return True
    if isinstance(shape, ast.BinOp) and isinstance(tree, ast.BinOp) and type(shape.op) is type(tree.op):
        return _pair(shape.left, tree.left, found) and _pair(shape.right, tree.right, found)
    return False


def _copy(tree: ast.expr) -> ast.expr:
    return ast.parse(ast.unparse(tree), mode="eval").body


class _Renamed(ast.NodeTransformer):
    def __init__(self, name: Callable[[int], str | ast.expr]) -> None:
        self.name = name

    def visit_Name(self, node: ast.Name) -> ast.AST:
        made = self.name(int(node.id[1:]))
        return ast.Name(made, ast.Load()) if isinstance(made, str) else made
