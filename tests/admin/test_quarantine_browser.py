"""Quarantine a session and lift it in a real Chromium: each row comes back as it was (issue 30)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from audit.models import AuditEvent
from audit.services import QUARANTINE_LIFTED
from memory.store.models import Chunk, Quarantine
from tests.admin.conftest import PASSWORD
from tests.factories import ChunkFactory, SessionFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "injections"])


@pytest.fixture
def signed_in(page: Any, admin_login: Any, live_server: Any) -> Any:
    UserFactory(username="ops", is_staff=True, is_superuser=True)
    admin_login(page, "ops", PASSWORD)
    return page


def message_text(page: Any) -> str:
    return page.locator("ul.messagelist").inner_text()


def states(*rows: Chunk) -> list[tuple[str | None, str | None]]:
    fresh = {c.pk: c for c in Chunk.objects.filter(pk__in=[r.pk for r in rows])}
    return [(fresh[r.pk].review_state, fresh[r.pk].delivery_policy) for r in rows]


def test_quarantine_then_lift_restores_every_rows_earlier_state(
    signed_in: Any, live_server: Any, screenshot: Any
) -> None:
    page = signed_in
    session = SessionFactory(session_id="poisoned-thread")
    pending = ChunkFactory(source=session.session_id, agent=session.agent, heading="Vendor rule")
    confirmed = ChunkFactory(
        source=session.session_id, agent=session.agent, heading="Team lead", review_state="confirmed"
    )
    # An operator's edit of one of the session's rows: operator-written, confirmed and always-on.
    operator_hot = ChunkFactory(
        source=session.session_id,
        agent=session.agent,
        heading="Freeze after 15:00",
        source_type="operator",
        review_state="confirmed",
        delivery_policy="always",
    )
    before = states(pending, confirmed, operator_hot)

    # Quarantine, with a reason.
    page.goto(f"{live_server.url}/admin/sessions_app/session/{session.pk}/change/")
    assert "Never quarantined." in page.locator(".field-quarantines_display").inner_text()
    page.get_by_role("link", name="Quarantine this session…").click()
    page.wait_for_url(re.compile(r"/quarantine/$"))
    page.fill("#id_reason", "vendor advice planted by a prompt injection")
    page.get_by_role("button", name="Quarantine: reject 3 rows").click()
    page.wait_for_selector("ul.messagelist")
    assert "Quarantined: 3 rows rejected" in message_text(page)
    assert {state for state, _ in states(pending, confirmed, operator_hot)} == {"rejected"}
    record = Quarantine.objects.get()

    # The session's page shows the record: who, why, how many, and a Lift button.
    listed = page.locator(".field-quarantines_display").inner_text()
    screenshot(page, "q-01-session-shows-its-quarantine")
    assert f"Quarantine #{record.pk} by user:" in listed
    assert "3 rows rejected" in listed
    assert "vendor advice planted by a prompt injection" in listed
    page.get_by_role("link", name="Lift quarantine…").click()
    page.wait_for_url(re.compile(rf"/quarantine/{record.pk}/lift/$"))
    screenshot(page, "q-02-lift-lists-the-states-it-restores")
    back_to = page.locator(".pm-lift-rows tbody tr").all_inner_texts()
    hot_line = next(line for line in back_to if f"#{operator_hot.pk}" in line)
    assert "confirmed · always" in hot_line

    # Lift: every row back as it was, the operator's always-on row confirmed (not pending).
    page.get_by_role("button", name=f"Lift quarantine #{record.pk}").click()
    page.wait_for_selector("ul.messagelist")
    assert f"Quarantine #{record.pk} lifted: 3 rows back to their earlier state." in message_text(page)
    assert states(pending, confirmed, operator_hot) == before
    assert states(operator_hot) == [("confirmed", "always")]
    assert AuditEvent.objects.filter(event=QUARANTINE_LIFTED).count() == 1
    listed = page.locator(".field-quarantines_display").inner_text()
    screenshot(page, "q-03-session-after-lift")
    assert "lifted" in listed
    assert page.get_by_role("link", name="Lift quarantine…").count() == 0
