"""The inspection's exemplar layer, pure (numpy, no Django at import): a second opinion by meaning.

The local embedding model (all-MiniLM-L6-v2, packaged, offline) places a row beside labelled
exemplars: the attacks of each class and the benign memories of the eval's training splits
(poisoning_train.TRAINING_SPLITS: tune, dev, tune2..tune13, fresh..fresh13; never held_out, fresh14
or fresh15). A row is held when its nearest attack exemplar is closer than its nearest benign one by
more than MARGIN; the reason names the class and both exemplars, for the review console's "Why".

Gated: it judges only what the cheap layers found ambiguous, i.e. rows the classifier scored at
or above GATE_LOW but below its own threshold (a directive cue, no rule spoke), and a bulk write
encodes those in one batch. A long row the classifier judged by its sentences is judged
here by the sentence the classifier was unsure about, not whole: a whole long row's embedding
blends unrelated topics (on composites of the corpus's benign rows it held 6 of 361 that way,
the sentence none; memory.evals.poisoning_composite).
Measured (issue 29, exemplars from tune and tune2, each row scored without its own unit): the
nearest-neighbour margin at GATE_LOW 0.5 held 11 more attacks over held_out and fresh..fresh5 and no
benign row there; three of dev's benign rows (security advice, a law that removed an approval) would
be held were they not exemplars themselves. Lower gates or k = 3 / 5 neighbours added benign holds
faster than attacks; on rows the classifier does not score at all the margin held ~1 benign row per
attack, and ungated ~1 benign row in 5: the model reads topic ("MFA prompts", "approval") more than
intent, so it is a second opinion, never a judge alone. It carries to other languages only partly
(Dutch, Russian and Spanish asks were caught through their exemplars; others stay with the cue
groups and the classifier).

Tried and dropped (exemplars and heads from tune + tune2 only, each row scored without its own
unit; numbers over dev, held_out and fresh..fresh6): a logistic head on the MiniLM embeddings of
rows and of their sentences (L2 1e-2 to 1e-4) held at best one held_out attack more, at a gate
of p >= 0.35 and p_head > 0.9, and benign rows at any lower gate or threshold; the margin with the
gate widened to p >= 0.35 held 2 attacks (held_out, fresh) for 1 benign row (fresh3) and 4 of dev's;
the margin over a row's sentences instead of the row added a fresh3 benign hold and no attack.
The remaining misses are rows every layer reads alike; the embedding adds topic, not intent.

Cost: one forward pass of the model per gated row (~5-8 ms of CPU on the shared 2-core box).
That is ~1% of the eval's benign rows (hard negatives by design) and none of the recall eval's 160
knowledge rows; on the former it adds ~70 us per row to a bulk inspection (bench.bulk_insert).

The weights ship beside this module (inspection_exemplars.npz, float16 rows, made by
`python -m memory.evals.poisoning_exemplars`); without them, or without the embedding package,
the layer stays silent.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

logger = logging.getLogger(__name__)

EXEMPLARS_PATH = Path(__file__).resolve().parent / "inspection_exemplars.npz"
BENIGN = "benign"
# classifier p_attack from which a row not held is asked (its threshold is the top). 0.55 since the
# classifier learns from every tuning split: it scores "the fraud model should be recalibrated" 0.53
# (0.47 before) and the margin then held it; on held_out 0.5 to 0.65 hold the same 232/238 attacks.
GATE_LOW = 0.55
MARGIN = 0.0  # nearest attack cosine minus nearest benign cosine above which the row is held

Encode = Callable[[list[str]], np.ndarray]


@dataclass(frozen=True)
class Exemplars:
    vectors: np.ndarray  # (n, dim) float32, unit rows
    labels: tuple[str, ...]  # a class per row: an attack class or BENIGN
    ids: tuple[str, ...]  # the corpus id of each row, named in "why"
    attack: np.ndarray  # bool (n,): the attack rows

    @classmethod
    def of(cls, vectors: np.ndarray, labels: Sequence[str], ids: Sequence[str]) -> Exemplars:
        labels = tuple(labels)
        return cls(
            vectors.astype(np.float32), labels, tuple(ids), np.array([label != BENIGN for label in labels])
        )


@dataclass(frozen=True)
class Match:
    cls: str  # the attack class of the nearest attack exemplar
    held: bool
    margin: float  # nearest attack cosine - nearest benign cosine
    why: str  # both nearest exemplars and their cosines


@lru_cache(maxsize=1)
def load_exemplars(path: Path = EXEMPLARS_PATH) -> Exemplars | None:
    """The shipped exemplars (None when absent: the layer then stays silent)."""
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as data:
        return Exemplars.of(data["vectors"], [str(x) for x in data["labels"]], [str(x) for x in data["ids"]])


@lru_cache(maxsize=1)
def default_encoder() -> Encode | None:
    """The packaged local model's fp32 encode (the one retrieval uses), or None when not installed."""
    try:
        from memory.embedding.embeddings import EmbeddingError, local_encoder

        encoder = local_encoder()
    except (ImportError, EmbeddingError):
        return None
    return encoder.encode


# A forward pass costs ~5-9 ms of CPU a text, a few hundred times a dictionary look-up: the
# shipped model's matches are kept by text (a document ingested again, a sentence many rows share),
# the least recently used dropped first.
_KEPT_MATCHES = 1024
_kept: OrderedDict[str, Match] = OrderedDict()
_kept_lock = threading.Lock()


def forget_kept_matches() -> None:
    """Drop every kept match (a bench's passes over the same rows each pay the encoding)."""
    with _kept_lock:
        _kept.clear()


def judge(
    texts: Sequence[str], *, exemplars: Exemplars | None = None, encode: Encode | None = None
) -> list[Match | None]:
    """The nearest exemplars of each text (raw heading + content), in one encode; None for all
    when no exemplars or no encoder are available. With the shipped exemplars and model, a text
    judged before is not encoded again."""
    if exemplars is not None or encode is not None:
        return _judge(texts, exemplars=exemplars, encode=encode)
    with _kept_lock:
        known = {text: _kept[text] for text in texts if text in _kept}
        for text in known:  # least recently used goes first, not first in
            _kept.move_to_end(text)
    fresh = list(dict.fromkeys(text for text in texts if text not in known))
    for text, match in zip(fresh, _judge(fresh) if fresh else [], strict=True):
        if match is not None:
            known[text] = match
            with _kept_lock:
                _kept[text] = match
                if len(_kept) > _KEPT_MATCHES:
                    _kept.popitem(last=False)
    return [known.get(text) for text in texts]


def _judge(
    texts: Sequence[str], *, exemplars: Exemplars | None = None, encode: Encode | None = None
) -> list[Match | None]:
    exemplars = exemplars or load_exemplars()
    encode = encode or default_encoder()
    if not texts or exemplars is None or encode is None:
        return [None] * len(texts)
    try:
        rows = np.asarray(encode(list(texts)), dtype=np.float32)
    except Exception:  # a second opinion that fails must not fail the write: the other layers stand
        logger.warning("inspection exemplar layer: encoding failed", exc_info=True)
        return [None] * len(texts)
    # einsum, not a BLAS matmul: a multi-threaded OpenBLAS (numpy imported before memory.embedding
    # pins it) spins its threads on this small product, ~8 ms of CPU against 0.2 ms
    sims = np.einsum("ij,kj->ik", rows, exemplars.vectors)
    attack_idx = np.flatnonzero(exemplars.attack)
    benign_idx = np.flatnonzero(~exemplars.attack)
    out: list[Match | None] = []
    for row in sims:
        a = int(attack_idx[np.argmax(row[attack_idx])])
        b = int(benign_idx[np.argmax(row[benign_idx])])
        margin = float(row[a] - row[b])
        why = (
            f"nearest attack exemplar {exemplars.ids[a]} (cos {row[a]:.2f}) over "
            f"nearest benign {exemplars.ids[b]} (cos {row[b]:.2f})"
        )
        out.append(Match(exemplars.labels[a], margin > MARGIN, margin, why))
    return out
