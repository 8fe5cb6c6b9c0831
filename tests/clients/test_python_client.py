"""The Python client (clients/python) against the test suite's live server.

Only the retry tests use httpx's MockTransport: a live server cannot be asked for a 503.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from protomem_client import (
    AsyncProtomemClient,
    BadRequest,
    ConnectionFailed,
    NotFound,
    ProtomemClient,
    RetryPolicy,
    ServerError,
    TooManyRequests,
    Unauthorized,
)
from protomem_client.retry import retry_after_seconds

from delivery.skills import skill_create
from tests.clients.conftest import FAST_RETRY, SESSION_ID

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "injections"])

FACTS = [
    "The user deploys the billing service on Tuesdays.",
    "Grafana dashboards live in the observability repository.",
    "The staging database is restored from snapshots every night.",
    "Alice owns the payments on-call rotation this quarter.",
    "Release notes are drafted in the shared changelog document.",
]


def test_ingest_then_recall(client: ProtomemClient) -> None:
    stored = client.memory_ingest(FACTS[0], heading="deploy day")

    assert stored["action"] == "inserted"
    chunk = stored["chunk"]
    assert chunk is not None
    assert chunk["source"] == SESSION_ID  # provenance comes from the session, not the body
    found = client.memory_recall("billing deploys Tuesdays")
    assert found["count"] >= 1
    assert found["results"][0]["id"] == chunk["id"]
    assert "Tuesdays" in found["text"]


def test_ingesting_the_same_fact_twice_writes_nothing(client: ProtomemClient) -> None:
    first = client.memory_ingest(FACTS[1])
    again = client.memory_ingest(FACTS[1])

    assert first["action"] == "inserted"
    assert again["action"] == "duplicate"
    assert client.memory_list()["count"] == 1


def test_memory_list_pages_through_every_row(client: ProtomemClient) -> None:
    ids = {client.memory_ingest(fact)["chunk"]["id"] for fact in FACTS}  # type: ignore[index]

    first = client.memory_list(limit=2)
    assert first["count"] == len(FACTS)
    assert len(first["results"]) == 2
    assert first["next"] is not None
    pages = list(client.paginate(client.memory_list, limit=2))
    assert [len(page["results"]) for page in pages] == [2, 2, 1]
    assert pages[-1]["next"] is None
    listed = [row["id"] for row in client.iter_all(client.memory_list, limit=2)]
    assert sorted(listed) == sorted(ids)  # every row once, none twice across pages
    assert all(row["line"] for page in pages for row in page["results"])


def test_a_wrong_key_is_unauthorized(live_server: Any, agent_key: str) -> None:
    stranger = ProtomemClient(live_server.url, "not-a-real-key", session_id=SESSION_ID)
    with stranger, pytest.raises(Unauthorized) as caught:
        stranger.memory_recall("anything")

    assert caught.value.status == 401
    assert caught.value.detail


def test_a_bad_body_is_a_bad_request_naming_the_field(client: ProtomemClient) -> None:
    with pytest.raises(BadRequest) as caught:
        client.memory_ingest("a fact with an impossible lifetime", expires_in_days=0)

    assert caught.value.status == 400
    assert "expires_in_days" in caught.value.field_errors
    assert isinstance(caught.value.body, dict)


def test_an_unknown_option_is_refused_before_sending(client: ProtomemClient) -> None:
    # The server would refuse forged provenance with 400; the client does not even send it.
    with pytest.raises(TypeError, match="source"):
        client.memory_ingest("x", source="someone-else")  # type: ignore[call-arg]


def test_someone_elses_or_a_missing_thing_is_not_found(client: ProtomemClient) -> None:
    with pytest.raises(NotFound) as caught:
        client.memory_ingest("a fact for a session nobody registered", session_id="no-such-thread")
    assert caught.value.status == 404
    assert caught.value.url.endswith("/api/sessions/no-such-thread/memory/ingest/")

    with pytest.raises(NotFound):
        client.skill_get("no-such-skill")


def test_a_session_from_first_turn_to_retirement(client: ProtomemClient) -> None:
    """Every other agent route once, so a route the client spells wrong fails here."""
    skill_create(name="triage", description="how to triage an incident", content="1. page on-call")
    turn = client.turn_append(
        [
            {"role": "user", "content": "How do we rotate the payments signing keys?"},
            {"role": "assistant", "content": "Rotate them with the vault CLI, then redeploy."},
        ],
        terminal=True,
        turn_id="turn-1",
    )
    assert turn["created"] is True
    assert turn["summary_written"] is True
    assert client.turn_append([{"role": "user", "content": "again"}], turn_id="turn-1")["created"] is False

    messages = list(client.iter_all(client.session_messages, limit=1))
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert client.session_get()["message_count"] == 2
    assert [s["session_id"] for s in client.sessions_list()["results"]] == [SESSION_ID]
    hits = client.session_search("payments signing keys")["results"]
    assert [hit["session_id"] for hit in hits] == [SESSION_ID]
    summary = client.recall_session(SESSION_ID)
    assert "vault" in summary["final_output"]

    document = client.knowledge_ingest("https://docs.example/runbook", "Restart the queue worker first.")
    assert document["action"] == "inserted"
    assert document["chunks"][0]["source"] == "https://docs.example/runbook"
    context = client.context("how do I restart the queue worker?")
    assert context["injection_id"] is not None
    assert "triage" in context["injected"]["skill_names"]
    assert [s["name"] for s in client.skills_list()["results"]] == ["triage"]
    assert client.skill_get("triage")["content"] == "1. page on-call"

    client.session_retire()
    assert client.session_get()["retired_at"] is not None


def test_async_ingest_recall_and_pagination(live_server: Any, agent_key: str) -> None:
    async def scenario() -> tuple[str, int, list[int], int]:
        async with AsyncProtomemClient(live_server.url, agent_key, session_id=SESSION_ID) as api:
            await api.session_register()
            stored = [await api.memory_ingest(fact) for fact in FACTS[:3]]
            found = await api.memory_recall("Grafana dashboards")
            sizes = [len(page["results"]) async for page in api.paginate(api.memory_list, limit=2)]
            total = len([row async for row in api.iter_all(api.memory_list, limit=2)])
            return stored[1]["action"], found["results"][0]["id"], sizes, total

    action, recalled_id, sizes, total = asyncio.run(scenario())

    assert action == "inserted"
    assert recalled_id == _chunk_id_with("Grafana")
    assert sizes == [2, 1]
    assert total == 3


def _chunk_id_with(text: str) -> int:
    from memory.store.models import Chunk

    return Chunk.objects.get(content__contains=text).pk


# Retries: a scripted transport stands in for a server that is overloaded, then recovers.


def _scripted(replies: list[httpx.Response | Exception], seen: list[httpx.Request]) -> Any:
    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        reply = replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply

    return handle


def _mock_client(replies: list[httpx.Response | Exception], seen: list[httpx.Request], **options: Any) -> Any:
    options.setdefault("sleep", lambda seconds: None)
    transport = httpx.MockTransport(_scripted(replies, seen))
    return ProtomemClient("http://protomem.test", "key", transport=transport, **options)


RECALL_BODY = {"query": "q", "count": 0, "results": [], "text": ""}


def test_a_503_is_retried_honouring_retry_after() -> None:
    seen: list[httpx.Request] = []
    waits: list[float] = []
    replies: list[httpx.Response | Exception] = [
        httpx.Response(503, json={"detail": "busy"}, headers={"Retry-After": "2"}),
        httpx.Response(503, json={"detail": "busy"}),
        httpx.Response(200, json=RECALL_BODY),
    ]
    policy = RetryPolicy(attempts=3, backoff=0.5, jitter=0.5)
    with _mock_client(replies, seen, retry=policy, sleep=waits.append) as api:
        assert api.memory_recall("q") == RECALL_BODY

    assert len(seen) == 3
    assert seen[0].headers["Authorization"] == "Api-Key key"
    assert waits[0] == 2.0  # the server's Retry-After
    assert 0.5 <= waits[1] <= 1.0  # no Retry-After: backoff doubled, jittered down by at most half


def test_retries_are_bounded_and_the_last_error_carries_status_body_and_request_id() -> None:
    seen: list[httpx.Request] = []
    replies: list[httpx.Response | Exception] = [
        httpx.Response(429, json={"detail": "slow down"}, headers={"X-Request-ID": f"req-{n}"})
        for n in range(5)
    ]
    api = _mock_client(replies, seen, retry=FAST_RETRY)
    with api, pytest.raises(TooManyRequests) as caught:
        api.memory_list()

    assert len(seen) == 3
    assert caught.value.status == 429
    assert caught.value.body == {"detail": "slow down"}
    assert caught.value.request_id == "req-2"


def test_other_server_errors_are_not_retried() -> None:
    seen: list[httpx.Request] = []
    replies: list[httpx.Response | Exception] = [httpx.Response(500, text="boom"), httpx.Response(200)]
    api = _mock_client(replies, seen)
    with api, pytest.raises(ServerError) as caught:
        api.skills_list()

    assert len(seen) == 1
    assert caught.value.body == "boom"


def test_connect_errors_are_retried_then_reported() -> None:
    seen: list[httpx.Request] = []
    refused = httpx.ConnectError("connection refused")
    replies: list[httpx.Response | Exception] = [refused, httpx.Response(200, json=RECALL_BODY)]
    with _mock_client(replies, seen) as api:
        assert api.memory_recall("q")["count"] == 0
        replies.extend([refused, refused, refused])
        with pytest.raises(ConnectionFailed) as caught:
            api.memory_recall("q")

    assert len(seen) == 2 + 3
    assert caught.value.status is None
    assert isinstance(caught.value.__cause__, httpx.ConnectError)


def test_the_async_client_retries_the_same_way() -> None:
    seen: list[httpx.Request] = []
    waits: list[float] = []
    replies: list[httpx.Response | Exception] = [
        httpx.Response(503, headers={"Retry-After": "1"}),
        httpx.Response(201, json={"action": "inserted", "chunk": None, "superseded_id": None, "score": 0.0}),
    ]

    async def record(seconds: float) -> None:
        waits.append(seconds)

    async def scenario() -> str:
        transport = httpx.MockTransport(_scripted(replies, seen))
        async with AsyncProtomemClient(
            "http://protomem.test", "key", session_id="s1", transport=transport, sleep=record
        ) as api:
            return (await api.memory_ingest("fact"))["action"]

    assert asyncio.run(scenario()) == "inserted"
    assert waits == [1.0]
    assert [r.url.path for r in seen] == ["/api/sessions/s1/memory/ingest/"] * 2


def test_retry_after_as_an_http_date_or_garbage() -> None:
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # in the past: no wait
    assert retry_after_seconds("soon") is None
    assert retry_after_seconds("7") == 7.0
