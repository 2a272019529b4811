"""How often the head finds the year a line back, by width and seed: why `YEAR_WIDTH` is what it is.

Not a test (it trains dozens of models, minutes of work), and not on a page: the learning page
trains one seed at `attend.core.years.YEAR_WIDTH`, and this says how far that one run speaks for
others. For each width and seed it trains the head on the pairs (`attend.core.years`) at the page's
600 steps and prints on how many held-out pairs it names the year's first digit and the whole
year, beside the best any window of a table of counts does on the first digit.

    .nox/docs/bin/python scripts/year_seeds.py                 # widths 16, 32, 40; seeds 1 to 8
    .nox/docs/bin/python scripts/year_seeds.py --widths 40 --seeds 1,2,3
"""

from __future__ import annotations

import argparse

from attend.core.ngram import named_by_window
from attend.core.training import Settings, answer_correct, train
from attend.core.years import pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--widths", default="16,32,40", help="d_model values, comma-separated")
    parser.add_argument("--seeds", default="1,2,3,4,5,6,7,8", help="seeds, comma-separated")
    args = parser.parse_args()
    data = pairs()
    held = len(data.text.held)
    best = max(named_by_window(data.text, data.year))
    print(f"held-out pairs {held}; the best window of a table of counts names the first digit of {best}")
    print(f"{'width':>6}{'seed':>6}{'first digit':>13}{'whole year':>12}")
    for width in (int(w) for w in args.widths.split(",")):
        for seed in (int(s) for s in args.seeds.split(",")):
            run = train(Settings(seed=seed, d_model=width), data=data.text)
            first, whole = (
                int(answer_correct(run.params, data.text.held, answer, data.text).sum())
                for answer in (data.year, data.digits)
            )
            print(f"{width:6d}{seed:6d}{first:13d}{whole:12d}", flush=True)


if __name__ == "__main__":
    main()
