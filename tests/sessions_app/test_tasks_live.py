"""End to end: a real Celery worker on Redis harvests retired sessions through the stub gateway.

The worker process reads its own config (tests/fixtures/worker.py): the stub gateway with a
2 s timeout and knowledge.facts on. The retry policy travels in the task message, so this
test process's SESSIONS_HARVEST_* settings make retries fast here.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from memory.store.models import Chunk
from protomem.celery import app
from sessions_app.models import HarvestState, Session
from sessions_app.services import MessageInput, session_register, session_turn_append
from sessions_app.tasks import session_harvest_task
from tests.conftest import agent_client_for
from tests.factories import AgentFactory
from tests.fixtures.gateway import Reply, chat_reply
from tests.fixtures.worker import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

GOOD = json.dumps({"summary": "The user rotated the audit keys with the KMS job.", "facts": []})
TERMINAL = (HarvestState.DONE, HarvestState.FAILED, HarvestState.SKIPPED)


@pytest.fixture(autouse=True)
def _fast_retries(settings):
    settings.SESSIONS_HARVEST_MAX_ATTEMPTS = 3
    settings.SESSIONS_HARVEST_BACKOFF_S = 0.05
    settings.SESSIONS_HARVEST_BACKOFF_MAX_S = 0.2


@pytest.fixture
def client(live_worker, stub_gateway):
    agent = AgentFactory(name="live-agent")
    return agent_client_for(agent)


def conversation(client, session_id="t-1", *, incognito=False):
    session, _ = session_register(agent=client.agent, session_id=session_id, incognito=incognito)
    session_turn_append(
        session=session,
        messages=[
            MessageInput(role="user", content="How do we rotate the audit keys?"),
            MessageInput(role="assistant", content="Run the KMS rotation job."),
        ],
        terminal=True,
    )
    return session


def settled(session_id):
    def check():
        session = Session.objects.get(session_id=session_id)
        return session if session.harvest_state in TERMINAL else None

    return wait_until(check, timeout=60, what=f"harvest of {session_id} to settle")


def chunks_of(session_id):
    return Chunk.objects.filter(source=session_id)


def test_good_output_stores_one_episodic_summary(client, stub_gateway):
    conversation(client)
    stub_gateway.enqueue(chat_reply(GOOD))
    assert client.delete("/api/sessions/t-1/").status_code == 204
    session = settled("t-1")
    assert session.harvest_state == HarvestState.DONE
    assert session.harvest_attempts == 1
    (chunk,) = chunks_of("t-1")
    assert chunk.content == "The user rotated the audit keys with the KMS job."
    assert (chunk.domain, chunk.source_type, chunk.agent_id) == ("conversation", "harvest", client.agent.pk)
    assert session.harvest_result["summary_chunk"] == chunk.pk
    assert len(stub_gateway.requests) == 1
    assert not Chunk.objects.filter(content__icontains="How do we rotate").exists()  # never raw turns


def test_facts_are_extracted_when_knowledge_facts_is_on(client, stub_gateway):
    # the worker's config leaves knowledge.facts at its default: on
    conversation(client)
    reply = {"summary": "Rotated the audit keys.", "facts": ["The user rotates audit keys with KMS."]}
    stub_gateway.enqueue(chat_reply(json.dumps(reply)))
    client.delete("/api/sessions/t-1/")
    session = settled("t-1")
    assert session.harvest_state == HarvestState.DONE
    (fact,) = Chunk.objects.filter(source_type="extracted")
    assert (fact.content, fact.domain, fact.source, fact.agent_id) == (
        "The user rotates audit keys with KMS.",
        "fact",
        "t-1",
        client.agent.pk,
    )
    assert session.harvest_result["fact_outcomes"] == {"inserted": 1}


@pytest.mark.parametrize(
    "first",
    [
        chat_reply("Sure! Here is a summary: the user rotated keys."),  # malformed: no JSON
        Reply(status=500, body={"error": "upstream exploded"}),
        Reply(status=503, body="<html>unavailable</html>"),
        Reply(body={"choices": []}, delay_s=2.5),  # past the worker's 2 s timeout
    ],
    ids=["malformed-json", "http-500", "http-503", "timeout"],
)
def test_transient_failure_is_retried_then_succeeds(client, stub_gateway, first):
    conversation(client)
    stub_gateway.enqueue(first, chat_reply(GOOD))
    client.delete("/api/sessions/t-1/")
    session = settled("t-1")
    assert session.harvest_state == HarvestState.DONE
    assert session.harvest_attempts == 2
    assert chunks_of("t-1").count() == 1
    assert len(stub_gateway.requests) == 2


@pytest.mark.parametrize(
    "reply",
    [chat_reply("{not json"), Reply(status=500, body={}), Reply(body={}, delay_s=2.5)],
    ids=["malformed-json", "http-500", "timeout"],
)
def test_persistent_failure_is_recorded_for_operators_without_a_partial_write(
    client, stub_gateway, operator_client, reply
):
    conversation(client)
    stub_gateway.default = lambda path, body: reply
    client.delete("/api/sessions/t-1/")
    session = settled("t-1")
    assert session.harvest_state == HarvestState.FAILED
    assert session.harvest_attempts == 3
    assert "after 3 attempts" in session.harvest_error
    assert not chunks_of("t-1").exists()
    assert len(stub_gateway.requests) == 3  # bounded: no crash loop
    listed = operator_client.get("/api/sessions/?harvest_state=failed").json()["results"]
    assert [(s["session_id"], s["harvest_attempts"]) for s in listed] == [("t-1", 3)]
    assert listed[0]["harvest_error"] == session.harvest_error


def sentinel(client, session_id="sentinel"):
    """Retire one more session and wait for its harvest: the solo worker takes the queue in order,
    so every task sent before it has been handled by then."""
    conversation(client, session_id)
    client.delete(f"/api/sessions/{session_id}/")
    assert settled(session_id).harvest_state == HarvestState.DONE


def test_duplicate_delivery_stores_nothing_twice(client, stub_gateway):
    session = conversation(client)
    stub_gateway.default = lambda path, body: chat_reply(GOOD)
    client.delete("/api/sessions/t-1/")
    session_harvest_task.delay(session.pk)  # the same task delivered twice more
    session_harvest_task.delay(session.pk, max_attempts=3, backoff_s=0.05)
    sentinel(client)
    assert chunks_of("t-1").count() == 1
    assert len(stub_gateway.requests) == 2  # t-1 once, the sentinel once
    session.refresh_from_db()
    assert (session.harvest_state, session.harvest_attempts) == (HarvestState.DONE, 1)


@pytest.mark.parametrize(("session_id", "incognito"), [("private-1", True), ("background:job-9", False)])
def test_incognito_and_background_sessions_are_never_harvested(client, stub_gateway, session_id, incognito):
    session = conversation(client, session_id, incognito=incognito)
    stub_gateway.default = lambda path, body: chat_reply(GOOD)
    client.delete(f"/api/sessions/{session_id}/")
    session_harvest_task.delay(session.pk)  # even if a task arrives anyway
    sentinel(client)
    session.refresh_from_db()
    assert session.harvest_state == HarvestState.SKIPPED
    assert not chunks_of(session_id).exists()
    assert len(stub_gateway.requests) == 1  # the sentinel's


def test_sweep_on_the_worker_requeues_a_lost_harvest(client, stub_gateway):
    session = conversation(client)
    stub_gateway.default = lambda path, body: chat_reply(GOOD)
    # a retirement whose enqueue was lost (crash between commit and publish)
    Session.objects.filter(pk=session.pk).update(
        retired_at=timezone.now() - timedelta(hours=1),
        harvest_state=HarvestState.PENDING,
        harvest_updated_at=timezone.now() - timedelta(hours=1),
    )
    app.send_task("sessions.harvest_sweep")
    assert settled("t-1").harvest_state == HarvestState.DONE
    assert chunks_of("t-1").count() == 1


def test_retire_aged_on_the_worker_retires_and_harvests(client, stub_gateway):
    session = conversation(client)
    conversation(client, "t-fresh")
    stub_gateway.default = lambda path, body: chat_reply(GOOD)
    Session.objects.filter(pk=session.pk).update(last_activity_at=timezone.now() - timedelta(days=31))
    app.send_task("sessions.retire_aged")
    assert settled("t-1").harvest_state == HarvestState.DONE
    assert chunks_of("t-1").count() == 1
    assert Session.objects.get(session_id="t-fresh").retired_at is None
