from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from asgiref.sync import async_to_sync
from mcp import Client

from mcp_server.binding import Binding
from mcp_server.server import build_server
from sessions_app.models import Agent, AgentAPIKey

T = TypeVar("T")


@pytest.fixture
def agent_key(agent: Agent) -> str:
    _, raw = AgentAPIKey.objects.create_key(name="mcp-key", agent=agent)
    return raw


def in_process(binding: Binding, talk: Callable[[Client], Awaitable[T]]) -> T:
    """Drive an in-process server with the SDK's client.

    async_to_sync keeps this thread as the one sync_to_async(thread_sensitive=True) returns to,
    so the tools run in the test's own database transaction.
    """

    async def main() -> T:
        async with Client(build_server(lambda: binding)) as client:
            return await talk(client)

    return async_to_sync(main)()


def call(binding: Binding, name: str, arguments: dict[str, Any]) -> Any:
    return in_process(binding, lambda client: client.call_tool(name, arguments))
