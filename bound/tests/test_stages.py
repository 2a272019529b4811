"""Each binding sees the code above it: evaluated after the fences that open above its line, so a
fence further down cannot change what an earlier sentence quotes, and a fence that fails hides
nothing above it. Held for the built-in provider; the book's runner is the same (`bound_numbers.run`)."""

from __future__ import annotations

import pytest

from bound_numbers import Asked, Page, Unavailable, Value
from bound_numbers.fences import FenceValues
from bound_numbers.plugin import BoundNumbersPlugin
from bound_numbers.reading import read

F = "```"
PAGE = f"""---
title: Rates
description: The rate ends at 3{{= rate}}.
---

# Rates

Before any code the rate is not known: 0{{= len(globals().get("rate", []) or [])}}.

{F}python exec="on"
rate = 1
{F}

The first rate is 1{{= rate}}.

{F}python exec="on"
rate = 2
{F}

Then it is 2{{= rate}}, or 2.0{{= rate * 1.0}}.

{F}python exec="on"
rate = 3
{F}

At last 3{{= rate}}.
"""


def checked(text: str) -> tuple[dict[int, Value], str]:
    """Each bound number's line and its value, and why the page's code failed ("" if it did not)."""
    page = Page("docs/p.md", text)
    asked = read(page).asked
    try:
        found, failed = FenceValues().bound_values(page, asked), ""
    except Unavailable as error:
        found, failed = error.values, str(error)
    return {a.line: value for a, value in found.items() if a.expression == "rate" and not a.when}, failed


def test_each_binding_quotes_the_namespace_the_fences_above_it_left() -> None:
    values, failed = checked(PAGE)
    assert failed == ""
    assert values == {3: 3, 14: 1, 20: 2, 26: 3}  # the front matter speaks for the whole page


def test_the_plugin_holds_each_number_to_its_own_place_and_finds_nothing_wrong() -> None:
    plugin = BoundNumbersPlugin()
    plugin.config = plugin.config_class()
    plugin.config.load_dict({"values": "fences"})
    plugin.config.validate()
    assert [p.render("docs/p.md") for p in plugin.check(Page("docs/p.md", PAGE))] == []


def test_a_page_may_ask_for_the_namespace_its_last_fence_left() -> None:
    text = PAGE.replace("description:", "bindings: end-of-page\ndescription:")
    values, _ = checked(text)
    assert set(values.values()) == {3}


def test_a_fence_that_fails_keeps_the_values_above_it_and_those_below_apart() -> None:
    values, failed = checked(PAGE.replace("rate = 2\n", "rate = 2 / 0\n"))
    assert failed.startswith("docs/p.md:17: a python fence failed at `rate = 2 / 0`: ZeroDivisionError")
    assert values == {14: 1}  # the check holds these; the front matter's is asked after the last fence
    page = Page("docs/p.md", PAGE.replace("rate = 2\n", "rate = 2 / 0\n"))
    with pytest.raises(Unavailable) as raised:
        FenceValues().bound_values(page, read(page).asked)
    below = {a.line: v for a, v in raised.value.after.items() if a.expression == "rate" and not a.when}
    assert below == {3: 3, 20: 1, 26: 3}  # the page's run went on past the fence: what renumber writes


@pytest.mark.parametrize(("said", "shown"), [("end", "end"), ("[end-of-page]", "['end-of-page']")])
def test_a_bindings_choice_that_is_not_end_of_page_is_one_line(said: str, shown: str) -> None:
    plugin = BoundNumbersPlugin()
    plugin.config = plugin.config_class()
    plugin.config.load_dict({"values": "fences"})
    plugin.config.validate()
    text = PAGE.replace("description:", f"bindings: {said}\ndescription:")
    [problem] = plugin.check(Page("docs/p.md", text))
    assert problem.render("docs/p.md").startswith(
        f"docs/p.md:1: bindings: {shown} in the front matter: write"
    )


def test_one_expression_asked_twice_between_two_fences_is_evaluated_once() -> None:
    page = Page(
        "docs/p.md", f'{F}python exec="on"\ncalls = []\n{F}\n\nIt is 1{{= calls.append(1) or len(calls)}}.\n'
    )
    asked = [Asked("calls.append(1) or len(calls)", 5, 6), Asked("calls.append(1) or len(calls)", 5, 20)]
    assert list(FenceValues().bound_values(page, asked).values()) == [1]


def test_a_binding_that_announces_what_the_code_below_computes_takes_its_value_there() -> None:
    """Prose that says what the next fence does ("we draw 100 samples") quotes that fence's value;
    where a later fence gives the name another, the check does not guess which is meant."""
    text = (
        f'We draw 100{{= n}} samples of 7{{= m}}.\n\n{F}python exec="on"\nn, m = 100, 7\n{F}\n\n'
        f'An exercise:\n\n{F}python exec="on"\nn = 5\n{F}\n\nIt drew 5{{= n}}, and 6{{= k}} is nothing.\n'
    )
    page = Page("docs/p.md", text)
    found = FenceValues().bound_values(page, read(page).asked)
    assert {(a.line, a.column): v for a, v in found.items() if not a.when} == {
        (1, 8): "names what only the fences below it define, and they give it 100 first and 5 at the "
        "page's end: say where it is quoted from, as in `{= n; after fence 1}`, or bind it to what "
        "the code above it computes",
        (1, 28): 7,
        (13, 8): 5,
        (13, 20): "NameError: name 'k' is not defined",
    }


NARRATIVE = f"""# A penny

The whole story first: the drop takes 8.8{{= t; after fence 2}} s and ends at
86{{= round(v); after fence 3}} m/s; the last drop lasts 3.4{{= t; at the end}} s.

{F}python exec="on"
a = 9.8
t = 3.4
{F}

After 3.4{{= t}} s it falls at about 33{{= a * t}} m/s.

{F}python exec="on"
t = (2 * 381 / a) ** 0.5
{F}

{F}python exec="on"
v = a * t
{F}

Then we drop it for 3.4{{= t; after the next fence}} s again:

{F}python exec="on"
t = 3.4
{F}
"""


def plugin() -> BoundNumbersPlugin:
    made = BoundNumbersPlugin()
    made.config = made.config_class()
    made.config.load_dict({"values": "fences"})
    made.config.validate()
    return made


def test_a_binding_may_say_it_quotes_the_next_fence_a_fence_by_number_or_the_pages_end() -> None:
    """A summary that states results before any code, and prose that announces the fence below
    it while a fence above has set the name, each quote the place their binding names."""
    assert [p.render("docs/p.md") for p in plugin().check(Page("docs/p.md", NARRATIVE))] == []


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("{= t; after fence 2}", "{= t; after fence 9}", "the page runs 4 fences: there is no fence 9"),
        (
            "{= round(v); after fence 3}",
            "{= round(v); after fence 2}",
            "fence 2 (line 13) neither assigns nor changes v, which it reads: name the fence that sets it",
        ),
        (
            "{= t; after fence 2}",
            "{= t; after cell 2}",
            "this page is no notebook: count its fences, `; after fence N`, the first that runs being 1",
        ),
        ("{= t; at the end}\n", "{= t; at the end}\n\nLast, 3.4{= t; after the next fence}.\n", ""),
    ],
)
def test_a_place_the_page_does_not_have_or_a_fence_that_sets_nothing_the_binding_reads_is_one_line(
    old: str, new: str, said: str
) -> None:
    """A fence added above the one a binding names would make it quote another fence's value in
    silence: the fence it names must assign or change what it reads."""
    text = NARRATIVE.replace(old, new, 1) if said else NARRATIVE + "\nLast, 3.4{= t; after the next fence}.\n"
    [problem] = plugin().check(Page("docs/p.md", text))
    if said:
        assert problem.message.endswith(f"cannot be worked out: {said}")
    else:
        assert problem.message.endswith(
            "cannot be worked out: there is no fence below it, so `; after the next fence` names none"
        )


SELECTED = (
    f'The share is 0.52{{= share}}.\n\n{F}python exec="on"\nx = 1\n{F}\n\n'
    f'{F}python exec="on"\nshare = 0.52\n{F}\n\n{F}python exec="on"\nshare = 0.77\n{F}\n'
)


def test_a_name_announced_and_set_again_below_is_told_the_fence_that_first_sets_it_which_holds() -> None:
    """The fence right below the sentence sets nothing it reads: the line names the fence whose
    value the sentence quotes, so that following its advice makes the page hold."""
    [problem] = plugin().check(Page("docs/p.md", SELECTED))
    assert problem.render("docs/p.md") == (
        "docs/p.md:1:14: 0.52{= share} cannot be worked out: names what only the fences below it "
        "define, and they give it 0.52 first and 0.77 at the page's end: say where it is quoted from, "
        "as in `{= share; after fence 2}`, or bind it to what the code above it computes"
    )
    followed = SELECTED.replace("{= share}", "{= share; after fence 2}")
    assert plugin().check(Page("docs/p.md", followed)) == []


def test_words_after_a_semicolon_that_name_no_place_are_one_line() -> None:
    text = NARRATIVE.replace("{= t; at the end}", "{= t; after lunch}")
    [problem] = plugin().check(Page("docs/p.md", text))
    assert problem.render("docs/p.md").startswith(
        "docs/p.md:4:56: 3.4{= t; after lunch}: “after lunch” names no place to quote it from: write "
    )


def test_a_number_only_the_fence_below_gives_is_said_and_not_renumbered_into_the_value_above() -> None:
    """`3.4{= t}` announcing `t = 3.4` where `t` is 8.8 above: renumber would write 8.8 into the
    sentence; the check says what the fence below gives and how to bind it."""
    text = NARRATIVE.replace("{= t; after the next fence}", "{= t}")
    [problem] = plugin().check(Page("docs/p.md", text))
    assert problem.render("docs/p.md") == (
        "docs/p.md:21:21: 3.4 is written, 8.81789 is computed now, bound to {= t}: the fence below gives "
        "3.4: if the sentence announces it, write {= t; after the next fence}"
    )
    assert not problem.renumbered
