from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from factory.django import DjangoModelFactory

from memory.store.models import Chunk
from sessions_app.models import Agent, Session


class AgentFactory(DjangoModelFactory):
    class Meta:
        model = Agent

    name = factory.Sequence(lambda n: f"agent-{n}")


class SessionFactory(DjangoModelFactory):
    class Meta:
        model = Session

    agent = factory.SubFactory(AgentFactory)
    session_id = factory.Sequence(lambda n: f"thread-{n}")
    surface = "chat"


class ChunkFactory(DjangoModelFactory):
    """Raw rows (no stamps, no guardrail): for selector and admin tests. Writes use add_chunk."""

    class Meta:
        model = Chunk

    domain = "fact"
    content = factory.Sequence(lambda n: f"fact number {n} about the deployment pipeline")
    heading = factory.Sequence(lambda n: f"fact {n}")
    source_type = "memory_ingest"
    memory_kind = "fact"
    review_state = "pending"
    delivery_policy = "retrieved"
    # As add_chunk stamps it (lifecycle.scope.write_scope): a row without an agent is a host row.
    scope = factory.LazyAttribute(
        lambda row: None if getattr(row, "agent", None) or getattr(row, "agent_id", None) else "host"
    )


class UserFactory(DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user-{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", "pw-for-tests-123")

    @classmethod
    def _after_postgeneration(cls, instance, create, results=None):
        if create:
            instance.save(update_fields=["password"])
