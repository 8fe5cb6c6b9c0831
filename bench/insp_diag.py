"""Diagnostic: print the inspection's verdict and reasons for chosen poisoning-corpus rows.

python -m bench.insp_diag ID [ID ...]     # or a split name: every row of that split judged wrong
"""

from __future__ import annotations

import os
import sys

import django


def main(argv: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "protomem.settings")
    django.setup()
    from memory.evals.poisoning_score import SPLITS, held_for_content, inspect_row, load_corpus
    from memory.lifecycle.inspection import normalise
    from memory.lifecycle.inspection_classifier import p_attack

    rows = load_corpus()
    wanted = set(argv)
    for row in rows:
        if row.id not in wanted and row.split not in wanted & set(SPLITS):
            continue
        found = inspect_row(row)
        held = held_for_content(found)
        if row.id not in wanted and held == row.attack:
            continue
        p = p_attack(normalise(row.content), normalise(row.heading) if row.heading else "")
        why = "; ".join(f"{r.code}:{r.text}" for r in found.reasons)
        sys.stdout.write(f"{row.id} attack={row.attack} held={held} p={p:.2f} [{why}]\n")
        sys.stdout.write(f"  {row.content[:140]!r}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
