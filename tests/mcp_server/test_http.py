"""Streamable HTTP at /mcp against the live server, driven by the SDK's own client."""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from memory.store.models import Chunk
from sessions_app.models import Agent, AgentAPIKey, OperatorAPIKey
from tests.mcp_server.scenario import FACT, check_scenario, run_scenario, text_of

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "injections"])

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
ACCEPT = "application/json, text/event-stream"


def over_http(url: str, headers: dict[str, str], talk: Any, *, mode: str = "auto") -> Any:
    async def main() -> Any:
        http = httpx2.AsyncClient(headers=headers)
        async with http, Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            return await talk(client)

    return anyio.run(main)


@pytest.mark.parametrize(("mode", "version"), [("auto", "2026-07-28"), ("legacy", "2025-11-25")])
def test_scenario_over_http(live_server: Any, agent: Agent, agent_key: str, mode: str, version: str) -> None:
    """Both protocol eras: the handshake-free 2026-07-28 one and the initialize handshake."""
    prefix = AgentAPIKey.objects.get(agent=agent).prefix

    async def talk(client: Client) -> Any:
        assert client.protocol_version == version
        return await run_scenario(client)

    scenario = over_http(f"{live_server.url}/mcp", {"Authorization": f"Api-Key {agent_key}"}, talk, mode=mode)
    check_scenario(scenario, session_id=f"mcp-{prefix}", agent_id=agent.pk)


def test_session_header_binds_the_session(live_server: Any, agent: Agent, agent_key: str) -> None:
    headers = {"Authorization": f"Api-Key {agent_key}", "X-Protomem-Session": "desk-7"}
    result = over_http(
        f"{live_server.url}/mcp", headers, lambda c: c.call_tool("memory_ingest", {"content": FACT})
    )
    assert not result.is_error, text_of(result)
    chunk = Chunk.objects.get(pk=result.structured_content["chunk_id"])
    assert (chunk.source, chunk.agent_id) == ("desk-7", agent.pk)


def _post(url: str, headers: dict[str, str], body: Any = INITIALIZE) -> httpx2.Response:
    base = {"Content-Type": "application/json", "Accept": ACCEPT}
    return httpx2.post(url, headers={**base, **headers}, content=json.dumps(body))


def test_without_or_with_a_bad_key_is_401(live_server: Any, agent_key: str) -> None:
    url = f"{live_server.url}/mcp"
    missing = _post(url, {})
    assert missing.status_code == 401
    assert missing.headers["WWW-Authenticate"] == "Api-Key"
    bad = _post(url, {"Authorization": "Api-Key nope.nope"})
    assert bad.status_code == 401
    assert bad.json() == {"detail": "Invalid API key."}
    good = _post(url, {"Authorization": f"Api-Key {agent_key}"})
    assert good.status_code == 200
    assert good.headers["Content-Type"] == "application/json"
    assert good.json()["result"]["serverInfo"]["name"] == "protomem"


def test_operator_key_and_bad_session_header_are_refused(
    live_server: Any, reviewer: Any, agent_key: str
) -> None:
    _, operator_key = OperatorAPIKey.objects.create_key(name="ops", user=reviewer)
    url = f"{live_server.url}/mcp"
    assert _post(url, {"Authorization": f"Api-Key {operator_key}"}).status_code == 403
    bad_session = _post(url, {"Authorization": f"Api-Key {agent_key}", "X-Protomem-Session": "a/b"})
    assert bad_session.status_code == 400
    assert bad_session.json()["detail"].startswith("X-Protomem-Session: session_id must be 1-255 characters")


def test_unknown_tool_is_a_json_rpc_error(live_server: Any, agent_key: str) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "memory_forget", "arguments": {}},
    }
    answer = _post(f"{live_server.url}/mcp", {"Authorization": f"Api-Key {agent_key}"}, call)
    assert answer.status_code == 200
    assert answer.json()["error"]["message"] == "unknown tool: memory_forget"


def test_a_body_over_the_limit_is_413(live_server: Any, agent_key: str, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    big = {**INITIALIZE, "params": {**INITIALIZE["params"], "padding": "x" * 2000}}
    answer = _post(f"{live_server.url}/mcp", {"Authorization": f"Api-Key {agent_key}"}, big)
    assert answer.status_code == 413
    assert answer.json() == {"detail": "Request body too large (the limit is 1000 bytes)."}


def test_no_standalone_stream_or_session_to_delete(live_server: Any, agent_key: str) -> None:
    headers = {"Authorization": f"Api-Key {agent_key}", "Accept": ACCEPT}
    assert httpx2.get(f"{live_server.url}/mcp", headers=headers).status_code == 405
    assert httpx2.delete(f"{live_server.url}/mcp", headers=headers).status_code == 405
