"""Knowledge → Store and the review queue through Django's test client (no browser)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEvent
from audit.services import HOT_WRITTEN, REVIEWED
from memory.lifecycle.review import chunk_revise
from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.store.models import Chunk
from tests.factories import AgentFactory, ChunkFactory, SessionFactory, UserFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

STORE = reverse("admin:memory_chunk_changelist")
QUEUE = reverse("admin:memory_pendingchunk_changelist")


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def run_action(client: Client, url: str, action: str, ids: list[int]) -> Any:
    return client.post(url, {"action": action, "_selected_action": [str(i) for i in ids]}, follow=True)


# ---------------------------------------------------------------------------------------------
# Who sees what


@pytest.mark.parametrize(
    "url",
    [
        STORE,
        QUEUE,
        reverse("admin:memory_hotchunk_changelist"),
        reverse("admin:audit_injectionlog_changelist"),
        reverse("admin:sessions_app_session_changelist"),
        reverse("admin:index"),
    ],
)
def test_non_staff_users_are_sent_to_login(url: str) -> None:
    # given a signed-in user who is not staff, and an anonymous client
    user = UserFactory(username="plain", is_staff=False)
    signed_in = Client()
    signed_in.force_login(user)
    for client in (signed_in, Client()):
        # when they open a console page
        response = client.get(url)
        # then they are redirected to the login page and see nothing
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))


def test_staff_without_model_permissions_sees_no_memory(staff_user: Any) -> None:
    client = Client()
    client.force_login(staff_user)
    assert client.get(STORE).status_code == 403
    index = client.get(reverse("admin:index"))
    assert index.status_code == 200
    assert b"Review queue" not in index.content
    assert b"Hot memory" not in index.content


def test_staff_without_review_permission_gets_no_review_actions(operator_web: Client) -> None:
    ChunkFactory()
    response = operator_web.get(STORE)
    assert response.status_code == 200
    # every chunk action needs the review permission, and delete is gone: no action bar at all
    assert response.context["action_form"] is None
    assert b"confirm_selected" not in response.content
    assert b"delete_selected" not in response.content


def test_staff_without_review_permission_cannot_post_a_review_action(operator_web: Client) -> None:
    # given a pending row
    chunk = ChunkFactory(review_state="pending")
    # when an operator without memory.review_chunk posts Confirm anyway
    response = run_action(operator_web, STORE, "confirm_selected", [chunk.pk])
    # then nothing changed and nothing was audited
    assert response.status_code == 200
    chunk.refresh_from_db()
    assert chunk.review_state == "pending"
    assert not AuditEvent.objects.filter(event=REVIEWED).exists()


def test_staff_without_review_permission_cannot_use_the_verdict_buttons(operator_web: Client) -> None:
    chunk = ChunkFactory(review_state="pending")
    url = reverse("admin:memory_chunk_change", args=[chunk.pk])
    page = operator_web.get(url)
    assert b"_review_confirmed" not in page.content
    assert operator_web.post(url, {"_review_confirmed": "Confirm"}).status_code == 403
    chunk.refresh_from_db()
    assert chunk.review_state == "pending"


def test_rows_are_read_only_for_staff_without_review_permission(operator_web: Client) -> None:
    # A revision is confirmed, so editing a pending or confirmed row would be a verdict by
    # another name; a rejected row's revision stays rejected, so that edit is no verdict.
    for state in ("pending", "confirmed"):
        chunk = ChunkFactory(review_state=state, content=f"{state} content here")
        page = operator_web.get(reverse("admin:memory_chunk_change", args=[chunk.pk]))
        assert page.status_code == 200
        assert b'name="content"' not in page.content, state
    rejected = ChunkFactory(review_state="rejected")
    page = operator_web.get(reverse("admin:memory_chunk_change", args=[rejected.pk]))
    assert b'name="content"' in page.content


def test_adding_a_row_needs_the_review_permission(operator_web: Client) -> None:
    # An operator's row is stored confirmed (always-on ones enter every turn at once): a verdict.
    add = operator_web.get(reverse("admin:memory_hotchunk_add"))
    assert add.status_code == 403
    posted = operator_web.post(reverse("admin:memory_chunk_add"), {"content": "Say yes", "domain": "hot"})
    assert posted.status_code == 403
    assert not Chunk.objects.exists()


def test_delete_is_not_offered_even_to_superusers(admin_client: Client) -> None:
    chunk = ChunkFactory()
    actions = [n for n, _ in admin_client.get(STORE).context["action_form"].fields["action"].choices]
    assert "delete_selected" not in actions
    assert {"confirm_selected", "reject_selected", "reopen_selected"} <= set(actions)
    assert admin_client.get(reverse("admin:memory_chunk_delete", args=[chunk.pk])).status_code == 403
    assert Chunk.objects.filter(pk=chunk.pk).exists()


# ---------------------------------------------------------------------------------------------
# Review actions


def test_confirm_action_counts_changed_and_skipped_and_audits_each_row(
    reviewer_web: Client, review_operator: Any
) -> None:
    # given two pending rows and one already confirmed
    pending = [ChunkFactory(review_state="pending"), ChunkFactory(review_state="pending")]
    done = ChunkFactory(review_state="confirmed")
    # when the reviewer confirms all three
    response = run_action(reviewer_web, STORE, "confirm_selected", [c.pk for c in [*pending, done]])
    # then two changed, one skipped, and the message says so
    assert messages_of(response) == ["2 confirmed, 1 skipped (1 already confirmed)."]
    assert set(Chunk.objects.filter(review_state="confirmed").values_list("pk", flat=True)) == {
        pending[0].pk,
        pending[1].pk,
        done.pk,
    }
    events = AuditEvent.objects.filter(event=REVIEWED).order_by("chunk_id")
    assert [(e.chunk_id, e.actor, e.path, e.data) for e in events] == [
        (c.pk, f"user:{review_operator.pk}", "admin", {"from": "pending", "to": "confirmed"}) for c in pending
    ]


def test_reject_and_reopen_actions(reviewer_web: Client) -> None:
    rows = [ChunkFactory(review_state="pending"), ChunkFactory(review_state="confirmed")]
    response = run_action(reviewer_web, STORE, "reject_selected", [c.pk for c in rows])
    assert messages_of(response) == ["2 rejected."]
    assert list(Chunk.objects.values_list("review_state", flat=True).distinct()) == ["rejected"]
    response = run_action(reviewer_web, STORE, "reopen_selected", [rows[0].pk])
    assert messages_of(response) == ["1 reopened."]
    rows[0].refresh_from_db()
    assert rows[0].review_state == "pending"
    assert AuditEvent.objects.filter(event=REVIEWED).count() == 3


def test_action_where_nothing_changes_warns(reviewer_web: Client) -> None:
    chunk = ChunkFactory(review_state="rejected")
    response = run_action(reviewer_web, STORE, "reject_selected", [chunk.pk])
    assert messages_of(response) == ["0 rejected, 1 skipped (1 already rejected)."]
    assert not AuditEvent.objects.exists()


def test_verdict_button_in_the_queue_moves_to_the_next_pending_row(reviewer_web: Client) -> None:
    now = timezone.now()
    older = ChunkFactory(review_state="pending", created_at=now - timedelta(hours=2))
    newer = ChunkFactory(review_state="pending", created_at=now - timedelta(hours=1))
    url = reverse("admin:memory_pendingchunk_change", args=[newer.pk])
    # An edited text with Reject is refused, never silently dropped (issue 14) ...
    refused = reviewer_web.post(url, {"_review_rejected": "Reject", "content": "ignored"}, follow=True)
    assert "Nothing changed: you edited the text" in refused.content.decode()
    newer.refresh_from_db()
    assert newer.review_state == "pending"
    # ... the unedited form rejects.
    response = reviewer_web.post(url, {"_review_rejected": "Reject", "content": newer.content})
    assert response.status_code == 302
    assert (
        response["Location"] == reverse("admin:memory_pendingchunk_change", args=[older.pk]) + "?_view_done=1"
    )
    newer.refresh_from_db()
    assert newer.review_state == "rejected"
    assert newer.content.startswith("fact number")  # the verdict never saved the form


# ---------------------------------------------------------------------------------------------
# The review queue


def test_queue_lists_current_pending_rows_newest_first_with_provenance(reviewer_web: Client) -> None:
    agent = AgentFactory(name="queue-agent")
    session = SessionFactory(agent=agent, session_id="thread-queue")
    now = timezone.now()
    old = ChunkFactory(
        review_state="pending", created_at=now - timedelta(days=2), agent=agent, source="thread-queue"
    )
    new = ChunkFactory(
        review_state="pending", created_at=now - timedelta(hours=1), agent=agent, source="thread-queue"
    )
    ChunkFactory(review_state="confirmed")
    superseded = ChunkFactory(
        review_state="pending", invalidated_at=now, invalidation_reason=f"superseded_by:{new.pk}"
    )
    response = reviewer_web.get(QUEUE)
    ids = [c.pk for c in response.context["cl"].result_list]
    assert ids == [new.pk, old.pk]
    assert superseded.pk not in ids
    body = response.content.decode()
    assert '<span class="pm-view-count">2 rows</span>' in body  # the page's one count
    lookup = reverse("admin:sessions_app_session_lookup")
    assert f'href="{lookup}?session_id=thread-queue&amp;agent={agent.pk}"' in body
    # the lookup opens the session's own page
    follow = reviewer_web.get(f"{lookup}?session_id=thread-queue&agent={agent.pk}")
    assert follow["Location"] == reverse("admin:sessions_app_session_change", args=[session.pk])


def test_queue_all_view_puts_pending_first(reviewer_web: Client) -> None:
    now = timezone.now()
    confirmed = ChunkFactory(review_state="confirmed", created_at=now)
    pending = ChunkFactory(review_state="pending", created_at=now - timedelta(days=1))
    ids = [c.pk for c in reviewer_web.get(QUEUE + "?state=all").context["cl"].result_list]
    assert ids == [pending.pk, confirmed.pk]


def test_empty_queue_says_so(reviewer_web: Client) -> None:
    body = reviewer_web.get(QUEUE).content.decode()
    assert "The queue is empty." in body


# ---------------------------------------------------------------------------------------------
# Filters and search


def test_trust_tier_filter_maps_tiers_to_source_types(reviewer_web: Client) -> None:
    operator_row = ChunkFactory(source_type="admin")
    agent_row = ChunkFactory(source_type="harvest")
    external_rows = [
        ChunkFactory(source_type="web"),
        ChunkFactory(source_type=""),
        ChunkFactory(source_type="weird"),
    ]

    def ids(tier: str) -> set[int]:
        return {c.pk for c in reviewer_web.get(f"{STORE}?trust={tier}").context["cl"].result_list}

    assert ids("3") == {operator_row.pk}
    assert ids("2") == {agent_row.pk}
    assert ids("1") == {c.pk for c in external_rows}


def test_expired_and_superseded_filters(reviewer_web: Client) -> None:
    now = timezone.now()
    expired = ChunkFactory(expires_at=now - timedelta(hours=1))
    live = ChunkFactory(expires_at=now + timedelta(days=3))
    forever = ChunkFactory()
    old = ChunkFactory(invalidated_at=now, invalidation_reason=f"superseded_by:{forever.pk}")

    def ids(query: str) -> set[int]:
        return {c.pk for c in reviewer_web.get(f"{STORE}?{query}").context["cl"].result_list}

    assert ids("expired=yes") == {expired.pk}
    assert ids("expired=no") == {live.pk, forever.pk, old.pk}
    assert ids("superseded=yes") == {old.pk}
    assert ids("superseded=no") == {expired.pk, live.pk, forever.pk}


def test_namespace_filter_includes_the_blank_namespace(reviewer_web: Client) -> None:
    blank = ChunkFactory(namespace="")
    research = ChunkFactory(namespace="research")
    page = reviewer_web.get(STORE)
    assert "(no namespace)" in page.content.decode()
    assert [c.pk for c in reviewer_web.get(f"{STORE}?ns=__none__").context["cl"].result_list] == [blank.pk]
    assert [c.pk for c in reviewer_web.get(f"{STORE}?ns=research").context["cl"].result_list] == [research.pk]


def test_search_box_uses_the_stemmed_fts5_search_in_rank_order(reviewer_web: Client) -> None:
    # given rows only a stemmed full-text search connects to the query ("deployments" ~ "deploy")
    weak = add_chunk(ChunkDraft(content="notes about a deployment", heading="misc", source_type="admin"))
    strong = add_chunk(
        ChunkDraft(content="deploying the deployment", heading="deployments", source_type="admin")
    )
    add_chunk(ChunkDraft(content="unrelated lunch menu", source_type="admin"))
    # when the operator searches
    response = reviewer_web.get(STORE, {"q": "deployments"})
    # then FTS5 (porter) finds both, heading hit first (bm25 weights), and nothing else
    assert [c.pk for c in response.context["cl"].result_list] == [strong.pk, weak.pk]


def test_search_respects_the_active_filters(reviewer_web: Client) -> None:
    kept = add_chunk(ChunkDraft(content="pipeline runbook", source_type="admin"))
    add_chunk(ChunkDraft(content="pipeline rumour", source_type="web"))
    response = reviewer_web.get(STORE, {"q": "pipeline", "trust": "3"})
    assert [c.pk for c in response.context["cl"].result_list] == [kept.pk]


# ---------------------------------------------------------------------------------------------
# Add and edit


def test_adding_in_admin_is_an_operator_write(reviewer_web: Client, review_operator: Any) -> None:
    response = reviewer_web.post(
        reverse("admin:memory_chunk_add"),
        {"heading": "Runbook", "content": "Restart the worker with systemctl.", "domain": "note"},
    )
    assert response.status_code == 302
    chunk = Chunk.objects.get()
    assert (chunk.source_type, chunk.trust_label, chunk.review_state, chunk.delivery_policy) == (
        "admin",
        "operator",
        "confirmed",
        "retrieved",
    )
    assert chunk.source == f"user:{review_operator.pk}"
    assert not AuditEvent.objects.filter(event=HOT_WRITTEN).exists()


def test_adding_an_always_on_row_emits_hot_written(reviewer_web: Client, review_operator: Any) -> None:
    reviewer_web.post(
        reverse("admin:memory_chunk_add"),
        {"heading": "Style", "content": "Answer in British English.", "domain": "hot"},
    )
    chunk = Chunk.objects.get()
    assert chunk.delivery_policy == "always"
    event = AuditEvent.objects.get(event=HOT_WRITTEN)
    assert (event.chunk_id, event.actor, event.path) == (chunk.pk, f"user:{review_operator.pk}", "admin")


def test_reasoning_only_content_is_refused_on_the_form(reviewer_web: Client) -> None:
    response = reviewer_web.post(
        reverse("admin:memory_chunk_add"), {"content": "<think>plotting</think>", "domain": "note"}
    )
    assert response.status_code == 200
    assert "empty once reasoning blocks" in response.content.decode()
    assert not Chunk.objects.exists()


def test_editing_content_makes_a_confirmed_revision_and_lands_on_it(
    reviewer_web: Client, review_operator: Any
) -> None:
    # given a pending agent row
    old = add_chunk(
        ChunkDraft(content="The pool is 20.", heading="Pool", source_type="memory_ingest", namespace="ops")
    )
    url = reverse("admin:memory_chunk_change", args=[old.pk])
    # when the reviewer edits its content
    response = reviewer_web.post(url, {"heading": "Pool", "content": "The pool is 40."})
    # then a new confirmed operator revision exists, the old row is superseded, not overwritten
    new = Chunk.objects.exclude(pk=old.pk).get()
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:memory_chunk_change", args=[new.pk])
    assert (new.content, new.review_state, new.source_type, new.namespace) == (
        "The pool is 40.",
        "confirmed",
        "operator",
        "ops",
    )
    old.refresh_from_db()
    assert old.content == "The pool is 20."
    assert old.invalidation_reason == f"superseded_by:{new.pk}"
    # and the new page shows the chain both ways
    page = reviewer_web.get(response["Location"]).content.decode()
    assert f'href="{reverse("admin:memory_chunk_change", args=[old.pk])}">#{old.pk}</a>' in page
    assert "(this row)" in page
    old_page = reviewer_web.get(url).content.decode()
    assert (
        f'superseded by <a href="{reverse("admin:memory_chunk_change", args=[new.pk])}">#{new.pk}</a>'
        in old_page
    )
    assert b'name="content"' not in reviewer_web.get(url).content  # history is read-only
    # and the admin's own log says who revised which row into which
    entry = LogEntry.objects.get(object_id=str(old.pk))
    assert entry.user == review_operator
    assert entry.get_change_message() == f"Changed content for revision “#{new.pk}”."


def test_saving_without_a_change_stores_nothing(reviewer_web: Client) -> None:
    chunk = add_chunk(ChunkDraft(content="Same text.", heading="Same", source_type="admin"))
    url = reverse("admin:memory_chunk_change", args=[chunk.pk])
    response = reviewer_web.post(url, {"heading": "Same", "content": "Same text."}, follow=True)
    assert Chunk.objects.count() == 1
    assert messages_of(response) == ["No change to the heading or content: nothing was stored."]


def test_chain_of_three_revisions_reads_the_same_from_every_row(reviewer_web: Client) -> None:
    first = add_chunk(ChunkDraft(content="v1 text", source_type="admin"))
    second = chunk_revise(chunk_id=first.pk, content="v2 text", actor="system")
    third = chunk_revise(chunk_id=second.pk, content="v3 text", actor="system")
    for row in (first, second, third):
        page = reviewer_web.get(reverse("admin:memory_chunk_change", args=[row.pk])).content.decode()
        positions = [
            page.index(f">#{c.pk}</a>", page.index('<ol class="pm-chain">')) for c in (first, second, third)
        ]
        assert positions == sorted(positions), f"chain out of order on #{row.pk}"


def test_change_page_shows_the_chunks_injection_history(reviewer_web: Client) -> None:
    from audit.services import injection_log_record

    chunk = add_chunk(ChunkDraft(content="always inject this", domain="hot", source_type="admin"))
    log = injection_log_record(agent_id=None, session_id="thread-77", hot_ids=[chunk.pk])
    page = reviewer_web.get(reverse("admin:memory_chunk_change", args=[chunk.pk])).content.decode()
    assert "thread-77" in page
    assert reverse("admin:audit_injectionlog_change", args=[log.pk]) in page
    other = add_chunk(ChunkDraft(content="never injected", source_type="admin"))
    page = reviewer_web.get(reverse("admin:memory_chunk_change", args=[other.pk])).content.decode()
    assert "Never injected" in page


# ---------------------------------------------------------------------------------------------
# Delete: the lifecycle's restorable bulk delete (never a hard delete from the console)


def test_delete_action_marks_rows_for_the_reap_and_restore_undoes_it(
    admin_client: Client, admin_user: Any
) -> None:
    from memory.lifecycle.retention import BULK_DELETE_MARKER, BULK_DELETED, BULK_RESTORED

    live = ChunkFactory()
    history = ChunkFactory(invalidated_at=timezone.now(), invalidation_reason=f"superseded_by:{live.pk}")
    response = run_action(admin_client, STORE, "delete_restorably", [live.pk, history.pk])
    [message] = messages_of(response)
    assert message.startswith("1 deleted (restorable until ")
    assert message.endswith(", 1 skipped (superseded or already deleted).")
    live.refresh_from_db()
    history.refresh_from_db()
    assert live.invalidation_reason == BULK_DELETE_MARKER
    assert history.invalidation_reason == f"superseded_by:{live.pk}"  # audit chains are never deleted
    assert AuditEvent.objects.get(event=BULK_DELETED).actor == f"user:{admin_user.pk}"
    page = admin_client.get(reverse("admin:memory_chunk_change", args=[live.pk])).content.decode()
    assert "reaped after" in page
    assert 'name="_restore"' in page
    response = run_action(admin_client, STORE, "restore_deleted", [live.pk])
    assert messages_of(response) == ["1 restored."]
    live.refresh_from_db()
    assert live.invalidated_at is None
    assert AuditEvent.objects.filter(event=BULK_RESTORED, chunk_id=live.pk).exists()


def test_delete_needs_the_delete_permission(reviewer_web: Client) -> None:
    chunk = ChunkFactory()
    actions = [n for n, _ in reviewer_web.get(STORE).context["action_form"].fields["action"].choices]
    assert "delete_restorably" not in actions
    url = reverse("admin:memory_chunk_change", args=[chunk.pk])
    assert 'name="_remove"' not in reviewer_web.get(url).content.decode()
    assert reviewer_web.post(url, {"_remove": "Delete"}).status_code == 403
    chunk.refresh_from_db()
    assert chunk.invalidated_at is None


def test_delete_button_on_a_hot_row_takes_it_out_of_hot_memory(admin_client: Client) -> None:
    row = add_chunk(ChunkDraft(content="Pinned by mistake.", domain="hot", source_type="admin"))
    url = reverse("admin:memory_hotchunk_change", args=[row.pk])
    response = admin_client.post(url, {"_remove": "Delete (restorable)"}, follow=True)
    assert messages_of(response)[0].startswith(f"#{row.pk} deleted: it no longer delivers")
    listed = admin_client.get(reverse("admin:memory_hotchunk_changelist")).context["cl"].result_list
    assert row.pk not in [c.pk for c in listed]
    assert Chunk.objects.filter(pk=row.pk).exists()  # still in the table until the grace reap
