from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from rest_framework_api_key.models import AbstractAPIKey


class Agent(models.Model):
    """An agent runtime that talks to the API; its key authenticates it."""

    name = models.CharField(max_length=128, unique=True)
    # Blank: the agent may use any namespace; set: its writes and reads are pinned to it.
    namespace = models.CharField(max_length=128, blank=True, default="")
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.name


class AgentAPIKey(AbstractAPIKey):
    """Hashed at rest; only the prefix is visible after creation."""

    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="api_keys")

    class Meta(AbstractAPIKey.Meta):
        verbose_name = "agent API key"


class OperatorAPIKey(AbstractAPIKey):
    """An operator token for scripts: acts as its (staff) user."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="operator_api_keys"
    )

    class Meta(AbstractAPIKey.Meta):
        verbose_name = "operator API key"


class Surface(models.TextChoices):
    CHAT = "chat"
    A2A = "a2a"
    API = "api"
    CLI = "cli"
    BACKGROUND = "background"
    OTHER = "other"


class Session(models.Model):
    """A thread an agent runs; `session_id` is the runtime's own id."""

    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="sessions")
    session_id = models.CharField(max_length=255)
    surface = models.CharField(max_length=32, choices=Surface.choices, default=Surface.CHAT)
    incognito = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    last_activity_at = models.DateTimeField(default=timezone.now)
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["agent", "session_id"], name="session_unique_per_agent")
        ]
        indexes = [
            models.Index(fields=["agent", "last_activity_at"], name="session_agent_activity"),
            models.Index(fields=["retired_at"], name="session_retired"),
        ]

    def __str__(self) -> str:
        return self.session_id

    @property
    def is_background(self) -> bool:
        return self.session_id.startswith("background:")
