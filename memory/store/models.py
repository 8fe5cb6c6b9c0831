from __future__ import annotations

from django.db import models
from django.utils import timezone

from memory.store.trust import trust_label, trust_tier


class MemoryKind(models.TextChoices):
    PROFILE = "profile"
    STANDING = "standing"
    FACT = "fact"
    DECISION = "decision"
    NOTE = "note"
    EPISODE = "episode"
    REFERENCE = "reference"
    LEGACY = "legacy"


class ReviewState(models.TextChoices):
    PENDING = "pending"
    CONFIRMED = "confirmed"
    REJECTED = "rejected"


class DeliveryPolicy(models.TextChoices):
    ALWAYS = "always"
    RETRIEVED = "retrieved"
    ON_DEMAND = "on_demand"


class ChunkScope(models.TextChoices):
    PRIVATE = "private"
    COMMONS = "commons"
    HOST = "host"


class Chunk(models.Model):
    """One thing the agent knows. Rows are never overwritten in place by a revision."""

    domain = models.CharField(max_length=64, default="fact")
    finding_type = models.CharField(max_length=64, blank=True, default="")
    namespace = models.CharField(max_length=128, blank=True, default="")
    source = models.CharField(max_length=1024, blank=True, default="")
    source_type = models.CharField(max_length=64, blank=True, default="")
    # PROTECT: an agent that owns memory is deactivated, never deleted, so its private rows can
    # never lose their owner and read as someone else's (lifecycle.scope).
    agent = models.ForeignKey(
        "sessions_app.Agent", null=True, blank=True, on_delete=models.PROTECT, related_name="chunks"
    )
    created_at = models.DateTimeField(default=timezone.now)
    invalidated_at = models.DateTimeField(null=True, blank=True)
    invalidation_reason = models.CharField(max_length=128, blank=True, default="")
    memory_kind = models.CharField(max_length=16, choices=MemoryKind.choices, null=True, blank=True)
    subject = models.CharField(max_length=256, null=True, blank=True)
    review_state = models.CharField(max_length=16, choices=ReviewState.choices, null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    delivery_policy = models.CharField(max_length=16, choices=DeliveryPolicy.choices, null=True, blank=True)
    # Set once by the expiry sweep when it has recorded this row's lapse (memory.lifecycle).
    lapse_recorded_at = models.DateTimeField(null=True, blank=True, editable=False)
    # lifecycle.scope: private (NULL on older rows) belongs to `agent` and only to it, host rows
    # (operator-written for every agent) are marked "host", commons is the shared tier.
    # Nullable so adding it is an ALTER TABLE ADD COLUMN, which keeps the FTS / vector triggers.
    scope = models.CharField(max_length=8, choices=ChunkScope.choices, null=True, blank=True)
    # A commons copy made by promotion: the private row it was copied from (a plain id, so the
    # provenance survives the original being reaped).
    promoted_from = models.BigIntegerField(null=True, blank=True, editable=False)
    # A proposed revision (lifecycle.authority): the row this pending row would supersede once a
    # reviewer confirms it; until then the original keeps being delivered. A plain id, like
    # promoted_from, and no column constraint or index of its own: on SQLite, adding or dropping
    # such a nullable column is ALTER TABLE ADD/DROP COLUMN, which keeps the FTS and vector
    # triggers (a table rebuild would drop them).
    proposes_id = models.BigIntegerField(null=True, blank=True, editable=False)
    # The write inspection (lifecycle.inspection): 1 = highest risk .. 3; NULL for operator rows.
    risk = models.SmallIntegerField(null=True, blank=True, editable=False)
    # Comma-separated reason codes that hold this row from delivery while it is pending.
    held_reasons = models.CharField(max_length=255, null=True, blank=True, editable=False)
    # Why: the inspection's reasons as dicts (dataclasses.asdict of lifecycle.inspection.Reason:
    # code, text, snippet and whatever fields it grows), then the supersede / contradiction links
    # the facts path found (code, text, snippet, rule, chunk_id). NULL when nothing was found.
    # Nullable, no default: adding it is ALTER TABLE ADD COLUMN, which keeps the FTS triggers.
    held_detail = models.JSONField(null=True, blank=True, editable=False)
    heading = models.CharField(max_length=512, blank=True, default="")
    content = models.TextField()

    class Meta:
        indexes = [
            models.Index(fields=["review_state"], name="chunk_review_state"),
            # The admin review queue: one verdict, newest first, without sorting the whole state.
            models.Index(fields=["review_state", "created_at"], name="chunk_review_created"),
            # The risk-first review queue: pending rows by risk, newest first within a level.
            models.Index(fields=["review_state", "risk", "created_at"], name="chunk_review_risk"),
            models.Index(
                fields=["proposes_id"], name="chunk_proposes", condition=models.Q(proposes_id__isnull=False)
            ),
            models.Index(fields=["delivery_policy", "created_at"], name="chunk_policy_created"),
            models.Index(fields=["namespace"], name="chunk_namespace"),
            models.Index(fields=["invalidated_at"], name="chunk_invalidated"),
            models.Index(fields=["expires_at"], name="chunk_expires"),
            models.Index(fields=["created_at"], name="chunk_created"),
            models.Index(fields=["domain", "namespace"], name="chunk_domain_namespace"),
            models.Index(fields=["source"], name="chunk_source"),
            models.Index(fields=["scope", "agent"], name="chunk_scope_agent"),
            # The supersession chain read backwards ("what did #N supersede?"), invalidated rows only.
            models.Index(
                fields=["invalidation_reason"],
                name="chunk_invalidation_reason",
                condition=models.Q(invalidated_at__isnull=False),
            ),
            # Lapses the expiry sweep has still to record: small, so each sweep stays cheap.
            models.Index(
                fields=["expires_at"],
                name="chunk_lapse_unrecorded",
                condition=models.Q(expires_at__isnull=False, lapse_recorded_at__isnull=True),
            ),
        ]
        constraints = [
            # One commons copy per promoted row: promoting twice finds the first copy.
            models.UniqueConstraint(
                fields=["promoted_from"],
                name="chunk_promoted_once",
                condition=models.Q(promoted_from__isnull=False),
            ),
        ]
        permissions = [
            ("review_chunk", "Can confirm, reject and reopen chunks"),
            ("promote_chunk", "Can promote chunks to the commons"),
        ]
        verbose_name = "chunk"
        verbose_name_plural = "store"

    def __str__(self) -> str:
        return f"#{self.pk} {self.heading or self.content[:60]}"

    @property
    def trust_tier(self) -> int:
        return int(trust_tier(self.source_type))

    @property
    def trust_label(self) -> str:
        return trust_label(self.source_type)

    @property
    def superseded_by_id(self) -> int | None:
        reason = self.invalidation_reason or ""
        if reason.startswith("superseded_by:"):
            try:
                return int(reason.split(":", 1)[1])
            except ValueError:
                return None
        return None

    def is_expired(self, now: object | None = None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or timezone.now())


class PendingChunk(Chunk):
    """Admin review queue: the same rows, pending first (see memory.admin)."""

    class Meta:
        proxy = True
        verbose_name = "review queue item"
        verbose_name_plural = "review queue"


class HotChunk(Chunk):
    """Admin hot-memory view: exactly selectors.hot_set()."""

    class Meta:
        proxy = True
        verbose_name = "hot memory row"
        verbose_name_plural = "hot memory"


class Skill(models.Model):
    """Procedural memory: a playbook the agent can retrieve (never runs). Own FTS index."""

    name = models.CharField(max_length=128, unique=True)
    description = models.CharField(max_length=512, blank=True, default="")
    content = models.TextField(blank=True, default="")
    enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Quarantine(models.Model):
    """One quarantine of a session's writes: who, when, why, and each row's state before it.

    Lifting it puts back the states recorded here (memory.lifecycle.quarantine), so the record is
    the undo; it is never deleted.
    """

    created_at = models.DateTimeField(default=timezone.now)
    actor = models.CharField(max_length=128)
    path = models.CharField(max_length=64, blank=True, default="")
    reason = models.TextField(blank=True, default="")
    session_id = models.CharField(max_length=255)
    agent = models.ForeignKey(
        "sessions_app.Agent", null=True, blank=True, on_delete=models.PROTECT, related_name="quarantines"
    )
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.CharField(max_length=128, blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["session_id", "agent"], name="quarantine_session")]
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"quarantine #{self.pk} of session {self.session_id}"


class QuarantineRow(models.Model):
    """A row a quarantine covered, with the state it had before (what the lift restores)."""

    quarantine = models.ForeignKey(Quarantine, on_delete=models.CASCADE, related_name="rows")
    # A plain id, like Chunk.promoted_from: the record outlives a reaped row.
    chunk_id = models.BigIntegerField()
    review_state_before = models.CharField(max_length=16, null=True, blank=True)
    delivery_policy_before = models.CharField(max_length=16, null=True, blank=True)
    # False when the row was already rejected: the quarantine changed nothing, the lift leaves it.
    rejected = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["quarantine", "chunk_id"], name="quarantine_row_unique")
        ]
        indexes = [models.Index(fields=["chunk_id"], name="quarantine_row_chunk")]

    def __str__(self) -> str:
        return f"#{self.chunk_id} in quarantine #{self.quarantine_id}"
