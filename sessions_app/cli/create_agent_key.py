"""protomem create-agent-key NAME [--namespace NS]: the only time the raw key is shown."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from sessions_app.services import agent_key_create

help = "Create (or reuse) an agent and issue it a new API key; prints the key once."


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("name", help="agent name (created if it does not exist)")
    parser.add_argument("--namespace", default=None, help="pin the agent's reads and writes to it")


def handle(command: Any, options: dict[str, Any]) -> None:
    agent, raw_key = agent_key_create(name=options["name"], namespace=options["namespace"])
    command.stderr.write(f"agent {agent.name} (id {agent.pk}, namespace {agent.namespace or '-'})")
    command.stdout.write(raw_key)
