"""Build the inspection's exemplar layer from the poisoning corpus's training splits.

    python -m memory.evals.poisoning_exemplars   # writes memory/lifecycle/inspection_exemplars.npz

The rows of every tuning split (poisoning_train.TRAINING_SPLITS: tune, dev, tune2..tune13,
fresh..fresh12) become exemplars, as they train the classifier; "held_out" and the blind splits
(poisoning_score.BLIND_SPLITS) are never read.
Secrets and oversized rows are judged by the structural checks, and each half of a split attack
looks benign alone, so none of them is an exemplar. Each row is embedded as the layer embeds a
write (heading and content, raw), stored as float16 unit rows.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

from memory.evals.poisoning_score import CorpusRow, load_corpus
from memory.evals.poisoning_train import TRAINING_SPLITS as CLASSIFIER_SPLITS
from memory.lifecycle.inspection import raw_text
from memory.lifecycle.inspection_exemplars import BENIGN, EXEMPLARS_PATH, default_encoder

TRAINING_SPLITS = frozenset(CLASSIFIER_SPLITS)
NOT_EXEMPLARS = frozenset({"secret", "oversized"})


def exemplar_rows(rows: Sequence[CorpusRow]) -> list[CorpusRow]:
    return [
        r
        for r in rows
        if r.split in TRAINING_SPLITS and not (r.attack and (r.cls in NOT_EXEMPLARS or r.part_of))
    ]


def main(argv: Sequence[str] | None = None) -> int:
    encode = default_encoder()
    if encode is None:
        sys.stderr.write("the local embedding package is not installed\n")
        return 1
    rows = exemplar_rows(load_corpus())
    vectors = np.asarray(encode([raw_text(r.heading, r.content) for r in rows]), dtype=np.float32)
    labels = np.array([r.cls if r.attack else BENIGN for r in rows])
    np.savez_compressed(
        EXEMPLARS_PATH, vectors=vectors.astype(np.float16), labels=labels, ids=np.array([r.id for r in rows])
    )
    sys.stdout.write(f"{len(rows)} exemplars ({int((labels != BENIGN).sum())} attacks) -> {EXEMPLARS_PATH}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
