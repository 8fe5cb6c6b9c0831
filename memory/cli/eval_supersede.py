"""protomem eval-supersede: precision / recall of the supersede decision on the labelled pairs.

    manage.py protomem eval-supersede                 # dev and held-out, per kind, both deciders
    manage.py protomem eval-supersede --json
    manage.py protomem eval-supersede --misses        # the pairs each decider got wrong

The pairs live in memory/evals/supersede (see build.py there); memory.evals.supersede_score
scores the token-overlap bands alone ("overlap", the rule before) and the bands corrected by the
roles of the differing words ("roles", what fact_ingest uses) in the same run. No database.
"""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from memory.evals.supersede_score import DATASET_DIR, format_table, load_pairs, score

help = "Score the fact supersede decision (precision/recall per split and kind) on the labelled pairs."


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--dir", type=Path, default=DATASET_DIR, help="directory of *.jsonl pairs")
    parser.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    parser.add_argument("--misses", action="store_true", help="list the pairs each decider got wrong")


def handle(command: Any, options: dict[str, Any]) -> None:
    try:
        pairs = load_pairs(options["dir"])
    except (OSError, ValueError, TypeError) as exc:
        raise CommandError(f"cannot read the pairs: {exc}") from exc
    if not pairs:
        raise CommandError(f"no pairs in {options['dir']}")
    result = score(pairs)
    if options["json"]:
        command.stdout.write(json.dumps(result.as_dict(), indent=2))
        return
    command.stdout.write(f"{len(pairs)} pairs from {options['dir']}")
    command.stdout.write(format_table(result))
    if options["misses"]:
        for name, wrong in result.misses.items():
            command.stdout.write(f"\n{name}: {len(wrong)} wrong")
            for p in wrong:
                command.stdout.write(f"  {p.id} [{p.kind}] same={p.same}: {p.old!r} -> {p.new!r}")
