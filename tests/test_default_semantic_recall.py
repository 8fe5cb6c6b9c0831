"""The shipped defaults find a paraphrase: semantic recall is on, in-process, with the packaged
model (README quick start). The suite otherwise runs keyword recall (protomem.settings_test)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from memory.store.embedding_index import embeddings_backfill
from protomem.config import parse_config
from sessions_app.services import session_register

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

FACT = "The user deploys on Tuesdays."
OTHERS = (
    "The staging database is restored every Monday night.",
    "Lunch orders go in the kitchen channel before eleven.",
    "The billing service logs to the central collector.",
)
PARAPHRASE = "which day are releases shipped"


@pytest.fixture
def shipped_defaults(settings: Any) -> None:
    """settings.PROTOMEM's knowledge: block as a fresh instance has it (no config file)."""
    shipped = parse_config(None, instance_dir=Path("/unused"), env={}).knowledge
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg,
        knowledge=dataclasses.replace(
            cfg.knowledge,
            embeddings=shipped.embeddings,
            embed_model=shipped.embed_model,
            query_precision=shipped.query_precision,
        ),
    )


def test_a_paraphrased_question_finds_the_fact_on_the_shipped_defaults(
    shipped_defaults: None, agent: Any, agent_client: Any
) -> None:
    session_register(agent=agent, session_id="thread-1")
    for content in (FACT, *OTHERS):
        resp = agent_client.post(
            "/api/sessions/thread-1/memory/ingest/", {"content": content, "domain": "fact"}, format="json"
        )
        assert resp.status_code == 201, resp.content
    fact_id = next(
        r["id"]
        for r in agent_client.post(
            "/api/memory/recall/", {"query": "deploys Tuesdays"}, format="json"
        ).json()["results"]
    )
    embeddings_backfill()  # what the worker does for rows written before it ran

    paraphrased = agent_client.post("/api/memory/recall/", {"query": PARAPHRASE}, format="json")

    assert paraphrased.status_code == 200
    ranked = [r["id"] for r in paraphrased.json()["results"]]
    assert ranked[:1] == [fact_id]  # shares no word with the fact
