"""Exact replay in the operator API (GET /api/memory/injections/{id}/replay/) and the console's
injection pages: the delivered envelope byte for byte, states at delivery, collapsed always-on rows."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from audit.models import InjectionLog
from audit.services import injection_log_record
from delivery.projection import deliver_projected_context
from delivery.replay_record import delivered_envelope
from memory.lifecycle.erasure import chunk_erase
from memory.lifecycle.review import chunk_review
from tests.conftest import grant
from tests.factories import ChunkFactory, SessionFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

BASE = datetime(2026, 7, 1, 12, tzinfo=UTC)
INJECTIONS = reverse("admin:audit_injectionlog_changelist")


def url(log_id: int) -> str:
    return f"/api/memory/injections/{log_id}/replay/"


def delivered_turn(session: Any = None, *, query: str = "zebra crossing") -> tuple[str, InjectionLog]:
    context, log = deliver_projected_context(session=session or SessionFactory(), query=query, now=BASE)
    assert log is not None
    return delivered_envelope(context.text), log


@pytest.fixture
def store() -> dict[str, Any]:
    return {
        "hot": ChunkFactory(
            content="Deploys need a <b>ticket</b> & a rota.",
            delivery_policy="always",
            review_state="confirmed",
        ),
        "pending": ChunkFactory(content="zebra crossing colour is white", review_state="pending"),
        "secret": ChunkFactory(content="zebra crossing gate code 4711", review_state="confirmed"),
    }


@pytest.fixture
def console(reviewer: Any) -> Client:
    client = Client()
    client.force_login(reviewer)
    return client


# ---------------------------------------------------------------------------------------------
# API


def test_api_returns_the_delivered_envelope_and_the_states_at_delivery(operator_client, store):
    envelope, log = delivered_turn()
    chunk_review(chunk_id=store["pending"].pk, state="rejected", actor="user:1", path="admin")

    response = operator_client.get(url(log.pk))

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["envelope"] == envelope
    assert body["exact"] is True
    assert body["sha256"] == body["delivered_sha256"] == log.envelope_sha256
    assert body["time_zone"] == "UTC"
    rows = {r["chunk_id"]: r for r in body["rows"]}
    assert rows[store["pending"].pk]["state_at_delivery"] == "pending"
    assert rows[store["pending"].pk]["state_now"] == "rejected"
    assert rows[store["hot"].pk]["section"] == "hot"
    assert (body["id"], body["session_id"]) == (log.pk, log.session_id)


def test_api_says_when_a_row_was_erased_since(operator_client, store):
    _, log = delivered_turn()
    chunk_erase(chunk_id=store["secret"].pk, reason="asked to", actor="user:1", path="admin")
    body = operator_client.get(url(log.pk)).json()
    assert body["exact"] is False
    assert "gate code" not in body["envelope"]
    assert [r["chunk_id"] for r in body["rows"] if r["erased"]] == [store["secret"].pk]


def test_api_404_is_clear(operator_client):
    missing = operator_client.get(url(987654))
    assert missing.status_code == 404
    assert missing.json()["detail"] == "No injection #987654 in the log."
    assert operator_client.get(url(9999999999999999999)).status_code == 404  # past the integer range


def test_api_has_the_list_permissions(agent_client, api_client, staff_client, staff_user, store):
    _, log = delivered_turn()
    assert agent_client.get(url(log.pk)).status_code == 403
    assert api_client.get(url(log.pk)).status_code == 401
    refused = staff_client.get(url(log.pk))
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Needs the permission(s): audit.view_injectionlog."
    grant(staff_user, ("audit", "view_injectionlog"))
    assert staff_client.get(url(log.pk)).status_code == 200
    assert staff_client.get(url(log.pk).rstrip("/")).status_code == 200


def test_replay_is_in_the_openapi_schema():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/memory/injections/{log_id}/replay/"]["get"]
    assert set(operation["responses"]) >= {"200", "404"}
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    component = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    assert {"envelope", "exact", "sha256", "delivered_sha256", "rows"} <= set(component["properties"])


# ---------------------------------------------------------------------------------------------
# Console


def shown_envelope(page: str) -> str:
    match = re.search(r'<pre class="pm-content-full pm-replay">(.*?)</pre>', page, re.DOTALL)
    assert match, "no replay on the page"
    return html.unescape(match.group(1))


def test_detail_page_shows_the_delivered_envelope_byte_for_byte(console, store):
    envelope, log = delivered_turn()
    chunk_review(chunk_id=store["pending"].pk, state="confirmed", actor="user:1", path="admin")

    page = console.get(reverse("admin:audit_injectionlog_change", args=[log.pk])).content.decode()

    assert shown_envelope(page) == envelope
    assert "<b>ticket</b>" not in page  # escaped: row text never renders as markup
    assert 'data-exact="yes"' in page
    row = re.search(rf'<tr data-chunk="{store["pending"].pk}">(.*?)</tr>', page, re.DOTALL).group(1)
    assert "pm-state-pending" in row  # the state when delivered ...
    assert "<td>confirmed</td>" in row  # ... and now


def test_detail_page_says_an_erased_row_is_why_the_replay_differs(console, store):
    _, log = delivered_turn()
    chunk_erase(chunk_id=store["secret"].pk, reason="asked to", actor="user:1", path="admin")
    page = console.get(reverse("admin:audit_injectionlog_change", args=[log.pk])).content.decode()
    assert 'data-exact="no"' in page
    assert f"#{store['secret'].pk} erased since" in page
    assert "gate code" not in page


def test_detail_page_of_an_older_row_says_equality_cannot_be_proven(console):
    log = injection_log_record(
        agent_id=None, session_id="old", hot_ids=[ChunkFactory(delivery_policy="always").pk]
    )
    page = console.get(reverse("admin:audit_injectionlog_change", args=[log.pk])).content.decode()
    assert "logged before replay was recorded" in page


def test_list_collapses_always_on_rows_unchanged_since_the_previous_turn(console):
    hot = [ChunkFactory(delivery_policy="always", review_state="confirmed").pk for _ in range(3)]
    turns = []
    for i, (session, ids) in enumerate(
        [("a", hot), ("a", hot), ("b", hot), ("a", hot[:2]), ("a", hot[:2]), ("a", [])]
    ):
        log = injection_log_record(agent_id=1, session_id=session, hot_ids=ids, rag_ids=[99])
        InjectionLog.objects.filter(pk=log.pk).update(created_at=BASE + timedelta(minutes=i))
        turns.append(log.pk)

    page = console.get(INJECTIONS).content.decode()

    collapsed = re.findall(r'pm-as-previous" title="([^"]*)">(\d+) always-on, as the previous turn', page)
    # a's 2nd turn (3 rows as its 1st) and a's 5th (2 rows as its 4th); b's first turn and a's
    # changed set are listed in full
    assert sorted(collapsed) == sorted(
        [(" ".join(f"#{i}" for i in hot), "3"), (" ".join(f"#{i}" for i in hot[:2]), "2")]
    )
    results = console.get(INJECTIONS).context["cl"].result_list
    assert [r.pk for r in results] == turns[::-1]


def test_every_turn_of_the_demo_seed_replays_exactly(operator_client):
    """The seeded instance's turns went through the real digest (session summaries), real hot and
    RAG reads and the operator's edits: each replays byte for byte through the API."""
    call_command("protomem", "seed-demo", "--no-progress", stdout=StringIO(), stderr=StringIO())
    logs = list(InjectionLog.objects.order_by("id"))
    assert len(logs) == 6
    assert any(log.digest_lines for log in logs)
    for log in logs:
        body = operator_client.get(url(log.pk)).json()
        assert body["exact"] is True, log.pk
        assert body["sha256"] == log.envelope_sha256
