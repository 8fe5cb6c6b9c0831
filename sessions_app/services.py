"""Session-side writes. Chunks are only ever written through memory.services."""

from __future__ import annotations

from django.db import transaction

from sessions_app.models import Agent, AgentAPIKey


def agent_key_create(*, name: str, namespace: str | None = None) -> tuple[Agent, str]:
    """Create the agent if new (updating its namespace if given) and issue a fresh key."""
    with transaction.atomic():
        agent, _ = Agent.objects.get_or_create(name=name)
        if namespace is not None and agent.namespace != namespace:
            agent.namespace = namespace
            agent.save(update_fields=["namespace"])
        _, raw_key = AgentAPIKey.objects.create_key(name=f"{name}-key", agent=agent)
    return agent, raw_key
