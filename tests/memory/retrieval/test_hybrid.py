"""Hybrid recall: RRF fusion, the chunk_search integration, and the keyword-only default."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import numpy as np
import pytest
from django.utils import timezone

from memory.embedding import embeddings
from memory.lifecycle.selectors import chunk_search
from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.retrieval import hybrid as hybrid_module
from memory.retrieval.hybrid import RRF_K, rrf_fuse
from memory.retrieval.search import search_chunk_ids
from memory.store import vectors
from memory.store.deliverable import deliverable
from memory.store.embedding_index import chunks_embed
from tests.factories import ChunkFactory
from tests.fixtures.gateway import Reply
from tests.memory.store.vector_stub import (  # noqa: F401 - fixtures
    MODEL,
    clean_embedding_state,
    embed_requests,
    hybrid_fixture,
    vector_for,
    with_embeddings,
)

pytestmark = [pytest.mark.usefixtures("clean_embedding_state"), pytest.mark.django_db]


# -- RRF, pure


def test_rrf_puts_rows_found_by_both_lists_first() -> None:
    keyword = [1, 2, 3]
    semantic = [4, 3, 5]

    assert rrf_fuse([keyword, semantic]) == [3, 1, 4, 2, 5]


def test_rrf_scores_are_reciprocal_ranks() -> None:
    # 7: 1/(60+2) + 1/(60+2) = 0.03226 beats 8: 1/(60+1) = 0.01639 and 9: 1/(60+3) + 1/(60+1) = 0.03226...
    fused = rrf_fuse([[8, 7, 9], [9, 7]])
    score = dict.fromkeys((7, 8, 9), 0.0)
    for ranking in ([8, 7, 9], [9, 7]):
        for rank, item in enumerate(ranking, 1):
            score[item] += 1 / (RRF_K + rank)

    assert fused == sorted(score, key=lambda i: -score[i])
    assert fused == [9, 7, 8]


def test_rrf_ties_go_to_the_better_single_rank_then_the_keyword_list() -> None:
    assert rrf_fuse([[1, 2], [3, 4]]) == [1, 3, 2, 4]
    assert rrf_fuse([[], [3, 4]]) == [3, 4]
    assert rrf_fuse([[5, 6], []]) == [5, 6]


def test_rrf_limit_and_duplicates() -> None:
    assert rrf_fuse([[1, 1, 2], [2]], limit=1) == [2]
    assert rrf_fuse([[1, 2, 3], [3]], limit=0) == []
    assert rrf_fuse([]) == []


# -- chunk_search with embeddings on


def embedded(*contents: str, **fields: Any) -> list[int]:
    """Chunks stored with their stub vectors, ids in order."""
    ids = [ChunkFactory(content=c, heading="", **fields).pk for c in contents]
    chunks_embed(chunk_ids=ids)
    return ids


def test_fusion_order_end_to_end(hybrid: Any) -> None:
    c1, c2, c3, c4 = embedded(
        "deploy notes for the web app",
        "the release pipeline is manual via workflow_dispatch",  # a paraphrase: no keyword
        "deploy deploy deploy",
        "cooking pasta recipe",
    )
    qs = deliverable()
    query_vector = embeddings.embed_query("deploy")
    assert search_chunk_ids("deploy", k=10, queryset=qs) == [c3, c1]
    assert vectors.nearest_ids(query_vector, k=10, model=MODEL, queryset=qs) == [c2, c3, c1, c4]

    hits = chunk_search("deploy", k=4)

    # c3: 1/61 + 1/62, c1: 1/62 + 1/63, c2: 1/61, c4: 1/64
    assert [c.pk for c in hits] == [c3, c1, c2, c4]
    assert [c.pk for c in chunk_search("deploy", k=2)] == [c3, c1]


def test_a_paraphrase_is_found_only_with_embeddings(hybrid: Any, settings: Any) -> None:
    target, _ = embedded(
        "the release pipeline is manual via workflow_dispatch", "lunch is at noon on fridays"
    )

    assert [c.pk for c in chunk_search("how do I ship a build?", k=1)] == [target]

    with_embeddings(settings, on=False)
    assert chunk_search("how do I ship a build?", k=1) == []


def test_vector_hits_obey_the_same_filters(hybrid: Any) -> None:
    now = timezone.now()
    (live,) = embedded("ship it on fridays")
    (rejected,) = embedded("release pipeline workflow_dispatch", review_state="rejected")
    (expired,) = embedded("deploy pipeline manual", expires_at=now - timedelta(days=1))
    (invalidated,) = embedded("build pipeline release", invalidated_at=now)
    (other_ns,) = embedded("release release release", namespace="other")

    found = {c.pk for c in chunk_search("how do I ship a build?", k=10)}
    in_ns = {
        c.pk
        for c in chunk_search(
            "how do I ship a build?", k=10, queryset=ChunkFactory._meta.model.objects.filter(namespace="")
        )
    }
    with_history = {c.pk for c in chunk_search("how do I ship a build?", k=10, include_superseded=True)}

    assert found == {live, other_ns}
    assert in_ns == {live}
    assert invalidated in with_history
    assert rejected not in found | with_history
    assert expired not in found | with_history


def test_gateway_outage_falls_back_to_keyword_results(hybrid: Any) -> None:
    ids = embedded("deploy notes for the web app", "the release pipeline is manual", "deploy deploy deploy")
    keyword_only = search_chunk_ids("deploy", k=5, queryset=deliverable())
    hybrid.default = lambda path, body: Reply(status=503, body={"error": "embedding model offline"})
    before = len(embed_requests(hybrid))

    for _ in range(embeddings.FAILURE_THRESHOLD + 3):
        assert [c.pk for c in chunk_search("deploy", k=5)] == keyword_only

    assert keyword_only == [ids[2], ids[0]]
    assert len(embed_requests(hybrid)) - before == embeddings.FAILURE_THRESHOLD  # then the breaker is open


def test_a_stalled_gateway_does_not_stall_search(hybrid: Any, settings: Any) -> None:
    import dataclasses

    embedded("deploy notes")
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(cfg, gateway=dataclasses.replace(cfg.gateway, timeout_s=0.2))
    hybrid.default = lambda path, body: Reply(delay_s=2.0, body={})

    started = time.perf_counter()
    hits = chunk_search("deploy", k=3)

    assert [c.content for c in hits] == ["deploy notes"]
    assert time.perf_counter() - started < 1.0


def test_rows_without_vectors_still_come_from_keywords(hybrid: Any) -> None:
    (with_vector,) = embedded("the release pipeline is manual")
    plain = ChunkFactory(content="how to ship the mobile build", heading="").pk  # never embedded

    hits = [c.pk for c in chunk_search("how do I ship a build?", k=5)]

    assert set(hits) == {with_vector, plain}


def test_the_api_recall_finds_a_paraphrase(hybrid: Any, agent_client: Any) -> None:
    (target,) = embedded("the release pipeline is manual via workflow_dispatch", agent=agent_client.agent)

    response = agent_client.get("/api/memory/recall/", {"query": "how do I ship a build?", "top_k": 3})

    assert response.status_code == 200, response.content
    assert [r["id"] for r in response.json()["results"]] == [target]


# -- embeddings off: nothing touches the embedding path


@pytest.fixture
def embedding_path_forbidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the embedding path ran with knowledge.embeddings off")

    monkeypatch.setattr(hybrid_module, "hybrid_chunk_ids", forbidden)
    monkeypatch.setattr(embeddings, "embed_texts", forbidden)
    monkeypatch.setattr(vectors, "nearest_ids", forbidden)


@pytest.mark.usefixtures("embedding_path_forbidden")
def test_embeddings_off_search_and_writes_send_nothing_to_the_gateway(
    stub_gateway: Any, settings: Any, django_capture_on_commit_callbacks: Any, agent_client: Any
) -> None:
    with_embeddings(settings, on=False)
    stub_gateway.default = lambda path, body: Reply(status=500, body={"error": "must not be called"})

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        chunk = add_chunk(ChunkDraft(content="deploy notes for the web app"))
    hits = chunk_search("deploy", k=5)
    response = agent_client.get("/api/memory/recall/", {"query": "deploy"})

    assert [c.pk for c in hits] == [chunk.pk]
    assert response.status_code == 200
    assert [r["id"] for r in response.json()["results"]] == [chunk.pk]
    assert callbacks == []  # not even an on-commit hook was registered
    assert stub_gateway.requests == []
    assert vectors.vector_count() == 0


def test_vector_ranking_uses_cosine_of_the_stub_concepts(hybrid: Any) -> None:
    # The stub's premise: synonyms share an axis, so these two are identical vectors.
    a = np.asarray(vector_for("ship the build"))
    b = np.asarray(vector_for("release pipeline"))

    assert float(a @ b) == pytest.approx(1.0)
    assert float(a @ np.asarray(vector_for("cooking pasta"))) < 0.5


# -- a plain row keeps the keyword share of the query it says


def _row(pk: int, content: str, *, heading: str = "", domain: str = "note") -> Any:
    from memory.retrieval import structure

    return structure.Row(pk, domain, "s1" if domain == "turn" else "", None, content, heading)


def test_a_plain_keyword_hit_keeps_a_power_of_the_share_of_the_query_it_says() -> None:
    from memory.retrieval import structure

    weights = structure.WEIGHTS
    rows = {
        1: _row(1, "pasta for the build party"),  # one of two terms ("ship", "build")
        2: _row(2, "we ship on Tuesdays", heading="Build calendar"),  # both: one in the heading
        3: _row(3, "Alice: pasta for the build party", domain="turn"),  # a turn: rerank's rule, not this
    }
    scores = structure.fuse([[1, 2, 3]], weights)
    before = dict(scores)

    structure.plain_keyword_shares("how do I ship a build?", [1, 2, 3], rows, scores)

    share = weights.list_weights[0] / (weights.rrf_k + 1)
    assert scores[1] == pytest.approx(before[1] - (1 - 0.5**weights.plain_coverage_power) * share)
    assert scores[2] == before[2]
    assert scores[3] == before[3]


def test_a_plain_keyword_hit_saying_less_than_half_the_query_keeps_no_keyword_share() -> None:
    """Vector ranks 1 and 2 are closer than a cube of a half share of the keyword head: a row
    saying 2 of 5 words of a paraphrase would swap them."""
    from memory.retrieval import structure

    weights = structure.WEIGHTS
    rows = {
        1: _row(1, "client calls are limited per key"),  # 2 of 5 terms: calls, client
        2: _row(2, "each client makes 100 calls a minute before it is throttled"),  # all 5
    }
    scores = structure.fuse([[1, 2]], weights)
    before = dict(scores)

    structure.plain_keyword_shares(
        "how many calls can a client make before being throttled?", [1, 2], rows, scores
    )

    assert scores[1] == pytest.approx(0.0)
    assert scores[2] == before[2]


USER_FACTS = [
    "The user drives a blue Subaru",
    "The user deploys on Tuesdays",
    "The user is vegetarian",
    "The user lives in Lisbon",
    "The user reads before bed",
]


def test_a_word_most_plain_candidates_say_no_longer_lifts_a_row() -> None:
    """The word "user" is in all 5 candidates: it names the store, so a row saying it and half
    the query's other terms keeps the share of those alone."""
    from memory.retrieval import structure

    weights = structure.WEIGHTS
    rows = {pk: _row(pk, text) for pk, text in enumerate(USER_FACTS, start=1)}
    rows[1] = _row(1, "The user drives a blue Subaru car")  # says "user" and "car" of 3 terms
    scores = structure.fuse([[1], [2, 3, 4, 5]], weights)
    before = dict(scores)

    structure.plain_keyword_shares("what car does the user own", [1], rows, scores)

    share = weights.list_weights[0] / (weights.rrf_k + 1)
    assert scores[1] == pytest.approx(before[1] - share)  # 1 of 3 counted: below the floor
    assert {pk: scores[pk] for pk in (2, 3, 4, 5)} == {pk: before[pk] for pk in (2, 3, 4, 5)}


def test_below_the_minimum_candidates_a_common_word_still_counts() -> None:
    from memory.retrieval import structure

    weights = structure.WEIGHTS
    rows = {pk: _row(pk, text) for pk, text in enumerate(USER_FACTS[:4], start=1)}
    rows[1] = _row(1, "The user drives a blue Subaru car")
    scores = structure.fuse([[1], [2, 3, 4]], weights)
    before = dict(scores)

    structure.plain_keyword_shares("what car does the user own", [1], rows, scores)

    share = weights.list_weights[0] / (weights.rrf_k + 1)
    assert weights.plain_common_min == 5
    assert scores[1] == pytest.approx(before[1] - (1 - (2 / 3) ** weights.plain_coverage_power) * share)


def test_hybrid_returns_the_rows_its_ranking_statements_read(hybrid: Any) -> None:
    from unittest import mock

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from memory.retrieval import retrieve
    from memory.store.models import Chunk

    later = timezone.now() + timedelta(days=3)
    embedded("deploy notes for the web app", expires_at=later, held_detail={"why": ["ok"]})
    embedded(
        "the release pipeline is manual via workflow_dispatch", "deploy deploy deploy", domain="decision"
    )

    def values(chunks: list[Chunk]) -> list[dict[str, Any]]:
        return [{f.attname: getattr(c, f.attname) for f in Chunk._meta.concrete_fields} for c in chunks]

    chunk_search("deploy", k=3)  # per-process probes and caches out of the way
    with CaptureQueriesContext(connection) as kept:
        hits = chunk_search("deploy", k=3)
    with (
        mock.patch.object(retrieve, "_rows_kept", return_value=None),
        CaptureQueriesContext(connection) as read_again,
    ):
        again = chunk_search("deploy", k=3)

    assert len(hits) == 3
    assert values(hits) == values(again)  # every column, as the ORM reads it
    assert len(kept) == len(read_again) - 1  # no statement reads the rows after the ranking
