"""The injection log in a real Chromium: a turn's page shows the envelope the model received, byte
for byte, with each row's state when delivered; the list collapses unchanged always-on rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from audit.models import InjectionLog
from delivery.projection import deliver_projected_context
from delivery.replay_record import delivered_envelope
from memory.lifecycle.erasure import chunk_erase
from memory.lifecycle.review import chunk_review
from tests.admin.conftest import PASSWORD
from tests.factories import ChunkFactory, SessionFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "injections"])

BASE = datetime(2026, 7, 1, 12, tzinfo=UTC)


@pytest.fixture
def signed_in(page: Any, admin_login: Any) -> Any:
    UserFactory(username="ops", is_staff=True, is_superuser=True)
    admin_login(page, "ops", PASSWORD)
    return page


def test_turn_page_shows_the_delivered_envelope_and_states_at_delivery(
    signed_in: Any, live_server: Any, screenshot: Any
) -> None:
    page = signed_in
    ChunkFactory(
        content="Deploys need a <b>ticket</b>;\n  two lines   kept",
        heading="Deploys",
        delivery_policy="always",
        review_state="confirmed",
        source_type="operator",
    )
    pending = ChunkFactory(content="zebra crossing colour is white", review_state="pending")
    secret = ChunkFactory(content="zebra crossing gate code 4711", review_state="confirmed")
    session = SessionFactory()
    context, log = deliver_projected_context(session=session, query="zebra crossing", now=BASE)
    assert log is not None
    envelope = delivered_envelope(context.text)
    chunk_review(chunk_id=pending.pk, state="confirmed", actor="user:1", path="admin")

    page.goto(f"{live_server.url}/admin/audit/injectionlog/{log.pk}/change/")

    shown = page.locator("pre.pm-replay")
    assert shown.text_content() == envelope  # the characters the model received, nothing rendered
    assert page.locator("pre.pm-replay b").count() == 0
    assert page.locator(".pm-replay-status").get_attribute("data-exact") == "yes"
    row = page.locator(f'tr[data-chunk="{pending.pk}"]')
    assert row.locator(".pm-badge").inner_text().strip().lower() == "pending"  # when delivered
    assert "confirmed" in row.locator("td").nth(3).inner_text()  # now
    screenshot(page, "injection-replay-exact")

    # Erasure: the replay says the row was erased and its words are nowhere on the page.
    chunk_erase(chunk_id=secret.pk, reason="asked to", actor="user:1", path="admin")
    page.reload()
    status = page.locator(".pm-replay-status")
    assert status.get_attribute("data-exact") == "no"
    assert f"#{secret.pk} erased since" in status.inner_text()
    assert "gate code" not in page.content()  # words, not digits: a hex digest on the page may hold "4711"
    assert "[erased]" in page.locator("pre.pm-replay").text_content()


def test_list_collapses_always_on_rows_unchanged_since_the_previous_turn(
    signed_in: Any, live_server: Any, screenshot: Any
) -> None:
    page = signed_in
    for i in range(10):
        ChunkFactory(
            content=f"standing fact {i}",
            delivery_policy="always",
            review_state="confirmed",
            source_type="operator",
        )
    session = SessionFactory()
    logs = []
    for i in range(4):
        _, log = deliver_projected_context(session=session, query="", now=BASE)
        InjectionLog.objects.filter(pk=log.pk).update(created_at=BASE + timedelta(minutes=i))
        logs.append(log)

    page.goto(f"{live_server.url}/admin/audit/injectionlog/")

    collapsed = page.locator(".pm-as-previous")
    assert collapsed.count() == 3  # every turn after the first
    assert collapsed.first.inner_text() == "10 always-on, as the previous turn"
    first_turn = page.locator("#result_list tbody tr").last  # newest first: the session's first turn
    assert first_turn.locator(".field-hot a").count() == 10
    # one table row stays one line tall: the collapsed cell does not list ten rows
    heights = [page.locator("#result_list tbody tr").nth(i).bounding_box()["height"] for i in range(4)]
    assert max(heights[:3]) < heights[3]
    screenshot(page, "injection-list-collapsed")
