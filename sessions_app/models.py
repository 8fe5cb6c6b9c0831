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
        verbose_name_plural = "agent API keys"


class OperatorAPIKey(AbstractAPIKey):
    """An operator token for scripts: acts as its (staff) user."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="operator_api_keys"
    )

    class Meta(AbstractAPIKey.Meta):
        verbose_name = "operator API key"
        verbose_name_plural = "operator API keys"


class Surface(models.TextChoices):
    CHAT = "chat"
    A2A = "a2a"
    API = "api"
    CLI = "cli"
    BACKGROUND = "background"
    OTHER = "other"


class HarvestState(models.TextChoices):
    NONE = "none"  # active: not retired yet
    PENDING = "pending"  # retired, waiting for (or between attempts of) the harvest
    RUNNING = "running"  # claimed by a worker (CAS on harvest_claimed_at)
    DONE = "done"
    SKIPPED = "skipped"  # incognito, background:* or nothing to harvest: never harvested
    FAILED = "failed"  # attempts exhausted or a permanent error; an operator re-queues it


class Session(models.Model):
    """A thread an agent runs; `session_id` is the runtime's own id."""

    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="sessions")
    session_id = models.CharField(max_length=255)
    surface = models.CharField(max_length=32, choices=Surface.choices, default=Surface.CHAT)
    incognito = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    last_activity_at = models.DateTimeField(default=timezone.now)
    retired_at = models.DateTimeField(null=True, blank=True)
    # user + assistant messages (tool results are not counted): the digest's "N messages".
    message_count = models.PositiveIntegerField(default=0)
    turn_count = models.PositiveIntegerField(default=0)
    harvest_state = models.CharField(max_length=16, choices=HarvestState.choices, default=HarvestState.NONE)
    harvest_error = models.TextField(blank=True, default="")
    harvest_attempts = models.PositiveSmallIntegerField(default=0)
    harvest_claimed_at = models.DateTimeField(null=True, blank=True)
    harvest_updated_at = models.DateTimeField(null=True, blank=True)
    harvested_at = models.DateTimeField(null=True, blank=True)
    # What the harvest stored: {"summary_chunk": id, "facts": {...}, "mode": "gateway"|"extractive"}.
    harvest_result = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["agent", "session_id"], name="session_unique_per_agent")
        ]
        indexes = [
            models.Index(fields=["agent", "last_activity_at"], name="session_agent_activity"),
            models.Index(fields=["retired_at"], name="session_retired"),
            models.Index(fields=["harvest_state", "harvest_updated_at"], name="session_harvest_state"),
            models.Index(fields=["retired_at", "last_activity_at"], name="session_retire_candidates"),
        ]

    def __str__(self) -> str:
        return self.session_id

    @property
    def is_background(self) -> bool:
        return self.session_id.startswith("background:")

    @property
    def leaves_trail(self) -> bool:
        """False for threads that must leave no memory: incognito and background:* workers."""
        return not (self.incognito or self.is_background) and bool(self.session_id.strip())


class Role(models.TextChoices):
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"


class Turn(models.Model):
    """One exchange the runtime appended; `terminal` marks the turn that ended with an answer."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="turns")
    seq = models.PositiveIntegerField()
    # Optional idempotency key from the runtime: re-posting the same turn stores it once.
    turn_id = models.CharField(max_length=128, null=True, blank=True)
    terminal = models.BooleanField(default=False)
    goal_driven = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="turn_unique_seq"),
            models.UniqueConstraint(fields=["session", "turn_id"], name="turn_unique_turn_id"),
        ]

    def __str__(self) -> str:
        return f"{self.session_id}#{self.seq}"


class Message(models.Model):
    """One message of a turn, in transcript order. Raw: never copied into the chunk store."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="messages")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="messages")
    seq = models.PositiveIntegerField()
    role = models.CharField(max_length=16, choices=Role.choices)
    name = models.CharField(max_length=128, blank=True, default="")  # tool name for role=tool
    content = models.TextField(blank=True, default="")
    tool_calls = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session", "seq"]
        constraints = [models.UniqueConstraint(fields=["session", "seq"], name="message_unique_seq")]

    def __str__(self) -> str:
        return f"{self.session_id}.{self.seq} {self.role}"


class SessionSummary(models.Model):
    """The session's summary as of its last terminal turn: redacted and reasoning-stripped.

    Agent, session id, surface, topic and count are copied from the session so the digest reads
    one narrow table. Indexed for session search by migration 0003 (FTS5, porter).
    """

    session = models.OneToOneField(Session, on_delete=models.CASCADE, related_name="summary")
    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="session_summaries")
    session_key = models.CharField(max_length=255)  # Session.session_id, the runtime's id
    surface = models.CharField(max_length=32, default=Surface.CHAT)
    topic = models.CharField(max_length=200, blank=True, default="")
    message_count = models.PositiveIntegerField(default=0)
    # {"messages": [{"role", "content"}], "top_tool_calls": [{"name", "count"}], "final_output"}
    data = models.JSONField(default=dict)
    text = models.TextField(blank=True, default="")  # the searchable flattening of `data`
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "session summaries"
        indexes = [models.Index(fields=["agent", "-updated_at", "-id"], name="summary_agent_newest")]

    def __str__(self) -> str:
        return f"summary of {self.session_key}"
