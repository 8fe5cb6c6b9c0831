"""Sessions API over real HTTP (DRF APIClient): register, list, detail, turns, retire, recall."""

from __future__ import annotations

import pytest

from memory.lifecycle.redaction import REDACTED
from memory.store.models import Chunk
from sessions_app.models import HarvestState, Message, Session, SessionSummary, Turn
from tests.backends import ranked_backend
from tests.factories import SessionFactory
from tests.sessions_app.conftest import configure, converse

pytestmark = pytest.mark.django_db


def turn(client, session_id, *messages, terminal=False, **extra):
    body = {"messages": [{"role": r, "content": c} for r, c in messages], "terminal": terminal, **extra}
    return client.post(f"/api/sessions/{session_id}/messages/", body, format="json")


# -- register -------------------------------------------------------------------------------


def test_register_creates_then_returns_the_existing_session(agent_client):
    first = agent_client.post("/api/sessions/", {"session_id": "t-1", "surface": "a2a"})
    again = agent_client.post("/api/sessions/", {"session_id": "t-1", "surface": "a2a"})
    assert first.status_code == 201
    assert again.status_code == 200
    assert first.json()["session_id"] == again.json()["session_id"] == "t-1"
    assert first.json()["surface"] == "a2a"
    assert first.json()["harvest_state"] == "none"
    assert Session.objects.filter(agent=agent_client.agent).count() == 1


def test_background_ids_default_to_the_background_surface(agent_client):
    body = agent_client.post("/api/sessions/", {"session_id": "background:job-7"}).json()
    assert body["surface"] == "background"
    assert body["is_background"] is True


def test_reregister_with_another_incognito_flag_conflicts(agent_client):
    agent_client.post("/api/sessions/", {"session_id": "t-1"})
    response = agent_client.post("/api/sessions/", {"session_id": "t-1", "incognito": True})
    assert response.status_code == 409
    assert Session.objects.get(session_id="t-1").incognito is False


@pytest.mark.parametrize("bad", ["", "has space", "a/b", "search", "x" * 256, "tab\there"])
def test_register_rejects_bad_ids(agent_client, bad):
    response = agent_client.post("/api/sessions/", {"session_id": bad})
    assert response.status_code == 400
    assert not Session.objects.exists()


def test_same_id_is_separate_per_agent(agent_client, other_agent_client):
    assert agent_client.post("/api/sessions/", {"session_id": "t-1"}).status_code == 201
    assert other_agent_client.post("/api/sessions/", {"session_id": "t-1"}).status_code == 201
    assert Session.objects.filter(session_id="t-1").count() == 2


def test_auth_is_required_and_operators_cannot_register(api_client, operator_client):
    assert api_client.post("/api/sessions/", {"session_id": "t-1"}).status_code == 401
    assert operator_client.post("/api/sessions/", {"session_id": "t-1"}).status_code == 403
    assert not Session.objects.exists()


# -- list / detail --------------------------------------------------------------------------


def test_list_shows_only_own_sessions_newest_first_and_filters(agent_client, other_agent):
    agent = agent_client.agent
    converse(agent, "old", "first topic")
    converse(agent, "new", "second topic")
    SessionFactory(agent=other_agent, session_id="theirs")
    body = agent_client.get("/api/sessions/").json()
    assert body["count"] == 2
    assert [s["session_id"] for s in body["results"]] == ["new", "old"]
    assert body["results"][0]["topic"] == "second topic"
    assert body["results"][0]["has_summary"] is True
    assert body["results"][0]["message_count"] == 2

    agent_client.delete("/api/sessions/old/")
    retired = agent_client.get("/api/sessions/?retired=true").json()["results"]
    active = agent_client.get("/api/sessions/?retired=false").json()["results"]
    assert [s["session_id"] for s in retired] == ["old"]
    assert [s["session_id"] for s in active] == ["new"]
    paged = agent_client.get("/api/sessions/?limit=1").json()
    assert len(paged["results"]) == 1
    assert paged["next"]


def test_someone_elses_session_is_404(agent_client, other_agent):
    SessionFactory(agent=other_agent, session_id="theirs")
    assert agent_client.get("/api/sessions/theirs/").status_code == 404
    assert agent_client.delete("/api/sessions/theirs/").status_code == 404
    assert turn(agent_client, "theirs", ("user", "hi")).status_code == 404
    assert agent_client.get("/api/sessions/theirs/summary/").status_code == 404
    assert Session.objects.get(session_id="theirs").retired_at is None
    assert not Message.objects.exists()


def test_operators_read_every_session_for_review(operator_client, agent, other_agent):
    converse(agent, "a-1", "alpha")
    SessionFactory(agent=other_agent, session_id="b-1")
    listed = operator_client.get("/api/sessions/").json()
    assert {s["session_id"] for s in listed["results"]} == {"a-1", "b-1"}
    only_a = operator_client.get(f"/api/sessions/?agent={agent.pk}").json()["results"]
    assert [s["session_id"] for s in only_a] == ["a-1"]
    assert operator_client.get(f"/api/sessions/a-1/?agent={agent.pk}").json()["agent"] == agent.pk
    assert operator_client.get("/api/sessions/a-1/").status_code == 404  # which agent's?
    summary = operator_client.get(f"/api/sessions/a-1/summary/?agent={agent.pk}")
    assert summary.status_code == 200
    assert summary.json()["topic"] == "alpha"
    assert operator_client.delete(f"/api/sessions/a-1/?agent={agent.pk}").status_code == 403


def test_staff_cannot_use_agent_only_endpoints(staff_client, agent):
    converse(agent, "a-1", "alpha")
    # staff read for review, but appending turns and searching are the agent's own tools
    assert (
        staff_client.post("/api/sessions/a-1/messages/", {"messages": []}, format="json").status_code == 403
    )
    assert staff_client.get("/api/sessions/search/?query=alpha").status_code == 403


# -- turns ----------------------------------------------------------------------------------


def test_append_turns_and_read_the_transcript(agent_client):
    agent_client.post("/api/sessions/", {"session_id": "t-1"})
    first = turn(agent_client, "t-1", ("user", "hello"), ("assistant", "hi"))
    body = {
        "messages": [
            {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "search"}}]},
            {"role": "tool", "name": "search", "content": "results"},
            {"role": "assistant", "content": "found it"},
        ],
        "terminal": True,
        "goal_driven": True,
    }
    second = agent_client.post("/api/sessions/t-1/messages/", body, format="json")
    assert first.status_code == 201
    assert second.status_code == 201
    assert first.json() == {
        "session_id": "t-1",
        "seq": 1,
        "turn_id": None,
        "terminal": False,
        "goal_driven": False,
        "created": True,
        "summary_written": False,
        "message_count": 2,
    }
    assert second.json()["seq"] == 2
    assert second.json()["summary_written"] is True
    assert second.json()["message_count"] == 4  # tool results are not counted
    transcript = agent_client.get("/api/sessions/t-1/messages/").json()["results"]
    assert [(m["seq"], m["turn"], m["role"]) for m in transcript] == [
        (1, 1, "user"),
        (2, 1, "assistant"),
        (3, 2, "assistant"),
        (4, 2, "tool"),
        (5, 2, "assistant"),
    ]
    assert Turn.objects.get(seq=2).goal_driven is True


def test_turn_id_makes_a_repost_idempotent(agent_client):
    agent_client.post("/api/sessions/", {"session_id": "t-1"})
    a = turn(agent_client, "t-1", ("user", "hello"), terminal=True, turn_id="turn-abc")
    b = turn(agent_client, "t-1", ("user", "hello"), terminal=True, turn_id="turn-abc")
    assert (a.status_code, b.status_code) == (201, 200)
    assert b.json()["created"] is False
    assert Message.objects.count() == 1
    assert Session.objects.get().message_count == 1


@pytest.mark.parametrize(
    "body",
    [
        {"messages": []},
        {"messages": [{"role": "system", "content": "x"}]},
        {"messages": [{"content": "no role"}]},
        {"messages": "nope"},
    ],
)
def test_bad_turns_are_400_and_store_nothing(agent_client, body):
    agent_client.post("/api/sessions/", {"session_id": "t-1"})
    response = agent_client.post("/api/sessions/t-1/messages/", body, format="json")
    assert response.status_code == 400
    assert not Turn.objects.exists()
    assert not Message.objects.exists()


def test_turns_on_unknown_or_retired_sessions_are_refused(agent_client):
    assert turn(agent_client, "nope", ("user", "hi")).status_code == 404
    agent_client.post("/api/sessions/", {"session_id": "t-1"})
    agent_client.delete("/api/sessions/t-1/")
    response = turn(agent_client, "t-1", ("user", "hi"))
    assert response.status_code == 409
    assert not Message.objects.exists()


# -- summaries over HTTP --------------------------------------------------------------------


def test_terminal_turn_writes_a_clean_summary_recall_returns_it(agent_client):
    agent_client.post("/api/sessions/", {"session_id": "t-1"})
    turn(
        agent_client,
        "t-1",
        ("user", "Deploy with key sk-proj-Qw3rTy9UiOp4AsDfGh5JkLz7XcVbNm12 please"),
        ("assistant", "<think>risky</think>Deployed; creds at https://ops:pa55word1@vault.local"),
        terminal=True,
    )
    body = agent_client.get("/api/sessions/t-1/summary/").json()
    assert body["topic"] == f"Deploy with key {REDACTED} please"
    assert body["final_output"] == f"Deployed; creds at https://ops:{REDACTED}@vault.local"
    assert body["messages"][1] == {"role": "assistant", "content": body["final_output"]}
    assert body["message_count"] == 2
    assert body["retired"] is False
    stored = SessionSummary.objects.get()
    assert "sk-proj" not in stored.text
    assert "risky" not in stored.text
    assert "pa55word1" not in stored.text


def test_non_terminal_turns_leave_no_summary(agent_client):
    agent_client.post("/api/sessions/", {"session_id": "t-1"})
    turn(agent_client, "t-1", ("user", "thinking out loud"))
    assert agent_client.get("/api/sessions/t-1/summary/").status_code == 404
    assert not SessionSummary.objects.exists()


@pytest.mark.parametrize(("session_id", "incognito"), [("private-1", True), ("background:job-1", False)])
def test_incognito_and_background_sessions_never_get_a_summary(agent_client, session_id, incognito):
    agent_client.post("/api/sessions/", {"session_id": session_id, "incognito": incognito})
    response = turn(agent_client, session_id, ("user", "secret plans"), ("assistant", "ok"), terminal=True)
    assert response.json()["summary_written"] is False
    assert agent_client.get(f"/api/sessions/{session_id}/summary/").status_code == 404
    assert not SessionSummary.objects.exists()


def test_disable_memory_turns_summaries_off(agent_client, settings):
    configure(settings, disable_memory=True)
    agent_client.post("/api/sessions/", {"session_id": "t-1"})
    response = turn(agent_client, "t-1", ("user", "hello"), terminal=True)
    assert response.status_code == 201
    assert response.json()["summary_written"] is False
    assert not SessionSummary.objects.exists()


def test_a_crash_while_summarizing_leaves_no_half_turn_or_summary(agent_client, monkeypatch):
    agent_client.post("/api/sessions/", {"session_id": "t-1"})
    turn(agent_client, "t-1", ("user", "first"), terminal=True)
    before = SessionSummary.objects.get().data

    def crash(messages):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("sessions_app.services.build_summary", crash)
    agent_client.raise_request_exception = False
    response = turn(agent_client, "t-1", ("user", "second"), terminal=True)
    assert response.status_code == 500
    assert Message.objects.count() == 1
    assert Session.objects.get().message_count == 1
    assert SessionSummary.objects.get().data == before


# -- retire ---------------------------------------------------------------------------------


def test_delete_retires_once_and_harvests_on_commit(
    agent_client, no_gateway, django_capture_on_commit_callbacks
):
    converse(agent_client.agent, "t-1", "how do we rotate audit keys", "Use the KMS rotation job.")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert agent_client.delete("/api/sessions/t-1/").status_code == 204
    assert len(callbacks) == 1
    session = Session.objects.get()
    assert session.retired_at is not None
    assert session.harvest_state == HarvestState.DONE
    (chunk,) = Chunk.objects.filter(source="t-1")
    assert (chunk.domain, chunk.source_type, chunk.agent_id) == ("conversation", "harvest", session.agent_id)

    with django_capture_on_commit_callbacks(execute=True) as again:
        assert agent_client.delete("/api/sessions/t-1/").status_code == 204
    assert again == []
    assert Chunk.objects.filter(source="t-1").count() == 1
    # the summary outlives retirement (it is what the digest and recall_session read)
    assert agent_client.get("/api/sessions/t-1/summary/").json()["retired"] is True


# -- search ---------------------------------------------------------------------------------


def test_search_route_is_not_shadowed_by_the_session_id_route(agent_client):
    converse(agent_client.agent, "t-1", "where do the audit logs go")
    response = agent_client.get("/api/sessions/search/", {"query": "audit log"})
    assert response.status_code == 200
    body = response.json()
    assert body["backend"] == ranked_backend()
    assert [r["session_id"] for r in body["results"]] == ["t-1"]
    assert "[audit]" in body["results"][0]["snippet"]


def test_search_needs_a_query(agent_client):
    assert agent_client.get("/api/sessions/search/").status_code == 400
    assert agent_client.get("/api/sessions/search/", {"query": "x", "limit": 0}).status_code == 400
