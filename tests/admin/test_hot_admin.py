"""Hot memory in the console: exactly the projection's always-on set, with its budget."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEvent
from audit.services import HOT_WRITTEN
from memory.lifecycle.selectors import HOT_MAX_CHARS, hot_set
from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.store.models import Chunk
from tests.factories import ChunkFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

HOT = reverse("admin:memory_hotchunk_changelist")


def hot(content: str, **kwargs: Any) -> Chunk:
    return ChunkFactory(delivery_policy="always", domain="hot", content=content, **kwargs)


def listed(client: Client, query: str = "") -> list[int]:
    return [c.pk for c in client.get(HOT + query).context["cl"].result_list]


def test_list_is_exactly_the_hot_set_including_budget_skips(reviewer_web: Client) -> None:
    # given rows around the 6,000-char budget, plus rows that never deliver
    now = timezone.now()
    big = hot("x" * (HOT_MAX_CHARS - 100), created_at=now - timedelta(minutes=1))
    too_big = hot("y" * 500, created_at=now - timedelta(minutes=4))  # older, and no longer fits
    small = hot("z" * 50, created_at=now - timedelta(minutes=10))  # older and small: still fits
    hot("rejected", review_state="rejected", created_at=now)
    hot("expired", expires_at=now - timedelta(seconds=1), created_at=now)
    ChunkFactory(delivery_policy="retrieved")
    # then the changelist shows what the selector returns, in its order
    expected = [c.pk for c in hot_set()]
    assert listed(reviewer_web) == expected
    assert too_big.pk not in expected
    assert expected == [big.pk, small.pk]
    page = reviewer_web.get(HOT).content.decode()
    assert f"{HOT_MAX_CHARS - 100 + 50} of 6000 chars used" in page
    assert "<strong>1</strong> more always-on row does not fit the budget" in page
    assert "1 rejected and 1 expired always-on rows never deliver." in page


def test_reader_filter_shows_a_pinned_agents_hot_set(reviewer_web: Client, settings: Any) -> None:
    shared = hot("for everyone", namespace="")
    research = hot("for research only", namespace="research")
    assert set(listed(reviewer_web)) == {shared.pk, research.pk}  # unpinned: all namespaces
    assert listed(reviewer_web, "?reader=research") == [research.pk]
    # with inject_namespaces configured, the unpinned reader is narrowed too
    knowledge = dataclasses.replace(settings.PROTOMEM.knowledge, inject_namespaces=[""])
    settings.PROTOMEM = dataclasses.replace(settings.PROTOMEM, knowledge=knowledge)
    assert listed(reviewer_web) == [shared.pk]


def test_empty_hot_memory_says_so(reviewer_web: Client) -> None:
    page = reviewer_web.get(HOT).content.decode()
    assert "No always-on memory is delivered" in page
    assert "0 of 6000 chars used" in page


def test_adding_in_hot_memory_pins_always_on_and_emits_hot_written(
    reviewer_web: Client, review_operator: Any
) -> None:
    response = reviewer_web.post(
        reverse("admin:memory_hotchunk_add"),
        {"heading": "Tone", "content": "Be brief.", "domain": "preferences"},
    )
    assert response.status_code == 302
    chunk = Chunk.objects.get()
    assert (chunk.delivery_policy, chunk.review_state, chunk.source_type, chunk.domain) == (
        "always",
        "confirmed",
        "admin",
        "preferences",
    )
    event = AuditEvent.objects.get(event=HOT_WRITTEN)
    assert (event.chunk_id, event.actor, event.path) == (chunk.pk, f"user:{review_operator.pk}", "admin")
    assert listed(reviewer_web) == [chunk.pk]


def test_editing_a_hot_row_makes_an_always_on_revision_and_emits_hot_written(
    reviewer_web: Client, review_operator: Any
) -> None:
    old = add_chunk(ChunkDraft(content="Deploys frozen Fridays.", domain="hot", source_type="admin"))
    AuditEvent.objects.all().delete()
    response = reviewer_web.post(
        reverse("admin:memory_hotchunk_change", args=[old.pk]),
        {"heading": "", "content": "Deploys frozen Fridays after 15:00 UTC."},
    )
    new = Chunk.objects.exclude(pk=old.pk).get()
    assert response["Location"] == reverse("admin:memory_hotchunk_change", args=[new.pk])
    assert new.delivery_policy == "always"
    assert listed(reviewer_web) == [new.pk]  # the old row left the hot set with its supersession
    event = AuditEvent.objects.get(event=HOT_WRITTEN)
    assert (event.chunk_id, event.actor) == (new.pk, f"user:{review_operator.pk}")


def test_rejecting_from_hot_memory_removes_the_row(reviewer_web: Client) -> None:
    row = hot("suspicious standing instruction", review_state="pending")
    response = reviewer_web.post(
        HOT, {"action": "reject_selected", "_selected_action": [str(row.pk)]}, follow=True
    )
    assert response.status_code == 200
    row.refresh_from_db()
    assert row.review_state == "rejected"
    assert listed(reviewer_web) == []


def test_hot_memory_offers_only_reject_and_no_delete(reviewer_web: Client, operator_web: Client) -> None:
    hot("a row")
    actions = [n for n, _ in reviewer_web.get(HOT).context["action_form"].fields["action"].choices]
    assert actions == ["", "reject_selected"]
    assert operator_web.get(HOT).context["action_form"] is None


def test_each_row_says_who_owns_it_and_who_reads_it(reviewer_web: Client, agent: Any) -> None:
    mine = hot("agent-a keeps answers short", agent=agent)
    everyone = hot("Releases ship on Tuesdays")
    page = reviewer_web.get(HOT).content.decode()
    row_of = {pk: page.split(f">{pk}</a>", 1)[1].split("</tr>", 1)[0] for pk in (mine.pk, everyone.pk)}
    assert "agent-a" in row_of[mine.pk]
    assert "only agent-a" in row_of[mine.pk]
    assert "operator" in row_of[everyone.pk]
    assert "every agent" in row_of[everyone.pk]
    assert "every turn of the agents under “read by”" in page


def test_identical_rows_are_warned_about(reviewer_web: Client) -> None:
    first = hot("Never deploy on Fridays.")
    second = hot("never deploy   on fridays")
    third = hot("Deploy on Mondays.")
    page = reviewer_web.get(HOT).content.decode()
    ids = sorted((first.pk, second.pk), reverse=True)  # the hot set's order: newest first
    assert f"Identical rows #{ids[0]}, #{ids[1]} say the same thing" in page
    assert f"#{third.pk}" not in page.split("Identical rows", 1)[1].split("</p>", 1)[0]
    hot("Another thing")
    assert page.count("Identical rows") == 1


def test_prompt_preview_links_each_row_and_marks_the_unreviewed(reviewer_web: Client) -> None:
    reviewed = hot("Releases ship on Tuesdays", review_state="confirmed")
    unreviewed = hot("Deploy freezes start at 17:00", review_state="pending")
    page = reviewer_web.get(reverse("admin:delivery_prompt_preview") + "?query=").content.decode()
    rows = page.split('<ul class="pm-delivered">', 1)[1].split("</ul>", 1)[0]
    line_of = {
        c.pk: next(li for li in rows.split("<li>") if f"#{c.pk}</a>" in li) for c in (reviewed, unreviewed)
    }
    assert f'href="{reverse("admin:memory_chunk_change", args=[reviewed.pk])}"' in line_of[reviewed.pk]
    assert "not reviewed yet" not in line_of[reviewed.pk]
    assert "not reviewed yet" in line_of[unreviewed.pk]
    assert "always-on" in line_of[unreviewed.pk]
