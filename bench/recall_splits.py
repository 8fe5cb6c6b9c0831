"""Ranking variants side by side on split halves of LoCoMo's development conversations and ours.

    .venv/bin/python -m bench.recall_splits --locomo ../shared/eval/locomo-dev
    .venv/bin/python -m bench.recall_splits --locomo DIR --ours --variants base,vec2

Both corpora are stored (in a transaction rolled back at the end) and embedded once with
local:all-minilm-l6-v2; each question's keyword pool (structure.search_rows) and vector pool
(vectors.nearest_rows, the text structure.vector_query gives) are read once, then every variant
of structure.Weights in VARIANTS reranks the same pools (structure.rerank). Printed per split
(LoCoMo: A = conversations 26/30/41, B = 42/43; ours: tuning / held_out): any-evidence r@5,
r@10, all@10, the paper's p@5, MRR. A variant is kept only when it helps every split: the
other five LoCoMo conversations are held out by the issue's author, so one split's gain alone
says nothing. Not a speed bench: the numbers are recall, the pools are fixed.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench import common

MODEL = "local:all-minilm-l6-v2"
K = 10
DEEP = 200
SPLIT_A = frozenset({"26", "30", "41"})


def variants() -> dict[str, Any]:
    from memory.retrieval import structure

    base = structure.WEIGHTS
    out = {"base": base}
    for name, changes in VARIANTS.items():
        out[name] = dataclasses.replace(base, **changes)
    return out


# name -> Weights fields changed from structure.WEIGHTS
VARIANTS: dict[str, dict[str, Any]] = {
    "equal_lists": {"list_weights": (1.0, 1.0)},
    "vec1.25": {"list_weights": (1.0, 1.25)},
    "vec2": {"list_weights": (1.0, 2.0)},
    "decay.95/.8": {"next_decay": 0.95, "prev_decay": 0.8},
    "decay.8/.6": {"next_decay": 0.8, "prev_decay": 0.6},
    "reach1": {"window_reach": 1},
    "lend.2": {"lend_share": 0.2},
    "short.7": {"short_factor": 0.7},
    "short.8": {"short_factor": 0.8},
    "short.9": {"short_factor": 0.9},
    "short1": {"short_factor": 1.0},
    "talk.5": {"small_talk_factor": 0.5},
    "repeat.7": {"repeat_factor": 0.7},
    "hits5": {"window_hits": 5},
    "rrf100": {"rrf_k": 100},
    "rrf100v1.25": {"rrf_k": 100, "list_weights": (1.0, 1.25)},
    "speaker.3": {"speaker_boost": 0.3},
    "speaker.8": {"speaker_boost": 0.8},
    "nameonly.4": {"name_only_factor": 0.4},
    "cover.7": {"coverage_power": 0.7},
    "next.95": {"next_decay": 0.95},
    "prev.8": {"prev_decay": 0.8},
    "no-window": {"window_hits": 0},
    "no-date": {"date_boost": 0.0, "turn_date_boost": 0.0},
    "no-speaker": {"speaker_boost": 0.0},
    "no-damp": {"coverage_power": 0.0, "name_only_factor": 1.0},
    "no-small": {"small_talk_factor": 1.0, "short_factor": 1.0},
    "no-repeat": {"repeat_factor": 1.0},
    "no-anchor": {"anchor_to_turns": False},
    "date.02": {"turn_date_boost": 0.02},
    "date.04": {"turn_date_boost": 0.04},
    "kw-only": {"list_weights": (1.0, 0.0)},
    "vec-only": {"list_weights": (0.0, 1.0)},
    "rrf10": {"rrf_k": 10, "turn_date_boost": 0.03 * 61 / 11},
    "rrf20": {"rrf_k": 20, "turn_date_boost": 0.03 * 61 / 21},
    "rrf30": {"rrf_k": 30, "turn_date_boost": 0.03 * 61 / 31},
    "rrf20d": {"rrf_k": 20},
    "rrf30v2": {"rrf_k": 30, "turn_date_boost": 0.03 * 61 / 31, "list_weights": (1.0, 2.0)},
    "rrf30v1": {"rrf_k": 30, "turn_date_boost": 0.03 * 61 / 31, "list_weights": (1.0, 1.0)},
    "vpool40": {},
    "vpool60": {},
    "reach3": {"window_reach": 3},
    "hits15": {"window_hits": 15},
    "kdeep50": {},
    "kdeep100": {},
    "no-heads": {"keyword_heads": 0},
    "kwheads1": {"keyword_heads": 1},
    "kwheads3": {"keyword_heads": 3},
    "deep30": {},
    "deep50": {},
    "deep100": {},
    "deep200": {},
}


def rankings(name: str, p: Pools) -> list[list[int | None]]:
    """The lists a variant fuses, as hybrid.fused_ids builds them: the keyword pool and the vector
    ranking read structure.VECTOR_DEPTH deep for the pool's rows (deepN: N deep; deep30 is the
    vector pool alone, as before VECTOR_DEPTH)."""
    from memory.retrieval import structure

    depth = int(name[4:]) if name.startswith("deep") else structure.VECTOR_DEPTH
    if name.startswith("vpool"):  # a deeper vector pool: more vector-only candidates
        p = dataclasses.replace(p, semantic=p.deep[: int(name[5:])])
    pool = {*p.keyword, *p.semantic}
    semantic: list[int | None] = list(p.semantic)
    if len(p.deep) > len(p.semantic) and depth > len(p.semantic):
        semantic = structure.ranks_within(p.deep[:depth], pool)
    keyword: list[int | None] = list(p.keyword)
    if name.startswith("kdeep"):  # the keyword ranking read N deep for the pool's rows too
        keyword = structure.ranks_within(p.kdeep[: int(name[5:])], pool)
    return [keyword, semantic]


@dataclasses.dataclass
class Pools:
    query: str
    keyword: list[int]
    semantic: list[int]
    rows: dict[int, Any]
    evidence: frozenset[str]
    split: str
    kind: str
    scope: Any
    deep: list[int] = dataclasses.field(default_factory=list)  # the vector ranking, DEEP rows
    kdeep: list[int] = dataclasses.field(default_factory=list)  # the keyword ranking, DEEP rows


class VectorCache:
    """Vectors of texts kept on disk between runs (BENCH_ROOT/recall-splits-vectors-*.pkl): the
    local model embeds LoCoMo's ~3,000 turns in minutes on two shared cores, and a tuning
    session reruns this bench many times on the same texts. Keyed by (model, purpose, text)."""

    def __init__(self, instance: Path) -> None:
        self.path = instance / "vectors.pkl"
        self.known: dict[tuple[str, str, str], Any] = {}
        if self.path.exists():
            with self.path.open("rb") as handle:
                self.known = pickle.load(handle)  # noqa: S301 - our own scratch file
        self.dirty = False

    def embed(self, texts: Sequence[str], *, purpose: str) -> list[Any]:
        from memory.embedding import embeddings

        missing = list(dict.fromkeys(t for t in texts if (MODEL, purpose, t) not in self.known))
        if missing:
            matrix = embeddings.embed_texts(missing, model=MODEL, purpose=purpose)
            self.known.update(((MODEL, purpose, t), row) for t, row in zip(missing, matrix, strict=True))
            self.dirty = True
        return [self.known[(MODEL, purpose, t)] for t in texts]

    def save(self) -> None:
        if self.dirty:
            with self.path.open("wb") as handle:
                pickle.dump(self.known, handle)
            self.dirty = False


def _pools(
    corpus: Any, split_of: Callable[[Any], str], prefix: str, cache: VectorCache
) -> tuple[list[Pools], dict[int, str]]:
    from memory.embedding import embeddings
    from memory.lifecycle.writes import add_chunks
    from memory.retrieval import structure
    from memory.retrieval.search import search_chunk_rows
    from memory.store import vectors
    from memory.store.deliverable import deliverable
    from memory.store.models import Chunk

    matrix = cache.embed(
        [embeddings.chunk_text(t.heading, t.content) for t in corpus.turns], purpose=embeddings.INDEX
    )
    add_chunks(t.draft(f"{prefix}-{t.conv}") for t in corpus.turns)
    pks = list(
        Chunk.objects.filter(namespace__startswith=f"{prefix}-").order_by("pk").values_list("pk", flat=True)
    )
    vectors.vectors_store(zip(pks, matrix, strict=True), model=MODEL)
    turn_of = {pk: t.turn_id for pk, t in zip(pks, corpus.turns, strict=True)}
    out = []
    pool = structure.pool_size(K)
    helds, texts = [], []
    for conv in corpus.conversations():
        queryset = deliverable(Chunk.objects.filter(namespace=f"{prefix}-{conv}"))
        for q in (q for q in corpus.questions if q.conv == conv):
            held = structure.search_rows(q.text, k=pool, queryset=queryset)
            helds.append((q, queryset, held))
            texts.append(structure.vector_query(q.text, structure.speakers(held.values())))
    query_vectors = cache.embed(texts, purpose=embeddings.QUERY)
    cache.save()
    for (q, queryset, held), query_vector in zip(helds, query_vectors, strict=True):
        deep = vectors.nearest_rows(
            query_vector, k=DEEP, model=MODEL, queryset=queryset, fields=structure.ROW_FIELDS
        )
        found = deep[:pool]
        rows = {**{r[0]: structure.Row(*r) for r in deep}, **held}
        pools = Pools(
            q.text, list(held), [r[0] for r in found], rows, q.evidence, split_of(q), q.kind, queryset
        )
        pools.deep = [r[0] for r in deep]
        pools.kdeep = [r[0] for r in search_chunk_rows(q.text, k=DEEP, queryset=queryset)]
        out.append(pools)
    return out, turn_of


def score(
    pools: Sequence[Pools], turn_of: dict[int, str], rank: Callable[[Pools], list[int]]
) -> dict[str, dict[str, float]]:
    """split -> metric -> mean, plus per kind under 'split/kind'."""
    sums: dict[str, dict[str, float]] = {}
    for p in pools:
        ranked = [turn_of[i] for i in rank(p)]
        hit5, hit10 = p.evidence & set(ranked[:5]), p.evidence & set(ranked[:10])
        mrr = next((1 / r for r, t in enumerate(ranked[:10], 1) if t in p.evidence), 0.0)
        values = {
            "r@5": float(bool(hit5)),
            "r@10": float(bool(hit10)),
            "all@10": float(hit10 == p.evidence),
            "p@5": len(hit5) / len(p.evidence),
            "mrr": mrr,
            "n": 1.0,
        }
        for key in (p.split, f"{p.split}/{p.kind}", "all"):
            bucket = sums.setdefault(key, dict.fromkeys(values, 0.0))
            for m, v in values.items():
                bucket[m] += v
    return {key: {m: v / b["n"] if m != "n" else v for m, v in b.items()} for key, b in sums.items()}


def _first(ranking: Sequence[int | None], evidence: frozenset[str], turn_of: dict[int, str]) -> int | None:
    """The 1-based rank of the first evidence turn in `ranking`, None if absent."""
    return next((r for r, i in enumerate(ranking, 1) if i is not None and turn_of.get(i) in evidence), None)


def _band(rank: int | None) -> str:
    if rank is None:
        return "absent"
    return "1-10" if rank <= 10 else "11-20" if rank <= 20 else "21-50" if rank <= 50 else ">50"


def diagnose(label: str, pools: Sequence[Pools], turn_of: dict[int, str]) -> None:
    """Per split and kind, base's @10 misses tallied by where the first evidence turn is: in the
    fused ranking read 50 deep (rank band, or absent: not in the pool nor the window's turns),
    in the keyword pool, the keyword ranking (DEEP) and the vector ranking (DEEP)."""
    from collections import Counter

    from memory.retrieval import structure

    tallies: dict[str, Counter[str]] = {}
    for p in pools:
        fused = structure.rerank(p.query, rankings("base", p), k=50, queryset=p.scope, loaded=p.rows)
        rank = _first(fused, p.evidence, turn_of)
        if rank is not None and rank <= 10:
            continue
        in_pool = _first([*p.keyword, *p.semantic], p.evidence, turn_of) is not None
        for key in (f"{p.split}", f"{p.split}/{p.kind}"):
            t = tallies.setdefault(key, Counter())
            t["misses"] += 1
            t[f"fused {_band(rank)}"] += 1
            t["in pool" if in_pool else "not in pool"] += 1
            t[f"kw {_band(_first(p.kdeep, p.evidence, turn_of))}"] += 1
            t[f"vec {_band(_first(p.deep, p.evidence, turn_of))}"] += 1
    for key in sorted(tallies):
        counts = ", ".join(f"{n} {c}" for n, c in sorted(tallies[key].items()))
        print(f"diagnose {label:<6} {key:<20} {counts}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locomo", type=Path)
    parser.add_argument("--ours", action="store_true")
    parser.add_argument("--variants", default="", help="comma-separated names (default: all)")
    parser.add_argument("--kinds", action="store_true", help="also print each split's question kinds")
    parser.add_argument("--diagnose", action="store_true", help="tally where base's @10 misses are")
    args = parser.parse_args(argv)
    instance = common.bench_instance("recall-splits")
    if not (instance / "built.json").exists():
        common.migrate()
        common.mark_built(instance, {}, {})
    from django.db import transaction

    from memory.evals import conversation_eval, locomo
    from memory.retrieval import structure

    wanted = [v for v in args.variants.split(",") if v] or list(variants())
    chosen = {name: w for name, w in variants().items() if name in wanted}
    cache = VectorCache(instance)
    with transaction.atomic():
        sets = []
        if args.locomo:
            corpus = locomo.load_corpus(args.locomo)
            sets.append(
                ("locomo", *_pools(corpus, lambda q: "A" if q.conv in SPLIT_A else "B", "tune-locomo", cache))
            )
        if args.ours:
            corpus = conversation_eval.load_corpus()
            sets.append(("ours", *_pools(corpus, lambda q: q.split, "tune-ours", cache)))
        if args.diagnose:
            for label, pools, turn_of in sets:
                diagnose(label, pools, turn_of)
        for name, weights in chosen.items():
            print(name, file=sys.stderr, flush=True)
            for label, pools, turn_of in sets:

                def rank(p: Pools, weights: Any = weights, name: str = name) -> list[int]:
                    return structure.rerank(
                        p.query,
                        rankings(name, p),
                        k=K,
                        queryset=p.scope,
                        loaded=p.rows,
                        weights=weights,
                    )

                result = score(pools, turn_of, rank)
                keys = [*sorted(k for k in result if k != "all" and ("/" not in k or args.kinds)), "all"]
                for key in keys:
                    m = result[key]
                    print(
                        f"{name:<14} {label:<6} {key:<20} n={int(m['n']):>4}"
                        f" r@5 {m['r@5']:.3f} r@10 {m['r@10']:.3f}"
                        f" all@10 {m['all@10']:.3f} p@5 {m['p@5']:.3f} mrr {m['mrr']:.3f}"
                    )
            sys.stdout.flush()
        transaction.set_rollback(True)


if __name__ == "__main__":
    main()
