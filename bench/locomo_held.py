"""How many of LoCoMo's conversation turns the write inspection would hold: pure, no database.

    .venv/bin/python -m bench.locomo_held ../shared/eval/locomo-dev
    .venv/bin/python -m bench.locomo_held ../shared/eval/locomo-dev --show

Each turn is inspected as an agent stores it through memory_ingest (domain "turn", text
"Speaker: text" plus "[shares a photo: caption]"), the way the recall eval stores it. The data is
read from the directory given (outside data stays in ../shared/eval); nothing is copied.
Prints the number of turns held per conversation and in all; --show prints each held turn's
reasons (for reading, not for tuning on single turns).
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from memory.lifecycle.inspection import Inspection, inspect_write

_SESSION = re.compile(r"^session_\d+$")


def turns(path: Path) -> Iterator[str]:
    """Every turn of one LoCoMo conversation file, as the text an agent would store."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for key, value in data.get("conversation", data).items():
        if not _SESSION.match(key) or not isinstance(value, list):
            continue
        for turn in value:
            text = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            yield text


def inspect_turn(text: str) -> Inspection:
    return inspect_write(content=text, delivery_policy=None, source_type="memory_ingest", domain="turn")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directory", type=Path, help="a directory of LoCoMo conversation JSON files")
    parser.add_argument("--show", action="store_true", help="print each held turn and its reasons")
    args = parser.parse_args(argv)
    total = held = 0
    for path in sorted(args.directory.glob("*.json")):
        rows = list(turns(path))
        found = [(text, inspect_turn(text)) for text in rows]
        kept = [(text, i) for text, i in found if i.hold]
        total += len(rows)
        held += len(kept)
        print(f"  {path.name:<10} {len(kept):4d} of {len(rows):5d} turns held")
        if args.show:
            for text, inspection in kept:
                why = "; ".join(f"{r.code}: {r.text}" for r in inspection.reasons)
                print(f"      [{why}] {text[:160]}")
    print(f"LoCoMo turns held: {held} of {total}")


if __name__ == "__main__":
    main()
