"""Write the valley's chronicle, then train the tokenizer on it and write merges.txt.

The world: a valley kept for eighty years, where every place that holds a
kind of animal gets one line a year saying how many are standing there and
how many have been born and have gone since it was settled. Each place was
settled in some year by a handful of founders, filled towards what its ground
can feed, and churned hard in its first years (young animals die young in new
ground) and more gently once it settled. Most places wobble with the weather.
The Hollow does not: its grass holds exactly 235 hobbs, and once it was full
it stayed full, a few old hobbs going and a few young ones born each year.

That quiet Hollow is why the chronicle reads the way the attention chapter
needs. Dozens of its lines start ``: 235 hobbs standing in The Hollow, 1...``,
so the tokenizer learns that phrase as one long token, while the years and
the other counts stay split into short pieces. The numbers below were tuned,
and SEED chosen, until the chapter's entry came out as it is printed::

    year 40: 235 hobbs standing in The Hollow, 1773 born and 1567 gone

Every line keeps ``standing = founders + born - gone``.

Run it as ``.venv/bin/python scripts/make_chronicle.py``. Importing it does
nothing; ``chronicle()`` gives the text without writing anything.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path
from typing import NamedTuple

SEED = 1787
"""The one seed every random number in the chronicle comes from."""

YEARS = 80
"""The chronicle runs from year 1 to year 80."""

DATA = Path(__file__).resolve().parent.parent / "src" / "attend" / "core" / "data"


class Place(NamedTuple):
    name: str
    kind: str
    settled: int  # the first year the place has a line
    founders: int
    capacity: int  # how many its ground feeds
    fill: float  # share of the gap to capacity closed in a year
    early: float  # yearly turnover, as a share of capacity, in the first year
    late: float  # the same once the place has settled
    settling: float  # how fast early turnover falls to late, per year
    wobble: int  # how far the weather moves the count in a year; 0 for none


PLACES = (
    Place("The Hollow", "hobbs", 1, 29, 235, 0.35, 1.07, 0.008, 0.865, 0),
    Place("Long Meadow", "hares", 1, 40, 610, 0.25, 0.20, 0.08, 0.90, 25),
    Place("Stony Ford", "voles", 3, 18, 380, 0.30, 0.35, 0.12, 0.90, 20),
    Place("Ash Ridge", "larks", 6, 12, 150, 0.20, 0.25, 0.10, 0.92, 9),
    Place("The Fen", "newts", 9, 33, 820, 0.15, 0.30, 0.15, 0.95, 40),
    Place("Bramble End", "hobbs", 14, 21, 90, 0.30, 0.20, 0.06, 0.90, 6),
    Place("Cold Spring", "voles", 22, 15, 260, 0.25, 0.30, 0.10, 0.90, 14),
    Place("The Weir", "otters", 31, 8, 45, 0.20, 0.20, 0.08, 0.90, 3),
)


def history(place: Place, rng: random.Random) -> list[str]:
    """One place's lines, year by year, from the year it was settled."""
    standing, born, gone = place.founders, 0, 0
    lines = []
    for year in range(place.settled, YEARS + 1):
        age = year - place.settled
        share = place.late + (place.early - place.late) * place.settling**age
        turnover = max(0, round(place.capacity * share * rng.uniform(0.7, 1.3)))
        gap = place.capacity - standing
        # Close at least one animal's worth of the gap, so a place can fill.
        target = standing + math.copysign(math.ceil(abs(gap) * place.fill), gap)
        if place.wobble:
            target += rng.randint(-place.wobble, place.wobble)
        target = max(1, int(target))
        turnover = min(turnover, standing)  # no more can go than are standing
        born += turnover + max(0, target - standing)
        gone += turnover + max(0, standing - target)
        standing = target
        assert standing == place.founders + born - gone
        lines.append(
            f"year {year}: {standing} {place.kind} standing in {place.name}, {born} born and {gone} gone"
        )
    return lines


def entries(seed: int = SEED) -> list[str]:
    """Every line of the chronicle, in year order and, within a year, place order."""
    rng = random.Random(seed)
    by_place = [history(place, rng) for place in PLACES]
    by_year: list[tuple[int, int, str]] = []
    for order, (place, lines) in enumerate(zip(PLACES, by_place, strict=True)):
        for year, line in enumerate(lines, start=place.settled):
            by_year.append((year, order, line))
    return [line for _, _, line in sorted(by_year)]


def chronicle(seed: int = SEED) -> str:
    """The whole chronicle.txt: one entry a line, each line ending in a newline."""
    return "".join(line + "\n" for line in entries(seed))


def main() -> None:
    sys.path.insert(0, str(DATA.parents[2]))
    from attend.core.tokenizer import Tokenizer

    text = chronicle()
    (DATA / "chronicle.txt").write_text(text, encoding="utf-8")
    table = Tokenizer.train(text.splitlines())
    (DATA / "merges.txt").write_text(table.dumps(), encoding="utf-8")
    print(f"wrote {len(text)} bytes, {text.count(chr(10))} entries and {len(table.merges)} merges")


if __name__ == "__main__":
    main()
