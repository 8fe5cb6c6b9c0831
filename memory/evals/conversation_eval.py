"""Conversational recall eval: multi-session dialogues, questions labelled with evidence turns.

Corpus: memory/evals/conversations/ (conversations.jsonl, one turn a line; questions.jsonl,
one question a line with `kind`, `split` and `evidence` turn ids; generate.py writes both).

`evaluate` stores every turn as one chunk inside a transaction that is rolled back (nothing
stays behind): content "[2026-05-03] Alice: text", heading the session's date written out
("Sunday 3 May 2026", so month and weekday words are searchable), source the session id,
created_at the session date, one namespace per conversation. Each question is run through
each *retriever* against its own conversation's turns only. A retriever is any
`(question, k, scope) -> [chunk id, ...]` (best first); `keyword` and `hybrid` are the
product's search paths (chunk_search with knowledge.embeddings off / on), `plain_keyword` the
text index alone, and new strategies plug in the same way. Turns are stored with domain
TURN_DOMAIN, so memory.retrieval.structure treats them as conversation turns.

Metrics from the top 10 each retriever returns, averaged over questions, per split and kind:
  r@5, r@10   share of questions with at least one evidence turn in the top 5 / 10
  all@10      share with every evidence turn in the top 10 (what multi-hop needs)
  mrr         1 / rank of the first evidence turn in the top 10 (0 if none)
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from django.db import transaction

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from memory.lifecycle.writes import ChunkDraft
    from memory.retrieval.retrieve import Mode
    from memory.store.models import Chunk

CORPUS_DIR = Path(__file__).resolve().parent / "conversations"
DEPTH = 10
KINDS = ("single_hop", "multi_hop", "temporal", "open_domain")
SPLITS = ("tuning", "held_out")
METRICS = ("r@5", "r@10", "all@10", "mrr")
# Also kept: every-evidence recall@5 and the LoCoMo paper's recall@k (the mean share of a
# question's evidence turns in the top k).
ALL_METRICS = ("r@5", "r@10", "all@5", "all@10", "p@5", "p@10", "mrr")
TURN_DOMAIN = "turn"  # what a transcript ingest stores a turn as (memory.retrieval.structure.TURN_DOMAINS)


@dataclass(frozen=True)
class Turn:
    conv: str
    session: str
    date: date
    turn_id: str
    speaker: str
    text: str
    split: str
    # False: the text alone, as an outside corpus stores it ("Speaker: text", no heading; the date
    # lives in created_at only), so recall is measured on what a real ingest writes
    dated: bool = True

    @property
    def content(self) -> str:
        if not self.dated:
            return f"{self.speaker}: {self.text}"
        return f"[{self.date.isoformat()}] {self.speaker}: {self.text}"

    @property
    def heading(self) -> str | None:
        if not self.dated:
            return None
        return f"{self.date:%A} {self.date.day} {self.date:%B %Y}"

    def draft(self, namespace: str, *, session_suffix: str = "") -> ChunkDraft:
        """The chunk a transcript ingest would store for this turn (see module doc)."""
        from memory.lifecycle.writes import ChunkDraft

        return ChunkDraft(
            content=self.content,
            heading=self.heading,
            domain=TURN_DOMAIN,
            namespace=namespace,
            source=self.session + session_suffix,
            created_at=_session_time(self.date),
        )


@dataclass(frozen=True)
class Question:
    conv: str
    qid: str
    split: str
    kind: str
    text: str
    answer: str
    evidence: frozenset[str]


@dataclass(frozen=True)
class Corpus:
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]

    def conversations(self) -> list[str]:
        return sorted({t.conv for t in self.turns})


def load_corpus(directory: Path = CORPUS_DIR, *, convs: Iterable[str] | None = None) -> Corpus:
    """The corpus (optionally some conversations only); every evidence id must name a turn."""
    wanted = set(convs) if convs is not None else None
    turns = []
    for line in (Path(directory) / "conversations.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            if wanted is None or r["conv"] in wanted:
                turn_date = date.fromisoformat(r["date"])
                turns.append(
                    Turn(r["conv"], r["session"], turn_date, r["turn"], r["speaker"], r["text"], r["split"])
                )
    known = {t.turn_id for t in turns}
    questions = []
    for line in (Path(directory) / "questions.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            if wanted is not None and r["conv"] not in wanted:
                continue
            evidence = frozenset(r["evidence"])
            if not evidence or not evidence <= known:
                raise ValueError(f"question {r['qid']} names unknown evidence {sorted(evidence - known)}")
            questions.append(
                Question(r["conv"], r["qid"], r["split"], r["kind"], r["question"], r["answer"], evidence)
            )
    return Corpus(turns=tuple(turns), questions=tuple(questions))


# -- retrievers


@dataclass(frozen=True)
class SearchScope:
    """What a retriever may use: this conversation's rows and the run's embedding model."""

    conv: str
    queryset: QuerySet[Chunk]
    model: str | None  # embedding model; None when the run has no vectors


Retriever = Callable[[str, int, SearchScope], list[int]]


def keyword(question: str, k: int, scope: SearchScope) -> list[int]:
    """The keyword path with embeddings off (memory.retrieval.retrieve, mode keyword: FTS5 AND ->
    pairs -> OR, then dates, small-talk damping and the turn window)."""
    return _retrieve(question, k, scope, mode="keyword")


def plain_keyword(question: str, k: int, scope: SearchScope) -> list[int]:
    """The text index alone, no structure steps (memory.retrieval.retrieve, mode text)."""
    return _retrieve(question, k, scope, mode="text")


def vector(question: str, k: int, scope: SearchScope) -> list[int]:
    """The vector ranking alone (the question embedded as asked, nearest rows of the scope)."""
    if scope.model is None:
        raise ValueError("the vector retriever needs a run with an embedding model")
    return _retrieve(question, k, scope, mode="vector")


def hybrid(question: str, k: int, scope: SearchScope) -> list[int]:
    """The hybrid path (memory.retrieval.hybrid: keyword and vector rankings through structure.rerank),
    embedding the question as the product does (speaker names dropped, query cache)."""
    if scope.model is None:
        raise ValueError("the hybrid retriever needs a run with an embedding model")
    return _retrieve(question, k, scope, mode="hybrid")


def _retrieve(question: str, k: int, scope: SearchScope, *, mode: Mode) -> list[int]:
    """The product's entry point on the scope (already deliverable-filtered: every_row)."""
    from memory.retrieval.retrieve import Options, retrieve_ids

    return retrieve_ids(question, scope.queryset, k, Options(mode=mode, every_row=True, model=scope.model))


# -- scoring


@dataclass
class Bucket:
    n: int = 0
    sums: dict[str, float] = field(default_factory=lambda: dict.fromkeys(ALL_METRICS, 0.0))

    def add(self, ranked: list[str], evidence: frozenset[str]) -> None:
        self.n += 1
        for depth in (5, 10):
            found = len(evidence & set(ranked[:depth]))
            self.sums[f"r@{depth}"] += float(found > 0)
            self.sums[f"all@{depth}"] += float(found == len(evidence))
            self.sums[f"p@{depth}"] += found / len(evidence)
        self.sums["mrr"] += next((1.0 / rank for rank, t in enumerate(ranked[:10], 1) if t in evidence), 0.0)

    def mean(self, metric: str) -> float:
        return self.sums[metric] / self.n if self.n else 0.0


@dataclass
class EvalResult:
    model: str | None
    turns: int
    questions: int
    # mode -> (split, kind) -> bucket; kind "all" and split "all" are the totals
    buckets: dict[str, dict[tuple[str, str], Bucket]]
    ranked: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # mode -> qid -> turn ids
    seconds: dict[str, float] = field(default_factory=dict)  # mode -> time spent searching, in all

    def ms_per_query(self, mode: str) -> float:
        return 1000 * self.seconds.get(mode, 0.0) / self.questions if self.questions else 0.0

    def score(self, mode: str, split: str = "all", kind: str = "all", metric: str = "r@10") -> float:
        return self.buckets[mode].get((split, kind), Bucket()).mean(metric)

    def as_dict(self) -> dict[str, object]:
        return {
            "model": self.model,
            "turns": self.turns,
            "questions": self.questions,
            "ms_per_query": {mode: round(self.ms_per_query(mode), 2) for mode in self.buckets},
            "modes": {
                mode: {
                    f"{split}/{kind}": {"n": b.n, **{m: round(b.mean(m), 4) for m in ALL_METRICS}}
                    for (split, kind), b in sorted(buckets.items())
                }
                for mode, buckets in self.buckets.items()
            },
        }


def _session_time(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


def evaluate(
    corpus: Corpus,
    retrievers: Mapping[str, Retriever],
    *,
    model: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> EvalResult:
    """Each retriever's scores on `corpus` (see module doc). With `model`, turns and questions
    are embedded first (outside the transaction) and vectors stored for the hybrid path."""
    from memory.embedding import embeddings
    from memory.lifecycle.writes import add_chunks
    from memory.store import vectors
    from memory.store.deliverable import deliverable
    from memory.store.models import Chunk

    say = progress or (lambda _message: None)
    turn_vectors = None
    if model is not None:
        say(f"embedding {len(corpus.turns)} turns with {model} (questions are embedded as searched)")
        turn_vectors = embeddings.embed_texts(
            [embeddings.chunk_text(t.heading, t.content) for t in corpus.turns], model=model
        )
        vectors.warm(model)
    run = uuid.uuid4().hex[:10]
    buckets: dict[str, dict[tuple[str, str], Bucket]] = {mode: {} for mode in retrievers}
    ranked_out: dict[str, dict[str, list[str]]] = {mode: {} for mode in retrievers}
    seconds = dict.fromkeys(retrievers, 0.0)
    with transaction.atomic():
        say(f"storing {len(corpus.turns)} turns")
        add_chunks(t.draft(f"conv-eval-{run}-{t.conv}") for t in corpus.turns)
        pks = list(
            Chunk.objects.filter(namespace__startswith=f"conv-eval-{run}-")
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if len(pks) != len(corpus.turns):
            raise RuntimeError(f"stored {len(pks)} rows for {len(corpus.turns)} turns")
        turn_of = {pk: t.turn_id for pk, t in zip(pks, corpus.turns, strict=True)}
        if turn_vectors is not None:
            vectors.vectors_store(zip(pks, turn_vectors, strict=True), model=model)  # type: ignore[arg-type]
        say(f"searching ({', '.join(retrievers)}) for {len(corpus.questions)} questions")
        for conv in corpus.conversations():
            scope = SearchScope(
                conv=conv,
                queryset=deliverable(Chunk.objects.filter(namespace=f"conv-eval-{run}-{conv}")),
                model=model,
            )
            for question in (q for q in corpus.questions if q.conv == conv):
                for mode, retrieve in retrievers.items():
                    started = time.perf_counter()
                    found = retrieve(question.text, DEPTH, scope)
                    seconds[mode] += time.perf_counter() - started
                    ranked = [turn_of[pk] for pk in found if pk in turn_of]
                    ranked_out[mode][question.qid] = ranked
                    for key in (
                        (question.split, question.kind),
                        (question.split, "all"),
                        ("all", question.kind),
                        ("all", "all"),
                    ):
                        buckets[mode].setdefault(key, Bucket()).add(ranked, question.evidence)
        transaction.set_rollback(True)
    return EvalResult(model, len(corpus.turns), len(corpus.questions), buckets, ranked_out, seconds)


def format_table(result: EvalResult, metrics: Sequence[str] = METRICS) -> str:
    """Modes side by side: one row per split and kind, `metrics` for each mode, then each
    mode's search time per question."""
    modes = list(result.buckets)
    width = 6 * len(metrics) - 1
    head = f"{'split':<9} {'kind':<12} {'n':>4}" + "".join(f" | {mode[:width]:^{width}}" for mode in modes)
    sub = " " * 27 + "".join(" | " + " ".join(f"{m:>5}" for m in metrics) for _ in modes)
    lines = [
        f"{result.turns} turns, {result.questions} questions; embed model {result.model or '-'}",
        head,
        sub,
    ]
    for split in (*SPLITS, "all"):
        for kind in (*KINDS, "all"):
            n = result.buckets[modes[0]].get((split, kind), Bucket()).n
            if not n:
                continue
            cells = "".join(
                " | " + " ".join(f"{result.score(mode, split, kind, m):>5.3f}" for m in metrics)
                for mode in modes
            )
            lines.append(f"{split:<9} {kind:<12} {n:>4}{cells}")
    lines.append("ms per question: " + ", ".join(f"{mode} {result.ms_per_query(mode):.1f}" for mode in modes))
    return "\n".join(lines)


def main() -> None:  # pragma: no cover - a manual run; the lead wires `protomem eval-recall`
    import argparse
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "protomem.settings")
    django.setup()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--embed-model", default="local:all-minilm-l6-v2")
    parser.add_argument("--keyword-only", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the scores here")
    args = parser.parse_args()
    corpus = load_corpus()
    retrievers: dict[str, Retriever] = {"keyword": keyword}
    if not args.keyword_only:
        retrievers["hybrid"] = hybrid
    result = evaluate(
        corpus,
        retrievers,
        model=None if args.keyword_only else args.embed_model,
        progress=lambda m: print(m, flush=True),  # noqa: T201
    )
    print(format_table(result))  # noqa: T201
    if args.json:
        args.json.write_text(json.dumps(result.as_dict(), indent=2))


if __name__ == "__main__":  # pragma: no cover
    main()
