"""Sessions, injections, audit events, skills and agents in the console (Django test client)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEvent, InjectionLog
from audit.services import audit_event_record, injection_log_record
from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.store.models import Skill
from sessions_app.digest import digest_entries, format_line
from sessions_app.models import Session, SessionSummary
from sessions_app.services import MessageInput, session_register, session_turn_append
from tests.admin.test_chunk_admin import messages_of, run_action
from tests.factories import AgentFactory, ChunkFactory, SessionFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

SESSIONS = reverse("admin:sessions_app_session_changelist")
INJECTIONS = reverse("admin:audit_injectionlog_changelist")
EVENTS = reverse("admin:audit_auditevent_changelist")


def summarized_session(agent: Any, session_id: str, question: str) -> Session:
    session, _ = session_register(agent=agent, session_id=session_id)
    session_turn_append(
        session=session,
        messages=[MessageInput(role="user", content=question), MessageInput(role="assistant", content="ok")],
        terminal=True,
    )
    session.refresh_from_db()
    return session


# ---------------------------------------------------------------------------------------------
# Sessions


def test_session_page_shows_the_summary_as_the_digest_derives_it(reviewer_web: Client) -> None:
    agent = AgentFactory(name="digest-agent")
    session = summarized_session(agent, "thread-digest", "How do we rotate the API keys?")
    summarized_session(agent, "thread-other", "Something else entirely")
    summary = SessionSummary.objects.get(session=session)
    page = reviewer_web.get(reverse("admin:sessions_app_session_change", args=[session.pk])).content.decode()
    # the exact line the digest gives other sessions of this agent
    entry = next(
        e
        for e in digest_entries(agent=agent, active_session_id="thread-other")
        if e.session_id == "thread-digest"
    )
    assert entry.line == format_line(
        session_id="thread-digest",
        timestamp=summary.updated_at,
        surface=summary.surface,
        topic=summary.topic,
        message_count=summary.message_count,
    )
    assert f"- {entry.line}" in page
    assert "listed now, #" in page
    assert "How do we rotate the API keys?" in page  # the full summary, as recall_session returns it
    assert f"{INJECTIONS}?session=thread-digest&amp;agent={agent.pk}" in page


def test_sessions_without_a_summary_say_why(reviewer_web: Client) -> None:
    agent = AgentFactory()
    session, _ = session_register(agent=agent, session_id="thread-private", incognito=True)
    page = reviewer_web.get(reverse("admin:sessions_app_session_change", args=[session.pk])).content.decode()
    assert "incognito and background sessions are never summarized" in page


def test_session_list_links_each_session_to_its_injections(reviewer_web: Client) -> None:
    session = SessionFactory(session_id="thread-links")
    page = reviewer_web.get(SESSIONS).content.decode()
    assert f"{INJECTIONS}?session=thread-links&amp;agent={session.agent_id}" in page


def test_session_list_shows_which_sessions_wrote_rows_waiting_for_review(reviewer_web: Client) -> None:
    agent = AgentFactory(name="writer-agent")
    noisy = SessionFactory(agent=agent, session_id="thread-noisy")
    quiet = SessionFactory(agent=agent, session_id="thread-quiet")
    ChunkFactory(agent=agent, source="thread-noisy", review_state="pending")
    ChunkFactory(agent=agent, source="thread-noisy", review_state="pending")
    ChunkFactory(agent=agent, source="thread-noisy", review_state="confirmed")
    ChunkFactory(agent=agent, source="thread-quiet", review_state="confirmed")
    ChunkFactory(agent=AgentFactory(name="another"), source="thread-quiet", review_state="pending")
    page = reviewer_web.get(SESSIONS).content.decode()
    queue = reverse("admin:memory_pendingchunk_changelist")
    assert f'href="{queue}?session=thread-noisy&amp;agent={agent.pk}">2 waiting</a>' in page
    assert page.count("pm-session-waiting") == 1  # thread-quiet's pending row is another agent's
    waiting = reviewer_web.get(SESSIONS + "?waiting=yes").context["cl"].result_list
    assert [s.pk for s in waiting] == [noisy.pk]
    settled = reviewer_web.get(SESSIONS + "?waiting=no").context["cl"].result_list
    assert [s.pk for s in settled] == [quiet.pk]


def test_deleting_a_session_removes_it_from_the_digest(reviewer_web: Client) -> None:
    agent = AgentFactory()
    doomed = summarized_session(agent, "thread-doomed", "delete me")
    summarized_session(agent, "thread-stays", "keep me")
    assert "thread-doomed" in [e.session_id for e in digest_entries(agent=agent, active_session_id=None)]
    response = reviewer_web.post(
        reverse("admin:sessions_app_session_delete", args=[doomed.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not Session.objects.filter(pk=doomed.pk).exists()
    # the digest's 60 s cache was cleared, so the very next turn no longer lists it
    assert [e.session_id for e in digest_entries(agent=agent, active_session_id=None)] == ["thread-stays"]


def test_sessions_are_read_only_apart_from_delete(reviewer_web: Client) -> None:
    session = SessionFactory()
    assert reviewer_web.get(reverse("admin:sessions_app_session_add")).status_code == 403
    page = reviewer_web.get(reverse("admin:sessions_app_session_change", args=[session.pk])).content.decode()
    assert 'name="session_id"' not in page


def test_retire_action_needs_change_permission_and_queues_the_harvest(
    reviewer_web: Client, admin_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    session = SessionFactory()
    # reviewer-op has view/delete session only: no retire action
    response = reviewer_web.get(SESSIONS)
    assert "retire_selected" not in [n for n, _ in response.context["action_form"].fields["action"].choices]
    with django_capture_on_commit_callbacks() as callbacks:
        response = run_action(admin_client, SESSIONS, "retire_selected", [session.pk])
    assert messages_of(response) == ["1 retired."]
    session.refresh_from_db()
    assert session.retired_at is not None
    assert session.harvest_state == "pending"
    assert len(callbacks) == 1  # the harvest task, enqueued on commit (never run inline)


def test_session_lookup_falls_back_to_a_search(reviewer_web: Client) -> None:
    response = reviewer_web.get(reverse("admin:sessions_app_session_lookup") + "?session_id=missing")
    assert response.status_code == 302
    assert response["Location"] == f"{SESSIONS}?q=missing"


# ---------------------------------------------------------------------------------------------
# Injections


def test_injections_filter_by_session_date_and_chunk_and_link_chunks(reviewer_web: Client) -> None:
    a = injection_log_record(agent_id=1, session_id="thread-a", hot_ids=[11, 12], rag_ids=[21])
    b = injection_log_record(agent_id=1, session_id="thread-b", rag_ids=[22])
    old = injection_log_record(agent_id=2, session_id="thread-a", hot_ids=[11])
    InjectionLog.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=40))

    def ids(query: str) -> set[int]:
        return {r.pk for r in reviewer_web.get(INJECTIONS + query).context["cl"].result_list}

    assert ids("") == {a.pk, b.pk, old.pk}
    assert ids("?session=thread-a") == {a.pk, old.pk}
    assert ids("?agent=2") == {old.pk}
    since = (timezone.now() - timedelta(days=7)).date().isoformat()
    assert ids(f"?created_at__gte={since}") == {a.pk, b.pk}
    assert ids("?chunk=11") == {a.pk, old.pk}
    page = reviewer_web.get(INJECTIONS).content.decode()
    assert f'href="{reverse("admin:memory_chunk_change", args=[21])}">#21</a>' in page


def test_injection_page_names_the_delivered_chunks(reviewer_web: Client) -> None:
    chunk = add_chunk(
        ChunkDraft(content="Deploys frozen on Fridays.", heading="Deploy freeze", source_type="admin")
    )
    log = injection_log_record(agent_id=None, session_id="thread-x", rag_ids=[chunk.pk, 999999])
    page = reviewer_web.get(reverse("admin:audit_injectionlog_change", args=[log.pk])).content.decode()
    assert "Deploy freeze" in page
    assert "(no longer in the store)" in page


def test_injections_and_audit_events_are_read_only(admin_client: Client) -> None:
    log = injection_log_record(agent_id=None, session_id="thread-ro", hot_ids=[1])
    event = audit_event_record(event="memory.reviewed", actor="user:1", chunk_id=1)
    assert admin_client.get(reverse("admin:audit_injectionlog_add")).status_code == 403
    assert admin_client.get(reverse("admin:audit_auditevent_add")).status_code == 403
    assert (
        admin_client.post(
            reverse("admin:audit_injectionlog_delete", args=[log.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert (
        admin_client.post(
            reverse("admin:audit_auditevent_delete", args=[event.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert InjectionLog.objects.filter(pk=log.pk).exists()
    assert AuditEvent.objects.filter(pk=event.pk).exists()
    page = admin_client.get(reverse("admin:audit_injectionlog_change", args=[log.pk])).content.decode()
    assert 'type="submit" value="Save"' not in page


def test_audit_events_show_the_operator_behind_an_actor(reviewer_web: Client, review_operator: Any) -> None:
    audit_event_record(
        event="memory.reviewed",
        actor=f"user:{review_operator.pk}",
        chunk_id=5,
        data={"from": "pending", "to": "rejected"},
    )
    audit_event_record(event="memory.hot_written", actor="agent:3", chunk_id=6)
    page = reviewer_web.get(EVENTS).content.decode()
    assert f'user:{review_operator.pk} <span class="pm-quiet">(reviewer-op)</span>' in page
    assert "pending → rejected" in page
    assert [e.chunk_id for e in reviewer_web.get(EVENTS + "?chunk_id=5").context["cl"].result_list] == [5]


def test_empty_injection_log_says_so(reviewer_web: Client) -> None:
    assert "No injections logged yet." in reviewer_web.get(INJECTIONS).content.decode()


# ---------------------------------------------------------------------------------------------
# Skills and agents


def test_skills_are_written_through_the_skill_services(admin_client: Client) -> None:
    response = admin_client.post(
        reverse("admin:memory_skill_add"),
        {"name": "release checklist", "description": "d", "content": "c", "enabled": "on"},
    )
    assert response.status_code == 200  # one word only, like the API
    assert not Skill.objects.exists()
    admin_client.post(
        reverse("admin:memory_skill_add"),
        {
            "name": "release-checklist",
            "description": "  Ship safely ",
            "content": "1. freeze",
            "enabled": "on",
        },
    )
    skill = Skill.objects.get()
    assert skill.description == "Ship safely"  # skill_create strips it
    admin_client.post(
        reverse("admin:memory_skill_change", args=[skill.pk]),
        {"description": "Ship a release", "content": "1. freeze\n2. ship"},
    )
    skill.refresh_from_db()
    assert (skill.name, skill.description, skill.enabled) == ("release-checklist", "Ship a release", False)
    found = admin_client.get(reverse("admin:memory_skill_changelist"), {"q": "ship"})
    assert [s.pk for s in found.context["cl"].result_list] == [skill.pk]


def test_agent_list_counts_keys_and_sessions(admin_client: Client) -> None:
    from sessions_app.services import agent_key_create

    agent, _ = agent_key_create(name="counted")
    SessionFactory(agent=agent)
    SessionFactory(agent=agent)
    page = admin_client.get(reverse("admin:sessions_app_agent_changelist")).content.decode()
    assert f'agent__id__exact={agent.pk}">1</a>' in page
    assert f'agent__id__exact={agent.pk}">2</a>' in page
