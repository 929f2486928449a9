#!/usr/bin/env python3
"""Speed baseline: Avrae's Python dice library `d20`, on the expressions of benches/dice.rs.

Setup (once, from the workspace root):

    python3 -m venv target/d20-venv && target/d20-venv/bin/pip install d20

Run:

    target/d20-venv/bin/python benches/scripts/d20_bench.py [--repeat 15] [--target-seconds 0.1]

Prints a Markdown table of medians in µs per call. Columns:

- `d20.roll` (cached parse): `d20.roll(expr).total`, what Avrae calls. d20 keeps an LFU cache
  of 256 parsed trees keyed by the expression text, so in a loop this is a cache hit plus a roll.
- fresh parse + roll: the lark parse that a cache miss does (`diceast.parser.parse(expr,
  start="expr")`, exactly what `Roller._parse_no_comment` runs) followed by `Roller.roll(tree)`.
  This is the honest counterpart of our `ours_parse_roll*` benches, which parse every time.
- roll only: `Roller.roll(tree).total` with a pre-parsed tree.
- parse only: the uncached lark parse alone.

Every d20 roll keeps the full record (its `Expression` tree of `Die` objects); `.total` sums it.
The string rendering (`RollResult.result`) is lazy and is not measured. Dice come from Python's
`random` (Mersenne Twister), seeded with 42.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import platform
import random
import statistics
import timeit

import d20
from d20 import diceast

# Our Roll20 expression -> d20 (Avrae dialect) equivalent.
EXPRESSIONS = [
    ("1d20+5", "1d20+5"),
    ("8d6", "8d6"),
    ("4d6kh3", "4d6kh3"),
    ("2d20kh1+7", "2d20kh1+7"),
    # Roll20 `<3` is "3 or less"; d20's `<` is strict, so the same roll is `ro<4`.
    ("1d20ro<3+4", "1d20ro<4+4"),
    # Roll20 `!` explodes on the highest face, recursively; d20's `e10` does the same.
    ("10d10!", "10d10e10"),
    ("(1d4+1)*3", "(1d4+1)*3"),
]


def median_us(fn, repeat: int, target_seconds: float) -> float:
    """Median time of one call of `fn`, in µs, over `repeat` runs of an auto-sized loop."""
    timer = timeit.Timer(fn)
    number, elapsed = timer.autorange()  # smallest 1, 2, 5, 10, ... taking >= 0.2 s
    number = max(1, int(number * target_seconds / max(elapsed, 1e-9)))
    runs = timer.repeat(repeat=repeat, number=number)
    return statistics.median(runs) / number * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15, help="timed runs per cell (median taken)")
    ap.add_argument("--target-seconds", type=float, default=0.1, help="length of one timed run")
    args = ap.parse_args()

    random.seed(42)
    roller = d20.Roller()
    lark_parser = diceast.parser

    print(f"d20 {importlib.metadata.version('d20')} on Python {platform.python_version()}"
          f" ({platform.python_implementation()})\n")
    print("| expression (ours) | d20 spelling | d20.roll cached parse (µs) | fresh parse + roll (µs)"
          " | roll only (µs) | parse only (µs) |")
    print("|---|---|---:|---:|---:|---:|")
    for ours, avrae in EXPRESSIONS:
        tree = roller.parse(avrae)
        # Sanity: the spelling parses and rolls.
        assert isinstance(roller.roll(tree).total, int)

        def cached(e=avrae):
            return d20.roll(e).total

        def fresh(e=avrae):
            return roller.roll(lark_parser.parse(e, start="expr")).total

        def roll_only(t=tree):
            return roller.roll(t).total

        def parse_only(e=avrae):
            return lark_parser.parse(e, start="expr")

        cells = [median_us(f, args.repeat, args.target_seconds)
                 for f in (cached, fresh, roll_only, parse_only)]
        print(f"| `{ours}` | `{avrae}` | " + " | ".join(f"{c:.2f}" for c in cells) + " |")


if __name__ == "__main__":
    main()
