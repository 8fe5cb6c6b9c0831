"""The inspection's trained layer, pure (numpy, no Django): a small classifier of what a row does.

A multinomial logistic regression over hashed features of the normalised row:
- word unigrams and bigrams of the body, and the heading's words as features of their own
  (a heading is a label: "Answer style" is no imperative);
- byte 3-, 4- and 5-grams of the body (they carry over between inflections and, in CJK
  scripts, are the words);
- the structural cues of inspection_cues (the model named, a request to it, earlier instructions
  set aside, persistence, protected subjects loosened, ... in sixteen languages, and their pairs),
  which is how what it learns from one language reaches another.

Classes: "benign" and the attack classes of the training split. `p_attack` is 1 - P(benign);
the row is held (reason "instruction", rule "classifier:<class>") when it reaches the threshold
decided on the dev split. The weights ship beside this module (inspection_model.npz, float16, made
by `python -m memory.evals.poisoning_train` from the "tune" split only); `classify` says which
class matched and the features that pushed hardest toward it, for the review console's "Why".
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

import numpy as np

from memory.lifecycle.inspection_cues import cue_names

MODEL_PATH = Path(__file__).resolve().parent / "inspection_model.npz"
DIMENSIONS = 1 << 15
BENIGN = "benign"
BYTE_GRAMS = (3, 4, 5)
TOP_FEATURES = 4
_WORD = re.compile(r"\w+")
_FNV_PRIME = np.uint32(16777619)
_BYTE_SEEDS = {n: np.uint32(zlib.crc32(f"bytes{n}".encode())) for n in BYTE_GRAMS}
# block weights: the three kinds of feature count about equally whatever the row's length
_CUE_WEIGHT = 0.3


@dataclass(frozen=True)
class Features:
    """One row's sparse feature vector: hashed indexes, values, and a name per index (for "why")."""

    index: np.ndarray  # int64; an index may repeat (its values add)
    value: np.ndarray  # float32
    names: dict[int, str]


@lru_cache(maxsize=1 << 16)  # words repeat across rows: hashing each once is most of the saving
def _hash(name: str) -> int:
    return zlib.crc32(name.encode()) & (DIMENSIONS - 1)


def _byte_grams(body: str) -> list[tuple[int, np.ndarray]]:
    """Hashed byte n-grams of `body`, vectorised: (n, the index of the n-gram at each position)."""
    data = np.frombuffer(body.encode("utf-8"), dtype=np.uint8).astype(np.uint32)
    found = []
    for n in BYTE_GRAMS:
        count = len(data) - n + 1
        if count <= 0:
            continue
        h = np.full(count, _BYTE_SEEDS[n], dtype=np.uint32)
        for j in range(n):
            h = (h ^ data[j : j + count]) * _FNV_PRIME
        found.append((n, (h & np.uint32(DIMENSIONS - 1)).astype(np.int64)))
    return found


def featurize(body: str, heading: str = "", *, with_names: bool = False) -> Features:
    """The feature vector of a normalised body (and normalised heading)."""
    words = _WORD.findall(body)
    word_names = [f"w:{w}" for w in words] + [f"b:{a} {b}" for a, b in pairwise(words)]
    word_names += [f"h:{w}" for w in _WORD.findall(heading)]
    cues = cue_names(body, heading)
    by_n = _byte_grams(body)
    grams = np.concatenate([idx for _n, idx in by_n]) if by_n else np.zeros(0, dtype=np.int64)
    word_idx = np.fromiter((_hash(n) for n in word_names), dtype=np.int64, count=len(word_names))
    cue_idx = np.fromiter((_hash(n) for n in cues), dtype=np.int64, count=len(cues))
    blocks = []
    for idx in (grams, word_idx):  # a repeated feature counts as often as it occurs (the values add)
        if len(idx):
            blocks.append((idx, np.full(len(idx), 1.0 / np.sqrt(len(idx)), dtype=np.float32)))
    if len(cue_idx):
        blocks.append((cue_idx, np.full(len(cue_idx), _CUE_WEIGHT, dtype=np.float32)))
    if not blocks:
        return Features(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32), {})
    index = np.concatenate([b[0] for b in blocks])
    value = np.concatenate([b[1] for b in blocks])
    names: dict[int, str] = {}
    if with_names:
        raw = body.encode("utf-8")
        for n, idx in by_n:
            for position, i in enumerate(idx.tolist()):
                names.setdefault(i, "g:" + raw[position : position + n].decode("utf-8", "replace"))
        names.update({_hash(n): n for n in word_names})
        names.update({_hash(n): n for n in cues})
    return Features(index, value, names)


@dataclass(frozen=True)
class Model:
    weights: np.ndarray  # (classes, DIMENSIONS) float32
    bias: np.ndarray  # (classes,)
    classes: tuple[str, ...]
    threshold: float  # p_attack at or above which a row is held

    def logits(self, features: Features) -> np.ndarray:
        return self.weights[:, features.index] @ features.value + self.bias


@lru_cache(maxsize=1)
def load_model(path: Path = MODEL_PATH) -> Model | None:
    """The shipped weights (None when absent: the layer then stays silent)."""
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as data:
        return Model(
            weights=data["weights"].astype(np.float32),
            bias=data["bias"].astype(np.float32),
            classes=tuple(str(c) for c in data["classes"]),
            threshold=float(data["threshold"]),
        )


@dataclass(frozen=True)
class Verdict:
    cls: str  # the most likely attack class
    p_attack: float
    held: bool
    top: tuple[str, ...]  # the features that pushed hardest toward `cls` (names), for the reviewer


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


def p_attack(body: str, heading: str = "", model: Model | None = None) -> float:
    """1 - P(benign) for a normalised body (0.0 when no model ships)."""
    model = model or load_model()
    if model is None:
        return 0.0
    probs = _softmax(model.logits(featurize(body, heading)))
    return float(1.0 - probs[model.classes.index(BENIGN)])


def classify(body: str, heading: str = "", model: Model | None = None) -> Verdict | None:
    """The class a normalised row matches, its attack probability and why; None without a model."""
    model = model or load_model()
    if model is None:
        return None
    features = featurize(body, heading)
    probs = _softmax(model.logits(features))
    benign = model.classes.index(BENIGN)
    attack = float(1.0 - probs[benign])
    held = attack >= model.threshold
    if not held:
        return Verdict(BENIGN, attack, False, ())
    order = [i for i in np.argsort(-probs) if i != benign]
    best = int(order[0])
    named = featurize(body, heading, with_names=True)
    # how far each feature pushed toward `best` rather than benign (a repeated feature adds up)
    push: dict[int, float] = {}
    margin = (model.weights[best, named.index] - model.weights[benign, named.index]) * named.value
    for i, m in zip(named.index.tolist(), margin.tolist(), strict=True):
        push[i] = push.get(i, 0.0) + m
    ranked = sorted((i for i in push if push[i] > 0), key=push.__getitem__, reverse=True)
    top = tuple(named.names.get(i, "?") for i in ranked[:TOP_FEATURES])
    return Verdict(model.classes[best], attack, True, top)
