"""Shared helpers for the authority tests (issue 19): config, sessions, recall and context over HTTP."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.core.cache import cache

from sessions_app.selectors import reset_search_caches


def configure(settings: Any, **knowledge: Any) -> None:
    """settings.PROTOMEM with knowledge.* fields replaced (every knowledge row injectable)."""
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg,
        knowledge=dataclasses.replace(
            cfg.knowledge, **{"inject_namespaces": (), "inject_min_trust": 1, "top_k": 10, **knowledge}
        ),
        context=dataclasses.replace(cfg.context, prior_sessions="off"),
        middleware=dataclasses.replace(cfg.middleware, knowledge=True),
    )


@pytest.fixture(autouse=True)
def _fresh_caches() -> Any:
    cache.clear()
    reset_search_caches()
    yield
    cache.clear()
    reset_search_caches()


def register(client: Any, session_id: str) -> None:
    resp = client.post("/api/sessions/", {"session_id": session_id}, format="json")
    assert resp.status_code in (200, 201), resp.content


def recall_ids(client: Any, query: str) -> list[int]:
    resp = client.get("/api/memory/recall/", {"query": query, "top_k": 20})
    assert resp.status_code == 200, resp.content
    return [hit["id"] for hit in resp.json()["results"]]


def context(client: Any, session_id: str, query: str, **extra: Any) -> dict[str, Any]:
    resp = client.post(f"/api/sessions/{session_id}/context/", {"query": query, **extra}, format="json")
    assert resp.status_code == 200, resp.content
    return resp.json()
