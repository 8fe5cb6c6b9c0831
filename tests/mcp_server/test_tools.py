"""The tools in-process (the SDK's client against build_server): text, errors, provenance."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from mcp_server.binding import Binding
from memory.store.models import Chunk
from sessions_app.models import Agent, Session
from sessions_app.services import MessageInput, session_register, session_turn_append
from tests.factories import AgentFactory
from tests.mcp_server.conftest import call, in_process
from tests.mcp_server.scenario import check_scenario, run_scenario, text_of

pytestmark = pytest.mark.django_db(databases=["default", "injections"])


@pytest.fixture
def binding(agent: Agent) -> Binding:
    return Binding(agent=agent, session_id="desk-1")


def test_scenario_in_process(binding: Binding, agent: Agent) -> None:
    scenario = in_process(binding, run_scenario)
    check_scenario(scenario, session_id="desk-1", agent_id=agent.pk)
    assert Session.objects.filter(agent=agent, session_id="desk-1").count() == 1


def test_reads_register_no_session(binding: Binding, agent: Agent) -> None:
    result = call(binding, "memory_recall", {"query": "anything"})
    assert text_of(result) == "No memories match 'anything'."
    assert not Session.objects.filter(agent=agent).exists()


@pytest.mark.parametrize("field", ["source", "agent", "review_state", "session"])
def test_other_provenance_arguments_are_refused(binding: Binding, field: str) -> None:
    result = call(binding, "memory_ingest", {"content": "The user likes tea", field: "x"})
    assert result.is_error
    assert text_of(result).startswith(f"{field}: not accepted; provenance is set by the server")
    assert not Chunk.objects.exists()


def test_missing_and_unknown_arguments_name_the_field(binding: Binding) -> None:
    missing = call(binding, "memory_ingest", {})
    assert missing.is_error
    assert text_of(missing) == "invalid arguments: content: This field is required."
    unknown = call(binding, "memory_recall", {"query": "x", "colour": "red"})
    assert unknown.is_error
    assert text_of(unknown).startswith(
        "unknown argument(s): colour (memory_recall takes include_superseded, "
    )
    wrong_choice = call(binding, "memory_list", {"review_state": "maybe"})
    assert wrong_choice.is_error
    assert text_of(wrong_choice).startswith("invalid arguments: review_state: Select a valid choice.")


def test_service_refusal_names_the_field(db: Any) -> None:
    pinned = Binding(agent=AgentFactory(name="pinned", namespace="team-a"), session_id="s1")
    result = call(pinned, "memory_ingest", {"content": "The user likes tea", "namespace": "team-b"})
    assert result.is_error
    assert text_of(result) == "namespace: this agent is pinned to namespace 'team-a'; it cannot use 'team-b'"


def test_unknown_tool_is_a_protocol_error(binding: Binding) -> None:
    from mcp.shared.exceptions import MCPError

    with pytest.raises(ExceptionGroup) as raised:  # the in-process client re-raises in its task group
        call(binding, "memory_forget", {})
    assert raised.group_contains(MCPError, match="^unknown tool: memory_forget$")


def test_memory_list_shows_review_state_and_expiry(binding: Binding) -> None:
    stored = call(
        binding, "memory_ingest", {"content": "The user is on leave in August", "expires_in_days": 30}
    )
    chunk = Chunk.objects.get(pk=stored.structured_content["chunk_id"])
    expires = (timezone.localtime(timezone.now()) + timedelta(days=30)).date().isoformat()
    listed = call(binding, "memory_list", {"review_state": "pending"})
    line = text_of(listed)
    assert line.startswith(f"- [#{chunk.pk}] (fact, pending, retrieved; stored ")
    assert line.endswith(f"trust: agent) The user is on leave in August expires={expires}")
    assert text_of(call(binding, "memory_list", {"review_state": "confirmed"})) == "No memories listed."


def test_memory_list_pages(binding: Binding) -> None:
    for topic in ("tea", "maps", "jazz"):
        call(binding, "memory_ingest", {"content": f"The user collects {topic}", "domain": "note"})
    page = call(binding, "memory_list", {"limit": 2})
    assert page.structured_content["count"] == 3
    assert text_of(page).splitlines()[-1] == "(1 more, older: call again with offset=2)"
    rest = call(binding, "memory_list", {"limit": 2, "offset": 2})
    assert "The user collects tea" in text_of(rest)


def test_knowledge_ingest_then_same_text_is_a_duplicate(binding: Binding) -> None:
    doc = {
        "origin": "https://example.test/guide",
        "title": "Guide",
        "content": "# Setup\n\nRun make install.",
    }
    first = call(binding, "knowledge_ingest", doc)
    ids = first.structured_content["chunk_ids"]
    assert text_of(first) == f"inserted: 1 chunk(s) stored from https://example.test/guide: #{ids[0]}"
    again = call(binding, "knowledge_ingest", doc)
    assert text_of(again).startswith("duplicate: https://example.test/guide is already stored")
    assert Chunk.objects.get(pk=ids[0]).source == "https://example.test/guide"


def test_session_search_and_recall_session(binding: Binding, agent: Agent) -> None:
    old, _ = session_register(agent=agent, session_id="old-thread")
    session_turn_append(
        session=old,
        messages=[
            MessageInput(role="user", content="How do we rotate the audit logs?"),
            MessageInput(role="assistant", content="Weekly, with logrotate."),
        ],
        terminal=True,
    )
    found = call(binding, "session_search", {"query": "audit logs"})
    assert found.structured_content == {"session_ids": ["old-thread"]}
    assert text_of(found).startswith("- old-thread · ")
    summary = call(binding, "recall_session", {"session_id": "old-thread"})
    assert text_of(summary).splitlines()[1:] == [
        "user: How do we rotate the audit logs?",
        "assistant: Weekly, with logrotate.",
        "final output: Weekly, with logrotate.",
    ]
    missing = call(binding, "recall_session", {"session_id": "nobody"})
    assert missing.is_error
    assert text_of(missing) == "session_id: no summary of a session 'nobody' of yours"


def test_memory_context_is_for_the_bound_session(binding: Binding) -> None:
    call(binding, "memory_ingest", {"content": "The user deploys the billing service every Tuesday"})
    context = call(binding, "memory_context", {"query": "when does the billing service deploy?"})
    assert not context.is_error
    assert "The user deploys the billing service every Tuesday" in text_of(context)
    assert context.structured_content["session_id"] == "desk-1"
    assert context.structured_content["injection_id"] is not None
    assert len(context.structured_content["rag_ids"]) == 1


@pytest.mark.parametrize("tool", ["memory_context", "knowledge_ingest", "memory_recall"])
def test_no_tool_takes_a_session_id(binding: Binding, agent: Agent, tool: str) -> None:
    result = call(binding, tool, {"query": "x", "session_id": "someone-else"})
    assert result.is_error
    assert text_of(result).startswith("session_id: not accepted; provenance is set by the server")
    assert not Session.objects.filter(agent=agent).exists()


def test_an_unexpected_failure_is_an_error_result(binding: Binding, monkeypatch: pytest.MonkeyPatch) -> None:
    from memory.lifecycle import recall

    def broken(**kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(recall, "memory_recall", broken)
    result = call(binding, "memory_recall", {"query": "x"})
    assert result.is_error
    assert text_of(result) == "memory_recall failed with an internal error (logged on the server)"
