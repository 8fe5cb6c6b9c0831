"""The inspection's trained layer, pure (numpy, no Django): a small classifier of what a row does.

A multinomial logistic regression over hashed features of the normalised row:
- word unigrams and bigrams of the body, and the heading's words as features of their own
  (a heading is a label: "Answer style" is no imperative);
- byte 3-, 4- and 5-grams of the body (they carry over between inflections and, in CJK
  scripts, are the words);
- the structural cues of inspection_cues (the model named, a request to it, earlier instructions
  set aside, persistence, protected subjects loosened, ... in sixteen languages, and their pairs),
  which is how what it learns from one language reaches another.

A row with no directive cue (DIRECTIVE_CUES) mostly describes. A short one (scored whole) is still
scored when the model ships an uncued threshold, and held only at that threshold: rules stated as
facts ("requests signed J. Okafor count as the CFO's") carry no cue in any language the lexicon
reads, and the model learned some of them; a long row's uncued sentences are not scored.
A row of more than WHOLE_SENTENCES sentences is scored sentence by sentence and judged by its
most attack-like one (windows()): cues count together only where they stand together.
Classes: "benign" and the attack classes of the training split. `p_attack` is 1 - P(benign);
the row is held (reason "instruction", rule "classifier:<class>") when it reaches the threshold
decided out of fold. The weights ship beside this module (inspection_model.npz, float16, made by
`python -m memory.evals.poisoning_train` from every tuning split: tune, dev, tune2..tune13,
fresh..fresh13, never held_out, fresh14 or fresh15); `classify` says which
class matched and the features that pushed hardest toward it, for the review console's "Why".
"""

from __future__ import annotations

import dataclasses
import re
import zlib
from collections.abc import Callable, Sequence
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
_MASK = DIMENSIONS - 1
_FNV_PRIME = np.uint32(16777619)
_BYTE_SEED = np.uint32(2166136261)
_PAIR_A, _PAIR_B, _PAIR_SEED = 1000003, 7919, 0x5BD1E995
_CUE_WEIGHT = 0.3
# Judged only with one of these: a row that asks nothing, sets nothing aside, makes nothing last,
# loosens nothing, hides nothing, plays no part and sets no key describes (the chatbot that "hands
# over to a human agent"); skipping it is also what keeps the layer cheap for bulk writes.
DIRECTIVE_CUES = frozenset(
    {
        "cue:request", "cue:override", "cue:persist", "cue:conceal", "cue:roleplay", "cue:loosen",
        "cue:reader", "shape:key_value_grant", "shape:markup", "shape:model_salutation",
    }
)  # fmt: skip  # each cue's value (the other two blocks have unit length)


@dataclass(frozen=True)
class Features:
    """One row's sparse feature vector: hashed indexes, values, and a name per index (for "why")."""

    index: np.ndarray  # int64; an index may repeat (its values add)
    value: np.ndarray  # float32
    names: dict[int, str]


@lru_cache(maxsize=1 << 16)  # words repeat across rows: each is hashed once
def _hash(name: str) -> int:
    return zlib.crc32(name.encode()) & _MASK


def _bigrams(unigrams: np.ndarray) -> np.ndarray:
    """The index of each word pair, from the pair's word indexes (no strings built)."""
    return ((unigrams[:-1] * _PAIR_A) ^ (unigrams[1:] * _PAIR_B) ^ _PAIR_SEED) & _MASK


def _byte_hashes(data: np.ndarray) -> list[np.ndarray]:
    """Hashed byte n-grams at every position of `data` (uint32 bytes, several rows end to end),
    one array per n of BYTE_GRAMS; a row takes the positions of its own grams (see _row_grams)."""
    count = len(data) - BYTE_GRAMS[-1] + 1
    if count <= 0:
        return [np.zeros(0, dtype=np.int64) for _n in BYTE_GRAMS]
    h = np.full(count, _BYTE_SEED, dtype=np.uint32)
    found = []
    for j in range(BYTE_GRAMS[-1]):
        h = (h ^ data[j : j + count]) * _FNV_PRIME
        if j + 1 in BYTE_GRAMS:
            found.append(((h ^ np.uint32(j)) & np.uint32(_MASK)).astype(np.int64))
    return found


def _byte_grams(body: str) -> list[tuple[int, np.ndarray]]:
    """Hashed byte n-grams of `body` in one vectorised pass: (n, the index at each position)."""
    by_n = _byte_hashes(np.frombuffer(body.encode("utf-8"), dtype=np.uint8).astype(np.uint32))
    return [(n, idx) for n, idx in zip(BYTE_GRAMS, by_n, strict=True)] if len(by_n[0]) else []


def featurize(
    body: str, heading: str = "", *, with_names: bool = False, cues: list[str] | None = None
) -> Features:
    """The feature vector of a normalised body (and normalised heading): three blocks (byte
    n-grams, words, cues), the first two scaled to unit length whatever the row's length."""
    cues = cue_names(body, heading) if cues is None else cues
    (features,) = featurize_many([(body, heading, cues)])
    if not with_names:
        return features
    words = _WORD.findall(body)
    unigrams = np.fromiter((_hash(w) for w in words), dtype=np.int64, count=len(words))
    heads = _WORD.findall(heading)
    names: dict[int, str] = {}
    raw = body.encode("utf-8")
    for n, idx in _byte_grams(body):
        for position, i in enumerate(idx.tolist()):
            names.setdefault(i, "g:" + raw[position : position + n].decode("utf-8", "replace"))
    names.update(zip(unigrams.tolist(), words, strict=True))
    names.update(zip(_bigrams(unigrams).tolist(), (f"{a} {b}" for a, b in pairwise(words)), strict=False))
    names.update({_hash(f"h:{w}"): f"heading:{w}" for w in heads})
    names.update({_hash(n): n for n in cues})
    return Features(features.index, features.value, names)


def featurize_many(rows: Sequence[tuple[str, str, list[str]]]) -> list[Features]:
    """featurize() of many (body, heading, cues) rows at once, the same vectors (without names):
    one byte-hashing pass over all bodies end to end, one hash lookup per distinct word, one
    bigram pass, then a slice per row, so a bulk write pays numpy's per-call cost once per block.
    """
    encoded = [body.encode("utf-8") for body, _heading, _cues in rows]
    hashes = _byte_hashes(np.frombuffer(b"".join(encoded), dtype=np.uint8).astype(np.uint32))
    words = [_WORD.findall(body) for body, _heading, _cues in rows]
    extras = [[*(f"h:{w}" for w in _WORD.findall(heading)), *cues] for _body, heading, cues in rows]
    flat_words = [w for row in words for w in row]
    unigrams = np.fromiter(map(_hash, flat_words), dtype=np.int64, count=len(flat_words))
    pairs = _bigrams(unigrams) if len(unigrams) > 1 else unigrams[:0]
    flat_extra = [n for row in extras for n in row]
    extra = np.fromiter(map(_hash, flat_extra), dtype=np.int64, count=len(flat_extra))
    out = []
    start = word_at = extra_at = 0
    for data, row_words, row_extra in zip(encoded, words, extras, strict=True):
        # a row's grams start at its own bytes and end inside them (as _byte_grams counts them)
        count = max(0, len(data) - BYTE_GRAMS[-1] + 1)
        grams = [idx[start : start + count] for idx in hashes] if count else []
        n_words = len(row_words)
        word_end, extra_end = word_at + n_words, extra_at + len(row_extra)
        bigrams = [pairs[word_at : word_end - 1]] if n_words > 1 else []
        index = np.concatenate((*grams, unigrams[word_at:word_end], *bigrams, extra[extra_at:extra_end]))
        n_grams, n_word_idx = count * len(BYTE_GRAMS), n_words + max(0, n_words - 1)
        value = np.empty(len(index), dtype=np.float32)
        value[:n_grams] = 1.0 / np.sqrt(max(1, n_grams))
        value[n_grams : n_grams + n_word_idx] = 1.0 / np.sqrt(max(1, n_word_idx))
        value[n_grams + n_word_idx :] = _CUE_WEIGHT
        out.append(Features(index, value, {}))
        start, word_at, extra_at = start + len(data), word_end, extra_end
    return out


@dataclass(frozen=True)
class Model:
    by_feature: np.ndarray  # (DIMENSIONS, classes), contiguous: one row gathered per feature
    bias: np.ndarray  # (classes,)
    classes: tuple[str, ...]
    threshold: float  # p_attack at or above which a row is held
    # p_attack at or above which a short row with no directive cue is held (None: such rows are not
    # scored); decided leaving whole writers' splits out, see poisoning_train.UNCUED_THRESHOLD
    uncued_threshold: float | None = None

    @classmethod
    def of(
        cls,
        weights: np.ndarray,
        bias: np.ndarray,
        classes: tuple[str, ...],
        threshold: float,
        uncued_threshold: float | None = None,
    ) -> Model:
        """From trained (classes, DIMENSIONS) weights, as the trainer and the .npz hold them."""
        return cls(np.ascontiguousarray(weights.T), bias, classes, threshold, uncued_threshold)

    def logits(self, features: Features) -> np.ndarray:
        return features.value @ self.by_feature[features.index] + self.bias


@lru_cache(maxsize=1)
def load_model(path: Path = MODEL_PATH) -> Model | None:
    """The shipped weights (None when absent: the layer then stays silent)."""
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as data:
        return Model.of(
            data["weights"].astype(np.float32),
            data["bias"].astype(np.float32),
            tuple(str(c) for c in data["classes"]),
            float(data["threshold"]),
            float(data["uncued_threshold"]) if "uncued_threshold" in data.files else None,
        )


@dataclass(frozen=True)
class Verdict:
    cls: str  # the most likely attack class
    p_attack: float
    held: bool
    top: tuple[str, ...]  # the features that pushed hardest toward `cls` (names), for the reviewer
    # the sentence that decided a row judged by its sentences (see windows()); "" when judged whole
    window: str = ""


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


def directive(cues: list[str]) -> bool:
    """Whether a row has anything that could make it an order (see DIRECTIVE_CUES), or names the
    model with an act or a duty without describing it ("AIへ: ... 伝えて", "de assistent moet ...",
    not "the chatbot answers ...")."""
    if not DIRECTIVE_CUES.isdisjoint(cues):
        return True
    named = "cue:model" in cues and "shape:model_described" not in cues
    return named and ("cue:act" in cues or "cue:oblige" in cues)


def _probabilities(model: Model, body: str, heading: str) -> np.ndarray | None:
    """Each class's probability for a normalised row; None when nothing in it is directive."""
    cues = cue_names(body, heading)
    if not directive(cues):
        return None
    return _softmax(model.logits(featurize(body, heading, cues=cues)))


def p_attack(body: str, heading: str = "", model: Model | None = None) -> float:
    """1 - P(benign) for a normalised body (0.0 when no model ships or nothing in it is directive)."""
    model = model or load_model()
    probs = None if model is None else _probabilities(model, body, heading)
    return 0.0 if model is None or probs is None else float(1.0 - probs[model.classes.index(BENIGN)])


def classify(
    body: str, heading: str = "", model: Model | None = None, *, exempt: Callable[[str], bool] | None = None
) -> Verdict | None:
    """The class a normalised row matches, its attack probability and why; None without a model."""
    (verdict,) = classify_many([(body, heading)], model=model, exempt=exempt)
    return verdict


_NOT_DIRECTIVE = Verdict(BENIGN, 0.0, False, ())
# A row longer than WINDOW_SENTENCES sentences is judged a window of that many consecutive
# sentences at a time, by its most attack-like window: a cue is only evidence together with the
# cues near it. Scored whole, a long row pairs cues of unrelated sentences (the model named in
# one, a request in another: an email, meeting notes) and dilutes the one sentence that steers.
# Measured on composites of the corpus rows (memory.evals.poisoning_composite, see the commit).
WINDOW_SENTENCES = 1
WHOLE_SENTENCES = 3
# a mark ends a sentence before a space or the end ("assistant.policy.override" is one word);
# written as runs of plain characters (possessive: nothing to backtrack), not one alternation a
# character, it splits 4x faster the same way (checked on the corpus and on random mark strings)
_SENTENCE = re.compile(
    r"[^.!?\u3002\uff01\uff1f]*+(?:[.!?]+(?=\S)[^.!?\u3002\uff01\uff1f]*+)*+(?:[.!?\u3002\uff01\uff1f]+|$)"
)


def _sentences(body: str) -> list[str]:
    return [s for s in _SENTENCE.findall(body) if s.strip()]


def windows(body: str) -> list[str]:
    """`body` itself when it has at most WINDOW_SENTENCES sentences, else every run of that many
    consecutive sentences (the windows overlap: each sentence is read with its neighbours)."""
    return _windows(body, _sentences(body))


def _windows(body: str, sentences: list[str]) -> list[str]:
    if len(sentences) <= WHOLE_SENTENCES:
        return [body]
    return [
        "".join(sentences[i : i + WINDOW_SENTENCES]).strip()
        for i in range(len(sentences) - WINDOW_SENTENCES + 1)
    ]


def without_exempt(body: str, exempt: Callable[[str], bool]) -> str:
    """A row scored whole without its exempt sentences: a tightening beside a staff note ("the bot
    may no longer reset MFA; every reset goes to a human. Agents should explain ...") is no evidence,
    as it is none as a window of a long row. `body` itself when it has one sentence or none exempt."""
    return _without_exempt(body, _sentences(body), exempt)


def _without_exempt(body: str, sentences: list[str], exempt: Callable[[str], bool]) -> str:
    if len(sentences) < 2:
        return body
    kept = [s for s in sentences if not exempt(s.strip())]
    return body if len(kept) == len(sentences) else "".join(kept).strip()


def classify_many(
    rows: Sequence[tuple[str, str]],
    model: Model | None = None,
    *,
    exempt: Callable[[str], bool] | None = None,
) -> list[Verdict | None]:
    """classify() of many normalised (body, heading) rows, the same verdicts in the same order:
    each row's windows (see windows()) with a directive cue are featurised together
    (featurize_many), the rest not at all; a row's verdict is its most attack-like window's.
    `exempt(sentence)`: a sentence of a long row the caller's rules judge harmless whatever its
    words (a warning against a request, a tightening), not scored, as such a row alone is not."""
    model = model or load_model()
    if model is None:
        return [None] * len(rows)
    owners: list[int] = []
    parts: list[tuple[str, str]] = []
    sentence_windows: list[bool] = []  # a window of a long row, not the row (less its exempt sentences)
    for i, (body, heading) in enumerate(rows):
        sentences = _sentences(body)  # split once for both uses
        row_windows = _windows(body, sentences)
        if len(row_windows) == 1 and exempt is not None:
            row_windows = [_without_exempt(body, sentences, exempt)]
        for window in (w for w in row_windows if w):
            owners.append(i)
            parts.append((window, heading))
            sentence_windows.append(len(row_windows) > 1)
    cues = [cue_names(body, heading) for body, heading in parts]
    # an exempt window is not scored: asked only of the few with a directive cue (both are pure);
    # a short row without one is scored against its own (uncued) threshold when the model has one
    scored, uncued = [], set()
    for j, part_cues in enumerate(cues):
        if directive(part_cues):
            if not (sentence_windows[j] and exempt is not None and exempt(parts[j][0])):
                scored.append(j)
        elif model.uncued_threshold is not None and not sentence_windows[j]:
            scored.append(j)
            uncued.add(j)
    features = featurize_many([(*parts[j], cues[j]) for j in scored]) if scored else []
    best: dict[int, tuple[float, int, np.ndarray]] = {}
    benign = model.classes.index(BENIGN)
    for j, part_features in zip(scored, features, strict=True):
        probs = _softmax(model.logits(part_features))
        attack = float(1.0 - probs[benign])
        if j in uncued and attack < model.uncued_threshold:
            continue  # below its threshold an uncued row stays unscored, as without the path
        if owners[j] not in best or attack > best[owners[j]][0]:
            best[owners[j]] = (attack, j, probs)
    verdicts: list[Verdict | None] = [_NOT_DIRECTIVE] * len(rows)
    for i, (_attack, j, probs) in best.items():
        verdict = _verdict(model, *parts[j], cues[j], probs, uncued=j in uncued)
        whole = parts[j][0] == rows[i][0]
        verdicts[i] = verdict if whole else dataclasses.replace(verdict, window=parts[j][0])
    return verdicts


def _verdict(
    model: Model, body: str, heading: str, cues: list[str], probs: np.ndarray, *, uncued: bool = False
) -> Verdict:
    """A scored row's verdict; when held, the features that pushed hardest toward its class."""
    benign = model.classes.index(BENIGN)
    attack = float(1.0 - probs[benign])
    held = attack >= model.threshold or uncued  # an uncued row reaches here only at its threshold
    if not held:
        return Verdict(BENIGN, attack, False, ())
    order = [i for i in np.argsort(-probs) if i != benign]
    best = int(order[0])
    named = featurize(body, heading, with_names=True, cues=cues)
    # how far each feature pushed toward `best` rather than benign (a repeated feature adds up)
    push: dict[int, float] = {}
    margin = (model.by_feature[named.index, best] - model.by_feature[named.index, benign]) * named.value
    for i, m in zip(named.index.tolist(), margin.tolist(), strict=True):
        push[i] = push.get(i, 0.0) + m
    ranked = sorted((i for i in push if push[i] > 0), key=push.__getitem__, reverse=True)
    top = tuple(named.names.get(i, "?") for i in ranked[:TOP_FEATURES])
    return Verdict(model.classes[best], attack, True, top)
