"""Retirement, the harvest service and the sweep, in-process (eager Celery, real SQLite)."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest
from django.utils import timezone

from memory.store.models import Chunk
from sessions_app.models import HarvestState, Message, Session
from sessions_app.retirement import (
    HarvestPolicy,
    HarvestRetryable,
    session_harvest,
    session_harvest_requeue,
    session_retire,
    sessions_harvest_sweep,
    sessions_retire_aged,
)
from tests.fixtures.gateway import Reply, chat_reply
from tests.sessions_app.conftest import configure, converse

pytestmark = pytest.mark.django_db

POLICY = HarvestPolicy(max_attempts=2, backoff_s=0.01)


@pytest.fixture
def facts_off(settings):
    configure(settings, knowledge={"facts": False})


def retired(agent, session_id="t-1", **kwargs):
    """A conversation, retired without running the enqueued harvest."""
    session = converse(agent, session_id, "How do we rotate the audit keys?", "Use the KMS job.", **kwargs)
    session_retire(session=session)
    session.refresh_from_db()
    return session


def harvest_chunks(session):
    return Chunk.objects.filter(source=session.session_id, source_type="harvest", agent=session.agent)


# -- retirement -----------------------------------------------------------------------------


def test_retire_marks_pending_and_enqueues_once(agent, django_capture_on_commit_callbacks):
    session = converse(agent, "t-1", "hello")
    with django_capture_on_commit_callbacks() as callbacks:
        assert session_retire(session=session) is True
        assert session_retire(session=session) is False
    assert len(callbacks) == 1
    session.refresh_from_db()
    assert session.harvest_state == HarvestState.PENDING
    assert session.retired_at is not None


@pytest.mark.parametrize(
    ("session_id", "incognito", "reason"), [("p-1", True, "incognito"), ("background:j", False, "background")]
)
def test_no_trail_sessions_are_skipped_and_their_turns_dropped(
    agent, django_capture_on_commit_callbacks, session_id, incognito, reason
):
    session = converse(agent, session_id, "secret", incognito=incognito)
    with django_capture_on_commit_callbacks() as callbacks:
        session_retire(session=session)
    assert callbacks == []
    session.refresh_from_db()
    assert session.harvest_state == HarvestState.SKIPPED
    assert session.harvest_result == {"skipped": reason}
    assert not Message.objects.filter(session=session).exists()
    assert session_harvest(session_pk=session.pk).state == "not_claimed"
    assert not Chunk.objects.exists()


def test_retire_aged_retires_only_idle_sessions(agent, settings, django_capture_on_commit_callbacks):
    configure(settings, memory={"retire_after_days": 30})
    now = timezone.now()
    old = converse(agent, "old", "x", now=now - timedelta(days=31))
    fresh = converse(agent, "fresh", "y", now=now - timedelta(days=29))
    with django_capture_on_commit_callbacks() as callbacks:
        assert sessions_retire_aged(now=now) == 1
        assert sessions_retire_aged(now=now) == 0
    assert len(callbacks) == 1
    old.refresh_from_db()
    fresh.refresh_from_db()
    assert old.retired_at == now
    assert old.harvest_state == HarvestState.PENDING
    assert fresh.retired_at is None


def test_retire_after_zero_days_never_ages_out(agent, settings):
    configure(settings, memory={"retire_after_days": 0})
    converse(agent, "old", "x", now=timezone.now() - timedelta(days=3650))
    assert sessions_retire_aged() == 0


# -- harvest --------------------------------------------------------------------------------


def test_without_a_gateway_the_harvest_is_extractive_and_says_so(agent, no_gateway, caplog):
    session = retired(agent)
    with caplog.at_level(logging.INFO, logger="sessions_app.services"):
        outcome = session_harvest(session_pk=session.pk)
    assert outcome.state == HarvestState.DONE
    assert outcome.mode == "extractive"
    assert any(
        "no gateway configured" in r.getMessage() and "no fact extraction" in r.getMessage()
        for r in caplog.records
    )
    (chunk,) = harvest_chunks(session)
    assert chunk.content == (
        "Conversation on chat (2 messages). The user asked: How do we rotate the audit keys? "
        "Final answer: Use the KMS job."
    )
    assert chunk.heading == "Session t-1: How do we rotate the audit keys?"
    assert (chunk.domain, chunk.memory_kind, chunk.review_state) == ("conversation", "episode", "pending")
    assert not Chunk.objects.filter(source_type="extracted").exists()
    session.refresh_from_db()
    assert session.harvest_state == HarvestState.DONE
    assert session.harvest_result == {
        "summary_chunk": chunk.pk,
        "facts": 0,
        "fact_outcomes": {},
        "mode": "extractive",
    }
    assert not Message.objects.filter(session=session).exists()  # retired + harvested: the turns go


def test_gateway_summary_is_stored_never_the_raw_turns(agent, stub_gateway, facts_off):
    session = retired(agent)
    stub_gateway.enqueue(chat_reply(json.dumps({"summary": "Rotated audit keys via KMS.", "facts": ["F1"]})))
    outcome = session_harvest(session_pk=session.pk, policy=POLICY)
    assert outcome.state == HarvestState.DONE
    assert outcome.mode == "gateway"
    (chunk,) = harvest_chunks(session)
    assert chunk.content == "Rotated audit keys via KMS."
    assert not Chunk.objects.filter(content__icontains="How do we rotate").exists()
    assert not Chunk.objects.filter(source_type="extracted").exists()  # knowledge.facts is off
    (request,) = stub_gateway.requests
    assert "How do we rotate the audit keys?" in request["body"]["messages"][1]["content"]


def test_the_aux_model_never_sees_a_credential(agent, stub_gateway, facts_off):
    session = converse(agent, "t-1", "my token is ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "noted")
    session_retire(session=session)
    stub_gateway.enqueue(chat_reply('{"summary": "Token talk.", "facts": []}'))
    session_harvest(session_pk=session.pk, policy=POLICY)
    assert "ghp_" not in json.dumps(stub_gateway.requests[0]["body"])


def test_harvesting_twice_stores_nothing_twice(agent, stub_gateway, facts_off):
    session = retired(agent)
    stub_gateway.enqueue(chat_reply('{"summary": "Once.", "facts": []}'))
    assert session_harvest(session_pk=session.pk, policy=POLICY).state == HarvestState.DONE
    assert session_harvest(session_pk=session.pk, policy=POLICY).state == "not_claimed"
    # even a forced re-run (an operator flipping the state back) finds the stored summary
    Session.objects.filter(pk=session.pk).update(harvest_state=HarvestState.PENDING)
    stub_gateway.enqueue(chat_reply('{"summary": "Twice.", "facts": []}'))
    assert session_harvest(session_pk=session.pk, policy=POLICY).state == HarvestState.DONE
    assert [c.content for c in harvest_chunks(session)] == ["Once."]
    assert len(stub_gateway.requests) == 1  # and no second model call
    session.refresh_from_db()
    assert session.harvest_state == HarvestState.DONE
    assert session.harvest_result["summary_chunk"] == harvest_chunks(session).get().pk


def test_transient_failures_retry_then_fail_visibly(agent, stub_gateway, facts_off):
    session = retired(agent)
    stub_gateway.enqueue(Reply(status=503, body={}), chat_reply("not json"))
    with pytest.raises(HarvestRetryable) as first:
        session_harvest(session_pk=session.pk, policy=POLICY)
    assert first.value.attempt == 1
    session.refresh_from_db()
    assert session.harvest_state == HarvestState.PENDING
    assert "503" in session.harvest_error
    outcome = session_harvest(session_pk=session.pk, policy=POLICY)
    assert outcome.state == HarvestState.FAILED
    session.refresh_from_db()
    assert session.harvest_state == HarvestState.FAILED
    assert session.harvest_attempts == 2
    assert "MalformedHarvestOutput" in session.harvest_error
    assert "after 2 attempts" in session.harvest_error
    assert not harvest_chunks(session).exists()
    assert Message.objects.filter(session=session).exists()  # kept for a re-harvest


def test_permanent_gateway_errors_fail_at_once(agent, stub_gateway):
    session = retired(agent)
    stub_gateway.enqueue(Reply(status=401, body={"error": "bad key"}))
    assert session_harvest(session_pk=session.pk, policy=POLICY).state == HarvestState.FAILED
    session.refresh_from_db()
    assert session.harvest_attempts == 1
    assert "401" in session.harvest_error
    assert not Chunk.objects.exists()


def test_a_reasoning_only_summary_is_malformed_output(agent, stub_gateway, facts_off):
    session = retired(agent)
    stub_gateway.enqueue(chat_reply('{"summary": "<think>only reasoning</think>", "facts": []}'))
    with pytest.raises(HarvestRetryable):
        session_harvest(session_pk=session.pk, policy=POLICY)
    assert not Chunk.objects.exists()


def test_requeue_puts_a_failed_harvest_back(agent, stub_gateway, django_capture_on_commit_callbacks):
    session = retired(agent)
    stub_gateway.enqueue(Reply(status=404, body={}))
    session_harvest(session_pk=session.pk, policy=POLICY)
    with django_capture_on_commit_callbacks() as callbacks:
        assert session_harvest_requeue(session=session) is True
        assert session_harvest_requeue(session=session) is False
    assert len(callbacks) == 1
    session.refresh_from_db()
    assert (session.harvest_state, session.harvest_attempts, session.harvest_error) == ("pending", 0, "")


def test_attempt_budget_holds_across_redeliveries(agent, stub_gateway):
    session = retired(agent)
    Session.objects.filter(pk=session.pk).update(harvest_attempts=POLICY.max_attempts)
    assert session_harvest(session_pk=session.pk, policy=POLICY).state == HarvestState.FAILED
    assert stub_gateway.requests == []


def test_empty_transcripts_are_skipped(agent, no_gateway):
    session, _ = Session.objects.get_or_create(agent=agent, session_id="empty")
    session_retire(session=session)
    assert session_harvest(session_pk=session.pk).state == HarvestState.SKIPPED
    session.refresh_from_db()
    assert session.harvest_result == {"skipped": "empty transcript"}
    assert not Chunk.objects.exists()


# -- sweep ----------------------------------------------------------------------------------


def test_sweep_requeues_stuck_sessions_after_the_grace_period(
    agent, settings, django_capture_on_commit_callbacks
):
    settings.SESSIONS_HARVEST_GRACE_S = 600
    settings.SESSIONS_HARVEST_STALE_S = 900
    now = timezone.now()
    stuck = retired(agent, "stuck")
    recent = retired(agent, "recent")
    claimed = retired(agent, "claimed")
    live = retired(agent, "live")
    done = retired(agent, "done")
    Session.objects.filter(pk=stuck.pk).update(harvest_updated_at=now - timedelta(minutes=11))
    Session.objects.filter(pk=recent.pk).update(harvest_updated_at=now - timedelta(minutes=2))
    Session.objects.filter(pk=claimed.pk).update(
        harvest_state=HarvestState.RUNNING, harvest_claimed_at=now - timedelta(minutes=16)
    )
    Session.objects.filter(pk=live.pk).update(
        harvest_state=HarvestState.RUNNING, harvest_claimed_at=now - timedelta(minutes=1)
    )
    Session.objects.filter(pk=done.pk).update(
        harvest_state=HarvestState.DONE, harvest_updated_at=now - timedelta(days=1)
    )
    with django_capture_on_commit_callbacks() as callbacks:
        assert sessions_harvest_sweep(now=now) == 2
        assert sessions_harvest_sweep(now=now) == 0  # just re-enqueued: inside the grace again
    assert len(callbacks) == 2
    states = dict(Session.objects.values_list("session_id", "harvest_state"))
    assert states == {
        "stuck": "pending",
        "recent": "pending",
        "claimed": "pending",
        "live": "running",
        "done": "done",
    }


# -- facts ----------------------------------------------------------------------------------

FACTS_REPLY = json.dumps(
    {
        "summary": "Set up the nightly audit export to bucket-b.",
        "facts": ["The user deploys on Tuesdays.", "Audit exports go to the bucket-b S3 bucket nightly."],
    }
)


def test_facts_are_consolidated_through_fact_ingest(agent, stub_gateway):
    session = retired(agent)
    stub_gateway.enqueue(chat_reply(FACTS_REPLY))
    outcome = session_harvest(session_pk=session.pk, policy=POLICY)
    assert outcome.facts == 2
    facts = Chunk.objects.filter(source_type="extracted").order_by("id")
    assert [f.content for f in facts] == [
        "The user deploys on Tuesdays.",
        "Audit exports go to the bucket-b S3 bucket nightly.",
    ]
    assert {(f.domain, f.source, f.agent_id, f.memory_kind) for f in facts} == {
        ("fact", "t-1", agent.pk, "fact")
    }
    session.refresh_from_db()
    assert session.harvest_result["fact_outcomes"] == {"inserted": 2}


def test_a_fact_another_thread_already_taught_is_not_stored_again(agent, stub_gateway):
    first, second = retired(agent, "t-1"), retired(agent, "t-2")
    stub_gateway.enqueue(chat_reply(FACTS_REPLY), chat_reply(FACTS_REPLY))
    session_harvest(session_pk=first.pk, policy=POLICY)
    session_harvest(session_pk=second.pk, policy=POLICY)
    assert Chunk.objects.filter(source_type="extracted").count() == 2
    assert harvest_chunks(second).count() == 1
    second.refresh_from_db()
    assert second.harvest_result["fact_outcomes"] == {"duplicate": 2}


def test_no_gateway_means_no_fact_extraction(agent, no_gateway):
    session = retired(agent)
    session_harvest(session_pk=session.pk)
    assert not Chunk.objects.filter(source_type="extracted").exists()


def test_a_failing_fact_write_leaves_no_partial_harvest(agent, stub_gateway, monkeypatch):
    session = retired(agent)
    stub_gateway.enqueue(chat_reply(FACTS_REPLY))
    calls = []

    def second_fact_breaks(*, draft, actor, path):
        from memory.lifecycle.facts import fact_ingest as real

        calls.append(draft.content)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return real(draft=draft, actor=actor, path=path)

    monkeypatch.setattr("memory.lifecycle.facts.fact_ingest", second_fact_breaks)
    outcome = session_harvest(session_pk=session.pk, policy=POLICY)
    assert outcome.state == HarvestState.FAILED
    assert len(calls) == 2
    assert not Chunk.objects.exists()  # neither the summary nor the first fact survived
    session.refresh_from_db()
    assert session.harvest_state == HarvestState.FAILED
    assert session.harvest_error == "store failed: RuntimeError"
    assert Message.objects.filter(session=session).exists()


def test_eager_mode_retries_inline_and_records_the_failure(
    agent_client, stub_gateway, settings, django_capture_on_commit_callbacks
):
    # CELERY_TASK_ALWAYS_EAGER (this suite's default): the retry cannot go through a broker
    settings.SESSIONS_HARVEST_MAX_ATTEMPTS = 3
    converse(agent_client.agent, "t-1", "hello")
    stub_gateway.default = lambda path, body: Reply(status=500, body={})
    with django_capture_on_commit_callbacks(execute=True):
        assert agent_client.delete("/api/sessions/t-1/").status_code == 204
    session = Session.objects.get()
    assert (session.harvest_state, session.harvest_attempts) == (HarvestState.FAILED, 3)
    assert len(stub_gateway.requests) == 3
    assert not Chunk.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_harvest_whose_claim_was_taken_over_writes_nothing(agent, stub_gateway, facts_off):
    # given: while this run waits on the model, the sweep declares its claim stale and another
    # worker re-claims the session (simulated from the gateway's request thread)
    from django.db import connection as thread_connection

    session = converse(agent, "t-1", "How do we rotate the audit keys?", "Use the KMS job.")
    # retired by hand: in a transactional test session_retire's on-commit harvest would run now
    Session.objects.filter(pk=session.pk).update(
        retired_at=timezone.now(), harvest_state=HarvestState.PENDING, harvest_updated_at=timezone.now()
    )
    takeover = timezone.now() + timedelta(seconds=5)

    def slow_model(path, body):
        Session.objects.filter(pk=session.pk).update(harvest_claimed_at=takeover)
        thread_connection.close()
        return chat_reply('{"summary": "Too late.", "facts": []}')

    stub_gateway.default = slow_model
    # when
    outcome = session_harvest(session_pk=session.pk, policy=POLICY)
    # then: the stale run rolls back; the row still belongs to the new claim
    assert outcome.state == "lost_claim"
    assert not Chunk.objects.exists()
    session.refresh_from_db()
    assert (session.harvest_state, session.harvest_claimed_at) == (HarvestState.RUNNING, takeover)
    assert Message.objects.filter(session=session).exists()
