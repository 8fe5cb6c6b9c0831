"""One conversation with the memory tools, driven through the SDK's own client on any transport.

`run_scenario` only talks MCP (no database access, so it runs inside any event loop);
`check_scenario` then asserts on the answers and on the rows they left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcp import Client
from mcp_types import CallToolResult

from memory.store.models import Chunk

TOOL_NAMES = {
    "memory_ingest",
    "memory_recall",
    "memory_list",
    "knowledge_ingest",
    "session_search",
    "recall_session",
    "memory_context",
}
FACT = "The user deploys the billing service every Tuesday morning"
SAME_FACT = "the user deploys the billing service every Tuesday morning."  # Jaccard 1.0: a duplicate
REVISED_FACT = "The user now deploys the billing service every Thursday morning"  # 0.7: a revision
FORGED_CONTENT = "The staging database password rotates monthly"


def text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


@dataclass
class Scenario:
    tools: dict[str, dict[str, Any]]
    first: CallToolResult
    again: CallToolResult
    revised: CallToolResult
    recall_live: CallToolResult
    recall_history: CallToolResult
    forged: CallToolResult
    bad: CallToolResult


async def run_scenario(client: Client) -> Scenario:
    listed = await client.list_tools()
    tools = {tool.name: tool.input_schema for tool in listed.tools}
    first = await client.call_tool("memory_ingest", {"content": FACT})
    again = await client.call_tool("memory_ingest", {"content": SAME_FACT})
    revised = await client.call_tool("memory_ingest", {"content": REVISED_FACT})
    query = {"query": "billing service deploys"}
    recall_live = await client.call_tool("memory_recall", query)
    recall_history = await client.call_tool("memory_recall", {**query, "include_superseded": True})
    forged = await client.call_tool(
        "memory_ingest", {"content": FORGED_CONTENT, "session_id": "someone-else"}
    )
    bad = await client.call_tool("memory_ingest", {"content": FACT, "expires_in_days": 0})
    return Scenario(tools, first, again, revised, recall_live, recall_history, forged, bad)


def check_scenario(s: Scenario, *, session_id: str, agent_id: int) -> None:
    assert set(s.tools) == TOOL_NAMES
    ingest_schema = s.tools["memory_ingest"]
    assert ingest_schema["required"] == ["content"]
    assert "session_id" not in ingest_schema["properties"]
    assert ingest_schema["additionalProperties"] is False

    assert not s.first.is_error, text_of(s.first)
    first_id = s.first.structured_content["chunk_id"]
    assert text_of(s.first).startswith(f"inserted #{first_id}; review: pending\n")
    assert f"src: {session_id}" in text_of(s.first)

    assert not s.again.is_error
    assert s.again.structured_content["action"] == "duplicate"
    assert text_of(s.again).startswith(f"duplicate of #{first_id} (score 1.00): nothing stored")

    assert s.revised.structured_content["action"] == "superseded"
    new_id = s.revised.structured_content["chunk_id"]
    assert s.revised.structured_content["superseded_id"] == first_id
    assert text_of(s.revised).startswith(f"superseded #{first_id} with #{new_id} (score 0.70)")

    live = text_of(s.recall_live)
    assert live.startswith(f"- [#{new_id}] (stored ")
    assert f"trust: agent; src: {session_id}) {REVISED_FACT}" in live
    assert f"#{first_id}]" not in live
    history = text_of(s.recall_history).splitlines()
    assert any(
        line.startswith(f"- [#{first_id}] (stored ") and line.endswith(f"[superseded by #{new_id}] {FACT}")
        for line in history
    )

    assert s.forged.is_error
    assert text_of(s.forged).startswith("session_id: not accepted; provenance is set by the server")
    assert f"(session {session_id!r})" in text_of(s.forged)
    assert not Chunk.objects.filter(content=FORGED_CONTENT).exists()

    assert s.bad.is_error
    assert (
        text_of(s.bad)
        == "invalid arguments: expires_in_days: Ensure this value is greater than or equal to 1."
    )

    rows = list(
        Chunk.objects.filter(agent_id=agent_id).order_by("id").values_list("id", "source", "source_type")
    )
    assert rows == [(first_id, session_id, "memory_ingest"), (new_id, session_id, "memory_ingest")]
