"""Train the inspection classifier from the poisoning corpus's "tune" split; decide its threshold on "dev".

    python -m memory.evals.poisoning_train            # writes memory/lifecycle/inspection_model.npz
    python -m memory.evals.poisoning_train --dry-run  # prints the dev curve, writes nothing

Reproducible: the corpus, the feature hashing and the optimiser (full-batch gradient descent with
Adam, fixed steps, no randomness) are deterministic, so the same corpus gives the same weights.
Only "tune" rows train it; the threshold is the higher of: the lowest probability at which the
classifier alone holds at most MAX_DEV_BENIGN_HELD of the dev split's benign rows (what it adds
to the rules' own holds), and the probability that only MAX_DEV_BENIGN_HELD of the tune split's
benign rows reach when each is scored by a model fitted without it (FOLDS-fold, out of fold).
"held_out" and "fresh" to "fresh6" are never read here.

Secrets, oversized rows and the halves of split attacks are not taught: the rules and the
session window judge those, and each half of a split attack looks benign on its own.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np

from memory.evals.poisoning_score import CorpusRow, held_for_content, inspect_row, load_corpus
from memory.lifecycle.inspection import normalise
from memory.lifecycle.inspection_classifier import (
    BENIGN,
    DIMENSIONS,
    MODEL_PATH,
    Model,
    featurize,
    p_attack,
)

NOT_TAUGHT = frozenset({"secret", "oversized"})
# Steps trade fit against carry-over: on dev, 97 (150 steps) vs 95 (400) of 114 attacks held at the
# threshold where the classifier holds one dev benign row; on today's corpus 250 steps hold 109/120
# dev attacks (150: 107) at the same threshold (0.78) and benign rate, and no held-out/fresh split fell.
STEPS = 250
LEARNING_RATE = 0.05
L2 = 1e-4
MAX_DEV_BENIGN_HELD = 0.01  # what the classifier may add to the rules' own holds on dev
MARGIN = 0.0
FOLDS = 5
TUNE2 = "tune2"  # the session-17 tuning rows (see poisoning_score): trained on beside "tune"


def _inputs(row: CorpusRow) -> tuple[str, str]:
    return normalise(row.content), normalise(row.heading) if row.heading else ""


def taught(rows: Sequence[CorpusRow], split: str) -> list[CorpusRow]:
    return [
        r
        for r in rows
        if r.split == split and r.cls not in NOT_TAUGHT and not r.part_of and r.domain != "turn"
    ]


def fit(rows: Sequence[CorpusRow]) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """Softmax regression: (weights, bias, classes); classes balanced benign vs attacks."""
    classes = (BENIGN, *sorted({r.cls for r in rows if r.attack}))
    x = np.zeros((len(rows), DIMENSIONS), dtype=np.float32)
    y = np.zeros(len(rows), dtype=np.int64)
    for i, row in enumerate(rows):
        features = featurize(*_inputs(row))
        np.add.at(x[i], features.index, features.value)
        y[i] = classes.index(row.cls) if row.attack else 0
    attacks = int((y > 0).sum())
    sample_weight = np.where(y == 0, attacks / max(1, len(y) - attacks), 1.0).astype(np.float32)
    sample_weight /= sample_weight.mean()
    onehot = np.eye(len(classes), dtype=np.float32)[y]
    w = np.zeros((len(classes), DIMENSIONS), dtype=np.float32)
    b = np.zeros(len(classes), dtype=np.float32)
    m_w, v_w, m_b, v_b = np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, STEPS + 1):
        z = x @ w.T + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        grad_z = (p - onehot) * sample_weight[:, None] / len(y)
        g_w = grad_z.T @ x + L2 * w
        g_b = grad_z.sum(axis=0)
        for param, grad, m, v in ((w, g_w, m_w, v_w), (b, g_b, m_b, v_b)):
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            param -= LEARNING_RATE * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + eps)
    return w, b, classes


Point = tuple[float, int, int, int, int, int, int]


def dev_curve(model: Model, rows: Sequence[CorpusRow], split: str = "dev") -> list[Point]:
    """(threshold, attacks held by the classifier alone, by rules or classifier, attacks taught,
    benign held by the classifier alone, by rules or classifier, benign) on one split."""
    dev = [r for r in rows if r.split == split and not r.part_of and r.cls not in NOT_TAUGHT]
    ruled = [held_for_content(inspect_row(r, classifier=False)) for r in dev]
    probs = [p_attack(*_inputs(r), model=model) if r.domain != "turn" else 0.0 for r in dev]
    curve = []
    for t in np.arange(0.30, 0.99, 0.02):
        alone = [p >= t for p in probs]
        both = [h or a for h, a in zip(ruled, alone, strict=True)]

        def count(flags: list[bool], attack: bool) -> int:
            return sum(f for f, r in zip(flags, dev, strict=True) if r.attack == attack)

        curve.append((
            round(float(t), 2), count(alone, True), count(both, True), sum(r.attack for r in dev),
            count(alone, False), count(both, False), sum(not r.attack for r in dev),
        ))  # fmt: skip
    return curve


def out_of_fold_benign(train: Sequence[CorpusRow], folds: int = FOLDS) -> list[float]:
    """p_attack of each taught benign row from a model fitted without its fold (folds by row order)."""
    scores: list[float] = []
    for k in range(folds):
        rest = [r for i, r in enumerate(train) if i % folds != k]
        w, b, classes = fit(rest)
        model = Model.of(w, b, classes, 1.0)
        held_back = [r for i, r in enumerate(train) if i % folds == k and not r.attack]
        scores += [p_attack(*_inputs(r), model=model) for r in held_back]
    return scores


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    rows = load_corpus()
    train = [*taught(rows, "tune"), *taught(rows, TUNE2)]
    w, b, classes = fit(train)
    model = Model.of(w, b, classes, 1.0)
    curve = dev_curve(model, rows)
    ok = [t for t, _a, _ab, _na, held, _hb, n in curve if held <= MAX_DEV_BENIGN_HELD * n]
    dev_threshold = min(ok) if ok else 0.99
    # dev has ~110 benign rows: one row is its whole 1% budget. The taught benign rows scored out
    # of fold (~470 more) say how often a benign row the model has not seen reaches a threshold.
    oof = np.array(out_of_fold_benign(train))
    oof_threshold = float(np.quantile(oof, 1 - MAX_DEV_BENIGN_HELD)) if len(oof) else 0.0
    threshold = min(0.99, max(dev_threshold, oof_threshold) + MARGIN)
    out = sys.stdout.write
    out(f"dev threshold {dev_threshold:.2f}; out-of-fold benign 99th percentile {oof_threshold:.2f}\n")
    out(f"trained on {len(train)} tune rows, classes {classes}\n")
    for t, a, ab, na, h, hb, n in curve:
        out(f"dev t={t:.2f}: attacks held {a}/{na} alone, {ab}/{na} with rules; ")
        out(f"benign held {h}/{n} alone, {hb}/{n} with rules\n")
    out(f"threshold {threshold:.2f}\n")
    if not args.dry_run:
        np.savez_compressed(
            MODEL_PATH,
            weights=w.astype(np.float16),
            bias=b,
            classes=np.array(classes),
            threshold=np.float32(threshold),
        )
        out(f"wrote {MODEL_PATH} ({MODEL_PATH.stat().st_size} bytes)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
