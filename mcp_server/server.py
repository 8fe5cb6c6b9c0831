"""The MCP server: the SDK's low-level Server listing mcp_server.tools and running them.

`build_server(resolve)` makes a Server for one caller; `resolve` returns that caller's Binding
(the transport fixed it: the API key, the operator's session). Tool calls run in a thread
(Django's ORM is synchronous) through asgiref's sync_to_async; their arguments are checked
against the tool's schema first, and any argument that would set provenance (session_id,
source, agent, ...) is refused, so a model cannot choose the session or author it writes as.
Bad arguments, refusals from the services and unusable keys come back as isError results
whose text names the field.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

import mcp_types as types
from asgiref.sync import sync_to_async
from django.db import close_old_connections
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from mcp_server.binding import Binding, BindingError
from mcp_server.tools import TOOLS, ToolError, ToolResult, ToolSpec
from memory.api.serializers import FORGED_FIELDS
from protomem.errors import ApplicationError

logger = logging.getLogger(__name__)

SERVER_NAME = "protomem"
# Arguments that would name the writer or the session: the transport sets these, never a call.
PROVENANCE_ARGUMENTS = frozenset({"session_id", "session", *FORGED_FIELDS})
INSTRUCTIONS = (
    "protomem is this agent's reviewable long-term memory. Call memory_context at the start of a "
    "turn for the injected context; memory_ingest what the user tells you that should outlast the "
    "conversation; memory_recall / session_search / recall_session to look things up. Your session "
    "and identity are fixed by the connection."
)


def _refusal(spec: ToolSpec, binding: Binding, arguments: Mapping[str, Any]) -> str | None:
    """Why these arguments are not even validated: provenance, or names the tool does not take."""
    forged = sorted(set(arguments) & (PROVENANCE_ARGUMENTS - spec.argument_names))
    if forged:
        names = ", ".join(forged)
        return (
            f"{names}: not accepted; provenance is set by the server from this connection "
            f"(session {binding.session_id!r}), never by a tool call"
        )
    unknown = sorted(set(arguments) - spec.argument_names)
    if unknown:
        takes = ", ".join(sorted(spec.argument_names))
        return f"unknown argument(s): {', '.join(unknown)} ({spec.name} takes {takes})"
    return None


def run_tool(resolve: Callable[[], Binding], name: str, arguments: Mapping[str, Any]) -> ToolResult:
    """Run one tool call synchronously; every expected failure becomes an isError result."""
    spec = TOOLS[name]
    try:
        binding = resolve()
        refusal = _refusal(spec, binding, arguments)
        if refusal is not None:
            return ToolResult(text=refusal, is_error=True)
        return spec.run(binding, arguments)
    except (ToolError, BindingError) as exc:
        return ToolResult(text=str(exc), is_error=True)
    except ApplicationError as exc:
        where = exc.extra.get("field")
        return ToolResult(text=f"{where}: {exc.message}" if where else exc.message, is_error=True)
    except Exception:  # a bug: the model gets a plain error, the operator the traceback
        logger.exception("mcp tool %s failed", name)
        return ToolResult(text=f"{name} failed with an internal error (logged on the server)", is_error=True)


def _run_in_fresh_connection(
    resolve: Callable[[], Binding], name: str, arguments: Mapping[str, Any]
) -> ToolResult:
    # A long-lived stdio process has no request cycle to retire stale connections for it.
    close_old_connections()
    try:
        return run_tool(resolve, name, arguments)
    finally:
        close_old_connections()


def tool_list() -> list[types.Tool]:
    return [
        types.Tool(name=s.name, description=s.description, input_schema=s.input_schema)
        for s in TOOLS.values()
    ]


def build_server(resolve: Callable[[], Binding], *, recycle_connections: bool = False) -> Server[Any]:
    """An MCP Server whose tool calls act as the caller `resolve` returns."""
    runner = _run_in_fresh_connection if recycle_connections else run_tool
    run_sync = sync_to_async(runner, thread_sensitive=True)

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list())

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name not in TOOLS:
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown tool: {params.name}")
        result = await run_sync(resolve, params.name, params.arguments or {})
        if result.is_error:
            logger.info("mcp tool %s refused: %s", params.name, result.text)
        return types.CallToolResult(
            content=[types.TextContent(text=result.text)],
            structured_content=result.structured or None,
            is_error=result.is_error,
        )

    return Server(
        SERVER_NAME,
        version="1",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
