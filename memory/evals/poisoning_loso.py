"""Leave one split out: how the classifier carries to a corpus it never saw, split by split.

    python -m memory.evals.poisoning_loso fit VARIANT [SPLIT ...]   # fits, cached in --cache
    python -m memory.evals.poisoning_loso report VARIANT [VARIANT ...]

For each held-out split (HELD_OUT: tuning material written by different writers at different times),
a model is fitted on every other split of TRAINING_SPLITS
and scored on the left-out split's taught rows as the inspection scores them (classify_many: windows,
the directive gate, the inspection's exempt sentences). The threshold for a split is the one the
trainer's rule gives on the other held-out splits' benign rows, each scored by the model that did
not see it: nothing of the left-out split decides it. "whole" columns run the whole inspection
(rules, classifier, exemplars) on the left-out split with that model in place (the exemplar layer
still knows the split: the same for every variant). held_out and the blind splits are never read.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from memory.evals import poisoning_score
from memory.evals.poisoning_score import CorpusRow, load_corpus
from memory.evals.poisoning_train import (
    MAX_BENIGN_HELD,
    TRAINING_SPLITS,
    Example,
    Matrix,
    _inputs,
    fit,
    scored_parts,
    taught,
    threshold_of,
)
from memory.lifecycle import inspection_classifier
from memory.lifecycle.inspection_classifier import Model, classify_many, directive
from memory.lifecycle.inspection_cues import cue_names

HELD_OUT = ("fresh5", "fresh7", "fresh8", "fresh9", "fresh10", "tune6", "fresh11", "tune9", "tune10")
NEVER = frozenset({"held_out", *poisoning_score.BLIND_SPLITS})


def _windows_of(body: str) -> list[str]:
    return [w for w in inspection_classifier.windows(body) if w]


def _directive(body: str, heading: str) -> bool:
    return directive(cue_names(body, heading))


def whole_rows(rows: Sequence[CorpusRow]) -> list[Example]:
    return [Example(*_inputs(r), r) for r in rows]


def benign_windows(rows: Sequence[CorpusRow]) -> list[Example]:
    """Every row whole, and beside a long benign row its directive windows (sharing one row's weight)."""
    out = whole_rows(rows)
    for r in rows:
        body, heading = _inputs(r)
        parts = [w for w in _windows_of(body) if _directive(w, heading)] if not r.attack else []
        if len(parts) > 1 or (parts and parts[0] != body):
            out.extend(Example(w, heading, r, 1.0 / len(parts)) for w in parts)
    return out


VARIANTS: dict[str, Callable[[Sequence[CorpusRow]], list[Example]]] = {
    "base": whole_rows,
    "scored": scored_parts,
    "benign_windows": benign_windows,
}
L2S = {"l2x10": 1e-3}
SHARED = {"shared2": 2, "shared3": 3}


def _examples(variant: str, rows: Sequence[CorpusRow]) -> list[Example]:
    return VARIANTS[variant.split("+")[0]](rows)


def _l2(variant: str) -> float | None:
    return next((L2S[p] for p in variant.split("+")[1:] if p in L2S), None)


def _shared(variant: str) -> int:
    return next((SHARED[p] for p in variant.split("+")[1:] if p in SHARED), 0)


def _set_dimensions(variant: str) -> None:
    """A "dimsNN" variant hashes into 2**NN features: the modules' constants, for this process."""
    bits = next((int(p[4:]) for p in variant.split("+")[1:] if p.startswith("dims")), 15)
    if bits:
        from memory.evals import poisoning_train

        for module in (inspection_classifier, poisoning_train):
            module.DIMENSIONS = 1 << bits
        inspection_classifier._MASK = (1 << bits) - 1
        inspection_classifier._hash.cache_clear()


def corpus() -> list[CorpusRow]:
    return [r for r in load_corpus() if r.split not in NEVER]


def fit_variant(variant: str, splits: Sequence[str], cache: Path) -> None:
    _set_dimensions(variant)
    rows = taught(corpus(), TRAINING_SPLITS)
    x = Matrix.of_examples(_examples(variant, rows))
    split = np.array([r.split for r in x.rows])
    l2 = _l2(variant)
    for held in splits:
        path = cache / f"{variant}.{held}.npz"
        if path.exists():
            continue
        train = x.take(split != held)
        train = train.shared(_shared(variant)) if _shared(variant) else train
        w, b, classes = fit(train) if l2 is None else fit(train, l2=l2)
        np.savez(path, weights=w, bias=b, classes=np.array(classes))
        sys.stdout.write(f"{variant} {held} fitted\n")
        sys.stdout.flush()


INFERENCE = {"whole": "WHOLE_SENTENCES", "win": "WINDOW_SENTENCES"}


def _fitted(variant: str) -> str:
    """The fitted variant a reported one reads: "base+whole5" is base's models scored otherwise."""
    return "+".join(p for p in variant.split("+") if p.rstrip("0123456789") not in INFERENCE)


def _set_inference(variant: str) -> None:
    """ "wholeN" / "winN": classify_many's WHOLE_SENTENCES / WINDOW_SENTENCES for this process."""
    for part in variant.split("+")[1:]:
        name = INFERENCE.get(part.rstrip("0123456789"))
        if name:
            setattr(inspection_classifier, name, int(part[len(part.rstrip("0123456789")) :]))


def _model(cache: Path, variant: str, held: str, threshold: float) -> Model:
    with np.load(cache / f"{_fitted(variant)}.{held}.npz") as d:
        return Model.of(d["weights"], d["bias"], tuple(str(c) for c in d["classes"]), threshold)


def _p_attack(model: Model, rows: Sequence[CorpusRow]) -> np.ndarray:
    from memory.lifecycle.inspection import _harmless_sentence  # the inspection's own exemptions

    verdicts = classify_many([_inputs(r) for r in rows], model=model, exempt=_harmless_sentence)
    return np.array([0.0 if v is None else v.p_attack for v in verdicts])


def _whole(model: Model, rows: Sequence[CorpusRow], split: str) -> tuple[int, int, int, int]:
    """(attacks kept out, attacks, benign held, benign) by the whole inspection with `model`."""
    original = inspection_classifier.load_model
    inspection_classifier.load_model = lambda *_a, **_k: model  # type: ignore[assignment]
    try:
        result = poisoning_score.score(rows)[split]
    finally:
        inspection_classifier.load_model = original
    a_hit, a_n = result._sum(True)
    b_hit, b_n = result._sum(False)
    return a_hit, a_n, b_hit, b_n


def _scores(variant: str, cache: Path, rows: Sequence[CorpusRow]) -> dict[str, np.ndarray]:
    """Each held-out split's rows' p_attack by the model fitted without it."""
    return {h: _p_attack(_model(cache, variant, h, 1.0), [r for r in rows if r.split == h]) for h in HELD_OUT}


def _threshold(held: str, rows: Sequence[CorpusRow], scores: dict[str, np.ndarray]) -> float:
    """The trainer's threshold rule on the other held-out splits' benign rows (each scored unseen)."""
    others = [o for o in HELD_OUT if o != held]
    seen = [r for o in others for r in rows if r.split == o]
    return threshold_of(seen, np.concatenate([scores[o] for o in others]), MAX_BENIGN_HELD)


def report(variants: Sequence[str], cache: Path, whole: bool) -> None:
    everything = corpus()
    rows = taught(everything, TRAINING_SPLITS)
    out = sys.stdout.write
    defaults = (inspection_classifier.WHOLE_SENTENCES, inspection_classifier.WINDOW_SENTENCES)
    for variant in variants:
        _set_dimensions(variant)
        inspection_classifier.WHOLE_SENTENCES, inspection_classifier.WINDOW_SENTENCES = defaults
        _set_inference(variant)
        scores = _scores(variant, cache, rows)
        totals = np.zeros(4, dtype=int)
        out(f"\n{variant}\n| split | t | attacks caught | benign over | whole: kept | whole: benign |\n")
        out("|---|---|---|---|---|---|\n")
        for h in HELD_OUT:
            t = _threshold(h, rows, scores)
            attack = np.array([r.attack for r in rows if r.split == h])
            caught, over = int((scores[h][attack] >= t).sum()), int((scores[h][~attack] >= t).sum())
            line = f"| {h} | {t:.2f} | {caught}/{attack.sum()} | {over}/{(~attack).sum()} |"
            totals[:2] += caught, over
            if whole:
                w = _whole(_model(cache, variant, h, t), [r for r in everything if r.split == h], h)
                line += f" {w[0]}/{w[1]} | {w[2]}/{w[3]} |"
                totals[2:] += w[0], w[2]
            out(line + "\n")
        out(f"| total | | {totals[0]} | {totals[1]} | {totals[2]} | {totals[3]} |\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("fit", "report"))
    parser.add_argument("names", nargs="+")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "loso")
    parser.add_argument("--whole", action="store_true")
    args = parser.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    if args.action == "fit":
        fit_variant(args.names[0], args.names[1:] or HELD_OUT, args.cache)
    else:
        report(args.names, args.cache, args.whole)
    return 0


if __name__ == "__main__":
    sys.exit(main())
