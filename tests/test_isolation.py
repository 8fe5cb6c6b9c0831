"""One agent key can never read or write another agent's sessions or namespaces.

Every route under /api/ is accounted for (test_every_api_route_is_covered walks the URL
resolver): session routes answer someone else's session with the same 404 as an unknown one
and change nothing; the agent-wide routes (lists, searches, recall) show only the caller's own
rows; the operator routes refuse an agent key with 403.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import URLPattern, URLResolver, get_resolver

from audit.models import InjectionLog
from memory.lifecycle.ingest import memory_ingest
from memory.store.models import Chunk
from sessions_app.models import Message, Session
from sessions_app.selectors import reset_search_caches
from sessions_app.services import MessageInput, session_register, session_turn_append
from tests.factories import AgentFactory, ChunkFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

TWIN = "twin-thread"  # both agents have a session with this id
B_ONLY = "b-only-thread"

# Every session-scoped route and method, with a body that would succeed on one's own session.
SESSION_ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "sessions/{sid}", None),
    ("DELETE", "sessions/{sid}", None),
    ("GET", "sessions/{sid}/messages", None),
    ("POST", "sessions/{sid}/messages", {"messages": [{"role": "user", "content": "hijack"}]}),
    ("GET", "sessions/{sid}/summary", None),
    ("POST", "sessions/{sid}/context", {"query": "otter"}),
    ("POST", "sessions/{sid}/memory/ingest", {"content": "planted by agent a", "domain": "note"}),
    (
        "POST",
        "sessions/{sid}/knowledge/ingest",
        {"origin": "https://a.example/plant", "content": "planted page"},
    ),
]
# Agent-wide routes: the caller's own rows only (tested below, one test each).
AGENT_ROUTES = {
    ("GET", "sessions"),
    ("POST", "sessions"),
    ("GET", "sessions/search"),
    ("GET", "memory/recall"),
    ("POST", "memory/recall"),
    ("GET", "memory/list"),
    ("GET", "skills"),  # shared by design: operator-curated capability, not memory
    ("GET", "skills/{name}"),
}
OPERATOR_ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "knowledge/chunks", None),
    ("GET", "knowledge/chunks/{chunk}", None),
    ("PUT", "knowledge/chunks/{chunk}", {"content": "rewritten by an agent"}),
    ("POST", "knowledge/chunks/{chunk}/promote", None),
    ("POST", "knowledge/chunks/{chunk}/erase", {"reason": "erased by an agent"}),
    ("POST", "knowledge/chunks/bulk-delete", {"ids": ["{chunk}"]}),
    ("POST", "knowledge/chunks/bulk-restore", {"ids": ["{chunk}"]}),
    ("POST", "memory/chunks/{chunk}/review", {"state": "confirmed"}),
    ("GET", "memory/chunks/{chunk}/influence", None),
    ("POST", "sessions/{sid}/quarantine", {}),
    ("POST", "quarantines/{quarantine}/lift", None),
    ("GET", "memory/injections", None),
    ("GET", "memory/injections/{log}/replay", None),
    ("GET", "prompts/preview", None),
    ("POST", "skills", {"name": "agent-skill", "content": "x"}),
    ("PUT", "skills/{name}", {"content": "rewritten by an agent"}),
]


@pytest.fixture(autouse=True)
def _config(settings: Any) -> Any:
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg,
        knowledge=dataclasses.replace(
            cfg.knowledge, scope="scoped", inject_namespaces=(), inject_min_trust=1, hot_write_confirm=False
        ),
        context=dataclasses.replace(cfg.context, prior_sessions="newest"),
        middleware=dataclasses.replace(cfg.middleware, knowledge=True),
    )
    cache.clear()
    reset_search_caches()
    yield
    cache.clear()
    reset_search_caches()


def talk(session: Session, first: str) -> None:
    session_turn_append(
        session=session,
        messages=[MessageInput(role="user", content=first), MessageInput(role="assistant", content="noted")],
        terminal=True,
    )


@pytest.fixture
def b_world(other_agent: Any) -> dict[str, Any]:
    """Agent B's sessions (with transcripts and summaries) and its private memory."""
    sessions = {}
    for sid in (TWIN, B_ONLY):
        sessions[sid], _ = session_register(agent=other_agent, session_id=sid)
        talk(sessions[sid], f"the otter password for {sid} is hunter2")
    chunk = memory_ingest(
        agent=other_agent, session=sessions[B_ONLY], content="Agent B's otter vault code is 4711."
    ).chunk
    return {"sessions": sessions, "chunk": chunk}


def snapshot() -> dict[str, Any]:
    """Everything an agent's write could change."""
    return {
        "sessions": sorted(
            Session.objects.values_list("agent_id", "session_id", "retired_at", "message_count", "turn_count")
        ),
        "messages": Message.objects.count(),
        "chunks": sorted(Chunk.objects.values_list("pk", "agent_id", "content", "invalidated_at")),
        "injections": InjectionLog.objects.count(),
    }


def call(client: Any, method: str, path: str, body: dict[str, Any] | None, **query: Any) -> Any:
    url = f"/api/{path}/"
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return (
        getattr(client, method.lower())(url, body, format="json")
        if body is not None
        else (getattr(client, method.lower())(url))
    )


# ------------------------------------------------------------------------------ sessions


@pytest.mark.parametrize(("method", "path", "body"), SESSION_ROUTES)
@pytest.mark.parametrize("sid", [B_ONLY, "no-such-thread"])
def test_another_agents_session_is_404_like_an_unknown_one(
    agent_client, other_agent, b_world, method, path, body, sid
):
    # given agent B's sessions; when agent A's key names one (even with B's id as ?agent=)
    before = snapshot()
    for query in ({}, {"agent": other_agent.pk}):
        resp = call(agent_client, method, path.format(sid=sid), body, **query)
        # then it is the same 404 an unknown session gets, saying nothing of B's
        assert resp.status_code == 404, (method, path, resp.content)
        assert resp.json() == {"detail": "Not found."}
    # and nothing of B's (or anyone's) changed
    assert snapshot() == before


@pytest.mark.parametrize(("method", "path", "body"), SESSION_ROUTES)
def test_a_twin_session_id_reaches_only_the_callers_own_session(
    agent_client, agent, b_world, method, path, body
):
    # given both agents hold a session called TWIN
    mine, _ = session_register(agent=agent, session_id=TWIN)
    theirs = Session.objects.get(agent=b_world["sessions"][TWIN].agent, session_id=TWIN)
    b_before = (Message.objects.filter(session=theirs).count(), theirs.turn_count)
    # when A calls the route on TWIN
    resp = call(agent_client, method, path.format(sid=TWIN), body)
    # then it acts on A's own session ...
    assert resp.status_code < 400 or (path.endswith("summary") and resp.status_code == 404), resp.content
    # ... never showing or touching B's
    assert "hunter2" not in resp.content.decode()
    theirs.refresh_from_db()
    assert theirs.retired_at is None
    assert (Message.objects.filter(session=theirs).count(), theirs.turn_count) == b_before
    assert set(Chunk.objects.filter(agent=theirs.agent).values_list("pk", flat=True)) == {b_world["chunk"].pk}
    assert set(Chunk.objects.filter(agent=agent).values_list("source", flat=True)) <= {
        mine.session_id,
        (body or {}).get("origin"),
    }


# ------------------------------------------------------------------------------ agent-wide


def test_session_list_shows_only_the_callers_sessions(agent_client, agent, other_agent, b_world):
    session_register(agent=agent, session_id="a-thread")
    resp = agent_client.get("/api/sessions/")
    assert [(s["session_id"], s["agent"]) for s in resp.json()["results"]] == [("a-thread", agent.pk)]
    # the operators' ?agent= filter narrows the caller's own sessions; it never widens them
    resp = agent_client.get("/api/sessions/", {"agent": other_agent.pk})
    assert resp.status_code == 200
    assert resp.json()["results"] == []


def test_registering_a_twin_id_creates_the_callers_own(agent_client, agent, b_world):
    resp = agent_client.post("/api/sessions/", {"session_id": B_ONLY}, format="json")
    assert resp.status_code == 201, resp.content
    assert resp.json()["agent"] == agent.pk
    assert resp.json()["message_count"] == 0  # not B's transcript
    assert Session.objects.filter(session_id=B_ONLY).count() == 2


def test_session_search_finds_only_the_callers_sessions(agent_client, other_agent_client, agent, b_world):
    talk(session_register(agent=agent, session_id="a-thread")[0], "the otter feeding schedule")
    hits = agent_client.get("/api/sessions/search/", {"query": "otter"}).json()["results"]
    assert [h["session_id"] for h in hits] == ["a-thread"]
    # B searching the same word finds its own two, never A's
    theirs = other_agent_client.get("/api/sessions/search/", {"query": "otter"}).json()["results"]
    assert sorted(h["session_id"] for h in theirs) == sorted([TWIN, B_ONLY])


def test_recall_list_and_context_never_show_another_agents_memory(agent_client, agent, b_world):
    # given A's own memory and B's private row on the same topic
    mine, _ = session_register(agent=agent, session_id="a-thread")
    own = memory_ingest(agent=agent, session=mine, content="Agent A's otter vault code is 1234.").chunk
    b_chunk = b_world["chunk"]
    # when A recalls, lists and composes a turn about it
    recall = agent_client.get("/api/memory/recall/", {"query": "otter vault code"}).json()
    recall_body = agent_client.post("/api/memory/recall/", {"query": "otter vault code"}, format="json")
    listed = agent_client.get("/api/memory/list/").json()["results"]
    listed_not_mine = agent_client.get("/api/memory/list/", {"mine": "false"}).json()["results"]
    ctx = agent_client.post("/api/sessions/a-thread/context/", {"query": "otter vault code"}, format="json")
    # then only A's row is there, and B's sessions are not in A's digest
    assert [r["id"] for r in recall["results"]] == [own.pk]
    assert recall_body.json() == recall
    assert [r["id"] for r in listed] == [own.pk]
    assert listed_not_mine == []
    body = ctx.json()
    assert body["injected"]["rag_ids"] == [own.pk]
    assert "B's otter vault" not in body["text"]
    assert not set(body["injected"]["digest_session_ids"]) & {TWIN, B_ONLY}
    assert b_chunk.pk not in [r["id"] for r in recall["results"]]


# ------------------------------------------------------------------------------ namespaces


@pytest.fixture
def pinned(db: Any) -> dict[str, Any]:
    """Agents pinned to namespaces alpha and beta, and an operator (host) row in each."""
    from tests.conftest import agent_client_for

    alpha, beta = AgentFactory(namespace="alpha"), AgentFactory(namespace="beta")
    rows = {
        ns: ChunkFactory(content=f"heron protocol for {ns}", namespace=ns, source_type="operator", agent=None)
        for ns in ("alpha", "beta")
    }
    session_register(agent=alpha, session_id="alpha-thread")
    return {"client": agent_client_for(alpha), "alpha": alpha, "beta": beta, "rows": rows}


def test_a_pinned_agent_cannot_write_into_another_namespace(pinned):
    client = pinned["client"]
    for tool, body in (
        ("memory/ingest", {"content": "heron note", "domain": "note", "namespace": "beta"}),
        ("knowledge/ingest", {"origin": "https://a.example", "content": "heron page", "namespace": "beta"}),
    ):
        resp = client.post(f"/api/sessions/alpha-thread/{tool}/", body, format="json")
        assert resp.status_code == 403, resp.content
        assert "pinned to namespace 'alpha'" in resp.json()["detail"]
    assert not Chunk.objects.filter(namespace="beta").exclude(pk=pinned["rows"]["beta"].pk).exists()
    # writing without a namespace lands in its own
    resp = client.post("/api/sessions/alpha-thread/memory/ingest/", {"content": "heron note"}, format="json")
    assert resp.status_code == 201, resp.content
    assert resp.json()["chunk"]["namespace"] == "alpha"


def test_a_pinned_agent_cannot_read_another_namespace(pinned):
    client, alpha_row, beta_row = pinned["client"], pinned["rows"]["alpha"], pinned["rows"]["beta"]
    resp = client.get("/api/memory/recall/", {"query": "heron protocol", "namespace": "beta"})
    assert resp.status_code == 403, resp.content
    recall = client.get("/api/memory/recall/", {"query": "heron protocol"}).json()
    assert [r["id"] for r in recall["results"]] == [alpha_row.pk]
    listed = client.get("/api/memory/list/", {"namespace": "beta"}).json()["results"]
    assert listed == []
    assert [r["id"] for r in client.get("/api/memory/list/").json()["results"]] == [alpha_row.pk]
    ctx = client.post("/api/sessions/alpha-thread/context/", {"query": "heron protocol"}, format="json")
    assert ctx.json()["injected"]["rag_ids"] == [alpha_row.pk]
    assert f"[#{beta_row.pk}]" not in ctx.json()["text"]


# ------------------------------------------------------------------------------ operator routes


@pytest.mark.parametrize(("method", "path", "body"), OPERATOR_ROUTES)
def test_operator_routes_refuse_an_agent_key(agent_client, b_world, method, path, body):
    from memory.store.models import Skill

    Skill.objects.create(name="deploy", content="1. ship")
    chunk = b_world["chunk"]
    before = snapshot()
    if body is not None:
        body = {k: [chunk.pk] if v == ["{chunk}"] else v for k, v in body.items()}
    path = path.format(chunk=chunk.pk, name="deploy", sid=B_ONLY, quarantine=1, log=1)
    resp = call(agent_client, method, path, body)
    assert resp.status_code == 403, (method, path, resp.content)
    assert snapshot() == before
    assert Skill.objects.get().content == "1. ship"


# ------------------------------------------------------------------------------ coverage


def _routes(resolver: URLResolver, prefix: str = "") -> list[tuple[str, type]]:
    found: list[tuple[str, type]] = []
    for entry in resolver.url_patterns:
        regex = prefix + str(entry.pattern.regex.pattern).lstrip("^")
        if isinstance(entry, URLResolver):
            found += _routes(entry, regex)
        elif isinstance(entry, URLPattern) and hasattr(entry.callback, "view_class"):
            found.append((regex, entry.callback.view_class))
    return found


def _template(regex: str) -> str:
    regex = regex.removesuffix("$").removesuffix("/?").removesuffix("/")
    regex = re.sub(r"\(\?P<session_id>[^)]*\)", "{sid}", regex)
    regex = re.sub(r"\(\?P<chunk_id>[^)]*\)", "{chunk}", regex)
    regex = re.sub(r"\(\?P<quarantine_id>[^)]*\)", "{quarantine}", regex)
    regex = re.sub(r"\(\?P<log_id>[^)]*\)", "{log}", regex)
    return re.sub(r"\(\?P<name>[^)]*\)", "{name}", regex)


def test_every_api_route_is_covered():
    # given every route under /api/ and the methods its view implements
    served = set()
    for regex, view in _routes(get_resolver()):
        if not regex.startswith("api/") or regex.startswith(("api/schema", "api/docs")):
            continue
        for method in ("get", "post", "put", "patch", "delete"):
            if hasattr(view, method):
                served.add((method.upper(), _template(regex.removeprefix("api/"))))
    # then each is in exactly one of the tables above
    tables = {(m, p) for m, p, _ in SESSION_ROUTES} | AGENT_ROUTES | {(m, p) for m, p, _ in OPERATOR_ROUTES}
    assert served == tables
