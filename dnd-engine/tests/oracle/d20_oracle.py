#!/usr/bin/env python3
"""Oracle for the differential test `dnd-engine/tests/dice_vs_d20.rs`.

Reads JSON lines from stdin, each `{"expr": "...", "faces": [face indices]}`, and rolls the
expression with Avrae's `d20` library while the dice show exactly the given faces: d20 draws
every die from `random.randrange`, so the `random` module seen by `d20.expression` is replaced
by a stand-in that replays the faces (`randrange(n)` gives face - 1, and `randrange(0, 100, 10)`
for the d% tens die gives (face - 1) * 10).

For each input line it prints one JSON line:

- `{"total": int, "result": str, "used": int}`: the total, the `d20.SimpleStringifier`
  rendering and how many faces d20 consumed;
- `{"error": "ClassName", "message": str, "used": int}` when d20 raised (`OutOfFaces` when it
  asked for more dice than were recorded).

With `--check` it only imports d20 and prints `ok`.
"""

import json
import sys

import d20
import d20.expression


class OutOfFaces(Exception):
    """d20 asked for a die after the recorded faces ran out."""


class ReplayRandom:
    """Stands in for the `random` module inside `d20.expression`."""

    def __init__(self):
        self.faces = []
        self.used = 0

    def load(self, faces):
        self.faces = list(faces)
        self.used = 0

    def _next(self):
        if self.used >= len(self.faces):
            raise OutOfFaces(f"d20 asked for die number {self.used + 1}, only {len(self.faces)} recorded")
        face = self.faces[self.used]
        self.used += 1
        return face

    def randrange(self, start, stop=None, step=1):
        if stop is None:
            # randrange(n): a die of n sides, 0-based.
            return self._next() - 1
        if (start, stop, step) == (0, 100, 10):
            # The d% tens die: 0, 10, ..., 90.
            return (self._next() - 1) * 10
        raise ValueError(f"unexpected randrange({start}, {stop}, {step})")


def main():
    if "--check" in sys.argv[1:]:
        print("ok")
        return
    replay = ReplayRandom()
    d20.expression.random = replay
    stringifier = d20.SimpleStringifier()
    roller = d20.Roller()
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        case = json.loads(line)
        replay.load(case.get("faces", []))
        try:
            result = roller.roll(case["expr"], stringifier=stringifier)
            answer = {"total": result.total, "result": result.result, "used": replay.used}
        except Exception as e:  # noqa: BLE001 - every failure is reported by class name
            answer = {"error": type(e).__name__, "message": str(e), "used": replay.used}
        out.write(json.dumps(answer) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
