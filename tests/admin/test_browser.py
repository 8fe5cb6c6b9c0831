"""The console in a real headless Chromium against a live server, on the seed-demo data.

Each test saves full-page screenshots under tests/artifacts/admin/ (git-ignored) for a human
to look at; the assertions check what the operator sees and what landed in the database.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from audit.models import AuditEvent, InjectionLog
from audit.services import REVIEWED
from memory.lifecycle.selectors import hot_set
from memory.store.models import Chunk
from protomem.cli.seed_demo import seed_demo
from tests.admin.conftest import PASSWORD
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "injections"])


@pytest.fixture
def demo(db: Any) -> Any:
    seeded = seed_demo()
    assert seeded is not None
    return seeded


@pytest.fixture
def ops(db: Any) -> Any:
    return UserFactory(username="ops", is_staff=True, is_superuser=True)


@pytest.fixture
def signed_in(page: Any, admin_login: Any, ops: Any, demo: Any, live_server: Any, screenshot: Any) -> Any:
    page.goto(f"{live_server.url}/admin/login/")
    screenshot(page, "00-login")
    admin_login(page, "ops", PASSWORD)
    return page


def heading_row(page: Any, heading: str) -> Any:
    return page.locator("#result_list tbody tr", has_text=heading)


def message_text(page: Any) -> str:
    return page.locator("ul.messagelist").inner_text()


def test_review_queue_filter_select_confirm_and_reject(
    signed_in: Any, live_server: Any, screenshot: Any, ops: Any
) -> None:
    page = signed_in
    screenshot(page, "01-index")
    assert page.get_by_role("link", name="Review queue").is_visible()

    # The queue opens on pending rows that can still deliver (issue 14: expired rows leave it).
    page.get_by_role("link", name="Review queue").click()
    page.wait_for_selector("#result_list")
    screenshot(page, "02-review-queue")
    pending = [
        c
        for c in Chunk.objects.filter(review_state="pending", invalidated_at__isnull=True)
        if not c.is_expired()
    ]
    assert page.locator("#result_list tbody tr").count() == len(pending)
    assert page.locator(".pm-view-count").inner_text() == f"{len(pending)} rows"  # the page's one count

    # Filter: agent-written (tier 2) pending rows only.
    page.locator("#changelist-filter").get_by_role("link", name="agent (tier 2)").click()
    page.wait_for_url(re.compile(r"trust=2"))
    screenshot(page, "03-review-queue-agent-tier")
    assert "Staging database connections" not in page.locator("#result_list").inner_text()  # revised away

    # Select two rows and Confirm them.
    confirm = [heading_row(page, "On-call rotation"), heading_row(page, "Status update format")]
    for row in confirm:
        row.locator("input.action-select").check()
    page.select_option("select[name=action]", "confirm_selected")
    page.locator("button[name=index]").click()
    page.wait_for_selector("ul.messagelist")
    screenshot(page, "04-after-confirm")
    assert "2 confirmed." in message_text(page)
    confirmed = Chunk.objects.filter(
        heading__in=["On-call rotation", "Status update format"], invalidated_at__isnull=True
    )
    assert set(confirmed.values_list("review_state", flat=True)) == {"confirmed"}
    assert heading_row(page, "On-call rotation").count() == 0  # left the pending view

    # Reject the suspicious always-on row an agent tried to pin.
    page.locator("#changelist-filter").get_by_role("link", name="all, pending first").click()
    page.wait_for_url(re.compile(r"state=all"))
    vendor = heading_row(page, "Vendor preference")
    vendor.locator("input.action-select").check()
    heading_row(page, "On-call rotation").locator("input.action-select").check()  # already confirmed
    page.select_option("select[name=action]", "reject_selected")
    page.locator("button[name=index]").click()
    page.wait_for_selector("ul.messagelist")
    screenshot(page, "05-after-reject")
    assert "2 rejected." in message_text(page)
    vendor_row = Chunk.objects.get(heading="Vendor preference")
    assert vendor_row.review_state == "rejected"
    event = AuditEvent.objects.filter(event=REVIEWED, chunk_id=vendor_row.pk).latest("id")
    assert (event.actor, event.path, event.data["to"]) == (f"user:{ops.pk}", "admin", "rejected")
    assert vendor_row.pk not in {c.pk for c in hot_set()}  # rejected rows never deliver


def test_edit_a_chunk_and_see_the_revision_and_chain(
    signed_in: Any, live_server: Any, screenshot: Any
) -> None:
    page = signed_in
    original = Chunk.objects.get(heading="Service owners")
    page.goto(f"{live_server.url}/admin/memory/chunk/{original.pk}/change/")
    screenshot(page, "06-chunk-change")
    page.fill("#id_content", "Alice owns billing; Dana now owns auth; Chen owns the data pipeline.")
    page.locator("input[name=_save]").click()
    page.wait_for_selector("ul.messagelist")
    screenshot(page, "07-after-revision")

    new = Chunk.objects.get(heading="Service owners", invalidated_at__isnull=True)
    assert new.pk != original.pk
    assert page.url.endswith(f"/admin/memory/chunk/{new.pk}/change/")
    assert f"Saved as revision #{new.pk} (confirmed)" in message_text(page)
    chain = page.locator("ol.pm-chain")
    assert chain.locator("li").count() == 2
    assert f"#{original.pk}" in chain.locator("li").nth(0).inner_text()
    assert "(this row)" in chain.locator("li").nth(1).inner_text()
    original.refresh_from_db()
    assert original.invalidation_reason == f"superseded_by:{new.pk}"

    # The old row is history: read-only, and it points forward.
    chain.get_by_role("link", name=f"#{original.pk}").click()
    page.wait_for_url(re.compile(rf"/chunk/{original.pk}/change/"))
    screenshot(page, "08-superseded-row")
    assert page.locator("#id_content").count() == 0
    assert f"superseded by #{new.pk}" in page.locator(".field-status_summary").inner_text()

    # A three-step chain from the seed (an operator corrected a fact twice).
    newest = Chunk.objects.filter(heading="Staging database connections", invalidated_at__isnull=True).get()
    page.goto(f"{live_server.url}/admin/memory/chunk/{newest.pk}/change/")
    screenshot(page, "09-three-revision-chain")
    assert page.locator("ol.pm-chain li").count() == 3


def test_store_filters_and_fts_search(signed_in: Any, live_server: Any, screenshot: Any) -> None:
    page = signed_in
    page.goto(f"{live_server.url}/admin/memory/chunk/")
    screenshot(page, "10-store")
    filters = page.locator("#changelist-filter")
    filters.locator("details", has_text="By review state").get_by_role("link", name="Pending").click()
    page.wait_for_url(re.compile(r"review_state__exact=pending"))
    states = page.locator("#result_list td.field-state").all_inner_texts()
    assert states == ["pending"] * Chunk.objects.filter(review_state="pending").count()
    page.goto(f"{live_server.url}/admin/memory/chunk/")
    filters.get_by_role("link", name="superseded by a revision").click()
    page.wait_for_url(re.compile(r"superseded=yes"))
    screenshot(page, "11-store-superseded")
    superseded = Chunk.objects.filter(invalidation_reason__startswith="superseded_by:")
    assert superseded.count() == 3  # two operator corrections and one fact consolidation
    assert page.locator("#result_list tbody tr").count() == superseded.count()

    page.goto(f"{live_server.url}/admin/memory/chunk/")
    page.fill("#searchbar", "connections")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"q=connections"))
    screenshot(page, "12-store-search")
    text = page.locator("#result_list").inner_text()
    assert "PostgreSQL: max_connections" in text
    assert "Staging database connections" in text
    assert "House style" not in text


def test_hot_memory_injections_and_sessions(signed_in: Any, live_server: Any, screenshot: Any) -> None:
    page = signed_in
    page.goto(f"{live_server.url}/admin/memory/hotchunk/")
    screenshot(page, "13-hot-memory")
    expected = hot_set()
    rows = page.locator("#result_list tbody tr")
    assert rows.count() == len(expected)
    used = sum(len(c.content) for c in expected)
    assert f"{used} of 6000 chars used" in page.locator(".pm-budget").inner_text()
    assert "Incident INC-4812" not in page.locator("#result_list").inner_text()  # expired

    # Injections: filter by one session, then open a delivered chunk.
    page.goto(f"{live_server.url}/admin/audit/injectionlog/")
    screenshot(page, "14-injections")
    assert page.locator("#result_list tbody tr").count() == InjectionLog.objects.count()
    session_id = next(
        s for s in InjectionLog.objects.values_list("session_id", flat=True) if s.endswith("release")
    )
    page.locator("#changelist-filter").get_by_role("link", name=session_id).click()
    page.wait_for_url(re.compile(r"session="))
    screenshot(page, "15-injections-one-session")
    assert (
        page.locator("#result_list tbody tr").count()
        == InjectionLog.objects.filter(session_id=session_id).count()
    )

    hot_id = InjectionLog.objects.filter(session_id=session_id).first().hot_ids[0]
    page.locator("#result_list").get_by_role("link", name=f"#{hot_id}", exact=True).first.click()
    page.wait_for_url(re.compile(rf"/chunk/{hot_id}/change/"))
    screenshot(page, "16-chunk-injection-history")
    history = page.locator(".field-injection_history").inner_text()
    assert session_id in history

    # Sessions: the summary as the digest shows it, and the way to its injections.
    page.locator(".field-injection_history").get_by_role("link", name=session_id).first.click()
    page.wait_for_url(re.compile(r"/sessions_app/session/\d+/change/"))
    screenshot(page, "17-session")
    assert f"- {session_id} ·" in page.locator(".field-digest_display").inner_text()
    page.get_by_role("link", name="Every turn of this session that had memory injected →").click()
    page.wait_for_url(re.compile(r"/audit/injectionlog/\?"))
    assert (
        page.locator("#result_list tbody tr").count()
        == InjectionLog.objects.filter(session_id=session_id).count()
    )

    page.goto(f"{live_server.url}/admin/sessions_app/session/")
    screenshot(page, "18-sessions")
    page.goto(f"{live_server.url}/admin/audit/auditevent/")
    screenshot(page, "19-audit-events")
    assert page.locator("#result_list tbody tr").count() == AuditEvent.objects.count()


def test_staff_without_review_permission_reads_but_cannot_judge(
    page: Any, admin_login: Any, demo: Any, live_server: Any, screenshot: Any
) -> None:
    from tests.admin.conftest import OPERATOR_PERMS, grant

    grant(UserFactory(username="readonly-ops", is_staff=True), *OPERATOR_PERMS)
    admin_login(page, "readonly-ops", PASSWORD)
    page.goto(f"{live_server.url}/admin/memory/pendingchunk/")
    screenshot(page, "20-queue-without-review-permission")
    assert "needs the “review chunks” permission" in page.locator("#content").inner_text()
    assert page.locator("select[name=action]").count() == 0
    vendor = Chunk.objects.get(heading="Vendor preference")
    page.goto(f"{live_server.url}/admin/memory/pendingchunk/{vendor.pk}/change/")
    screenshot(page, "21-pending-row-without-review-permission")
    assert page.locator("input[name=_review_rejected]").count() == 0
    assert page.locator("#id_content").count() == 0  # a revision would confirm it: read-only
    # an added row is confirmed (an always-on one enters every turn at once): a verdict too
    response = page.goto(f"{live_server.url}/admin/memory/hotchunk/add/")
    screenshot(page, "22-hot-memory-add-refused")
    assert response is not None
    assert response.status == 403
