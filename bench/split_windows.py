"""False positives of the split-instruction check (memory.lifecycle.split_writes) on benign windows.

    .venv/bin/python -m bench.split_windows ../shared/eval/locomo-dev

Each benign write is judged with the (up to) three writes before it, as the write service judges
a session's writes: (a) consecutive LoCoMo turns of one conversation, stored as domain "turn"
(as bench.locomo_held stores them), (b) the same turns stored as plain notes (an agent that
does not mark turns), (c) the poisoning corpus's benign rows in corpus order. Prints the
windows judged a split instruction out of the windows judged, and the attack corpus's split
attacks caught. Pure, no database.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from bench.locomo_held import turns
from memory.evals.poisoning_score import load_corpus, window_false_positives
from memory.lifecycle.inspection_split import WINDOW_WRITES, Part, split_verdict


def flagged_windows(parts: Sequence[Part]) -> tuple[int, int, list[str]]:
    flagged, shown = 0, []
    for end in range(1, len(parts)):
        verdict = split_verdict(parts[max(0, end - WINDOW_WRITES) : end + 1])
        if verdict is not None:
            flagged += 1
            shown.append(f"{verdict.label}: {verdict.snippet}")
    return flagged, max(0, len(parts) - 1), shown


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directory", type=Path, help="a directory of LoCoMo conversation JSON files")
    parser.add_argument("--show", action="store_true", help="print each flagged window")
    args = parser.parse_args(argv)
    for domain in ("turn", "note"):
        flagged = total = 0
        for path in sorted(args.directory.glob("*.json")):
            found, judged, shown = flagged_windows([Part(text, "", domain) for text in turns(path)])
            flagged, total = flagged + found, total + judged
            if args.show:
                print("\n".join(f"      {line}" for line in shown))
        print(f"LoCoMo consecutive turns as domain {domain!r}: {flagged} of {total} windows flagged")
    flagged, total = window_false_positives(load_corpus())
    print(f"poisoning corpus benign rows in order: {flagged} of {total} windows flagged")


if __name__ == "__main__":
    main()
