"""Ranking variants side by side on split halves of LoCoMo's development conversations and ours.

    .venv/bin/python -m bench.recall_splits --locomo ../shared/eval/locomo-dev
    .venv/bin/python -m bench.recall_splits --locomo DIR --ours --variants base,vec2
    .venv/bin/python -m bench.recall_splits --locomo DIR --variants base --trace
    .venv/bin/python -m bench.recall_splits --locomo DIR --ours --variants none --compare base,datelist
    .venv/bin/python -m bench.recall_splits --paraphrase memory/evals/recall.jsonl --variants base,clauses1

--trace: base's @10 misses whose evidence is in the keyword top 10, each with the evidence's fused
rank when one step of rerank is switched off (which step drops it), and the temporal questions
whose evidence is in neither pool. --compare A,B: the questions whose hit@5 or @10 differs.

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
import re
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
    # The rows written on the days a question names (nearest first) as a third list: LoCoMo B
    # r@10 0.836 -> 0.844 (temporal 0.803 -> 0.848) but A 0.885 -> 0.880 (r@5 0.794 -> 0.786),
    # ours tuning r@10 0.935 -> 0.932: a turn telling of a day is often written days after it.
    # datepool: the same rows as candidates only (weight 0): A r@5 0.789 r@10 0.880, B 0.777/0.841.
    # A question naming no year on a past store (structure.Weights.past_relative): its dates read
    # from the newest candidate turn's day (the old rule), or no boost at all.
    "relnewest": {"past_relative": "newest"},
    "pastnone": {"past_relative": "none"},
    # Tried and dropped: turns written up to 7 / 14 / 30 days after a named range got half the
    # date boost (people tell of a day after it): LoCoMo A r@5 0.796 -> 0.791 / 0.791 / 0.794,
    # B 0.777 -> 0.777 / 0.775 / 0.772; a quarter at 14 days: A r@10 0.888 -> 0.885, B 0.838 -> 0.841.
    # A turn that asks lends its answer (structure.Weights.answer_lift, answer_hits)
    "no-answer": {"answer_lift": 0.9, "answer_hits": 10},
    "answer1": {"answer_lift": 1.0},
    "answer1.1": {"answer_lift": 1.1},
    "answer-hits10": {"answer_hits": 10},
    "no-answer-raw": {"answer_raw": ""},
    "raw-fused": {"answer_raw": "fused"},
    "raw-damped": {"answer_raw": "damped"},
    "datelist": {},
    "datepool": {"list_weights": (1.0, 1.5, 0.0)},
    # vtailN: the vector ranking's rows to N deep that are not in the pool compete for the ranks
    # past heads_from only (structure.rerank_scored's tail); -gapG: only when the vector ranking
    # is flat (cosine of rank 1 less rank 10 below G); -asked: only the turns of a speaker the
    # question names. vs base before the tail (r@10; r@5 and MRR within 0.001 everywhere): vtail40
    # LoCoMo A 0.903 / B 0.846 / ours tuning 0.959 / held-out 0.962; vtail60 (kept:
    # structure.Weights.tail_depth) 0.903 / 0.849 / 0.965 / 0.967; vtail100 0.901 / 0.849 / 0.965 /
    # 0.967; -gap0.05 and -asked as vtail60; -gap0.04 ours 0.959 / 0.962; vtail100-asked A 0.901.
    # mmrL (on top of the tail): ranks 6-10 by maximal marginal relevance on the vectors, the
    # keyword heads kept: L 0.003 / 0.006 / 0.01: A 0.901 / 0.898 / 0.893, B 0.851 / 0.849 /
    # 0.854, ours tuning 0.959 / 0.957 / 0.954 (mmr0 = base): not kept.
    # A sweep at structure.Weights' 10-hit window (r@5 / r@10 vs base: LoCoMo A 0.812 / 0.903, B
    # 0.780 / 0.849; ours tuning 0.897 / 0.965, held-out 0.935 / 0.967): hits12 (kept), hits14 and
    # repeat.2 / .3 ours tuning r@10 0.967, the rest the same; heads3 / heads4 B r@5 0.782, ours
    # tuning 0.899, the rest the same (not kept: structure.Weights.window_hits); answer-hits20 and
    # vtail80 identical; talk1 A 0.815 / 0.906 but ours held-out r@5 0.918; talk3 ours held-out
    # 0.875; shortw3 A r@5 0.809; shortw5 B 0.775; speaker.4 A r@5 0.825 but r@10 0.898, B r@5
    # 0.785, ours tuning r@10 0.959; speaker.6 A 0.804.
    "answer-hits20": {"answer_hits": 20},
    "talk1": {"small_talk_words": 1},
    "talk3": {"small_talk_words": 3},
    "shortw3": {"short_words": 3},
    "shortw5": {"short_words": 5},
    "repeat.3": {"repeat_factor": 0.3},
    "speaker.4": {"speaker_boost": 0.4},
    "speaker.6": {"speaker_boost": 0.6},
    "heads6": {"heads_from": 6},
    "heads4": {"heads_from": 4},
    "hits12": {"window_hits": 12},
    "heads3": {"heads_from": 3},
    "heads4-hits12": {"heads_from": 4, "window_hits": 12},
    "heads4-hits12-repeat.3": {"heads_from": 4, "window_hits": 12, "repeat_factor": 0.3},
    "hits12-repeat.3": {"window_hits": 12, "repeat_factor": 0.3},
    "hits14": {"window_hits": 14},
    "repeat.2": {"repeat_factor": 0.2},
    "vtail80": {"tail_depth": 80},
    "vtail40": {"tail_depth": 40},
    "vtail60": {"tail_depth": 60},
    "vtail100": {"tail_depth": 100},
    # sessB[-dD][-late]: the session prior (structure.Weights.session_prior, session_depth,
    # session_late): each turn's score times 1 + B x its session's share of the score of the first D
    # (10) rows; -late: the head (heads_from) kept, only ranks 6-10 move. Of base's misses at r@10
    # (read 60 deep), the evidence sits in the session of a top-3 hit in A 16 of 42 and B 23 of 58
    # (of a top-10 hit: 24 / 37), mostly 1-4 turns away. vs base before it (r@5 / r@10; LoCoMo A
    # 0.812 / 0.903, B 0.780 / 0.849; ours tuning 0.897 / 0.967, held-out 0.935 / 0.967):
    # sess.05-late (kept: structure.Weights.session_prior) A r@10 0.909, B 0.851, ours unchanged
    # (r@5 and MRR unchanged by construction; all@10 A 0.789 -> 0.794, B 0.706 -> 0.714, held-out
    # 0.902 -> 0.908). It is a tie-breaker among ranks 6-15 (3 questions of LoCoMo's 760 gained,
    # none lost) and a narrow one: .02 / .03 change nothing; .04 only B's; .06 as .05; -d5 / -d15
    # (.05-late) A r@10 0.906; .07 ours tuning 0.965; .1 / .15 0.962 / 0.959 (A and B as .05; the
    # lost ones: "Would Marcus appreciate a bookshop gift card?", a lone turn of a session outscored
    # by a session of several weak hits); .2 / .4 / .8 A 0.906 / 0.903 / 0.903, ours tuning 0.957.
    # On the whole ranking (no -late): .05 ours held-out r@5 0.924; .1 A 0.817 / 0.909 but held-out
    # r@5 0.924, tuning r@10 0.962; .2 / .4 B r@5 0.788 / 0.801 but held-out r@5 0.908. -d5 / -d20
    # (.1-late): ours held-out r@10 0.962 / tuning 0.965. Not kept either, an exchange instead of
    # the session (the share of the top 10 said within R turns of the row, not by it): near.2-r3
    # ours held-out r@5 0.929; near.4-r3 / .4-r5 / .8-r5 A r@10 0.896, ours tuning 0.957 / 0.957 /
    # 0.946 (B up to 0.857 r@10, 0.796 r@5); -late the same on A.
    "no-session": {"session_prior": 0.0},
    "sess.03-late": {"session_prior": 0.03, "session_late": True},
    "sess.07-late": {"session_prior": 0.07, "session_late": True},
    "sess.04-late": {"session_prior": 0.04, "session_late": True},
    "sess.06-late": {"session_prior": 0.06, "session_late": True},
    "sess.05-d5-late": {"session_prior": 0.05, "session_depth": 5, "session_late": True},
    "sess.05-d15-late": {"session_prior": 0.05, "session_depth": 15, "session_late": True},
    "sess.1-late": {"session_prior": 0.1, "session_late": True},
    "sess.2-late": {"session_prior": 0.2, "session_late": True},
    "sess.1-d5-late": {"session_prior": 0.1, "session_depth": 5, "session_late": True},
    "sess.1-d20-late": {"session_prior": 0.1, "session_depth": 20, "session_late": True},
    "sess.05": {"session_prior": 0.05, "session_late": False},
    "sess.1": {"session_prior": 0.1, "session_late": False},
    "sess.4": {"session_prior": 0.4, "session_late": False},
    # vlistN (named on the command line): the tail read N deep (not tail_depth) for a question
    # asking for several things ("What activities has Maria done...": what / which [kind of]
    # and a plural noun, 61 of LoCoMo dev's 760): vlist80 / 100 / 140 identical to base on
    # every split (the evidence of such questions is further down or not in the ranking).
    # Tried and dropped, on top of the session prior: an asking turn the window lifted into its
    # best window_hits ("John: Do you have any suggestions?" after the turn that matched) lending
    # its answer (the next turn) answer_lift x its lifted score: LoCoMo A r@5 / r@10 0.812 / 0.909
    # -> 0.809 / 0.906, B 0.780 / 0.851 unchanged, ours unchanged; capped just below the asking
    # turn: A r@10 0.906, B 0.782 / 0.854; without the session prior: A 0.809 / 0.901.
    # Named on the command line, measured and not kept (vs base: LoCoMo A r@5 / r@10 0.812 /
    # 0.903, B 0.780 / 0.849; ours tuning 0.897 / 0.965, held-out 0.935 / 0.967):
    # prfB-M (prf): pseudo-relevance feedback, the query vector moved B x the mean of the first
    # rerank's top M turns, the deep ranking re-scored, reranked again. prf0.2-5: A r@10 0.896,
    # B r@5 0.772; prf0.5-5 / prf1-5: lower on every split (ours tuning r@10 0.954 / 0.940);
    # prf0.5-10: B r@5 0.767; -pool (the new ranking's head as the pool) as prf0.5-5; -late (the
    # head kept, ranks 6-10 from the second pass): prf1-3-late B r@10 0.854 but A 0.896 and ours
    # tuning 0.938; prf0.3-3-late A 0.901, B 0.844.
    # cosL[-late] (cosine): a calibrated vector term, rerank's top 30 re-sorted by score + L x
    # the row's cosine to the query (keyword heads kept). cos0.005: A r@5 0.817 but r@10 0.901,
    # ours held-out r@5 0.924; cos0.01: A r@10 0.896, held-out r@5 0.913; -late (head kept):
    # 0.005 / 0.01 / 0.02 A r@10 0.901 / 0.896 / 0.898, ours held-out r@10 up to 0.973.
    # nbrB-T (neighbours): ranks past the head raised by B x sum over the head's rows of
    # (cosine to it - T)+, a turn like two top hits: 0.01-0.5 B r@10 0.844, ours tuning 0.954;
    # 0.005-0.4 / 0.02-0.6 / 0.05-0.7 flat on A, lower on ours (tuning 0.962 / 0.951 / 0.957).
    # Tried and dropped: at most 2 / 3 / 4 turns of one session in the top 10 past the head (the
    # rest moved down): r@10 LoCoMo A 0.903 -> 0.885 / 0.896 / 0.903, B 0.846 -> 0.836 / 0.841 /
    # 0.844, ours tuning 0.957 -> 0.948 / 0.951 / 0.951; with vtail60 no better.
}


# --paraphrase FILE: vector-side variants on a plain paraphrase set (memory/evals/recall.jsonl,
# recall_facts.jsonl), r@5 / MRR@5 per half (recall_eval.half_of: B held out). On a plain store
# hybrid@5 is the vector side's top 5 reordered (hybrid.fused_scored reads each side's top 5, and
# a keyword-only row's share stays below the 5th vector row's), so the vector ranking alone says
# whether a view of the rows or of the query can move recall@5. Every chunk is re-scored in
# numpy; nothing is stored. name -> (kind, parameter):
#   clausesL  cosine to "heading\ncontent" + L x the best cosine to one of its clauses (content
#             split after . ; ! ?, each "heading\nclause"); a one-clause chunk (1 + L) x cosine.
#             A second stored vector per clause: the store keeps one per (chunk, model).
#   centerB   the query less B x the mean of the chunk vectors (hubness: rows near the store's
#             common direction lose); projG the query's component along that mean removed by G.
#   cslsG     cosine less G x the chunk's mean cosine to its 5 nearest chunks (CSLS).
#   negprfB   the query less B x the mean of its own top 10 (a query-local centre).
# Figures (vector side, this code; recall.jsonl A / B then recall_facts A / B, r@5 / MRR):
#   base        0.926 / 0.819, 0.935 / 0.850; 1.000 / 0.969, 1.000 / 0.896
#   clauses1    0.933 / 0.844, 0.935 / 0.849; unchanged (one-clause facts). Through the real
#               pipeline (vectors._ranked patched): hybrid A 0.926 / 0.848 -> 0.933 / 0.859,
#               B 0.935 / 0.850 -> 0.935 / 0.849: A's gain (k006 / k030-like rows: a question
#               about one clause of a two-clause row) does not carry to B. LoCoMo dev (each
#               turn's sentences as its clauses): hybrid r@5 / r@10 / all@10 / MRR 0.796 / 0.880 /
#               0.754 / 0.616 -> 0.796 / 0.886 / 0.762 / 0.611 (tuning r@5 0.786 -> 0.792, MRR
#               0.603 -> 0.595; held-out r@5 0.815 -> 0.803, r@10 0.888 -> 0.900); vector alone
#               r@5 / r@10 0.449 / 0.557 -> 0.442 / 0.549. Not kept; r@10 and all@10 rise on
#               both LoCoMo halves, the one sign for a stored vector per clause.
#   center0.5   0.926 / 0.826, 0.921 / 0.844; 1.000 / 1.000, 1.000 / 0.938. Hybrid (pipeline):
#               A 0.926 / 0.850, B 0.921 / 0.849, facts 1.000 / 0.932 -> 1.000 / 0.969. LoCoMo
#               dev (eval-recall --locomo, the vector side centred over the scanned turns): vector
#               r@5 / r@10 0.449 / 0.557 -> 0.471 / 0.576, but hybrid r@5 / r@10 / MRR 0.796 /
#               0.880 / 0.616 -> 0.774 / 0.874 / 0.600. A homogeneous store ("The user ..." facts,
#               |mean| 0.47) gains, a varied one (recall.jsonl, |mean| 0.31) loses 2 B questions
#               at r@5, and LoCoMo's hybrid falls. The facts' gain needs a store of facts alone:
#               the 30 facts stored among recall.jsonl's 160 rows (|mean| 0.29), facts B MRR
#               0.854 -> 0.854 (0.5) / 0.823 (1), A 0.927 -> 0.938. Not kept, nor gated on |mean|
#               (two stores, one each side, would set the threshold).
#   proj1 / csls0.5 / negprf0.3: the same pattern (facts MRR up, recall.jsonl B r@5 down).
# Measured once and dropped without a variant here (recall.jsonl A, vector r@5 / MRR from 0.926 /
# 0.819): the corpus's own words nearest the query vector (MiniLM, one word a text) appended to
# the query text (m=5: 0.933 / 0.799) or their mean added to the query vector (m=5, 0.3: 0.926 /
# 0.815; the nearest words repeat the query's surface: "scrambled" -> "ordered", "back office"
# -> "backoff"); the query mean-pooled over its content tokens only (0.933 / 0.813); the heading
# as a second vector (max: 0.911 / 0.781; as a second RRF list, weight 0.25: 0.844 / 0.722; the
# content alone as one: 0.926 / 0.820); the chunk text as "heading: content" (0.926 / 0.826),
# "heading. content" (0.911 / 0.821), content alone (0.896 / 0.820).
PARAPHRASE: dict[str, tuple[str, float]] = {
    "base": ("base", 0.0),
    "clauses0.5": ("clauses", 0.5),
    "clauses1": ("clauses", 1.0),
    "clauses2": ("clauses", 2.0),
    "center0.25": ("center", 0.25),
    "center0.5": ("center", 0.5),
    "center1": ("center", 1.0),
    "proj0.5": ("proj", 0.5),
    "proj1": ("proj", 1.0),
    "csls0.5": ("csls", 0.5),
    "negprf0.3": ("negprf", 0.3),
}
_CLAUSE = re.compile(r"(?<=[.;!?])\s+")


def paraphrase(path: Path, names: Sequence[str]) -> None:
    """Print PARAPHRASE's variants named (all if none) on the set at `path`, per half."""
    import numpy as np

    from memory.embedding import embeddings
    from memory.evals.recall_eval import HALVES, load_dataset

    data = load_dataset(path)
    ids = list(data.chunks)
    chunks = embeddings.embed_texts([embeddings.chunk_text(*data.chunks[i]) for i in ids], model=MODEL)
    queries = embeddings.embed_texts([q.text for q in data.queries], model=MODEL, purpose=embeddings.QUERY)
    views, owner = [], []
    for row, i in enumerate(ids):
        heading, content = data.chunks[i]
        parts = [part for part in _CLAUSE.split(content.strip()) if part]
        if len(parts) > 1:
            views += [embeddings.chunk_text(heading, part) for part in parts]
            owner += [row] * len(parts)
    clauses = embeddings.embed_texts(views, model=MODEL) if views else np.zeros((0, chunks.shape[1]))
    mean = chunks.mean(axis=0)
    unit = mean / np.linalg.norm(mean)
    near = chunks @ chunks.T
    np.fill_diagonal(near, -1.0)
    density = np.sort(near, axis=1)[:, -5:].mean(axis=1)

    def scores(kind: str, x: float, q: np.ndarray) -> np.ndarray:
        cos = chunks @ q
        if kind == "clauses":
            best = cos.copy()  # a one-clause chunk: its own cosine
            if views:
                best[np.bincount(owner, minlength=len(ids)) > 0] = -np.inf
                np.maximum.at(best, owner, clauses @ q)
            return cos + x * best
        if kind == "center":
            return chunks @ (q - x * mean)
        if kind == "proj":
            return chunks @ (q - x * float(q @ unit) * unit)
        if kind == "csls":
            return cos - x * density
        if kind == "negprf":
            return chunks @ (q - x * chunks[np.argsort(-cos)[:10]].mean(axis=0))
        return cos

    several = len(set(owner))
    print(f"{path}: {len(ids)} chunks ({several} of several clauses), |mean| {np.linalg.norm(mean):.2f}")
    for name in names or list(PARAPHRASE):
        kind, x = PARAPHRASE[name]
        sums = {half: [0, 0.0, 0.0] for half in HALVES}
        for query, vector in zip(data.queries, queries, strict=True):
            top = [ids[i] for i in np.argsort(-scores(kind, x, vector), kind="stable")[:5]]
            hit = next((r for r, i in enumerate(top, 1) if i in query.relevant), 0)
            bucket = sums.setdefault(query.half, [0, 0.0, 0.0])
            bucket[0] += 1
            bucket[1] += len(set(top) & query.relevant) / len(query.relevant)
            bucket[2] += 1 / hit if hit else 0.0
        print(
            f"{name:<12}",
            "  ".join(f"{h} n={n} r@5 {r / n:.3f} mrr {m / n:.3f}" for h, (n, r, m) in sums.items() if n),
        )


def tail_of(name: str, p: Pools) -> list[int]:
    """The rows a vtail variant (VARIANTS) adds past the head: the vector ranking's rows to N
    deep that are not in the pool, under the variant's condition."""
    from memory.retrieval import structure

    if name.startswith("vlist"):  # vlistN: N deep for a question asking for several things
        import re

        many = re.match(r"\s*(what|which)\s+(kinds?\s+of\s+)?([a-z]{4,}s)\b", p.query.lower())
        if many and many.group(3) not in ("does", "was", "has", "is"):
            name = f"vtail{name[5:]}"
        else:
            name = "base"
    depth, *conditions = name[5:].split("-") if name.startswith("vtail") else ("0",)
    depth = depth if int(depth) else str(variants().get(name, structure.WEIGHTS).tail_depth)
    if not int(depth):
        return []
    for condition in conditions:
        if (
            condition.startswith("gap")
            and len(p.sims) >= K
            and p.sims[0] - p.sims[K - 1] >= float(condition[3:])
        ):
            return []
    pool = {*p.keyword, *p.semantic, *(p.dated if name == "datepool" else ())}
    tail = structure.vector_tail(p.deep, pool, dataclasses.replace(structure.WEIGHTS, tail_depth=int(depth)))
    if "asked" in conditions:
        asked = structure.asked_speakers(p.query, [p.rows[i] for i in pool if i in p.rows])
        tail = [i for i in tail if structure._speaker(p.rows[i].content) in asked]
    return tail


def variant_top(name: str, p: Pools, weights: Any) -> list[int]:
    """Variant `name`'s top K for question `p`: its lists, its tail and its weights."""
    from memory.retrieval import structure

    return structure.rerank(
        p.query,
        rankings(name, p),
        k=K,
        queryset=p.scope,
        loaded=p.rows,
        weights=weights,
        tail=tail_of(name, p),
    )


def prf(name: str, p: Pools, weights: Any) -> list[int]:
    """prfB-M[-late][-pool]: pseudo-relevance feedback on the vector side. The query vector moved
    by B times the mean vector of the first rerank's top M turns; the deep vector ranking
    re-scored by it; then reranked again. -late: the first rerank's top heads_from kept, the ranks
    past it from the second. -pool: the new vector ranking's head is the pool (else the pool's
    rows stay, only their vector ranks move)."""
    import numpy as np

    from memory.retrieval import structure

    head, *opts = name.split("-")
    beta, m = float(head[3:]), int(opts.pop(0))
    first = structure.rerank(
        p.query,
        rankings("base", p),
        k=max(m, K),
        queryset=p.scope,
        loaded=p.rows,
        weights=weights,
        tail=tail_of("base", p),
    )
    top = [i for i in first[:m] if i in p.vecs]
    if not top:
        return first[:K]
    centroid = np.mean([p.vecs[i] for i in top], axis=0)
    shifted = p.qvec + beta * centroid
    candidates = list(dict.fromkeys([*p.deep, *p.keyword]))
    scored = {i: float(p.vecs[i] @ shifted) for i in candidates if i in p.vecs}
    deep = sorted(scored, key=lambda i: -scored[i])
    pool_n = len(p.semantic)
    if "pool" in opts:
        q = dataclasses.replace(p, semantic=deep[:pool_n], deep=deep)
    else:
        q = dataclasses.replace(p, deep=deep)
    second = structure.rerank(
        p.query,
        rankings("base", q),
        k=K,
        queryset=p.scope,
        loaded=p.rows,
        weights=weights,
        tail=tail_of("base", q),
    )
    if "late" in opts:
        kept = first[: weights.heads_from]
        return [*kept, *(i for i in second if i not in kept)][:K]
    return second


def cosine(name: str, p: Pools, weights: Any) -> list[int]:
    """cosL[-late]: rerank's top 30 re-sorted by score plus L times the row's cosine to the query
    vector (a calibrated vector term beside RRF's ranks). -late: the head (heads_from) kept."""
    from memory.retrieval import structure

    head, *opts = name.split("-")
    share = float(head[3:])
    scored = structure.rerank_scored(
        p.query,
        rankings(name, p),
        k=30,
        queryset=p.scope,
        loaded=p.rows,
        weights=weights,
        tail=tail_of(name, p),
    )
    low = min((float(p.vecs[i] @ p.qvec) for i, _ in scored if i in p.vecs), default=0.0)
    moved = {i: v + share * (float(p.vecs[i] @ p.qvec) if i in p.vecs else low) for i, v in scored}
    if "late" in opts:
        kept = [i for i, _ in scored[: weights.heads_from]]
        order = [*kept, *sorted((i for i in moved if i not in kept), key=lambda i: -moved[i])]
    else:
        order = sorted(moved, key=lambda i: -moved[i])
    keyword_turns = [i for i in p.keyword if i in p.rows and p.rows[i].is_turn]
    pairs = [(i, moved[i]) for i in order]
    return [i for i, _ in structure.keep_keyword_heads(pairs, keyword_turns, k=K, weights=weights)]


def neighbours(name: str, p: Pools, weights: Any) -> list[int]:
    """nbrB-T: rerank's ranks past heads_from (of its top 30) re-sorted by score plus B times the
    sum, over the head's rows, of how far the row's cosine to each exceeds T (a turn like the
    top hits: a neighbour of the evidence by meaning)."""
    from memory.retrieval import structure

    head, threshold = name.split("-")
    share = float(head[3:])
    scored = structure.rerank_scored(
        p.query,
        rankings("base", p),
        k=30,
        queryset=p.scope,
        loaded=p.rows,
        weights=weights,
        tail=tail_of("base", p),
    )
    top = [i for i, _ in scored[: weights.heads_from] if i in p.vecs]

    def bonus(item: int) -> float:
        if item not in p.vecs:
            return 0.0
        return sum(max(0.0, float(p.vecs[item] @ p.vecs[j]) - float(threshold)) for j in top)

    moved = [
        (i, v + (share * bonus(i) if at >= weights.heads_from else 0.0)) for at, (i, v) in enumerate(scored)
    ]
    pairs = [*moved[: weights.heads_from], *sorted(moved[weights.heads_from :], key=lambda pair: -pair[1])]
    keyword_turns = [i for i in p.keyword if i in p.rows and p.rows[i].is_turn]
    return [i for i, _ in structure.keep_keyword_heads(pairs, keyword_turns, k=K, weights=weights)]


def mmr(name: str, p: Pools, weights: Any) -> list[int]:
    """mmrL: rerank's top 30, its head kept, the ranks past it filled greedily by score less L
    times the candidate's highest cosine to a row already chosen (maximal marginal relevance)."""
    from memory.retrieval import structure
    from memory.store import vectors

    scored = structure.rerank_scored(
        p.query,
        rankings(name, p),
        k=30,
        queryset=p.scope,
        loaded=p.rows,
        weights=weights,
        tail=tail_of(name, p),
    )
    share = float(name.split("-")[0][3:])
    stored = vectors.stored_vectors([i for i, _ in scored], model=MODEL)
    top = variant_top(name, p, weights)
    heads = [i for i in p.keyword if p.rows[i].is_turn][: weights.keyword_heads]
    chosen = [*top[: weights.heads_from], *(i for i in top[weights.heads_from :] if i in heads)]
    rest = {i: v for i, v in scored if i not in chosen}  # the keyword heads keep their place
    while rest and len(chosen) < K:

        def gain(item: int) -> float:
            if item not in stored:
                return rest[item]
            near = max((float(stored[item] @ stored[c]) for c in chosen if c in stored), default=0.0)
            return rest[item] - share * near

        best = max(rest, key=gain)
        chosen.append(best)
        del rest[best]
    return chosen


def rankings(name: str, p: Pools) -> list[list[int | None]]:
    """The lists a variant fuses, as hybrid.fused_ids builds them: the keyword pool and the vector
    ranking read structure.VECTOR_DEPTH deep for the pool's rows (deepN: N deep; deep30 is the
    vector pool alone, as before VECTOR_DEPTH)."""
    from memory.retrieval import structure

    depth = int(name[4:]) if name.startswith("deep") else structure.VECTOR_DEPTH
    if name.startswith("vpool"):  # a deeper vector pool: more vector-only candidates
        p = dataclasses.replace(p, semantic=p.deep[: int(name[5:])])
    pool = {*p.keyword, *p.semantic, *tail_of(name, p)}
    if name == "datepool":
        pool |= set(p.dated)
    semantic: list[int | None] = list(p.semantic)
    if len(p.deep) > len(p.semantic) and depth > len(p.semantic):
        semantic = structure.ranks_within(p.deep[:depth], pool)
    keyword: list[int | None] = list(p.keyword)
    if name.startswith("kdeep"):  # the keyword ranking read N deep for the pool's rows too
        keyword = structure.ranks_within(p.kdeep[: int(name[5:])], pool)
    if p.dated and name in ("datelist", "datepool"):  # the named days' rows, a third list
        return [keyword, semantic, list(p.dated)]
    return [keyword, semantic]


def _span(query: str, rows: Sequence[Any]) -> Any:
    """The days `query` names, read as structure.rerank_scored reads them (anchored to the turns)."""
    from django.utils import timezone

    from memory.retrieval import dates, structure

    today = timezone.localdate()
    days = [timezone.localtime(r.created_at).date() for r in rows if r.is_turn and r.created_at is not None]
    newest = max(days, default=today)
    return dates.date_range(query, min(newest, today) if structure.WEIGHTS.anchor_to_turns else today)


def _written_in(queryset: Any, span: Any) -> Any:
    """The rows of `queryset` created on the (local) days of `span`."""
    from datetime import datetime, time

    from django.utils import timezone

    zone = timezone.get_current_timezone()
    start = datetime.combine(span.start, time.min, tzinfo=zone)
    return queryset.filter(
        created_at__gte=start, created_at__lt=datetime.combine(span.end, time.min, tzinfo=zone)
    )


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
    dated: list[int] = dataclasses.field(default_factory=list)  # rows written on the named days
    sims: list[float] = dataclasses.field(default_factory=list)  # cosine of each `deep` row
    qvec: Any = None  # the query's vector
    vecs: dict[int, Any] = dataclasses.field(default_factory=dict)  # id -> stored vector (shared)


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
    vecs = vectors.stored_vectors(pks, model=MODEL)
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
        pools.qvec, pools.vecs = query_vector, vecs
        stored = vectors.stored_vectors(pools.deep, model=MODEL)
        pools.sims = [float(stored[i] @ query_vector) for i in pools.deep]
        span = _span(q.text, [*held.values(), *(structure.Row(*r) for r in found)])
        if span is not None:  # the rows written on the named days, nearest first (datelist variants)
            then = vectors.nearest_rows(
                query_vector,
                k=pool,
                model=MODEL,
                queryset=_written_in(queryset, span),
                fields=structure.ROW_FIELDS,
            )
            rows.update((r[0], structure.Row(*r)) for r in then if r[0] not in rows)
            pools.dated = [r[0] for r in then]
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


def misses(label: str, pools: Sequence[Pools], turn_of: dict[int, str]) -> None:
    """Base's @10 misses whose evidence the fused ranking holds at 11-20: the top 10 and the
    evidence, each with its keyword and vector rank, speaker and session."""
    from memory.retrieval import structure

    for p in pools:
        fused = structure.rerank_scored(p.query, rankings("base", p), k=30, queryset=p.scope, loaded=p.rows)
        ids = [i for i, _ in fused]
        rank = _first(ids, p.evidence, turn_of)
        if rank is None or not 10 < rank <= 20:
            continue
        kw = {i: r for r, i in enumerate(p.kdeep, 1)}
        vec = {i: r for r, i in enumerate(p.deep, 1)}
        print(f"MISS {label} {p.split} {p.kind} ev@{rank} | {p.query}")
        for at, (i, score) in enumerate(fused[:20], 1):
            if at <= 10 or turn_of.get(i) in p.evidence:
                row = p.rows.get(i)
                text = row.content[:90] if row else "(window)"
                mark = "EVID" if turn_of.get(i) in p.evidence else ""
                src = row.source[-6:] if row else ""
                print(f"   {at:>2} {mark:<4} {score:.4f} kw={kw.get(i)} vec={vec.get(i)} {src} {text!r}")


ABLATIONS = (
    "no-window",
    "no-damp",
    "no-speaker",
    "no-small",
    "no-repeat",
    "no-date",
    "equal_lists",
    "kw-only",
)


def trace(label: str, pools: Sequence[Pools], turn_of: dict[int, str], verbose: bool = False) -> None:
    """Base's @10 misses whose evidence is in the keyword ranking's top 10: the fused rank of
    the evidence with each step of rerank switched off (ABLATIONS), to find the step that
    pushes a keyword hit out."""
    from collections import Counter

    from memory.retrieval import structure

    table = variants()
    rescued: Counter[str] = Counter()
    text_of = {i: r.content for p in pools for i, r in p.rows.items()}
    for p in pools:
        kw = _first(p.kdeep, p.evidence, turn_of)
        in_pool = _first([*p.keyword, *p.semantic], p.evidence, turn_of) is not None
        if verbose and p.kind == "temporal" and not in_pool:
            evidence = [i for i, t in turn_of.items() if t in p.evidence]
            vec = _first(p.deep, p.evidence, turn_of)
            print(f"pool-miss {label} {p.split} kw={kw} vec={vec} | {p.query}")
            for i in evidence:
                print(f"    EVID {turn_of[i]} {text_of.get(i, '(not read)')[:150]!r}")
        if kw is None or kw > 10:
            continue
        top = structure.rerank(p.query, rankings("base", p), k=K, queryset=p.scope, loaded=p.rows)
        if _first(top, p.evidence, turn_of):
            continue  # a hit at k=10 (the keyword heads may keep what a deeper cut ranks lower)
        base = structure.rerank(p.query, rankings("base", p), k=50, queryset=p.scope, loaded=p.rows)
        rank = _first(base, p.evidence, turn_of)
        ranks = {}
        for name in ABLATIONS:
            fused = structure.rerank(
                p.query, rankings(name, p), k=50, queryset=p.scope, loaded=p.rows, weights=table[name]
            )
            ranks[name] = _first(fused, p.evidence, turn_of)
            top = structure.rerank(
                p.query, rankings(name, p), k=K, queryset=p.scope, loaded=p.rows, weights=table[name]
            )
            if _first(top, p.evidence, turn_of):
                rescued[f"{p.split} {name}"] += 1
        vec = _first(p.deep, p.evidence, turn_of)
        shown = " ".join(f"{n}={r}" for n, r in ranks.items())
        print(f"trace {label} {p.split} {p.kind:<12} kw={kw} vec={vec} fused={rank} {shown} | {p.query}")
        if verbose:
            kw_rank = {i: r for r, i in enumerate(p.kdeep, 1)}
            vec_rank = {i: r for r, i in enumerate(p.deep, 1)}
            evidence = [i for i in p.kdeep[:10] if turn_of.get(i) in p.evidence]
            for at, i in enumerate([*base[:5], *evidence], 1):
                row = p.rows.get(i)
                text = row.content[:110] if row else "?"
                mark = "EVID" if turn_of.get(i) in p.evidence else f"#{at}"
                print(f"    {mark:<5} kw={kw_rank.get(i)} vec={vec_rank.get(i)} {text!r}")
    print(f"trace {label} rescued@10: {dict(sorted(rescued.items()))}")


def compare(label: str, pools: Sequence[Pools], turn_of: dict[int, str], first: str, second: str) -> None:
    """The questions whose hit@5 or hit@10 differs between two variants, with both ranks."""
    from memory.retrieval import structure

    table = variants()
    for p in pools:
        ranks = []
        for name in (first, second):
            top = structure.rerank(
                p.query,
                rankings(name, p),
                k=K,
                queryset=p.scope,
                loaded=p.rows,
                weights=table.get(name, table["base"]),
                tail=tail_of(name, p),
            )
            ranks.append(_first(top, p.evidence, turn_of))
        if len({(r is not None, (r or 99) <= 5) for r in ranks}) > 1:
            print(
                f"compare {label} {p.split} {p.kind:<12} {first}={ranks[0]} {second}={ranks[1]}"
                f" dated={len(p.dated)} | {p.query}"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locomo", type=Path)
    parser.add_argument("--ours", action="store_true")
    parser.add_argument("--variants", default="", help="comma-separated names (default: all)")
    parser.add_argument("--kinds", action="store_true", help="also print each split's question kinds")
    parser.add_argument("--diagnose", action="store_true", help="tally where base's @10 misses are")
    parser.add_argument("--compare", default="", help="two variants: the questions whose hit@5/@10 differ")
    parser.add_argument("--misses", action="store_true", help="base's @10 misses ranked 11-20, shown")
    parser.add_argument("--trace", action="store_true", help="which step drops base's keyword top-10 hits")
    parser.add_argument("--paraphrase", type=Path, help="a plain paraphrase set: PARAPHRASE's variants")
    args = parser.parse_args(argv)
    instance = common.bench_instance("recall-splits")
    if not (instance / "built.json").exists():
        common.migrate()
        common.mark_built(instance, {}, {})
    if args.paraphrase:
        paraphrase(args.paraphrase, [v for v in args.variants.split(",") if v])
        return
    from django.db import transaction

    from memory.evals import conversation_eval, locomo

    wanted = [v for v in args.variants.split(",") if v] or list(variants())
    table = variants()
    # vtail variants with conditions ("vtail60-gap0.1-asked") are named on the command line
    chosen = {
        name: table.get(name, table["base"])
        for name in wanted
        if name in table or name.startswith(("vtail", "vlist", "mmr", "prf", "cos", "nbr"))
    }
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
                gaps = sorted(p.sims[0] - p.sims[K - 1] for p in pools if len(p.sims) >= K)
                print(
                    label,
                    "vector gap rank 1 - rank 10, deciles:",
                    [round(gaps[len(gaps) * d // 10], 3) for d in range(10)],
                )
        if args.misses:
            for label, pools, turn_of in sets:
                misses(label, pools, turn_of)
        if args.trace:
            for label, pools, turn_of in sets:
                trace(label, pools, turn_of, verbose=True)
        if args.compare:
            first, second = args.compare.split(",")
            for label, pools, turn_of in sets:
                compare(label, pools, turn_of, first, second)
        for name, weights in chosen.items():
            print(name, file=sys.stderr, flush=True)
            for label, pools, turn_of in sets:

                def rank(p: Pools, weights: Any = weights, name: str = name) -> list[int]:
                    if name.startswith("mmr"):
                        return mmr(name, p, weights)
                    if name.startswith("nbr"):
                        return neighbours(name, p, weights)
                    if name.startswith("cos"):
                        return cosine(name, p, weights)
                    if name.startswith("prf"):
                        return prf(name, p, weights)
                    return variant_top(name, p, weights)

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
