"""Embeddings on but no vector stored yet: a search does not embed its query (keyword-only)."""

from __future__ import annotations

from typing import Any

import pytest

from memory.lifecycle.selectors import chunk_search
from memory.retrieval import retrieve
from memory.retrieval.search import search_chunk_ids
from memory.store.deliverable import deliverable
from memory.store.embedding_index import chunks_embed
from tests.factories import ChunkFactory
from tests.memory.store.vector_stub import (  # noqa: F401 - fixtures
    clean_embedding_state,
    embed_requests,
    hybrid_fixture,
)

pytestmark = [pytest.mark.usefixtures("clean_embedding_state"), pytest.mark.django_db]


@pytest.fixture(autouse=True)
def _forget_vector_presence() -> Any:
    retrieve._HAS_VECTORS.clear()
    yield
    retrieve._HAS_VECTORS.clear()


def test_no_vectors_no_query_embedding_and_keyword_results(hybrid: Any) -> None:
    ids = [
        ChunkFactory(content=text, heading="").pk for text in ("deploy notes", "lunch menu", "deploy deploy")
    ]

    hits = [c.pk for c in chunk_search("deploy", k=5)]

    assert embed_requests(hybrid) == []
    assert hits == search_chunk_ids("deploy", k=5, queryset=deliverable())
    assert set(hits) == {ids[0], ids[2]}


def test_once_a_vector_is_stored_queries_are_embedded(hybrid: Any) -> None:
    first = ChunkFactory(content="the release pipeline is manual", heading="").pk
    chunk_search("release", k=5)
    assert embed_requests(hybrid) == []

    chunks_embed(chunk_ids=[first])
    indexed = len(embed_requests(hybrid))
    hits = [c.pk for c in chunk_search("how do I ship a build?", k=5)]

    assert len(embed_requests(hybrid)) == indexed + 1  # the query, now that vectors exist
    assert hits == [first]  # found by meaning only: no keyword in common
