"""How heavy the number bindings are in the pages' source: the measure issue 26 sets.

For the prose paragraphs of the pages named (paragraphs as markdown-it reads them, in lists and
admonitions too; not headings, tables or math blocks), prints the share of their characters
that is binding text (`{= …}` and `{given: …}`, not in a code span), the paragraph whose
source is longest next to what a reader sees of it (the same paragraph with its bindings
stripped), and how many bindings stand inside math (`$…$` or a `$$` block) on those pages.

    python3 scripts/binding_density.py docs/*.md
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from bound_numbers.markdown import parse
from bound_numbers.reading import BRACE, CODE

_INLINE_MATH = re.compile(r"(?<!\\)\$(?!\$)(?:[^$\\]|\\.)+?(?<!\\)\$")


def measure(paths: list[Path]) -> str:
    binding = prose = in_math = 0
    worst = (0.0, "")
    for path in paths:
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        tokens = parse(text)
        for at, token in enumerate(tokens):
            first, end = token.map or (0, 0)
            if token.type == "math_block":
                in_math += len(BRACE.findall("\n".join(lines[first:end])))
            if token.type != "inline" or at == 0 or tokens[at - 1].type != "paragraph_open":
                continue
            source = re.sub(CODE, lambda m: "·" * len(m.group(0)), token.content)  # a span shows syntax
            bound = sum(len(m.group(0)) for m in BRACE.finditer(source))
            in_math += sum(len(BRACE.findall(m.group(0))) for m in _INLINE_MATH.finditer(source))
            binding, prose = binding + bound, prose + len(source)
            seen = len(source) - bound
            if seen and len(source) / seen > worst[0]:
                worst = (len(source) / seen, f"{path.as_posix()}:{first + 1}")
    share = binding / prose if prose else 0.0
    return (
        f"binding text: {binding} of {prose} prose paragraph characters ({share:.1%})\n"
        f"worst paragraph: {worst[1]}, source {worst[0]:.3f} times what a reader sees\n"
        f"bindings inside math: {in_math}"
    )


if __name__ == "__main__":
    print(measure([Path(p) for p in sys.argv[1:]]))
