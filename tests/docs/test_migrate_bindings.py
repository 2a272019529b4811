"""scripts/migrate_bindings.py: a page in the old binding syntax rewritten in the new, nothing a
reader sees changed, a second run changing nothing, what it cannot rewrite named."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from attend_book.declared import Declared, Given
from attend_book.reading import read, strip

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "migrate_bindings.py"
F = "```"
BOOK = Declared(givens={"qkv": Given(3, "a query, a key and a value matrix")})
OLD = f"""---
title: t
---

{F}python exec="1"
matrices = 3
{F}

Three{{given: a query, a key and a value matrix}} matrices, scoring and
blending twice{{given: scoring and blending}}: 2{{given: scoring and blending}} × 8{{= n}} = 16{{= 2 * n}}.
Its scores are 1.5625{{= s2[0]}}, 0{{= s2[1]}}, 0.375{{= s2[2]}} and 0{{= s2[3]}}, and
$e^{{1.5625{{= s2[0]}}}}$ is 4.7707{{= p[0]}}; 0.5{{= q[2]}}×1.5{{= k[2]}} = 0.75{{= raw[1, 2]}}.

$$
3{{= a}} n + 2{{given: the matrices}} n^2{{= sq}}
$$

At $n = 1.5{{= 3 / 2}} \\cdot D$ the terms meet.
"""
NEW = f"""---
title: t
givens:
  scoring_blending: [2, "scoring and blending"]
  matrices2: [2, "the matrices"]
---

{F}python exec="1"
matrices = 3
{F}

Three{{= qkv}} matrices, scoring and
blending twice{{= scoring_blending}}: 2 × 8 = 16{{= scoring_blending * n}}.
Its scores are 1.5625, 0, 0.375 and 0{{= s2[:4]}}, and
$e^{{1.5625}}${{= s2[0]}} is 4.7707{{= p[0]}}; 0.5×1.5 = 0.75{{= q[2] * k[2] == raw[1, 2]}}.

$$
3 n + 2 n^2
$$
{{= [a, matrices2, sq]}}

At $n = 1.5{{= 3 / 2}} \\cdot D$ the terms meet.
"""


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("migrate_bindings", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_a_page_is_rewritten_in_the_new_syntax_and_what_is_left_is_named(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(OLD, encoding="utf-8")
    new, left = _script().migrate(page, BOOK)
    assert new == NEW
    assert left == [
        f"{page.as_posix()}:18: a math span whose numbers are not each bound on their own: "
        "move its bindings by hand"
    ]


def test_what_a_reader_sees_and_what_each_number_is_bound_to_are_kept(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(OLD, encoding="utf-8")
    new, _ = _script().migrate(page, BOOK)
    body = (text.split("---\n", 2)[2] for text in (OLD, new))
    assert strip(next(body)).replace("\n\n\n", "\n\n") == strip(next(body)).replace("\n\n\n", "\n\n")
    given = [n for b in read(new, BOOK).bindings for n in b.numerals if b.expression == "2"]
    # the given's numbers, the sum's operand among them, held to its value
    assert [n.text for n in sorted(given, key=lambda n: (n.line, n.column))] == ["twice", "2"]


def test_a_second_run_changes_nothing(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(OLD, encoding="utf-8")
    once, _ = _script().migrate(page, BOOK)
    page.write_text(once, encoding="utf-8")
    twice, _ = _script().migrate(page, BOOK)
    assert twice == once


def test_a_rewrite_that_would_unbind_a_number_is_not_made(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    text = "At step 400{= n}, 1,305,600{= work[-1]} multiply-adds.\n"  # a label before a list
    page.write_text(text, encoding="utf-8")
    assert _script().migrate(page, Declared(labels={"step": "n"})) == (text, [])


def test_an_exercise_inside_an_admonition_is_rewritten_with_its_indent_kept(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    fence = f'{F}python exec="1"\nq = [0.5, 0.25]\n{F}\n'
    body = "Cut into two{given: a pair of heads} halves, 0.5{= q[0]}×0.25{= q[1]} = 0.125{= q[0] * q[1]}."
    page.write_text(
        f'---\ntitle: t\n---\n\n{fence}\n!!! question "Exercise 1"\n    {body}\n', encoding="utf-8"
    )
    new, left = _script().migrate(page, Declared(labels={"exercise": "1"}))
    assert left == []
    assert new.split("\n")[2:4] == ["givens:", '  pair_heads: [2, "a pair of heads"]']
    assert new.endswith("\n    Cut into two{= pair_heads} halves, 0.5×0.25 = 0.125{= q[0] * q[1]}.\n")
