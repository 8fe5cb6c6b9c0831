"""Recall that reads conversation structure: the steps between fused ranking and the final top k.

memory.retrieval.hybrid (keyword + vector lists) and the keyword path hand their rankings to
`rerank`, which scores a pool of candidates and applies, in order:

1. Fusion: each ranking contributes weight / (RRF_K + rank) (Reciprocal Rank Fusion); the
   vector ranking weighs 1.5 times the keyword one, so either side can win a row the other
   missed. Chosen on the tuning splits of both our conversations and LoCoMo's development half
   (memory.evals.locomo), never one alone: hybrid recall@5 with weights 1 / 1.5 / 2 was
   0.848 / 0.842 / 0.837 on ours and 0.685 / 0.671 / 0.669 on LoCoMo's, and 1.5 kept the best
   MRR on ours and on memory/evals/recall.jsonl (a plain store: memory.retrieval.hybrid).
2. Dates: when the query names a time ("last week", "in May", "on 3 May 2026":
   memory.retrieval.dates, relative to today), rows created in that range get `date_boost`
   (turns: `turn_date_boost`) added (a boost, not a filter: a wrong reading moves rows, it never
   hides one). When the pool holds conversation turns and the newest of them is older than
   today, relative dates ("in June", "last week") are read from that turn's day instead: a
   conversation stored or asked about later has its own "now" (Weights.anchor_to_turns; stores
   without turns keep today).
3. Turns. Rows whose domain is in TURN_DOMAINS are conversation turns: `source` names the
   session they belong to and (created_at, id) orders them within it (id breaks ties, since an
   ingest may stamp a whole session with one time). For those rows:
   - small talk ("Ha!", "Clearly.", "Classic Marcus.": at most `small_talk_words` content words)
     is scaled by `small_talk_factor`, and short turns (at most `short_words`) by `short_factor`:
     such a turn matches a name or one word and says little on its own (its neighbours may).
     Not a turn whose every content word is one of the question's topic words ("Gina: It's Shia
     Labeouf!" for "When did Gina mention Shia Labeouf?"): it says what was asked, and short is
     how answers are said (bench/recall_splits, hybrid r@5 / r@10: LoCoMo dev 26/30/41
     0.794/0.885 -> 0.796/0.885, 42/43 0.777/0.836 unchanged; ours tuning 0.872/0.935 ->
     0.875/0.938, held-out 0.918/0.946 -> 0.918/0.957; MRR ours tuning 0.704 -> 0.701);
   - a line said word for word in more than one candidate turn ("Morning! Got a minute to catch
     up?") is scaled by `repeat_factor`: a greeting or sign-off that recurs every session
     scores the same on every copy and crowds the top k, and a repeat carries no new fact;
   - a turn keeps of its keyword share the share of the question's topic it says (and
     `name_only_factor` when it matched only through a speaker's name): bm25 favours short
     turns that say one word of the question (`_damp_keyword_shares`);
   - a turn said by a speaker the question names is scaled up by 1 + `speaker_boost`: the
     question asks about that person, and the other speaker's replies share the name and topic
     (who speaks is structure: it carries to any wording and any language). Tuning split
     hybrid recall@5: ours 0.833 -> 0.844, LoCoMo's 0.657 -> 0.669 (0.3 / 0.5 / 1.0 are flat);
   - the window: each of the best `window_hits` turns lends its score, times `next_decay` /
     `prev_decay` per step, to the non-small-talk turns up to `window_reach` places after / before it in its
     session. An answer usually follows the turn that matches the question ("Who did you go
     with?" / "My cousin Rita"), and a multi-hop question's second part sits in the same
     exchange, so the top k can hold several turns of one exchange. A turn takes the larger of
     its own score and the best score lent to it, plus `lend_share` of the rest it was lent,
     but never above the turn that lent it (the question's turn stays first). Decays 0.9 / 0.7
     (were 0.8 / 0.6): LoCoMo's tuning recall@5 +0.012, ours -0.006 (answers in LoCoMo sit
     further from the matching turn).
     When the question names a speaker, a neighbour someone else says is lent the offer
     without that speaker's boost (_window).
4. Keyword heads: past rank `heads_from` (5), the keyword ranking's first `keyword_heads` turns
   keep a place in the top k when the steps above pushed them out (keep_keyword_heads).
5. The tail: rows of the deep vector ranking outside the pool (`tail`, Weights.tail_depth) are
   scored alone (fusion, date boost, the turn steps a row takes by itself) and compete for the
   ranks past `heads_from` only (_with_tail).
6. The session prior: past `heads_from`, the turns of a session that holds much of the top
   ten's score are lifted a little (Weights.session_prior, lift_by_session; after the tail,
   before the keyword heads; only with a vector ranking fused in).

The vector side embeds the question without the names of the speakers the keyword side found
(`vector_query`, used by memory.retrieval.hybrid): on the tuning split that alone took hybrid
recall@5 from 0.745 to 0.750 and held-out from 0.690 to 0.755.

Other rows (facts, notes, session summaries of domain "conversation") pass through steps 1-2 only,
and when no candidate is a turn and the query names no date, fusion reads only the top of each
ranking (PLAIN_DEPTH),
so memory_recall, chunk_search and the per-turn context (delivery.projection) serve both kinds
with one code path. Weights were tuned on the tuning split of memory/evals/conversations
(never on the held-out conversations); see memory.evals.conversation_eval.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Collection, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, NamedTuple

from django.db.models import QuerySet
from django.utils import timezone

from memory.retrieval import dates
from memory.retrieval.search import search_chunk_rows
from memory.store.models import Chunk
from memory.store.query import FILLER
from memory.store.row_filter import CHUNK_FIELDS, RowFilter
from memory.store.text_index import fts5
from memory.store.text_index.fts5 import STOPWORDS

# Not "conversation": that is a session's harvested summary (sessions_app.retirement), one row
# per session, which has no neighbouring turns and is not small talk.
TURN_DOMAINS = frozenset({"turn"})
LENDER_CAP = 0.999  # a turn lifted by the window ranks just below the turn that lifted it, at most
POOL_FACTOR = 3
MIN_POOL = 20
# The vector ranking is read this deep for the rows of the pool (hybrid.fused_ids): a keyword hit
# the vector side ranks 40th still gets its vector share, where a pool of 30 gave it none; none
# joins the pool (the rows past it compete for ranks 6-10 only: Weights.tail_depth).
# bench/recall_splits (hybrid r@5 / r@10), depth 30 -> 100: LoCoMo dev 26/30/41 0.739/0.838 ->
# 0.744/0.849, 42/43 0.716/0.790 -> 0.732/0.809; ours
# tuning 0.861/0.902 -> 0.864/0.913, held-out 0.891/0.935 -> 0.891/0.940 (50 a little less,
# 200 the same on both tuning splits).
VECTOR_DEPTH = 100
# Rows that are not turns are fused from each list's top max(k, PLAIN_DEPTH) only: on
# memory/evals/recall.jsonl (facts, k=5) hybrid recall@5 is 0.909 so and 0.869 from the whole pool,
# since deeper keyword lists mostly add one-term matches.
PLAIN_DEPTH = 5
_WORD = re.compile(r"[^\W\d_]{2,}", re.UNICODE)
_NAME_TOKEN = re.compile(r"(?:['\u2019]s)?[^\w]*$|^[^\w]+")  # "Alice's," -> "alice"
# "[2026-05-03] Alice: " or "Alice: "; group 1 is the speaker
_SPEAKER = re.compile(r"^\s*(?:\[[^\]]*\]\s*)?([^:\n]{1,40}):\s")


@dataclass(frozen=True)
class Weights:
    rrf_k: int = 60
    # keyword, vector. On plain stores (hybrid.fused_scored's tops) measured flat, not changed:
    # vector 1.25 / 2 / 3, rrf_k 20 / 120, plain_share_floor 0.4 / 0.6 give recall.jsonl hybrid
    # r@5 0.926 / 0.921 (halves A / B) everywhere and MRR 0.848 / 0.836 at best (vector 3: A
    # 0.843; rrf_k 20: 0.839 / 0.839), recall_facts.jsonl 1.000, MRR 0.969 / 0.896 unchanged.
    # Hybrid r@5 there equals the vector ranking's: the misses are the encoder's (and recall.jsonl's
    # k061, held by the write inspection, is never deliverable: 2 of B's 139 queries).
    list_weights: tuple[float, ...] = (1.0, 1.5)
    date_boost: float = 0.02  # rows that are not turns (memory/evals/recall.jsonl kept as it was)
    # A turn's date boost, 0.02 -> 0.03 with anchor_to_turns (bench/recall_splits, hybrid r@5 /
    # r@10): LoCoMo dev 26/30/41 0.747/0.851 -> 0.749/0.859, 42/43 0.735/0.812 -> 0.748/0.820;
    # ours tuning 0.864/0.913 -> 0.867/0.913, held-out 0.891/0.940 unchanged (0.04 / 0.06: A r@5 0.747)
    turn_date_boost: float = 0.03
    small_talk_words: int = 2
    small_talk_factor: float = 0.3
    short_words: int = 4
    # 0.6 -> 0.8 (bench/recall_splits, hybrid r@5): ours tuning 0.853 -> 0.861, held-out 0.848 -> 0.891;
    # LoCoMo dev 26/30/41 0.739 and 42/43 0.716 unchanged (r@10 0.841 -> 0.838 on the first);
    # 0.7 / 0.9 / 1.0 gave ours 0.864 / 0.875 / 0.875 but 0.9 and 1.0 cost LoCoMo r@5
    short_factor: float = 0.8
    # 10 -> 12 (bench/recall_splits, r@5 / r@10 / MRR): ours tuning 0.897/0.965/0.709 ->
    # 0.897/0.967/0.710 (all@10 0.875 -> 0.878); LoCoMo dev A 0.812/0.903/0.624, B
    # 0.780/0.849/0.608 and ours held-out 0.935/0.967/0.735 unchanged (14: the same). heads_from
    # 4 (with or without it) also held everywhere (B r@5 0.782, ours tuning 0.899) but would let
    # a k=5 call's last place go to a keyword head that a k=10 call ranks lower: not kept.
    window_hits: int = 12
    window_reach: int = 2
    next_decay: float = 0.9
    prev_decay: float = 0.7
    lend_share: float = 0.0  # tuned: 0.0 > 0.3 > 0.6 on the tuning split
    repeat_factor: float = 0.5
    name_only_factor: float = 0.2  # tuned: 0.5 / 0.2 / 0.0 gave keyword all@10 0.543 / 0.546 / 0.538
    coverage_power: float = 1.0  # a turn keeps (share of the topic it says) ** this of its keyword share
    # tuned on both tuning splits (ours, LoCoMo's): 0.3 / 0.5 / 1.0 flat; flat again (0.3 / 0.8 / 1.0)
    # once the window lent neighbours of other speakers 1 / (1 + speaker_boost) of the offer
    speaker_boost: float = 0.5
    # A plain row (not a turn) keeps (share of the query's terms it says) ** this of its keyword
    # share: plain_keyword_shares. memory/evals/recall.jsonl, halves by chunk number (tuned on
    # the even one), hybrid MRR: 0 (none) 0.786 / 0.807, 1: 0.804 / 0.811, 2: 0.823 / 0.816,
    # 3: 0.846 / 0.831, 4: 0.844 / 0.834 (recall@5 unchanged: 0.926 / 0.921)
    plain_coverage_power: float = 3.0
    # ... and none of it when that share is below `plain_share_floor`: vector ranks 1 and 2 are
    # 1.5 / 61 - 1.5 / 62 apart, less than (1/2)^3 of a keyword head's share, so a row saying 2 of 5
    # words of a paraphrase swapped them. recall.jsonl hybrid MRR (halves as above; r@5 and the
    # identifier / lexical recall unchanged): 0.844 / 0.834 -> 0.848 / 0.836 (0.45 the same, 0.4:
    # 0.844 / 0.836, 0.55: 0.843 / 0.839). Weighing each word by its rarity in the text index
    # (log(1 + cap / rows holding it), cap 20 / 60 / 160 / 1000) changed nothing alone or with it.
    plain_share_floor: float = 0.5
    # A query term more than this share of the plain candidates say (at least `plain_common_min`
    # of them) earns a row no share ("user" in a store of "The user ..." facts), though it stays
    # in the share's denominator. Hybrid MRR, halves A / B by chunk number: recall_facts.jsonl
    # 0.969 / 0.865 -> 0.969 / 0.896 (vector alone: 0.969 / 0.896), r@5 1.000; recall.jsonl unchanged
    # (0.848 / 0.836); conversation turns untouched. Measured by an earlier attempt: dropping the
    # term from the denominator too: no change; 0.5: recall.jsonl A 0.848 -> 0.839.
    plain_common_share: float = 0.8
    plain_common_min: int = 5
    # Relative dates ("in June", "last week") count from the newest candidate turn's day when
    # that is before today: a conversation stored later is read from its own "now" (alone, at
    # date_boost 0.02: LoCoMo dev 26/30/41 r@5 / r@10 +0.002 / +0.005, 42/43 +0.002 / 0; ours same)
    anchor_to_turns: bool = True
    # The keyword ranking's first `keyword_heads` turns keep a place in the ranks past
    # `heads_from` (keep_keyword_heads; 0: off). bench/recall_splits, hybrid r@10 / all@10 (r@5
    # is untouched): LoCoMo dev 26/30/41 0.859/0.744 -> 0.872/0.755, 42/43 0.820/0.690 ->
    # 0.822/0.687; ours tuning 0.913/0.807 -> 0.916/0.810, held-out 0.940/0.842 unchanged. 1: A
    # 0.864; the vector ranking's heads (1, 2) or both lists' (1, 2, 3): flat or worse on ours.
    keyword_heads: int = 2
    heads_from: int = 5
    # A question naming no year on a store whose newest candidate turn is before today (a
    # conversation read later): "newest" reads its dates from that turn's day, but "last week"
    # then means the week before the last session, wrong for a question about an older one;
    # "relative": "last week" / "ago" / "yesterday" give no boost (a bare "in May" is still read
    # from that day); "none": no boost at all. bench/recall_splits, hybrid r@5 / MRR: LoCoMo dev
    # 26/30/41 0.796/0.612 -> 0.799/0.617 ("none": 0.796/0.613), 42/43 0.777/0.583 unchanged
    # ("none": MRR 0.581); ours tuning and held-out unchanged.
    past_relative: str = "relative"
    # The answer: a turn that ends by asking ("How often do you all work out together?") is
    # answered by the next turn ("Three times a week."), which says what was asked in words of
    # its own. In LoCoMo's development half 54% of evidence turns follow such a turn (25% of all
    # turns do). It lends that turn `answer_lift` times its score (not next_decay), small talk
    # or not ("They were awestruck and humbled."), so the answer ranks just above the question;
    # and the asking turns ranked to `answer_hits` lend to their answer too (the window's other
    # offers stay with its `window_hits`). bench/recall_splits, hybrid r@5 / r@10 / MRR: LoCoMo
    # dev 26/30/41 0.799/0.888/0.617 -> 0.809/0.896/0.624, 42/43 0.777/0.838/0.583 ->
    # 0.777/0.838/0.596; ours tuning 0.875/0.938 -> 0.880/0.957, held-out 0.918/0.957 ->
    # 0.929/0.962. Lift 1.0: A r@5 0.804, r@10 unchanged; 1.1 / 1.15: B r@5 0.775 / 0.772 (r@10
    # 0.841); answer_hits 10: the same but B MRR; only when the answer is the asked speaker's:
    # lower on both. Not kept: asking turns damped (x0.7 / x0.85: A r@10 0.859 / 0.883).
    answer_lift: float = 1.08
    answer_hits: int = 15
    # ... with what the asking turn matched before the turn steps (coverage damping, the asked
    # speaker's boost, the small-talk factor) when it says one of the question's topic words: a
    # question one speaker asks about the other ("Nate: Is that your third one?" for "What is
    # Joanna's third screenplay about?") is damped as the other speaker's and as short, yet its
    # answer is the asked one's ("Joanna: Yep! I chose to write about this..."); the asking turns
    # among the best `answer_hits` so matched lend too. bench/recall_splits, r@5 / r@10 / MRR:
    # LoCoMo dev A 0.809/0.896/0.624 -> 0.812/0.903/0.624, B 0.777/0.838/0.596 ->
    # 0.780/0.846/0.607; ours tuning 0.880/0.957/0.705 -> 0.897/0.957/0.708, held-out
    # 0.929/0.962/0.727 -> 0.935/0.962/0.734. "fused" (no topic word needed: a turn that matched
    # only a speaker's name lends too): ours held-out 0.924/0.967/0.720, and a filler question
    # ("Alice: What did you have for dinner?") lent its reply a name's match; "damped" (after
    # the coverage damping): A and B r@10 unchanged. Only when a vector ranking is fused in: on
    # the keyword ranking alone the undamped match is bm25's, which favours short questions, and
    # keyword-only recall fell (manage.py protomem eval-recall, keyword r@5 / MRR: LoCoMo dev
    # 0.739 / 0.580 -> 0.722 / 0.550, ours 0.625 / 0.480 -> 0.585 / 0.429). On ours the hybrid
    # MRR of that eval falls too (tuning 0.704 -> 0.688, held-out 0.726 -> 0.707; r@10 unchanged).
    answer_raw: str = "topic"
    # The vector ranking's rows to this depth that are not in the pool compete for the ranks
    # past `heads_from` only (vector_tail, rerank_scored's `tail`; 0: none): a question asking
    # for several things ("What activities does Melanie do?") has evidence the vector side ranks
    # past the pool, and a pool of 60 (bench/recall_splits vpool60) cost MRR (LoCoMo dev 0.616
    # -> 0.613) for no r@10. The head is ranked without them, so r@5 and MRR above it cannot
    # fall. bench/recall_splits, r@10 / MRR (r@5 unchanged): LoCoMo dev A 0.903 / 0.624
    # unchanged, B 0.846 / 0.607 -> 0.849 / 0.608; ours tuning 0.957 / 0.708 -> 0.965 / 0.709,
    # held-out 0.962 / 0.734 -> 0.967 / 0.735. 40: ours tuning only (0.959); 100: A 0.901. The
    # same gains with the tail only for a flat vector ranking (cosine rank 1 - rank 10 < 0.05, a
    # tenth of the questions; < 0.04 lost ours') or only the asked speaker's turns: kept for all.
    tail_depth: int = 60
    # The session prior (lift_by_session; 0: off): past the head (`session_late`), a turn's score is
    # scaled by 1 + session_prior x its session's share of the score of the ranking's first
    # `session_depth` rows. An answer sits in the exchange the question is about, where several
    # strong hits meet (of LoCoMo dev's misses at r@10 read 60 deep, 45 of 100 are turns of a top-3
    # hit's session, 37 of those 1-4 turns from it, where the window's lent score falls short); a
    # turn of another session that matched one word stands alone. A tie-breaker among ranks 6-15:
    # the head is ranked without it, so r@5 and MRR above it cannot fall. bench/recall_splits, r@10
    # / all@10 (r@5 unchanged): LoCoMo dev A 0.903 / 0.789 -> 0.909 / 0.794, B 0.849 / 0.706 ->
    # 0.851 / 0.714; ours tuning 0.967 / 0.878 unchanged, held-out 0.967 / 0.902 -> 0.967 / 0.908:
    # three LoCoMo questions gained, none lost, and only at 0.05-0.06 (0.03: no change, 0.04: B's
    # only; 0.07 / 0.1: ours tuning r@10 0.965 / 0.962); on the whole ranking (not late) ours
    # held-out r@5 0.924 (more in bench/recall_splits.VARIANTS). Only with a vector ranking fused
    # in: on the keyword ranking alone it cost LoCoMo (r@10 A 0.836 -> 0.833, B 0.822 -> 0.820; ours
    # tuning gained, 0.660 -> 0.663).
    session_prior: float = 0.05
    session_depth: int = 10
    session_late: bool = True


WEIGHTS = Weights()
EQUAL_LISTS = Weights(list_weights=())  # plain RRF: every list weighs 1


class Row(NamedTuple):
    """What rerank reads of a row (a tuple: a query builds a few hundred, for the window)."""

    id: int
    domain: str
    source: str
    created_at: datetime | None  # None for a session's turns the window read (not date-boosted)
    content: str
    heading: str | None = None

    @classmethod
    def of(cls, chunk: Chunk) -> Row:
        return cls(chunk.pk, chunk.domain, chunk.source, chunk.created_at, chunk.content, chunk.heading)

    @property
    def is_turn(self) -> bool:
        return self.domain in TURN_DOMAINS and bool(self.source)


@functools.lru_cache(maxsize=8192)  # a session's turns are read again by every query that hits it
def content_words(text: str) -> frozenset[str]:
    """The words of a turn that can carry meaning: no speaker prefix, stopwords, filler or numbers."""
    return frozenset(w for w in _WORD.findall(_body(text)) if w not in STOPWORDS and w not in FILLER)


@functools.lru_cache(maxsize=8192)
def _body(text: str) -> str:
    """A turn's text without its speaker prefix, lowercased, whitespace collapsed."""
    return " ".join(_SPEAKER.sub("", text or "", count=1).lower().split())


_TRAILING_NOTE = re.compile(r"\s*\[[^\]]*\]\s*$")  # "... [shares a photo: a dog]"


@functools.lru_cache(maxsize=8192)
def asks(text: str) -> bool:
    """Whether a turn ends by asking (its last sentence a question, a trailing note aside)."""
    return _TRAILING_NOTE.sub("", text or "").rstrip().endswith("?")


@functools.lru_cache(maxsize=8192)
def _speaker(text: str) -> str | None:
    """Who says a turn (its "Name:" prefix), lowercased."""
    match = _SPEAKER.match(text)
    return match.group(1).strip().lower() if match else None


@functools.lru_cache(maxsize=8192)
def _content_roots(text: str) -> frozenset[str]:
    return frozenset(_roots(content_words(text)))


def turn_weight(row: Row, weights: Weights = WEIGHTS) -> float:
    """How much a turn's own match counts: small talk and very short turns say little."""
    words = len(content_words(row.content))
    if words <= weights.small_talk_words:
        return weights.small_talk_factor
    if words <= weights.short_words:
        return weights.short_factor
    return 1.0


def list_weight(weights: Weights, index: int) -> float:
    """The weight of the `index`th ranking in the fusion (1 past Weights.list_weights)."""
    return weights.list_weights[index] if index < len(weights.list_weights) else 1.0


def fuse(rankings: Sequence[Sequence[int | None]], weights: Weights = WEIGHTS) -> dict[int, float]:
    """Weighted RRF score of every id in the rankings (a list repeating an id counts it once;
    None holds the rank of a row left out of the pool: see ranks_within)."""
    scores: dict[int, float] = {}
    for index, ranking in enumerate(rankings):
        weight = list_weight(weights, index)
        seen: set[int] = set()
        for rank, item in enumerate(ranking, start=1):
            if item is not None and item not in seen:
                seen.add(item)
                scores[item] = scores.get(item, 0.0) + weight / (weights.rrf_k + rank)
    return scores


def vector_tail(deep: Sequence[int], pool: Container[int], weights: Weights = WEIGHTS) -> list[int]:
    """The rows of the deep vector ranking to `tail_depth` that are not in `pool`: rerank_scored's
    `tail` (they are ranked by fusion, ranks_within, with the pool)."""
    return [item for item in deep[: weights.tail_depth] if item not in pool]


def ranks_within(ranking: Sequence[int], pool: Container[int]) -> list[int | None]:
    """`ranking` with the ids not in `pool` replaced by None: a deep ranking that lends its
    ranks to the pool's rows (fuse) without adding rows of its own (see VECTOR_DEPTH)."""
    return [item if item in pool else None for item in ranking]


ROW_FIELDS = ("id", "domain", "source", "created_at", "content", "heading")
Loaded = dict[int, tuple[Any, ...]]  # id -> the row's CHUNK_FIELDS, read by a ranking statement
_ROW_AT = tuple(CHUNK_FIELDS.index(name) for name in ROW_FIELDS)


def read_fields(loaded: Loaded | None) -> Sequence[str]:
    """The columns a ranking statement reads: every Chunk column when the caller keeps the
    rows (`loaded`: then no later statement reads the rows returned), else ROW_FIELDS."""
    return ROW_FIELDS if loaded is None else CHUNK_FIELDS


def rows_read(found: Iterable[Sequence[Any]], loaded: Loaded | None) -> dict[int, Row]:
    """Rows of a statement that read read_fields(`loaded`), in order; whole rows kept in `loaded`."""
    if loaded is None:
        return {values[0]: Row(*values) for values in found}
    out = {}
    for values in found:
        loaded[values[0]] = tuple(values)
        out[values[0]] = Row(*(values[at] for at in _ROW_AT))
    return out


def _rows(passes: RowFilter, ids: Iterable[int]) -> dict[int, Row]:
    """The rows among `ids` that pass the caller's filters (compiled once: memory.store.row_filter)."""
    return {values[0]: Row(*values) for values in passes.rows(ids, ROW_FIELDS)}


Sessions = dict[str, list[tuple[int, str]]]  # source -> (id, content) of its turns, in order


def read_sessions(sources: Iterable[str], passes: RowFilter) -> Sessions:
    """(id, content) of the turns of each session in `sources` that pass the queryset, in
    (created_at, id) order: all the window needs of a row (a tuple: ~200 of them a query)."""
    sources = sorted(set(sources))
    if not sources:
        return {}
    # Found by source (the chunk_source index), then checked against the caller's filters, in
    # one statement (RowFilter.rows_by); ordered in SQL, and created_at left unread: converting
    # ~300 timestamps a query was a third of the window's cost, and the date boost has already
    # run on the pool.
    session_rows = passes.rows_by(
        "source", sources, ("id", "domain", "source", "content"), order_by=("source", "created_at", "id")
    )
    by_source: dict[str, list[tuple[int, str]]] = {source: [] for source in sources}
    for pk, domain, source, content in session_rows:
        if domain in TURN_DOMAINS:  # the source is one of the hits': never empty
            by_source[source].append((pk, content))
    return by_source


def _roots(words: Iterable[str]) -> set[str]:
    """Words cut to their first four letters: "adopted" meets "adopt" and "started" "start" with
    no stemmer at hand (tuned: four letters beat five, and suffix stripping, on the tuning split).
    A false meeting only leaves a turn its full score."""
    return {word[:4] for word in words}


def _turns_span(
    query: str, rows: Iterable[Row], today: date, span: dates.DateRange | None, weights: Weights = WEIGHTS
) -> dates.DateRange | None:
    """The query's date range read from the newest candidate turn's day when that is before
    `today` (see Weights.anchor_to_turns); `span` (read from today) otherwise."""
    if span is None:
        return None
    days = [timezone.localtime(r.created_at).date() for r in rows if r.is_turn and r.created_at is not None]
    newest = max(days, default=today)
    if newest >= today:
        return span
    unanchored = weights.past_relative == "none" or dates.says_relative(query)
    if weights.past_relative != "newest" and unanchored and not dates.names_year(query):
        return None  # "last week" of a conversation read later: no day of it is meant for sure
    return dates.date_range(query, newest)


def _question_topic(query: str, rows: Iterable[Row]) -> frozenset[str]:
    """The roots of the question's content words less the speakers' names (_damp_keyword_shares)."""
    names = speakers(rows)
    words = (w for w in _WORD.findall(query.lower()) if w not in STOPWORDS and w not in FILLER)
    return frozenset(_roots(w for w in words if w not in names))


def _damp_keyword_shares(
    query: str,
    keyword: Sequence[int | None],
    rows: dict[int, Row],
    scores: dict[int, float],
    weights: Weights,
) -> None:
    """Scale the keyword ranking's share of each turn's score by how much of the question's
    topic (its content words, less the speakers' names) the turn says.

    - A turn that says a share `c` of the topic keeps c ** `coverage_power` of its keyword share.
      The keyword plan ranks by bm25 within a step, and bm25 favours short turns: "What did Nate
      think of the fantasy movie?" ranks "Nate: I love fantasy!" (one word of three, and short)
      above the turn that says all three. On the tuning splits (hybrid recall@5 / MRR) power 1
      took ours 0.845 / 0.654 -> 0.853 / 0.687 and LoCoMo's 0.669 / 0.532 -> 0.701 / 0.553
      (0.5 and 2 both less on both).
    - A turn that matched only through a speaker's name keeps `name_only_factor` (the question
      names a speaker and says something besides). "Where does Marcus live now?" finds every
      turn Marcus said: his name is in each one's "Marcus:" prefix.

    Only the keyword share is cut: a turn the vector side found keeps its score, since a
    paraphrase shares no word by design.
    """
    names = speakers(rows.values())
    words = [w for w in _WORD.findall(query.lower()) if w not in STOPWORDS and w not in FILLER]
    topic = _roots(w for w in words if w not in names)
    if not topic:
        return
    names_asked = len(topic) != len(_roots(words))
    seen: set[int] = set()
    for rank, item in enumerate(keyword, start=1):
        row = None if item is None else rows.get(item)
        if item is None or item in seen or item not in scores or row is None or not row.is_turn:
            continue
        seen.add(item)
        said = len(_content_roots(row.content) & topic)
        if said:
            kept = (said / len(topic)) ** weights.coverage_power
        elif names_asked:
            kept = weights.name_only_factor
        else:
            continue
        _keep_keyword_share(scores, item, rank, kept, weights)


def _keep_keyword_share(
    scores: dict[int, float], item: int, rank: int, kept: float, weights: Weights
) -> None:
    """Cut `item`'s keyword share (its RRF term at `rank` in the first list) to `kept` of itself."""
    weight = list_weight(weights, 0)
    scores[item] -= (1.0 - kept) * weight / (weights.rrf_k + rank)


def plain_keyword_shares(
    query: str,
    keyword: Sequence[int],
    rows: Mapping[int, Row],
    scores: dict[int, float],
    weights: Weights = WEIGHTS,
) -> None:
    """Scale the keyword share of each plain row (not a turn) by the share of the query's search
    terms its heading and text say, to the power `plain_coverage_power`.

    The keyword plan falls back to rows holding any one term, so a paraphrased question ("how do
    I ship a build?") brings rows that share one word of it ("build"); found by both lists they
    outranked the paraphrase the vector side ranked first. The same rule as the turns' coverage
    (_damp_keyword_shares): a row keeps the keyword weight of what it says of the question, and
    none when it says less than `plain_share_floor` of it (a partial match on a paraphrase).

    A term more than `plain_common_share` of the plain candidates (those in `scores`, at least
    `plain_common_min` of them) say names the store, not the row ("user" in a store of "The user
    ..." facts): saying it earns no share, though it still counts among the query's terms."""
    terms = _roots(fts5.terms_of(query))
    if not terms or not weights.plain_coverage_power:
        return
    said_by = {
        item: terms & _roots(_WORD.findall(f"{row.heading or ''} {row.content}".lower()))
        for item in scores
        if (row := rows.get(item)) is not None and not row.is_turn
    }
    counted = terms - _common_terms(terms, said_by.values(), weights)
    for rank, item in enumerate(keyword, start=1):
        if item not in said_by:
            continue
        share = len(said_by[item] & counted) / len(terms)
        kept = 0.0 if share < weights.plain_share_floor else share**weights.plain_coverage_power
        _keep_keyword_share(scores, item, rank, kept, weights)


def _common_terms(terms: set[str], said: Collection[set[str]], weights: Weights) -> set[str]:
    """The `terms` more than `plain_common_share` of the rows' `said` term sets hold, when there
    are `plain_common_min` rows at least (fewer say nothing about the store)."""
    if len(said) < weights.plain_common_min:
        return set()
    return {
        term
        for term in terms
        if sum(term in words for words in said) > weights.plain_common_share * len(said)
    }


def asked_speakers(query: str, rows: Iterable[Row]) -> frozenset[str]:
    """The speakers of the turns among `rows` that the question names ("What did Nate adopt?")."""
    return frozenset(set(_WORD.findall(query.lower())) & speakers(rows))


def _boost_asked_speakers(
    asked: Container[str], rows: Mapping[int, Row], scores: dict[int, float], weights: Weights
) -> None:
    """Scale up the turns said by a speaker the question names (`asked`): "What did Nate adopt?"
    is about what Nate said, and the other speaker's turns that merely address him ("Nate, did
    you...?") share the name and the topic. Who speaks is structure, so it carries to any wording."""
    if not asked:
        return
    for row_id in scores:
        row = rows[row_id]
        if row.is_turn and _speaker(row.content) in asked:
            scores[row_id] *= 1.0 + weights.speaker_boost


def _window(
    scores: dict[int, float],
    rows: dict[int, Row],
    passes: RowFilter,
    weights: Weights,
    sessions: Sessions,
    asked: Container[str] = (),
    matched: Mapping[int, float] | None = None,
) -> Sessions:
    """Lend the best turns' scores to the next and previous informative turns (module doc, step 3).
    `sessions`: turns already read (read_sessions), by source; the hits' other sessions are read.
    When the question names a speaker (`asked`: _boost_asked_speakers), a neighbour someone else
    says is lent 1 / (1 + speaker_boost) of the offer: the boost stays with the asked speaker's
    turns. In a two-person conversation the next turn is mostly the other speaker's reply, and
    lent the full boosted score it outranked the asked speaker's own turns further down
    (bench/recall_splits, hybrid r@5 / r@10: LoCoMo dev 26/30/41 0.749/0.872 -> 0.794/0.885,
    ours tuning 0.867/0.916 -> 0.872/0.935; held out: 42/43 0.748/0.822 -> 0.777/0.836, ours
    0.891/0.940 -> 0.918/0.946; a share of 0.5 / 0.8 was flat on the tuning splits. Lending the
    hit's unboosted score and boosting an asked speaker's neighbour instead: LoCoMo 26/30/41 r@5
    0.789, the rest the same or lower). Tried on top, not kept: scaling each offer by the
    neighbour's own vector rank (the deep ranking; LoCoMo 26/30/41 r@5 0.794 -> 0.765-0.786, ours
    up a little), one more step of reach for the asked speaker's turns (LoCoMo flat, ours r@10
    +0.011), treating the other speaker's turns that name the asked one as the asked one's
    (LoCoMo r@5 0.757), damping them (flat), and lenders of the other speaker lending less (flat).
    `matched`: the scores before the turn steps (Weights.answer_raw), which an asking turn lends
    its answer from when they are higher."""
    ranked = sorted(scores, key=lambda i: -scores[i])
    hits = [rows[i] for i in ranked[: weights.window_hits] if i in rows and rows[i].is_turn]
    # Turns that ask lend to their answer from further down (Weights.answer_lift, answer_raw)
    further = ranked[weights.window_hits : weights.answer_hits]
    if matched is not None:
        further += sorted(matched, key=lambda i: -matched[i])[: weights.answer_hits]
    chosen = {row.id for row in hits}
    askers = {
        i for i in further if i not in chosen and i in rows and rows[i].is_turn and asks(rows[i].content)
    }
    hits += [rows[i] for i in sorted(askers)]
    wanted = turn_sources(hits)
    sessions = {**sessions, **read_sessions(wanted.difference(sessions), passes)}
    lent: dict[int, list[tuple[float, float]]] = {}  # turn -> (offer, the most it may reach)
    for source in sorted(wanted):
        turns = sessions[source]
        position = {turn_id: at for at, (turn_id, _) in enumerate(turns)}
        for hit in (h for h in hits if h.source == source and h.id in position):
            score = scores[hit.id]
            asking = asks(hit.content)
            for direction, decay in ((1, weights.next_decay), (-1, weights.prev_decay)):
                steps, at = 0, position[hit.id]
                reach = int(direction == 1) if hit.id in askers else weights.window_reach
                while steps < reach:
                    at += direction
                    if not 0 <= at < len(turns):
                        break
                    turn_id, content = turns[at]
                    answer = asking and direction == 1 and steps == 0  # Weights.answer_lift
                    if not answer and len(content_words(content)) <= weights.small_talk_words:
                        continue  # small talk: skipped, not counted; the answer is the next real turn
                    steps += 1
                    lift = weights.answer_lift if answer else decay**steps
                    base = max(score, matched.get(hit.id, 0.0)) if answer and matched is not None else score
                    offer = base * lift
                    if asked and _speaker(content) not in asked:
                        offer /= 1.0 + weights.speaker_boost
                    # just below its lender, or just above it for an answer lifted past it
                    ceiling = base * lift / LENDER_CAP if lift > 1 else score
                    lent.setdefault(turn_id, []).append((offer, ceiling))
    for turn_id, offers in lent.items():
        offers.sort(reverse=True)
        own = scores.get(turn_id, 0.0)
        best = max(own, offers[0][0])
        rest = own + sum(offer for offer, _ in offers) - best
        lifted = best + weights.lend_share * rest
        if lifted > own:  # lent: stays below the best turn that lent to it
            lifted = min(lifted, max(ceiling for _, ceiling in offers) * LENDER_CAP)
        scores[turn_id] = max(own, lifted)
    return sessions  # with the ones read here: lift_by_session reads the lent turns' sessions


def rerank(query: str, rankings: Sequence[Sequence[int | None]], **options: Any) -> list[int]:
    """The ids of rerank_scored (same keyword options), best first."""
    return [row_id for row_id, _ in rerank_scored(query, rankings, **options)]


def rerank_scored(
    query: str,
    rankings: Sequence[Sequence[int | None]],
    *,
    k: int,
    queryset: QuerySet[Chunk],
    loaded: Mapping[int, Row] | None = None,
    sessions: Sessions | None = None,
    today: date | None = None,
    weights: Weights = WEIGHTS,
    tail: Collection[int] = (),
) -> list[tuple[int, float]]:
    """The best `k` (id, score) after fusion, date boost, small-talk damping and the turn window.

    Every ranked id must pass `queryset` (the caller's filters); so do the neighbours the window
    adds. `loaded`: ranked rows the caller already read (search_rows, the vector search's), and
    `sessions`: sessions it already read (read_sessions with the same queryset), not read again.
    `tail`: ranked ids outside the pool (a deeper read of the vector ranking) that compete for
    the ranks past `heads_from` only (_with_tail): the pool's ranking is left as it was.
    """
    scores = fuse(rankings, weights)
    extra = {i: scores.pop(i) for i in tail if i in scores}
    if not scores or k <= 0:
        return []
    span = dates.date_range(query, today or timezone.localdate())
    passes = RowFilter(queryset)
    rows = {i: row for i, row in (loaded or {}).items() if i in scores or i in extra}
    missing = [i for i in (*scores, *extra) if i not in rows]
    if missing:
        rows.update(_rows(passes, missing))
    tail_rows = {i: rows.pop(i) for i in extra if i in rows}
    has_turns = any(row.is_turn for row in rows.values())
    if has_turns and weights.anchor_to_turns:
        span = _turns_span(query, rows.values(), today or timezone.localdate(), span, weights)
    if not has_turns and span is None:  # a plain store: RRF over the top of each list
        scores = fuse([ranking[: max(k, PLAIN_DEPTH)] for ranking in rankings], weights)
    scores = {i: s for i, s in scores.items() if i in rows}
    if span is not None:  # the whole pool: a row written in the range may sit below the top
        for row_id in scores:
            scores[row_id] += _date_boost(rows[row_id], span, weights)
    asked = asked_speakers(query, rows.values()) if has_turns else frozenset()
    topic = _question_topic(query, rows.values()) if has_turns else frozenset()
    # before the turn steps; only with a vector ranking fused in (Weights.answer_raw)
    meant = len(rankings) > 1 and list_weight(weights, 1) > 0
    matched = dict(scores) if has_turns and weights.answer_raw and meant else None
    if matched is not None and weights.answer_raw == "topic":
        matched = {i: v for i, v in matched.items() if _content_roots(rows[i].content) & topic}
    if has_turns:
        _damp_keyword_shares(query, rankings[0], rows, scores, weights)
        if matched is not None and weights.answer_raw == "damped":
            matched = dict(scores)
        _boost_asked_speakers(asked, rows, scores, weights)
    bodies = {row_id: _body(row.content) for row_id, row in rows.items() if row.is_turn}
    repeats = Counter(bodies.values())
    for row_id, body in bodies.items():
        if not (topic and _content_roots(rows[row_id].content) <= topic):  # else: an answer (module doc)
            scores[row_id] *= turn_weight(rows[row_id], weights)
        if repeats[body] > 1:
            scores[row_id] *= weights.repeat_factor
    read: Sessions = {}
    if has_turns:
        read = _window(scores, rows, passes, weights, sessions or {}, asked, matched)
    ranked = [(i, scores[i]) for i in sorted(scores, key=lambda i: (-scores[i], i))]
    if has_turns and tail_rows:
        ranked = _with_tail(ranked, extra, tail_rows, span, asked, topic, repeats, weights)
    if has_turns and weights.session_prior and meant:
        ranked = lift_by_session(ranked, _sources({**rows, **tail_rows}, read), weights)
    if has_turns and weights.keyword_heads and k > weights.heads_from:
        keyword_turns = [i for i in rankings[0] if i is not None and i in rows and rows[i].is_turn]
        return keep_keyword_heads(ranked, keyword_turns, k=k, weights=weights)
    return ranked[:k]


def _date_boost(row: Row, span: dates.DateRange | None, weights: Weights) -> float:
    """What `row` gains for being written in the question's date range `span` (0 outside it)."""
    created_at = row.created_at
    if span is None or created_at is None or timezone.localtime(created_at).date() not in span:
        return 0.0
    return weights.turn_date_boost if row.is_turn else weights.date_boost


def _with_tail(
    ranked: Sequence[tuple[int, float]],
    fused: Mapping[int, float],
    rows: Mapping[int, Row],
    span: dates.DateRange | None,
    asked: Container[str],
    topic: frozenset[str],
    bodies: Container[str],
    weights: Weights,
) -> list[tuple[int, float]]:
    """`ranked` with the tail's rows (rerank_scored's `tail`: their `fused` scores and `rows`)
    placed among its ranks past `heads_from` by their own score: fusion, the date boost and the
    turn steps a row takes alone (the asked speaker's boost, small-talk and repeat damping), no
    window. The head stays as ranked, so recall@5 and the first hit's rank above it cannot fall;
    a tail row the window already lent to is ranked as lent."""
    placed = {i for i, _ in ranked}
    scores = {i: score for i, score in fused.items() if i in rows and i not in placed}
    for row_id in scores:
        scores[row_id] += _date_boost(rows[row_id], span, weights)
    _boost_asked_speakers(asked, rows, scores, weights)
    for row_id in scores:
        row = rows[row_id]
        if row.is_turn:
            if not (topic and _content_roots(row.content) <= topic):
                scores[row_id] *= turn_weight(row, weights)
            if _body(row.content) in bodies:
                scores[row_id] *= weights.repeat_factor
    head, rest = list(ranked[: weights.heads_from]), [*ranked[weights.heads_from :], *scores.items()]
    return head + sorted(rest, key=lambda pair: (-pair[1], pair[0]))


def _sources(rows: Mapping[int, Row], sessions: Sessions) -> dict[int, str]:
    """The session of every turn among `rows` and the `sessions` the window read."""
    out = {turn_id: source for source, turns in sessions.items() for turn_id, _ in turns}
    out.update((row_id, row.source) for row_id, row in rows.items() if row.is_turn)
    return out


def lift_by_session(
    ranked: Sequence[tuple[int, float]], source_of: Mapping[int, str], weights: Weights
) -> list[tuple[int, float]]:
    """`ranked` with each turn's score scaled by 1 + `session_prior` x its session's share of
    the score of the first `session_depth` rows (Weights.session_prior), re-sorted (past the
    head only with `session_late`). `source_of`: the session of each turn (_sources)."""
    top = ranked[: weights.session_depth]
    total = sum(score for _, score in top)
    if total <= 0:
        return list(ranked)
    mass: Counter[str] = Counter()
    for row_id, score in top:
        if row_id in source_of:
            mass[source_of[row_id]] += score
    moved = [
        (row_id, score * (1.0 + weights.session_prior * mass[source_of[row_id]] / total))
        if row_id in source_of
        else (row_id, score)
        for row_id, score in ranked
    ]
    head = list(ranked[: weights.heads_from]) if weights.session_late else []  # kept as it was
    return head + sorted(moved[len(head) :], key=lambda pair: (-pair[1], pair[0]))


def keep_keyword_heads(
    ranked: Sequence[tuple[int, float]],
    keyword: Sequence[int | None],
    *,
    k: int,
    weights: Weights = WEIGHTS,
) -> list[tuple[int, float]]:
    """The best `k` of `ranked`, with the keyword ranking's first `keyword_heads` rows put back
    when they fell out, in place of the lowest rows past `heads_from` (the head stays as ranked,
    so a top 5 is never changed). A turn that says the question's rare words ("When did Gina
    mention Shia Labeouf?" -> "Gina: It's Shia Labeouf!") can sink below k under the small-talk
    damping, the vector side and the window's lent scores; its keyword rank says it matched."""
    top = list(ranked[:k])
    chosen = {i for i, _ in top}
    score = dict(ranked)
    heads = [i for i in keyword if i is not None][: weights.keyword_heads]
    missing = [i for i in heads if i not in chosen and i in score]
    for at, item in enumerate(missing[: max(len(top) - weights.heads_from, 0)]):
        top[-1 - at] = (item, score[item])
    head, tail = top[: weights.heads_from], top[weights.heads_from :]
    return head + sorted(tail, key=lambda pair: (-pair[1], pair[0]))


def wants_rerank(query: str, hits: Sequence[Chunk], *, today: date | None = None) -> bool:
    """Whether rerank would change anything: a turn among the hits, or a date in the query."""
    if any(Row.of(chunk).is_turn for chunk in hits):
        return True
    return dates.date_range(query, today or timezone.localdate()) is not None


def any_turn_or_date(query: str, rows: Iterable[Row], *, today: date | None = None) -> bool:
    """wants_rerank for rows already read: a turn among them, or a date in the query."""
    if any(row.is_turn for row in rows):
        return True
    return dates.date_range(query, today or timezone.localdate()) is not None


def search_rows(
    query: str, *, k: int, queryset: QuerySet[Chunk], any_term: bool = True, loaded: Loaded | None = None
) -> dict[int, Row]:
    """The keyword search's best `k` rows of `queryset`, read with their ranking, best first
    (`any_term`: see search_chunk_rows; `loaded`: rows_read)."""
    fields = read_fields(loaded)
    found = search_chunk_rows(query, k=k, queryset=queryset, fields=fields, any_term=any_term)
    return rows_read(found, loaded)


def turn_sources(rows: Iterable[Row]) -> set[str]:
    """The sessions of the conversation turns among `rows`."""
    return {row.source for row in rows if row.is_turn}


def speakers(rows: Iterable[Row]) -> set[str]:
    """Who speaks in the conversation turns among `rows` (their "Name:" prefix), lowercased."""
    return {name for row in rows if row.is_turn and (name := _speaker(row.content)) is not None}


def vector_query(query: str, names: Container[str]) -> str:
    """The text the vector side embeds: `query` without the speakers' `names` (speakers() of the
    turns the keyword side found): "What did Alice buy in May?" -> "What did buy in May?".

    In a two-person conversation nearly every turn of one speaker carries the name (in its
    "Alice:" prefix and the heading-less body embeds it too), so the name pulls the query
    vector towards that speaker's small talk instead of the subject; the keyword side still
    matches the name. Unchanged when no speaker is named, or when nothing else would be left.
    """
    words = query.split()
    kept = [w for w in words if _NAME_TOKEN.sub("", w.lower()) not in names]
    if len(kept) == len(words) or not any(_WORD.search(w) for w in kept):
        return query
    return " ".join(kept)


HEARD_MAX = 4096  # speaker names remembered per process, oldest forgotten first
_heard: OrderedDict[str, None] = OrderedDict()
_heard_lock = threading.Lock()


def remember_speakers(names: Iterable[str]) -> None:
    """Note speakers met in a search, for the next question's guess (heard_speakers)."""
    with _heard_lock:
        for name in names:
            _heard[name] = None
            _heard.move_to_end(name)
        while len(_heard) > HEARD_MAX:
            _heard.popitem(last=False)


def forget_speakers() -> None:
    """Forget every speaker met (tests)."""
    with _heard_lock:
        _heard.clear()


def heard_speakers() -> Container[str]:
    """Speakers met in earlier searches: vector_query(query, heard_speakers()) guesses the vector
    text before the keyword search has found this question's speakers (memory.retrieval.hybrid
    starts embedding it then, and keeps the vector only if the guess was right)."""
    return _heard.keys()  # membership tests only: safe beside remember_speakers under the GIL


def pool_size(k: int) -> int:
    """Candidates each ranking contributes for a top `k` (see memory.retrieval.hybrid)."""
    return max(k * POOL_FACTOR, MIN_POOL)


def keyword_ids(query: str, **options: Any) -> list[int]:
    """The ids of keyword_scored (same keyword options), best first."""
    return [row_id for row_id, _ in keyword_scored(query, **options)]


def keyword_scored(
    query: str, *, k: int, queryset: QuerySet[Chunk], held: Mapping[int, Row] | None = None
) -> list[tuple[int, float]]:
    """The keyword ranking alone through rerank (knowledge.embeddings off, or the backend down).
    `held`: the keyword search's rows (search_rows at pool_size(k)) if the caller has them."""
    if k <= 0:
        return []
    if held is None:
        held = search_rows(query, k=pool_size(k), queryset=queryset)
    return rerank_scored(query, [list(held)], k=k, queryset=queryset, loaded=held)
