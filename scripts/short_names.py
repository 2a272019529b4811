"""Give a page's long binding expressions short names, defined in one block that prints nothing.

    python scripts/short_names.py docs/*.md

Each expression a binding of the prose writes that is longer than a short name would be
(`{= layer_tie(gpt2) / gpt2.d}`) is named once, `gpt2_tie_d = layer_tie(gpt2) / gpt2.d`, in a
block at the end of the page (its bindings are evaluated after its last block, so the name
holds the very value the expression had), and the prose binds the name: `{= gpt2_tie_d}`. A
worked sum keeps its shape (each operand is named, not the sum); a list keeps its elements. An
expression that uses a given is left as it is: a given is not a name of the page's code. The
block is extended, never rewritten, on a second run, and an expression already named there
takes that name. What a reader sees of the prose does not change; the downloaded notebook gains
the block as its last cell.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import re
import sys
from pathlib import Path

from attend_book.declared import DeclarationError, Declared, for_page, of_mkdocs
from attend_book.markdown import fences
from attend_book.reading import BRACE, CODE, read

LONGEST = 10  # an expression up to this long is left as it is
NAME = 14  # a name of whole words, as many of the expression's first three as fit in this
HEADER = (
    "# The short names the prose binds its numbers to (scripts/short_names.py); this block shows nothing."
)
_DROPPED = frozenset({"run", "self", "math", "np", "int", "round", "float", "abs", "list", "tuple"})


def _taken(text: str) -> set[str]:
    """Every name the page's code defines or uses."""
    names: set[str] = set()
    for fence in fences(text):
        try:
            tree = ast.parse(fence.body)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.alias):
                names.add(node.asname or node.name.split(".")[0])
    return names


def _named(text: str) -> dict[str, str]:
    """The expressions the page's short-names block already names, by expression."""
    for fence in fences(text):
        if fence.executed and fence.body.startswith(HEADER):
            pairs = (line.split("#")[0].split(" = ", 1) for line in fence.body.splitlines()[1:])
            return {" ".join(said[1].split()): said[0].strip() for said in pairs if len(said) == 2}
    return {}


def name_of(expression: str, taken: set[str]) -> str:
    """A short name made of the expression's own words and numbers: `run.attn[1, 0]` → attn10."""
    tree = ast.parse(expression, mode="eval")
    for node in ast.walk(tree):  # `x[-1]` is the last of x, not x[1]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            node.operand = ast.Name("last", ast.Load())
    words: list[str] = []
    digits = ""
    for node in sorted(ast.walk(tree), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))):
        word = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
            word = node.value
        if word and word not in _DROPPED and word not in words:
            words.append(word)
        if isinstance(node, ast.Constant) and type(node.value) is int and node.value >= 0:
            digits += str(node.value)
    if any(isinstance(n, ast.Name) and n.id == "len" for n in ast.walk(tree)):
        words = ["n", *(w for w in words if w != "len")]
    joined = ["_".join(words[:k]) for k in (3, 2, 1)] if words else []
    tries = [w + ("_" if w[-1:].isdigit() and digits else "") + digits[:3] for w in joined]
    stem = next((t for t in tries if len(t) <= NAME), tries[-1] if tries else "value")
    stem = re.sub(r"\W", "", stem).strip("_") or "value"
    stem = stem if stem.isidentifier() and not keyword.iskeyword(stem) else f"v_{stem}"
    name, n = stem, 1
    while name in taken:
        n += 1
        name = f"{stem}_{n}"
    return name


class _Shortened(ast.NodeTransformer):
    """Each long part of an expression replaced by its short name, a sum's shape kept."""

    def __init__(self, named: dict[str, str], taken: set[str], givens: set[str]) -> None:
        self.named, self.taken, self.givens = named, taken, givens

    def short(self, node: ast.expr) -> ast.expr:
        said = ast.unparse(node)
        uses = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        if len(said) <= LONGEST or uses & self.givens or isinstance(node, ast.Constant | ast.Name):
            return node
        if said not in self.named:
            name = name_of(said, self.taken)
            if len(name) + 3 > len(said):
                return node
            self.named[said] = name
            self.taken.add(name)
        return ast.Name(self.named[said], ast.Load())

    def whole(self, node: ast.expr, depth: int) -> ast.expr:
        """`node` shortened: a list element by element, `a == b` side by side, the operators of
        a sum's shape kept `depth` levels down, anything else as one."""
        if isinstance(node, ast.List | ast.Tuple):
            node.elts = [self.whole(e, 0) for e in node.elts]
            return node
        if isinstance(node, ast.Compare) and len(node.comparators) == 1:
            node.left = self.whole(node.left, depth)
            node.comparators = [self.whole(node.comparators[0], 0)]
            return node
        if depth and isinstance(node, ast.BinOp):
            node.left, node.right = self.whole(node.left, depth - 1), self.whole(node.right, depth - 1)
            return node
        return self.short(node)


def shorten(text: str, book: Declared) -> str:
    """The page with its long binding expressions named in its short-names block."""
    try:
        givens = set(for_page(text, book).givens)
    except DeclarationError:
        return text
    named, taken = _named(text), _taken(text) | givens | set(dir(builtins))
    fenced = {n for fence in fences(text) for n in range(fence.line - 1, fence.end)}
    lines = text.split("\n")
    prose = "\n".join(" " * len(line) if n in fenced else line for n, line in enumerate(lines))
    prose = re.sub(CODE, lambda m: " " * len(m.group(0)), prose, flags=re.DOTALL)
    before = read(text, book)
    edits = []
    for brace in BRACE.finditer(prose):
        if brace["expression"] is None or brace.group(0) != text[brace.start() : brace.end()]:
            continue
        try:
            tree = ast.parse(" ".join(brace["expression"].split()), mode="eval").body
        except SyntaxError:
            continue
        best: tuple[str, dict[str, str], set[str]] | None = None
        for depth in range(8):  # as one, else as a sum's operands, as deep as its shape goes
            trial = dict(named)
            shortener = _Shortened(trial, set(taken), givens)
            said = ast.unparse(shortener.whole(ast.parse(ast.unparse(tree), mode="eval").body, depth))
            new = f"{{= {said}}}"
            if len(new) >= len((best or (brace.group(0),))[0]):
                continue
            tried = text[: brace.start()] + new + text[brace.end() :]
            if len(read(tried, book).problems) <= len(before.problems):  # a sum keeps its shape
                best = (new, trial, shortener.taken)
        if best is not None:
            named.update(best[1])
            taken |= best[2]
            edits.append((brace.start(), brace.end(), best[0]))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return _with_block(text, named)


def _with_block(text: str, named: dict[str, str]) -> str:
    """The page with its short-names block holding every name, at its end: a block already
    there keeps its lines as they are (a person may have renamed or explained them)."""
    had = _named(text)
    new = [f"{name} = {expression}" for expression, name in named.items() if expression not in had]
    if not new:
        return text
    for fence in fences(text):
        if fence.executed and fence.body.startswith(HEADER):
            lines = text.split("\n")
            lines[fence.end - 1 : fence.end - 1] = new
            return "\n".join(lines)
    body = "\n".join([HEADER, *new])
    return text.rstrip("\n") + f'\n\n```python exec="1" continuation\n{body}\n```\n'


def main(argv: list[str]) -> int:
    book = of_mkdocs(Path("mkdocs.yml"), "attend-book")
    for name in argv:
        path = Path(name)
        text = path.read_text(encoding="utf-8")
        new = shorten(text, book)
        if new != text:
            path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
