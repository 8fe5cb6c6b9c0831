"""Deterministic embeddings for the stub gateway: hashed bags of *concepts*, not words.

Words map to a concept through SYNONYMS (so "ship", "build" and "release" land on the same
axis and paraphrases overlap in vector space while sharing no keyword); every other word is
its own concept. A concept hashes to one of DIM axes with a sign, and a text's vector is the
normalised sum. Tests control similarity by choosing the words.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.fixtures.gateway import Reply, StubGateway

DIM = 64
MODEL = "stub-embed"
SYNONYMS = {
    "ship": "release",
    "build": "release",
    "deploy": "release",
    "release": "release",
    "pipeline": "release",
    "workflow_dispatch": "release",
    "manual": "release",
    "puppy": "dog",
    "hound": "dog",
    "dog": "dog",
    "canine": "dog",
}
STOP = {"the", "a", "an", "is", "do", "i", "how", "via", "of", "to", "my", "we", "our", "it"}
WORD = re.compile(r"[a-z0-9_]+")


def concepts(text: str) -> list[str]:
    return [SYNONYMS.get(w, w) for w in WORD.findall(text.lower()) if w not in STOP]


def vector_for(text: str, *, dim: int = DIM) -> list[float]:
    out = [0.0] * dim
    for concept in concepts(text):
        digest = hashlib.sha256(concept.encode()).digest()
        axis = int.from_bytes(digest[:4], "big") % dim
        out[axis] += 1.0 if digest[4] % 2 else -1.0
    norm = math.sqrt(sum(v * v for v in out))
    if norm == 0:
        out[0] = 1.0  # an all-stopword text still gets a (meaningless) unit vector
        return out
    return [v / norm for v in out]


def embeddings_reply(path: str, body: dict[str, Any]) -> Reply:
    """A stub `default`: /embeddings answered with concept vectors, anything else a chat reply."""
    if not path.endswith("/embeddings"):
        return Reply(body={"choices": [{"index": 0, "message": {"role": "assistant", "content": "{}"}}]})
    inputs = body.get("input")
    texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
    return Reply(
        body={
            "object": "list",
            "model": body.get("model"),
            "data": [
                {"object": "embedding", "index": i, "embedding": vector_for(t)} for i, t in enumerate(texts)
            ],
        }
    )


def embed_requests(stub: StubGateway) -> list[dict[str, Any]]:
    return [r for r in stub.requests if r["path"].endswith("/embeddings")]


def with_embeddings(settings: Any, *, on: bool = True, model: str = MODEL) -> None:
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg, knowledge=dataclasses.replace(cfg.knowledge, embeddings=on, embed_model=model)
    )


@pytest.fixture
def clean_embedding_state() -> Iterator[None]:
    """No breaker state or cached index leaks between tests."""
    from memory.embedding import embeddings
    from memory.retrieval import structure
    from memory.store import vectors

    embeddings.reset()
    vectors.reset_cache()
    structure.forget_speakers()
    yield
    embeddings.reset()
    vectors.reset_cache()
    structure.forget_speakers()


@pytest.fixture(name="hybrid")
def hybrid_fixture(stub_gateway: StubGateway, settings: Any, clean_embedding_state: None) -> StubGateway:
    """Embeddings on, served by the stub gateway with concept vectors."""
    stub_gateway.default = embeddings_reply
    with_embeddings(settings)
    return stub_gateway
