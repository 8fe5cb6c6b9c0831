"""Recall eval: keyword vs vector vs hybrid search on a labelled set of (query, relevant chunk).

Dataset: JSON lines, two kinds of record (memory/evals/recall.jsonl is the shipped one):

    {"chunk": "k001", "heading": "Release process", "content": "The release pipeline is ..."}
    {"query": "how do I ship a build?", "relevant": ["k001"], "kind": "paraphrase"}

`kind` is free text used to break the scores down (the shipped set: "paraphrase", with few
or no words shared with the chunk, and "lexical"). Chunks no query points at are distractors.

`evaluate` stores the corpus in the real store *inside a transaction that is rolled back*
(a namespace of its own, through memory.lifecycle.writes.add_chunks, vectors through memory.store.vectors),
runs each query through chunk_search's entry point (memory.retrieval.retrieve, modes text, vector and
hybrid; the query embedded beforehand) restricted to that namespace, and rolls
everything back: nothing stays behind. Texts are embedded before the transaction opens, so the
store's write lock is held only for the inserts and the searches (a few seconds).

Metrics, per mode, over all queries, per kind and per half:
  recall@k  |relevant in top k| / |relevant|, averaged over queries
  MRR@k     1 / rank of the first relevant hit in the top k (0 if none), averaged

Halves: a query belongs to half A when the number in its relevant chunk's id is even ("k034"),
B when odd (the lowest id when it names several; no number: no half). B is the held-out half:
tune on A only, and keep a change only if B does not lose, so a rule fitted to the rows it was
tuned on shows as A gaining alone.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

MODES = ("keyword", "vector", "hybrid")
HALVES = ("A", "B")  # B: held out (module doc)
_NUMBER = re.compile(r"\d+")


class DatasetError(ValueError):
    """The dataset file is malformed; the message names the line."""


@dataclass(frozen=True)
class EvalQuery:
    text: str
    relevant: frozenset[str]
    kind: str = ""

    @property
    def half(self) -> str:
        """The query's half, "A" or "B", by the number in its relevant chunk's id ("" without one)."""
        return half_of(min(self.relevant))


def half_of(chunk_id: str) -> str:
    """Half "A" when the last number in `chunk_id` is even, "B" when odd, "" when it has none."""
    numbers = _NUMBER.findall(chunk_id)
    if not numbers:
        return ""
    return "B" if int(numbers[-1]) % 2 else "A"


@dataclass(frozen=True)
class Dataset:
    chunks: dict[str, tuple[str, str]]  # id -> (heading, content)
    queries: tuple[EvalQuery, ...]


def load_dataset(path: Path) -> Dataset:
    """Parse and check a dataset: unique chunk ids, every relevant id defined, >= 1 query."""
    chunks: dict[str, tuple[str, str]] = {}
    queries: list[EvalQuery] = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            raise DatasetError(f"{path}:{number}: not JSON ({exc})") from exc
        if not isinstance(record, dict):
            raise DatasetError(f"{path}:{number}: expected an object")
        if "chunk" in record:
            cid = str(record["chunk"])
            if cid in chunks:
                raise DatasetError(f"{path}:{number}: chunk {cid!r} defined twice")
            content = str(record.get("content") or "")
            if not content.strip():
                raise DatasetError(f"{path}:{number}: chunk {cid!r} has no content")
            chunks[cid] = (str(record.get("heading") or ""), content)
        elif "query" in record:
            relevant = record.get("relevant")
            if not isinstance(relevant, list) or not relevant or not str(record["query"]).strip():
                raise DatasetError(f"{path}:{number}: a query needs text and a non-empty 'relevant' list")
            queries.append(
                EvalQuery(
                    text=str(record["query"]),
                    relevant=frozenset(str(r) for r in relevant),
                    kind=str(record.get("kind") or ""),
                )
            )
        else:
            raise DatasetError(f"{path}:{number}: a record needs 'chunk' or 'query'")
    if not queries:
        raise DatasetError(f"{path}: no queries")
    for query in queries:
        missing = query.relevant - chunks.keys()
        if missing:
            raise DatasetError(f"{path}: query {query.text!r} names unknown chunk(s) {sorted(missing)}")
    return Dataset(chunks=chunks, queries=tuple(queries))


def recall_at_k(ranked: list[str], relevant: frozenset[str], k: int) -> float:
    return len(set(ranked[:k]) & relevant) / len(relevant)


def reciprocal_rank(ranked: list[str], relevant: frozenset[str], k: int) -> float:
    for rank, item in enumerate(ranked[:k], 1):
        if item in relevant:
            return 1.0 / rank
    return 0.0


@dataclass
class Scores:
    """Sums per mode; `recall`/`mrr` are the averages."""

    queries: int = 0
    recall_sum: float = 0.0
    rr_sum: float = 0.0
    by_kind: dict[str, list[float]] = field(default_factory=dict)  # kind -> [n, recall sum, rr sum]
    by_half: dict[str, list[float]] = field(default_factory=dict)  # half -> [n, recall sum, rr sum]

    def add(self, kind: str, recall: float, rr: float, half: str = "") -> None:
        self.queries += 1
        self.recall_sum += recall
        self.rr_sum += rr
        for buckets, key in ((self.by_kind, kind), (self.by_half, half)):
            bucket = buckets.setdefault(key, [0, 0.0, 0.0])
            bucket[0] += 1
            bucket[1] += recall
            bucket[2] += rr

    @property
    def recall(self) -> float:
        return self.recall_sum / self.queries if self.queries else 0.0

    @property
    def mrr(self) -> float:
        return self.rr_sum / self.queries if self.queries else 0.0

    def kind_recall(self, kind: str) -> float:
        n, recall, _ = self.by_kind.get(kind, [0, 0.0, 0.0])
        return recall / n if n else 0.0

    def half_scores(self, half: str) -> tuple[int, float, float]:
        """(queries, recall, MRR) of the queries of `half`."""
        n, recall, rr = self.by_half.get(half, [0, 0.0, 0.0])
        return int(n), recall / n if n else 0.0, rr / n if n else 0.0


@dataclass(frozen=True)
class EvalResult:
    k: int
    model: str
    chunks: int
    queries: int
    scores: dict[str, Scores]
    kinds: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "k": self.k,
            "model": self.model,
            "chunks": self.chunks,
            "queries": self.queries,
            "modes": {
                mode: {
                    f"recall@{self.k}": round(s.recall, 4),
                    f"mrr@{self.k}": round(s.mrr, 4),
                    "by_kind": {
                        kind: {f"recall@{self.k}": round(s.kind_recall(kind), 4)} for kind in self.kinds
                    },
                    "by_half": {half: self._half(s, half) for half in HALVES},
                }
                for mode, s in self.scores.items()
            },
        }

    def _half(self, scores: Scores, half: str) -> dict[str, float]:
        n, recall, mrr = scores.half_scores(half)
        return {"queries": n, f"recall@{self.k}": round(recall, 4), f"mrr@{self.k}": round(mrr, 4)}


def evaluate(
    dataset: Dataset, *, k: int = 5, model: str | None = None, progress: Callable[[str], None] | None = None
) -> EvalResult:
    """Scores of each mode on `dataset` (see module doc); raises EmbeddingError if no vectors."""
    from memory.embedding import embeddings
    from memory.lifecycle.writes import ChunkDraft, add_chunks
    from memory.retrieval.retrieve import Options, retrieve_ids
    from memory.store import vectors
    from memory.store.deliverable import deliverable
    from memory.store.models import Chunk

    say = progress or (lambda _message: None)
    model = model or embeddings.active_model()
    cids = list(dataset.chunks)
    say(f"embedding {len(cids)} chunks and {len(dataset.queries)} queries with {model}")
    chunk_vectors = embeddings.embed_texts(
        [embeddings.chunk_text(*dataset.chunks[cid]) for cid in cids], model=model
    )
    query_vectors = embeddings.embed_texts(
        [q.text for q in dataset.queries], model=model, purpose=embeddings.QUERY
    )  # as chunk_search embeds a query (a local model runs queries at its query precision)
    vectors.warm(model)  # the committed index, so in-transaction searches only add a small delta
    namespace = f"eval-recall-{uuid.uuid4().hex[:12]}"
    scores = {mode: Scores() for mode in MODES}
    with transaction.atomic():
        add_chunks(
            ChunkDraft(
                content=dataset.chunks[cid][1],
                heading=dataset.chunks[cid][0],
                namespace=namespace,
                source=cid,
            )
            for cid in cids
        )
        pk_of = dict(Chunk.objects.filter(namespace=namespace).values_list("source", "pk"))
        cid_of = {pk: cid for cid, pk in pk_of.items()}
        vectors.vectors_store(((pk_of[cid], chunk_vectors[i]) for i, cid in enumerate(cids)), model=model)
        base = deliverable(Chunk.objects.filter(namespace=namespace))
        say(f"searching ({', '.join(MODES)}) at k={k}")
        for query, vector in zip(dataset.queries, query_vectors, strict=True):
            ranked = {  # the query's vector embedded above, in one batch
                mode: retrieve_ids(
                    query.text, base, k, Options(mode=path, every_row=True, model=model, query_vector=vector)
                )
                for mode, path in (("keyword", "text"), ("vector", "vector"), ("hybrid", "hybrid"))
            }
            for mode, ids in ranked.items():
                names = [cid_of[i] for i in ids if i in cid_of]
                scores[mode].add(
                    query.kind,
                    recall_at_k(names, query.relevant, k),
                    reciprocal_rank(names, query.relevant, k),
                    query.half,
                )
        transaction.set_rollback(True)
    kinds = tuple(sorted({q.kind for q in dataset.queries}))
    return EvalResult(
        k=k, model=model, chunks=len(cids), queries=len(dataset.queries), scores=scores, kinds=kinds
    )
