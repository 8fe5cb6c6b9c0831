"""Console dead ends (issue 30): no "VIEW SITE" to a 404, and a row's HISTORY shows its audit trail."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import AuditEvent
from memory.lifecycle.review import chunk_review
from tests.admin.conftest import grant
from tests.factories import ChunkFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_console_has_no_view_site_link(admin_client: Client) -> None:
    response = admin_client.get(reverse("admin:index"))
    assert response.status_code == 200
    assert response.context["site_url"] is None
    assert "View site" not in response.content.decode()


@pytest.mark.parametrize("page", ["chunk", "pendingchunk"])
def test_history_lists_the_rows_audit_events_and_links_to_all_of_them(
    admin_client: Client, page: str
) -> None:
    # given: a row with two verdicts, and an unrelated row with one
    chunk = ChunkFactory()
    other = ChunkFactory()
    chunk_review(chunk_id=chunk.pk, state="confirmed", actor="user:1", path="admin")
    chunk_review(chunk_id=chunk.pk, state="rejected", actor="user:2", path="api")
    chunk_review(chunk_id=other.pk, state="confirmed", actor="user:1", path="admin")

    # when: the operator opens HISTORY
    response = admin_client.get(reverse(f"admin:memory_{page}_history", args=[chunk.pk]))

    # then: both events of this row, newest first, and none of the other row's
    events = response.context["audit_events"]
    assert [(e.actor, e.path, e.data["to"]) for e in events] == [
        ("user:2", "api", "rejected"),
        ("user:1", "admin", "confirmed"),
    ]
    html = response.content.decode()
    assert f"Audit trail of #{chunk.pk}" in html
    assert "have a change history" not in html
    # and the link opens the audit log narrowed to this row
    link = reverse("admin:audit_auditevent_changelist") + f"?chunk_id={chunk.pk}"
    assert f'href="{link}"' in html
    listed = admin_client.get(link).context["cl"].result_list
    assert sorted(e.pk for e in listed) == sorted(
        AuditEvent.objects.filter(chunk_id=chunk.pk).values_list("pk", flat=True)
    )
    assert len(listed) == 2


def test_history_of_a_row_without_events_says_so(operator_web: Client) -> None:
    chunk = ChunkFactory()
    response = operator_web.get(reverse("admin:memory_chunk_history", args=[chunk.pk]))
    assert response.status_code == 200
    assert f"No audit events for #{chunk.pk} yet." in response.content.decode()


def test_history_hides_the_audit_link_from_operators_who_cannot_read_the_audit_log(db: Any) -> None:
    viewer = grant(UserFactory(username="viewer", is_staff=True), ("memory", "view_chunk"))
    chunk = ChunkFactory()
    chunk_review(chunk_id=chunk.pk, state="confirmed", actor="user:1", path="admin")
    client = Client()
    client.force_login(viewer)
    response = client.get(reverse("admin:memory_chunk_history", args=[chunk.pk]))
    assert len(response.context["audit_events"]) == 1
    assert response.context["audit_url"] == ""
    assert "All audit events for" not in response.content.decode()
