"""attend-book uses bound-numbers only through its public API: the names in `bound_numbers.__all__`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bound_numbers

BOOK = Path(__file__).resolve().parents[2] / "book" / "attend_book"
SOURCES = sorted(BOOK.rglob("*.py"))


def imports_of(source: Path) -> list[tuple[int, str, str]]:
    """Each import of bound_numbers in the file, in its code or in code it hands a kernel as text:
    its line, the module it names and the name it takes ("" for a module imported whole)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    texts = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    trees = [
        tree,
        *(
            ast.parse(text)
            for text in texts
            if "import bound_numbers" in text or "from bound_numbers" in text
        ),
    ]
    found = []
    for node in (n for t in trees for n in ast.walk(t)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bound_numbers"):
            found += [(node.lineno, node.module or "", alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name, "") for a in node.names if a.name.startswith("bound_numbers")]
    return found


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_attend_book_imports_only_the_public_names_of_bound_numbers(source: Path) -> None:
    internal = [
        f"{source.name}:{line}: {module}{'.' + name if name else ''}"
        for line, module, name in imports_of(source)
        if module != "bound_numbers" or name not in bound_numbers.__all__
    ]
    assert internal == []


def test_every_public_name_of_bound_numbers_is_there() -> None:
    missing = [name for name in bound_numbers.__all__ if getattr(bound_numbers, name, None) is None]
    assert missing == []
