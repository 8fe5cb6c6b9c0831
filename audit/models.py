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
