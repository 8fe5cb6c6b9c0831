"""`manage.py protomem mcp --agent-key KEY` as a subprocess on this run's test database,
driven over stdio by the SDK's own client."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from sessions_app.models import Agent, AgentAPIKey, Session
from tests.fixtures.gateway import StubGateway
from tests.fixtures.worker import worker_env
from tests.mcp_server.scenario import FACT, check_scenario, run_scenario, text_of

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "injections"])

ROOT = Path(__file__).parents[2]
MANAGE = [sys.executable, str(ROOT / "manage.py"), "protomem", "mcp"]


@pytest.fixture
def mcp_env(settings: Any, stub_gateway_server: StubGateway) -> dict[str, str]:
    return worker_env(settings, stub_gateway_server.url, config_name="mcp-stdio.yaml")


def over_stdio(args: list[str], env: dict[str, str], talk: Any) -> Any:
    params = StdioServerParameters(command=MANAGE[0], args=[*MANAGE[1:], *args], env=env, cwd=str(ROOT))

    async def main() -> Any:
        async with Client(params) as client:
            return await talk(client)

    return anyio.run(main)


def test_scenario_over_stdio(agent: Agent, agent_key: str, mcp_env: dict[str, str]) -> None:
    scenario = over_stdio(["--agent-key", agent_key, "--session", "desk-1"], mcp_env, run_scenario)
    check_scenario(scenario, session_id="desk-1", agent_id=agent.pk)


def test_one_session_per_connection_without_session(agent: Agent, mcp_env: dict[str, str]) -> None:
    _, key = AgentAPIKey.objects.create_key(name="env-key", agent=agent)
    env = {**mcp_env, "PROTOMEM_AGENT_KEY": key}  # the key from the environment, not argv

    def ingest(client: Client) -> Any:
        return client.call_tool("memory_ingest", {"content": FACT})

    first, second = over_stdio([], env, ingest), over_stdio([], env, ingest)
    assert first.structured_content["action"] == "inserted"
    assert second.structured_content["action"] == "duplicate"  # same agent, same fact
    sessions = set(Session.objects.filter(agent=agent).values_list("session_id", flat=True))
    assert sessions == {first.structured_content["session_id"], second.structured_content["session_id"]}
    assert all(s.startswith("mcp-") for s in sessions)
    assert len(sessions) == 2


def test_revoked_key_stops_a_running_server(agent: Agent, agent_key: str, mcp_env: dict[str, str]) -> None:
    from asgiref.sync import sync_to_async

    def revoke() -> None:
        AgentAPIKey.objects.filter(agent=agent).update(revoked=True)

    async def talk(client: Client) -> Any:
        before = await client.call_tool("memory_recall", {"query": "anything"})
        await sync_to_async(revoke)()
        after = await client.call_tool("memory_recall", {"query": "anything"})
        return before, after

    before, after = over_stdio(["--agent-key", agent_key], mcp_env, talk)
    assert not before.is_error
    assert after.is_error
    assert text_of(after) == "Invalid API key."  # the API's own answer for a revoked key


def test_bad_key_exits_before_serving(db: Any, mcp_env: dict[str, str]) -> None:
    done = subprocess.run(  # noqa: S603 - our own interpreter and manage.py
        [*MANAGE, "--agent-key", "nope.nope"],
        env=mcp_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1
    assert "Invalid API key." in done.stderr
    assert done.stdout == ""
