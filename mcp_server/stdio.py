"""The stdio transport: one MCP connection on this process's stdin/stdout, for desktop agents.

The key is checked before the server starts (a bad one exits with an error instead of
serving), and again on every tool call, so revoking the key or disabling the agent stops a
running server's writes. The session is the operator's `--session`, or one this process
registers for itself (`mcp-<random>`): one session per connection.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

import anyio
from mcp.server.stdio import stdio_server

from mcp_server.binding import SESSION_PREFIX, Binding, authenticate_key, checked_session_id
from mcp_server.server import build_server


def connection_session_id() -> str:
    return f"{SESSION_PREFIX}{secrets.token_hex(6)}"


def stdio_resolver(raw_key: str, session_id: str | None) -> Callable[[], Binding]:
    """A resolver that re-checks the key on each call and keeps one Binding (its session cached).

    Raises BindingError now if the key or the session id is unusable.
    """
    agent, _ = authenticate_key(raw_key)
    binding = Binding(agent=agent, session_id=checked_session_id(session_id or connection_session_id()))

    def resolve() -> Binding:
        binding.agent, _ = authenticate_key(raw_key)
        return binding

    return resolve


def serve_stdio(resolve: Callable[[], Binding]) -> None:
    """Serve MCP on stdin/stdout until the client closes stdin."""
    server = build_server(resolve, recycle_connections=True)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)
