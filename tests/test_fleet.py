"""A fleet of real Celery workers on Redis harvesting retired sessions (issue 7, part 2).

Each test boots its own workers on a queue and an unacked set of their own
(tests/fixtures/worker.py `worker_fleet`) and talks to the stub gateway, which can hold a
request until the test releases it: a worker blocked there is provably mid-harvest. What must
hold however the work is spread or interrupted: one summary chunk per session, no fact stored
twice, one model call per session unless a worker died inside it, and nothing left unharvested.
"""

from __future__ import annotations

import json
import os
import re
import signal
import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from memory.store.models import Chunk
from sessions_app.models import Agent, HarvestState, Session
from sessions_app.retirement import HarvestPolicy, session_harvest, session_retire
from sessions_app.services import MessageInput, session_register, session_turn_append
from sessions_app.tasks import session_harvest_task
from tests.factories import AgentFactory
from tests.fixtures.gateway import Reply, StubGateway, chat_reply
from tests.fixtures.worker import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

SHARED_FACT = "The team deploys every service with Ansible playbooks."
SETTLED = (HarvestState.DONE, HarvestState.FAILED, HarvestState.SKIPPED)
_PROMPT_SESSION = re.compile(r"Session (\S+) \(")


@pytest.fixture(autouse=True)
def _fast_retries(settings):
    # the retry policy travels in the task message, so this process's settings decide it
    settings.SESSIONS_HARVEST_BACKOFF_S = 0.05
    settings.SESSIONS_HARVEST_BACKOFF_MAX_S = 0.2


def unique_fact(session_id: str) -> str:
    tag = session_id.replace("-", "")
    return f"Codename {tag} stores {tag}x archives."  # Jaccard 3/7 to its siblings: never a dedup


def reply_for(session_id: str, *, by: str = "a survivor") -> Reply:
    summary = f"Harvest of {session_id} by {by}."
    return chat_reply(json.dumps({"summary": summary, "facts": [unique_fact(session_id), SHARED_FACT]}))


def prompted_session(body: dict) -> str:
    """The session a harvest prompt is about (its header names it)."""
    match = _PROMPT_SESSION.match(body["messages"][-1]["content"])
    assert match, body
    return match.group(1)


def model_calls(stub: StubGateway) -> Counter[str]:
    return Counter(
        prompted_session(r["body"]) for r in list(stub.requests) if r["path"].endswith("/chat/completions")
    )


def retired_conversation(agent: Agent, session_id: str) -> Session:
    """A finished conversation, retired: its harvest is enqueued on commit (to the fleet)."""
    session, _ = session_register(agent=agent, session_id=session_id)
    session_turn_append(
        session=session,
        messages=[
            MessageInput(role="user", content=f"Where does {session_id} keep its archives?"),
            MessageInput(role="assistant", content="In the codename store."),
        ],
        terminal=True,
    )
    assert session_retire(session=session)
    return session


def settle(sessions: list[Session], *, timeout: float = 180) -> dict[str, Session]:
    pks = [s.pk for s in sessions]

    def check() -> dict[str, Session] | None:
        rows = {s.session_id: s for s in Session.objects.filter(pk__in=pks)}
        return rows if all(s.harvest_state in SETTLED for s in rows.values()) else None

    return wait_until(check, timeout=timeout, what=f"{len(pks)} harvests to settle")


def assert_harvested_once(agent: Agent, rows: dict[str, Session]) -> None:
    """One summary chunk per session (the one its result names) and every fact exactly once."""
    summaries = Chunk.objects.filter(agent=agent, source_type="harvest")
    assert Counter(summaries.values_list("source", flat=True)) == dict.fromkeys(rows, 1)
    for session_id, row in rows.items():
        assert row.harvest_result["summary_chunk"] == summaries.get(source=session_id).pk
    facts = Chunk.objects.filter(agent=agent, source_type="extracted").values_list("content", flat=True)
    assert Counter(facts) == {**{unique_fact(s): 1 for s in rows}, SHARED_FACT: 1}


def assert_survivor_took_over(victim_row: Session, first: Session, *, lease_s: float) -> None:
    """The killed worker's harvest finished once, by a survivor, never before the lease ran out."""
    assert (victim_row.harvest_state, victim_row.harvest_attempts) == (HarvestState.DONE, 2)
    assert victim_row.harvest_claimed_at - first.harvest_claimed_at >= timedelta(seconds=lease_s)
    assert Chunk.objects.get(source="victim", source_type="harvest").content == (
        "Harvest of victim by a survivor."
    )


# -- claim semantics, in-process (what every worker relies on) --------------------------------


@pytest.mark.django_db
def test_a_fresh_claim_is_left_alone_and_a_stale_one_is_taken_over(stub_gateway, settings):
    # given: a worker claimed the harvest and then went silent
    settings.SESSIONS_HARVEST_STALE_S = 900
    agent = AgentFactory(name="claims")
    session = retired_conversation(agent, "claimed")
    held_since = timezone.now() - timedelta(minutes=5)
    Session.objects.filter(pk=session.pk).update(
        harvest_state=HarvestState.RUNNING, harvest_claimed_at=held_since, harvest_attempts=1
    )
    stub_gateway.default = lambda path, body: reply_for("claimed")
    # when: another delivery arrives inside the lease
    busy = session_harvest(session_pk=session.pk, policy=HarvestPolicy())
    # then: it leaves the row and the model alone, and says when the lease runs out
    assert busy.state == "busy"
    assert 590 <= busy.retry_in <= 600
    session.refresh_from_db()
    assert (session.harvest_state, session.harvest_claimed_at, session.harvest_attempts) == (
        HarvestState.RUNNING,
        held_since,
        1,
    )
    assert stub_gateway.requests == []
    # when: the lease has run out
    Session.objects.filter(pk=session.pk).update(harvest_claimed_at=timezone.now() - timedelta(minutes=16))
    done = session_harvest(session_pk=session.pk, policy=HarvestPolicy())
    # then: the next delivery takes it over and harvests it once
    assert done.state == HarvestState.DONE
    session.refresh_from_db()
    assert (session.harvest_state, session.harvest_attempts) == (HarvestState.DONE, 2)
    assert_harvested_once(agent, {"claimed": session})
    assert model_calls(stub_gateway) == {"claimed": 1}


# -- a real fleet ------------------------------------------------------------------------------


def test_three_workers_harvest_twenty_sessions_once_each(worker_fleet, stub_gateway):
    # given: three workers, and a model that answers nobody until three harvests are inside it
    # at once (so three workers provably work concurrently)
    fleet = worker_fleet(("solo", "solo", "solo"))
    together = threading.Barrier(3, timeout=45)
    arrivals, lock = [0], threading.Lock()

    def answer(path: str, body: dict) -> Reply:
        with lock:
            arrivals[0] += 1
            first_three = arrivals[0] <= 3
        if first_three:
            try:
                together.wait()
            except threading.BrokenBarrierError:
                return Reply(status=500, body={"error": "fewer than three concurrent harvests"})
        return reply_for(prompted_session(body))

    stub_gateway.default = answer
    agent = AgentFactory(name="fleet")
    # when: twenty sessions retire, each harvest delivered twice
    sessions = []
    for i in range(20):
        session = retired_conversation(agent, f"fleet-{i:02d}")
        session_harvest_task.delay(session.pk)
        sessions.append(session)
    rows = settle(sessions)
    wait_until(fleet.drained, timeout=60, what="the fleet's queue to drain")
    # then: every session harvested exactly once, by one model call each
    assert not together.broken
    assert {(s.harvest_state, s.harvest_attempts) for s in rows.values()} == {(HarvestState.DONE, 1)}
    assert model_calls(stub_gateway) == dict.fromkeys(rows, 1)
    assert_harvested_once(agent, rows)
    outcomes = Counter()
    for row in rows.values():
        outcomes.update(row.harvest_result["fact_outcomes"])
    assert outcomes == {"inserted": 21, "duplicate": 19}  # the shared fact landed once


def test_a_worker_killed_inside_the_model_call_is_taken_over_by_a_survivor(worker_fleet, stub_gateway):
    # given: three solo workers whose dead claims go stale after 3 s; Redis redelivers an
    # unacked task after 6 s (longer than the lease, as in production: 3600 s vs 900 s)
    lease_s = 3
    fleet = worker_fleet(
        ("solo", "solo", "solo"), visibility_timeout=6, env={"SESSIONS_HARVEST_STALE_S": str(lease_s)}
    )
    doomed, *survivors = fleet.workers
    fleet.pause(*survivors)  # so the victim's harvest can only go to `doomed`
    stub_gateway.default = lambda path, body: reply_for(prompted_session(body))
    stub_gateway.held(reply_for("victim", by="the killed worker"))
    agent = AgentFactory(name="fleet")
    victim = retired_conversation(agent, "victim")
    wait_until(lambda: model_calls(stub_gateway), what="the victim's harvest to reach the model")
    first = Session.objects.get(pk=victim.pk)
    assert (first.harvest_state, first.harvest_attempts) == (HarvestState.RUNNING, 1)
    # when: kill -9 the worker while it waits on the model; work keeps arriving
    assert doomed.kill() == -signal.SIGKILL
    later = [retired_conversation(agent, f"later-{i}") for i in range(5)]
    fleet.resume(*survivors)
    rows = settle([victim, *later])
    wait_until(fleet.drained, timeout=60, what="the fleet's queue to drain")
    # then: a survivor took the stale claim over (never before the lease ran out) and
    # harvested once; nothing else was lost or doubled
    assert_survivor_took_over(rows["victim"], first, lease_s=lease_s)
    assert {(rows[s.session_id].harvest_state, rows[s.session_id].harvest_attempts) for s in later} == {
        (HarvestState.DONE, 1)
    }
    assert model_calls(stub_gateway) == {"victim": 2, **dict.fromkeys((s.session_id for s in later), 1)}
    assert_harvested_once(agent, rows)


def test_a_killed_prefork_child_is_requeued_and_waits_out_the_lease(worker_fleet, stub_gateway):
    # given: a prefork worker (as `make worker` runs) beside a solo one; a lost child's task is
    # requeued at once (CELERY_TASK_REJECT_ON_WORKER_LOST), long before its claim goes stale
    lease_s = 3
    fleet = worker_fleet(("prefork", "solo"), env={"SESSIONS_HARVEST_STALE_S": str(lease_s)})
    pooled, sibling = fleet.workers
    fleet.pause(sibling)
    stub_gateway.default = lambda path, body: reply_for(prompted_session(body))
    stub_gateway.held(reply_for("victim", by="the killed child"))
    agent = AgentFactory(name="fleet")
    victim = retired_conversation(agent, "victim")
    wait_until(lambda: model_calls(stub_gateway), what="the victim's harvest to reach the model")
    first = Session.objects.get(pk=victim.pk)
    assert first.harvest_state == HarvestState.RUNNING
    (child,) = pooled.pool_children()
    # when: kill -9 the pool child inside the model call
    os.kill(child, signal.SIGKILL)
    later = [retired_conversation(agent, f"later-{i}") for i in range(3)]
    fleet.resume(sibling)
    rows = settle([victim, *later])
    wait_until(fleet.drained, timeout=60, what="the fleet's queue to drain")
    # then: the requeued delivery found the claim fresh, came back when the lease ran out,
    # took it over and harvested once
    assert_survivor_took_over(rows["victim"], first, lease_s=lease_s)
    assert model_calls(stub_gateway) == {"victim": 2, **dict.fromkeys((s.session_id for s in later), 1)}
    assert_harvested_once(agent, rows)


def test_a_visibility_timeout_below_the_lease_is_warned(settings):
    from sessions_app.checks import harvest_lease_check

    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 60}
    settings.SESSIONS_HARVEST_STALE_S = 900
    assert [m.id for m in harvest_lease_check()] == ["sessions_app.W101"]
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
    assert harvest_lease_check() == []
