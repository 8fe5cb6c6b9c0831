"""The agent delete page in a real headless Chromium (issue 19, item 2): an agent that owns
memory cannot be deleted; the page lists its rows as protected and offers no confirm button.

Screenshots go to tests/artifacts/admin/ (git-ignored), as in test_browser.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.store.models import Chunk
from sessions_app.models import Agent
from tests.admin.conftest import PASSWORD
from tests.factories import AgentFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "injections"])


@pytest.fixture
def owner(db: Any) -> Agent:
    agent = AgentFactory(name="retiring-agent")
    for content, policy in (
        ("The retiring agent's private note about the otter vault", "retrieved"),
        ("Always greet the otter keeper first", "always"),
    ):
        add_chunk(
            ChunkDraft(
                content=content,
                domain="note",
                source="thread-1",
                source_type="memory_ingest",
                agent_id=agent.pk,
                delivery_policy=policy,
            ),
            actor=f"agent:{agent.pk}",
        )
    return agent


def test_the_delete_page_lists_the_agents_memory_as_protected_and_cannot_confirm(
    page: Any, admin_login: Any, live_server: Any, screenshot: Any, owner: Agent
) -> None:
    UserFactory(username="root-ops", is_staff=True, is_superuser=True)
    admin_login(page, "root-ops", PASSWORD)
    page.goto(f"{live_server.url}/admin/sessions_app/agent/{owner.pk}/delete/")
    screenshot(page, "30-agent-delete-protected")

    content = page.locator("#content")
    assert page.locator("h1").inner_text() == "Cannot delete agent"
    assert "protected related objects" in content.inner_text()
    listed = content.locator("#deleted-objects li")
    owned = list(Chunk.objects.filter(agent=owner).order_by("pk"))
    assert listed.count() == len(owned) == 2
    for chunk in owned:
        assert content.locator(f'a[href$="/admin/memory/chunk/{chunk.pk}/change/"]').count() == 1
    # no way to confirm: no form, no submit button
    assert content.locator("form").count() == 0
    assert content.locator("input[type=submit], button[type=submit]").count() == 0
    assert Agent.objects.filter(pk=owner.pk).exists()
