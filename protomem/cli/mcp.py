"""protomem mcp --agent-key KEY [--session ID]: the memory tools over MCP on stdin/stdout."""

from __future__ import annotations

import os
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import CommandError

from mcp_server.binding import BindingError
from mcp_server.stdio import serve_stdio, stdio_resolver

help = "Serve the memory tools over MCP (stdio) as the agent owning --agent-key."

KEY_ENV = "PROTOMEM_AGENT_KEY"


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument(
        "--agent-key",
        default=None,
        help=f"the agent's API key (default: ${KEY_ENV}, which keeps it out of the process list)",
    )
    parser.add_argument(
        "--session",
        default=None,
        help="the session every write is stamped with (default: a new mcp-<random> session per run)",
    )


def handle(command: Any, options: dict[str, Any]) -> None:
    raw_key = options["agent_key"] or os.environ.get(KEY_ENV, "")
    if not raw_key:
        raise CommandError(f"give --agent-key or set {KEY_ENV}")
    try:
        resolve = stdio_resolver(raw_key, options["session"])
    except BindingError as exc:
        raise CommandError(str(exc)) from None
    binding = resolve()
    command.stderr.write(f"protomem mcp: agent {binding.agent.name}, session {binding.session_id} (stdio)")
    serve_stdio(resolve)
