#!/usr/bin/env python3
"""Markdown report of the dice benches: medians (ns) from criterion's output, and ratios.

Run after `cargo bench -p dnd-benches --bench dice`, from anywhere in the workspace:

    python3 benches/scripts/report.py [--criterion-dir target/criterion]

The directory is, in order: --criterion-dir, $CRITERION_HOME (where criterion writes when it is
set, e.g. to keep one run apart from others sharing the target directory), the nearest
target/criterion.

It reads every `<group>/<function>/new/benchmark.json` + `estimates.json` that criterion wrote,
takes the median point estimate, and prints:

1. per expression: our four variants, tyche's three, the hand-written floor;
2. ratios: ours / tyche (parse+roll against parse+roll, roll against roll) and
   ours / floor (roll-only);
3. the baseline (one bare d20) and the exact distributions;
4. the targets: parse+roll < 200 ns, roll-only <= 2x the floor, distribution of 4d6kh3 < 20 µs.

Only the standard library is used.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

# Column order of the main table: (function id, header).
VARIANTS = [
    ("ours_parse_roll_total", "ours parse+roll_total"),
    ("ours_parse_roll", "ours parse+roll"),
    ("ours_roll_total", "ours roll_total"),
    ("ours_roll", "ours roll"),
    ("tyche_parse_roll", "tyche parse+roll"),
    ("tyche_fromstr_roll", "tyche str::parse+roll"),
    ("tyche_roll", "tyche roll"),
    ("floor", "hand-written floor"),
]
EXPRESSIONS = ["1d20+5", "8d6", "4d6kh3", "2d20kh1+7", "1d20ro<3+4", "10d10!", "(1d4+1)*3"]
PARSE_ROLL_TARGET_NS = 200.0
FLOOR_FACTOR_TARGET = 2.0
DISTRIBUTION_TARGET_NS = 20_000.0


def find_criterion_dir(given: str | None) -> Path:
    if given:
        return Path(given)
    if os.environ.get("CRITERION_HOME"):  # criterion writes there instead of target/criterion
        return Path(os.environ["CRITERION_HOME"])
    here = Path(__file__).resolve()
    for parent in [Path.cwd(), *Path.cwd().parents, *here.parents]:
        candidate = parent / "target" / "criterion"
        if candidate.is_dir():
            return candidate
    sys.exit("no target/criterion found: run `cargo bench -p dnd-benches --bench dice` first")


def load(root: Path) -> dict[tuple[str, str], float]:
    """(group id, function id) -> median in ns."""
    out: dict[tuple[str, str], float] = {}
    for bench in root.glob("**/new/benchmark.json"):
        meta = json.loads(bench.read_text())
        estimates = json.loads((bench.parent / "estimates.json").read_text())
        group = meta.get("group_id")
        function = meta.get("function_id") or meta.get("value_str") or ""
        out[(group, function)] = estimates["median"]["point_estimate"]
    return out


def ns(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v:,.0f}" if v >= 100 else f"{v:.1f}"


def ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "—"
    return f"{a / b:.2f}×"


def mark(ok: bool | None) -> str:
    return "—" if ok is None else ("yes" if ok else "**NO**")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--criterion-dir", help="criterion's output (default: target/criterion)")
    args = ap.parse_args()
    data = load(find_criterion_dir(args.criterion_dir))
    if not data:
        sys.exit("no criterion results found")

    def get(group: str, function: str) -> float | None:
        return data.get((group, function))

    print("## Medians (ns per call)\n")
    print("| expression | " + " | ".join(h for _, h in VARIANTS) + " |")
    print("|---|" + "---:|" * len(VARIANTS))
    for e in EXPRESSIONS:
        print(f"| `{e}` | " + " | ".join(ns(get(e, f)) for f, _ in VARIANTS) + " |")

    print("\n## Ratios\n")
    print("| expression | parse+roll_total / tyche parse+roll | parse+roll / tyche parse+roll"
          " | roll_total / tyche roll | roll / tyche roll | roll_total / floor | roll / floor |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for e in EXPRESSIONS:
        g = lambda f, e=e: get(e, f)  # noqa: E731
        cells = [
            ratio(g("ours_parse_roll_total"), g("tyche_parse_roll")),
            ratio(g("ours_parse_roll"), g("tyche_parse_roll")),
            ratio(g("ours_roll_total"), g("tyche_roll")),
            ratio(g("ours_roll"), g("tyche_roll")),
            ratio(g("ours_roll_total"), g("floor")),
            ratio(g("ours_roll"), g("floor")),
        ]
        print(f"| `{e}` | " + " | ".join(cells) + " |")

    print("\n## Baseline and exact distributions\n")
    print("| benchmark | median |")
    print("|---|---:|")
    print(f"| one bare d20 (rand's `u32` sampler, ChaCha12) | {ns(get('baseline', 'bare_d20'))} ns |")
    for e in ["8d6", "4d6kh3", "10d10!"]:
        v = get("distribution", e)
        print(f"| `distribution()` of `{e}` | {ns(v)} ns |")

    print("\n## Targets\n")
    print("| expression | parse+roll_total < 200 ns | parse+roll (record) < 200 ns"
          " | roll_total <= 2× floor | roll (record) <= 2× floor |")
    print("|---|---|---|---|---|")

    def under(v: float | None, limit: float) -> bool | None:
        return None if v is None else v < limit

    def within(v: float | None, floor: float | None) -> bool | None:
        return None if v is None or floor is None else v <= FLOOR_FACTOR_TARGET * floor

    for e in EXPRESSIONS:
        floor = get(e, "floor")
        print(f"| `{e}` | "
              + " | ".join([
                  mark(under(get(e, "ours_parse_roll_total"), PARSE_ROLL_TARGET_NS)),
                  mark(under(get(e, "ours_parse_roll"), PARSE_ROLL_TARGET_NS)),
                  mark(within(get(e, "ours_roll_total"), floor)),
                  mark(within(get(e, "ours_roll"), floor)),
              ]) + " |")
    d = get("distribution", "4d6kh3")
    print(f"\nExact distribution of `4d6kh3` < 20 µs: {mark(under(d, DISTRIBUTION_TARGET_NS))}"
          f" ({ns(d)} ns)")


if __name__ == "__main__":
    main()
