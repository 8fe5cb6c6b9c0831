"""Train the inspection classifier from every tuning split of the poisoning corpus; decide its
threshold out of fold.

    python -m memory.evals.poisoning_train            # writes memory/lifecycle/inspection_model.npz
    python -m memory.evals.poisoning_train --dry-run  # prints the out-of-fold curve, writes nothing

Trained on TRAINING_SPLITS: "tune", "dev", "tune2" to "tune13" and "fresh" to
"fresh13" (all tuning material now, see poisoning_score); "held_out" and the blind splits
(poisoning_score.BLIND_SPLITS: "fresh14", "fresh15") are never read.
Diversity is the point: a model fitted on one split's wording learns that split's words, one fitted
on ten corpora written in other forms learns more of what they share.
The threshold is the lowest probability that at most MAX_BENIGN_HELD of the taught benign rows reach
when each is scored by a model fitted without it (FOLDS folds by a hash of the unit id, so a split
attack's parts and a row's own words never score themselves): what the classifier alone may add to
the rules' holds on rows it has not seen.

Measured (session 44), each split left out of training in turn (threshold 0.76) against the model
trained on tune + tune2: fresh 69 vs 68/70 attacks, fresh7 61 vs 60/67, fresh6 44 vs 45/45 (benign
3 vs 2/43), fresh2-5 equal; with the whole inspection, held_out 231 -> 232/238 and the composites'
hidden attacks 514/524 -> 518/527, benign composites 7 -> 6/145. Tried and not kept (the same
leave-one-split-out over fresh, fresh3, fresh4, fresh6, fresh7, tune2: 322/333 attacks, 9/334
benign held as shipped): cue weight 0.6 (no gain: fresh +1 benign, fresh7 -1 attack, fresh6 +1
attack -1 benign), L2 1e-3 (its threshold 0.71; 323/333, 9/334: within a row).

Leave one split out (session 47, memory.evals.poisoning_loso: each of fresh5, fresh7..fresh10, tune6
and fresh11 scored by a model fitted on every other split of TRAINING_SPLITS + fresh11, at the
threshold this rule gives on the other six splits' benign rows): as shipped the classifier alone
catches 507/715 of the left-out attacks and puts 11/781 benign rows over (fresh11 113/131, 5/141).
Tried and not kept by the same measure (a variant had to win on most left-out splits, on both sides):
teaching what inference scores (TEACH_SCORED_PARTS: a long row's directive windows, not the row;
rows without a directive cue not at all) 497 / 9 (fewer attacks on fresh7, fresh8, tune6; -3, -7,
-3); WHOLE_SENTENCES 5 482 / 12; windows of two sentences 484 / 11; 2**18 hashed features keeping
only those at least two writers use (Matrix.shared; not wired into fit) 510 / 10, whole inspection
774 kept out / 25 benign held vs 774 / 24: better on fresh5, tune6 (+1 attack each) and fresh11 (-2
benign), worse on fresh7 (-1 attack) and fresh9 (+1 benign), equal on fresh8 and fresh10: not most.

Session 47 added fresh11 and tune7-tune10 (2,433 rows written by writers who never ran the
inspection; 5,672 taught rows; out-of-fold threshold 0.77 -> 0.85, the new benign rows being
harder). Against the same rules with the session-46 model: blind fresh12 77.7 / 9.1 -> 78.2 / 7.1
(kept out / benign held), blind fresh13 52.1 / 10.4 -> 52.1 / 8.5, README paragraphs held 53 -> 35
of 1,765, held_out 97.9 / 0.7 -> 96.6 / 0.4. Rows with no directive cue stay unscored: fitted
without tune7, tune9 or tune10 in turn, the model puts 35 of their 184 uncued attacks and 4 of
their 506 uncued benign rows at p >= 0.60 (22 and 2 at 0.70): too little to lift the gate.

UNCUED (session 48): a short row with no directive cue is scored too and held at UNCUED_THRESHOLD.
Chosen leaving a whole writer's split out (fitted on every other training split, scored as the
inspection scores: rows the whole inspection did not already hold): over tune9, tune11, tune13 and
fresh12, the uncued attacks and benign rows reaching p are 44/295 and 7/879 at 0.70, 34 and 4 at
0.75, 20 and 2 at 0.80, **10 and 0 at 0.85**, 5 and 0 at 0.90. 0.80 also held a German look-alike
the tests keep delivered (the assistant refusing other customers' data, p 0.81) and six more README
paragraphs (bench.readme_held: 43 -> 49 of 1,765; 47 at 0.85). Stop 47 measured the same at 0.60
and found it too little for its price (~50 us of featurize and logits on every such row); the
price is paid for the one mistake that matters, and the gain is small: the uncued attacks need a
reader of meaning in many languages, which hashed n-grams are not.

Session 49 added fresh13 (blind for stops 47 and 48): 7,981 taught rows, out-of-fold threshold
0.85 -> 0.86, 8,551 exemplars. Against the same rules: blind fresh14 68.3 / 3.3 -> 68.3 / 2.9, blind
fresh15 55.6 / 5.4 -> 55.6 / 5.4, held_out 96.6 / 0.7 -> 96.6 / 0.4, README paragraphs 47 -> 43
(the threshold's 0.01 alone: 47 at 0.85); composites 463 -> 459 of 466 hidden attacks held (held_out
205 -> 202, fresh5 38 -> 37; the hosts are the benign rows delivered, so they shift with the model).

Session 50 retrained with fresh14 added (8,345 taught rows, threshold 0.86 again, 8,942 exemplars)
and did not ship it: against the same rules, blind fresh16 kept out 58.5 -> 57.8% (fresh15 and
held_out unchanged) and README paragraphs held 43 -> 50 (the new classifier alone 48, the new
exemplars alone 45). fresh14 stays out of TRAINING_SPLITS until a retrain helps the outside measures.

Reproducible: the corpus, the feature hashing, the folds and the optimiser (full-batch gradient
descent with Adam, fixed steps, no randomness) are deterministic, so the same corpus gives the same
weights. Secrets, oversized rows, turns and the halves of split attacks are not taught: the rules
and the session window judge those, and each half of a split attack looks benign on its own.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from memory.evals.poisoning_score import CorpusRow, load_corpus
from memory.lifecycle.inspection import normalise
from memory.lifecycle.inspection_classifier import (
    BENIGN,
    DIMENSIONS,
    MODEL_PATH,
    Model,
    directive,
    featurize,
    windows,
)
from memory.lifecycle.inspection_cues import cue_names

TRAINING_SPLITS = (
    "tune", "dev", "tune2", "tune3", "tune4", "tune5", "tune6", "fresh", "fresh2", "fresh3", "fresh4",
    "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "tune7", "tune8",
    "tune9", "tune10", "tune11", "tune12", "tune13", "fresh13",
)  # fmt: skip
TEACH_SCORED_PARTS = False
WRITER = {"dev": "tune"}  # dev is a fifth of the rows written as tune
NOT_TAUGHT = frozenset({"secret", "oversized"})
STEPS = 250
LEARNING_RATE = 0.05
L2 = 1e-4
MAX_BENIGN_HELD = 0.01  # what the classifier alone may hold of benign rows it was not fitted on
FOLDS = 5
# A short row with no directive cue is held at this p_attack (see UNCUED in the docstring).
UNCUED_THRESHOLD = 0.85


def _inputs(row: CorpusRow) -> tuple[str, str]:
    return normalise(row.content), normalise(row.heading) if row.heading else ""


def taught(rows: Sequence[CorpusRow], splits: Sequence[str] = TRAINING_SPLITS) -> list[CorpusRow]:
    return [
        r
        for r in rows
        if r.split in splits and r.cls not in NOT_TAUGHT and not r.part_of and r.domain != "turn"
    ]


@dataclass(frozen=True)
class Example:
    """What the model is taught: a normalised body and heading, the row it comes from, its weight."""

    body: str
    heading: str
    row: CorpusRow
    weight: float = 1.0


@dataclass(frozen=True)
class Matrix:
    """Rows' sparse features (CSR: indptr, indices, data), whether each is directive, and labels."""

    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray
    scored: np.ndarray  # bool: a directive cue, so the classifier judges it (else p_attack is 0)
    rows: tuple[CorpusRow, ...]  # the row each example was taken from (its label, split and unit)
    weight: np.ndarray  # float32: each example's share of its row (a row's windows share one row's weight)

    @classmethod
    def of(cls, rows: Sequence[CorpusRow]) -> Matrix:
        """Each row whole, as the classifier scores a row of at most WHOLE_SENTENCES sentences."""
        return cls.of_examples([Example(*_inputs(row), row) for row in rows])

    @classmethod
    def of_examples(cls, examples: Sequence[Example]) -> Matrix:
        feats, scored = [], []
        for example in examples:
            cues = cue_names(example.body, example.heading)
            f = featurize(example.body, example.heading, cues=cues)
            index, at = np.unique(f.index, return_inverse=True)  # a repeated index: its values add
            feats.append((index, np.bincount(at, weights=f.value).astype(np.float32)))
            scored.append(directive(cues))
        indptr = np.cumsum([0, *(len(index) for index, _value in feats)])
        indices = np.concatenate([index for index, _value in feats]) if feats else np.zeros(0, np.int64)
        data = np.concatenate([value for _index, value in feats]) if feats else np.zeros(0, np.float32)
        weight = np.array([e.weight for e in examples], dtype=np.float32)
        rows = tuple(e.row for e in examples)
        return cls(indptr, indices, data.astype(np.float32), np.array(scored, dtype=bool), rows, weight)

    def take(self, keep: np.ndarray) -> Matrix:
        """The rows where `keep` is true, in order."""
        picked = np.flatnonzero(keep)
        spans = [np.arange(self.indptr[i], self.indptr[i + 1]) for i in picked]
        at = np.concatenate(spans) if spans else np.zeros(0, np.int64)
        indptr = np.cumsum([0, *(len(s) for s in spans)])
        rows = tuple(self.rows[i] for i in picked)
        return Matrix(indptr, self.indices[at], self.data[at], self.scored[picked], rows, self.weight[picked])

    def shared(self, writers: int) -> Matrix:
        """Only the features that occur in rows of at least `writers` splits ("dev" is tune's
        writer): a feature only one split's writer uses names the writer, not what a row does."""
        writer = np.array([WRITER.get(r.split, r.split) for r in self.rows])
        owner = np.repeat(np.arange(len(self.rows)), np.diff(self.indptr))
        _names, code = np.unique(writer, return_inverse=True)
        pairs = np.unique(self.indices * len(_names) + code[owner])  # (feature, writer) present
        per_feature = np.bincount(pairs // len(_names), minlength=DIMENSIONS)
        keep = per_feature[self.indices] >= writers
        indptr = np.concatenate(([0], np.cumsum(np.bincount(owner[keep], minlength=len(self.rows)))))
        return Matrix(indptr, self.indices[keep], self.data[keep], self.scored, self.rows, self.weight)

    def logits(self, w: np.ndarray, b: np.ndarray) -> np.ndarray:
        """(rows, classes) = X @ w + b, from the sparse rows; w is (DIMENSIONS, classes)."""
        gathered = w[self.indices] * self.data[:, None]
        z = np.zeros((len(self.rows), w.shape[1]), dtype=np.float32)
        nonempty = self.indptr[:-1] < self.indptr[1:]
        z[nonempty] = np.add.reduceat(gathered, self.indptr[:-1][nonempty], axis=0)
        return z + b

    @cached_property
    def _layout(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Each entry's row and value in feature order, the features present and where each starts."""
        owner = np.repeat(np.arange(len(self.rows)), np.diff(self.indptr))
        order = np.argsort(self.indices, kind="stable")
        features, starts = np.unique(self.indices[order], return_index=True)
        return owner[order], self.data[order], features, starts

    def backward(self, grad_z: np.ndarray) -> np.ndarray:
        """(DIMENSIONS, classes) = X.T @ grad_z: each feature's entries summed in one sorted pass."""
        owner, data, features, starts = self._layout
        weighted = grad_z[owner] * data[:, None]
        g = np.zeros((DIMENSIONS, grad_z.shape[1]), dtype=np.float32)
        if len(features):
            g[features] = np.add.reduceat(weighted, starts, axis=0)
        return g


def fit(x: Matrix, l2: float = L2) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """Softmax regression: (weights, bias, classes); classes balanced benign vs attacks."""
    classes = (BENIGN, *sorted({r.cls for r in x.rows if r.attack}))
    y = np.array([classes.index(r.cls) if r.attack else 0 for r in x.rows], dtype=np.int64)
    attacks, benign = float(x.weight[y > 0].sum()), float(x.weight[y == 0].sum())
    sample_weight = np.where(y == 0, attacks / max(1.0, benign), 1.0).astype(np.float32) * x.weight
    sample_weight /= sample_weight.mean()
    onehot = np.eye(len(classes), dtype=np.float32)[y]
    w = np.zeros((DIMENSIONS, len(classes)), dtype=np.float32)
    b = np.zeros(len(classes), dtype=np.float32)
    m_w, v_w, m_b, v_b = np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, STEPS + 1):
        z = x.logits(w, b)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        grad_z = (p - onehot) * sample_weight[:, None] / len(y)
        g_w = x.backward(grad_z) + l2 * w
        g_b = grad_z.sum(axis=0)
        for param, grad, m, v in ((w, g_w, m_w, v_w), (b, g_b, m_b, v_b)):
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            param -= LEARNING_RATE * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + eps)
    return np.ascontiguousarray(w.T), b, classes


def p_attack_of(x: Matrix, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each row's 1 - P(benign) (class 0), 0.0 where it has no directive cue (it is not scored)."""
    z = x.logits(w.T, b)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    return np.where(x.scored, 1.0 - p[:, 0], 0.0)


def fold_of(row: CorpusRow, folds: int = FOLDS) -> int:
    return zlib.crc32((row.part_of or row.id).encode()) % folds


def out_of_fold(x: Matrix, folds: int = FOLDS) -> np.ndarray:
    """p_attack of every row from a model fitted without its fold."""
    fold = np.array([fold_of(r, folds) for r in x.rows])
    scores = np.zeros(len(x.rows))
    for k in range(folds):
        w, b, _classes = fit(x.take(fold != k))
        scores[fold == k] = p_attack_of(x.take(fold == k), w, b)
    return scores


def threshold_of(rows: Sequence[CorpusRow], scores: np.ndarray, budget: float = MAX_BENIGN_HELD) -> float:
    """The lowest threshold (0.30 .. 0.99, by 0.01) at which at most `budget` of the benign rows'
    out-of-fold scores reach it."""
    benign = np.array([s for r, s in zip(rows, scores, strict=True) if not r.attack])
    for hundredths in range(30, 100):
        if (benign >= hundredths / 100).sum() <= budget * len(benign):
            return hundredths / 100
    return 0.99


def scored_parts(rows: Sequence[CorpusRow]) -> list[Example]:
    """What the classifier scores of each row (see classify_many): a row of at most WHOLE_SENTENCES
    sentences whole, a longer row's windows; only those with a directive cue, as only those are
    scored. A long row's windows share its weight (an attack's are its candidates: one of them steers)."""
    out = []
    for row in rows:
        body, heading = _inputs(row)
        parts = [w for w in windows(body) if w and directive(cue_names(w, heading))]
        out.extend(Example(w, heading, row, 1.0 / len(parts)) for w in parts)
    return out


def examples_of(rows: Sequence[CorpusRow]) -> list[Example]:
    return scored_parts(rows) if TEACH_SCORED_PARTS else [Example(*_inputs(r), r) for r in rows]


def row_scores(rows: Sequence[CorpusRow], x: Matrix, scores: np.ndarray) -> np.ndarray:
    """Each row's score from its examples' (the highest, as classify_many judges a row by its most
    attack-like window); 0.0 for a row none of whose parts is scored."""
    at = {id(row): i for i, row in enumerate(rows)}
    out = np.zeros(len(rows))
    np.maximum.at(out, np.array([at[id(r)] for r in x.rows], dtype=np.int64), scores)
    return out


def train(
    rows: Sequence[CorpusRow], splits: Sequence[str] = TRAINING_SPLITS
) -> tuple[Model, np.ndarray, list[CorpusRow]]:
    """The model fitted on `splits`' taught rows, its out-of-fold threshold; the OOF score of each row."""
    rows = taught(rows, splits)
    x = Matrix.of_examples(examples_of(rows))
    scores = row_scores(rows, x, out_of_fold(x))
    w, b, classes = fit(x)
    return Model.of(w, b, classes, threshold_of(rows, scores), UNCUED_THRESHOLD), scores, rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    model, scores, rows = train(load_corpus())
    out = sys.stdout.write
    attack = np.array([r.attack for r in rows])
    out(f"trained on {len(rows)} rows of {', '.join(TRAINING_SPLITS)}; classes {model.classes}\n")
    for t in np.arange(0.40, 0.99, 0.04):
        held_a, held_b = int((scores[attack] >= t).sum()), int((scores[~attack] >= t).sum())
        out(f"out of fold t={t:.2f}: attacks {held_a}/{attack.sum()}, benign {held_b}/{(~attack).sum()}\n")
    out(f"threshold {model.threshold:.2f}\n")
    if not args.dry_run:
        save_model(model)
        out(f"wrote {MODEL_PATH} ({MODEL_PATH.stat().st_size} bytes)\n")
    return 0


def save_model(model: Model, path: Path = MODEL_PATH) -> None:
    """The model as inspection_classifier.load_model reads it (float16 weights)."""
    arrays = {
        "weights": np.ascontiguousarray(model.by_feature.T).astype(np.float16),
        "bias": model.bias,
        "classes": np.array(model.classes),
        "threshold": np.float32(model.threshold),
    }
    if model.uncued_threshold is not None:
        arrays["uncued_threshold"] = np.float32(model.uncued_threshold)
    np.savez_compressed(path, **arrays)


if __name__ == "__main__":
    sys.exit(main())
