from __future__ import annotations

from django.db import models
from django.utils import timezone


class AuditEvent(models.Model):
    """Who did what to which chunk, through which path. Append-only."""

    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    event = models.CharField(max_length=64, db_index=True)
    actor = models.CharField(max_length=128)
    path = models.CharField(max_length=64, blank=True, default="")
    chunk_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.event} by {self.actor} on #{self.chunk_id}"


class InjectionSection(models.TextChoices):
    HOT = "hot"
    RAG = "rag"


class InjectionScope(models.TextChoices):
    PRIVATE = "private"
    COMMONS = "commons"


class InjectionLog(models.Model):
    """One model call that had memory injected: what entered the prompt. In the "injections" DB.

    Agent and chunks live in the other database, so they are plain ids, never foreign keys.
    """

    created_at = models.DateTimeField(default=timezone.now)
    agent_id = models.BigIntegerField(null=True, blank=True)
    session_id = models.CharField(max_length=255)
    digest_session_ids = models.JSONField(default=list, blank=True)
    hot_ids = models.JSONField(default=list, blank=True)
    rag_ids = models.JSONField(default=list, blank=True)
    approx_tokens = models.PositiveIntegerField(default=0)
    # What delivery.replay needs to rebuild the turn's <injected_memory> envelope byte for byte
    # from this row and the store (rows are never overwritten by a revision, so a delivered id
    # still names the text it delivered; erasure replaces that text, and the replay says so).
    # No chunk text is kept here, so an erased row's words do not survive in the log.
    # sha256 (hex) of the envelope as delivered; "" on rows logged before replay was recorded.
    envelope_sha256 = models.CharField(max_length=64, blank=True, default="")
    # The delivered digest lines (session summaries, not memory rows), in delivered order.
    digest_lines = models.JSONField(default=list, blank=True)
    # The time zone the RAG lines' stored dates were rendered in.
    time_zone = models.CharField(max_length=64, blank=True, default="")
    # Each delivered row's review state at delivery: {"<chunk id>": "confirmed" | "pending" | ""}.
    row_states = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = "injection"
        verbose_name_plural = "injections"
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["created_at"], name="injection_created"),
            models.Index(fields=["session_id", "created_at"], name="injection_session_created"),
            models.Index(fields=["agent_id", "created_at"], name="injection_agent_created"),
        ]

    def __str__(self) -> str:
        return f"injection #{self.pk} into {self.session_id}"


class InjectionLogItem(models.Model):
    """One delivered chunk of an InjectionLog row, so a chunk's injection history is an index read."""

    log = models.ForeignKey(InjectionLog, on_delete=models.CASCADE, related_name="items")
    chunk_id = models.BigIntegerField()
    section = models.CharField(max_length=8, choices=InjectionSection.choices)
    # Whether the delivered row was private or commons when it entered the prompt (memory.lifecycle.scope).
    scope = models.CharField(max_length=8, choices=InjectionScope.choices, default=InjectionScope.PRIVATE)
    # The log row's agent and session, copied so a chunk's blast radius (how many sessions and
    # agents it entered) is an index-only read on injection_item_reach, never a join.
    agent_id = models.BigIntegerField(null=True, blank=True)
    session_id = models.CharField(max_length=255, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["log", "section", "chunk_id"], name="injection_item_unique")
        ]
        indexes = [
            models.Index(fields=["chunk_id", "log"], name="injection_item_chunk"),
            models.Index(
                fields=["chunk_id", "agent_id", "session_id", "section"], name="injection_item_reach"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.section} #{self.chunk_id} in injection #{self.log_id}"
