"""Serializers for the chunk store and the agent's memory tools (shape only; services own rules).

Provenance is the server's: an agent's write body may not carry source, source_type,
review_state or agent (nor agent_id), nor the trust and scope derived from them (trust,
trust_tier, scope). Any of them present is refused with 400 naming the field, rather than
silently ignored, so a client that believes it set provenance (or its own trust) learns it
did not.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from memory.lifecycle.documents import MAX_CHUNK_CHARS
from memory.lifecycle.facts_links import held_detail_of
from memory.lifecycle.ingest import MAX_EXPIRES_DAYS, MIN_EXPIRES_DAYS
from memory.lifecycle.recall import expires_date, list_line
from memory.lifecycle.retention import MAX_BULK_IDS
from memory.lifecycle.scope import row_scope
from memory.store.deliverable import hold_reasons
from memory.store.models import Chunk, DeliveryPolicy, MemoryKind, ReviewState
from protomem.api import MAX_DB_INT
from protomem.shared_fields import SharedFieldsMixin

MAX_CONTENT_CHARS = 20_000
MAX_DOCUMENT_CHARS = 900_000
MAX_QUERY_CHARS = 2_000
MAX_TOP_K = 50
FORGED_FIELDS = ("source", "source_type", "review_state", "agent", "agent_id", "trust", "trust_tier", "scope")


class _AgentWriteInput(serializers.Serializer):
    """Shared fields of the agent's write tools; refuses provenance in the body."""

    subject = serializers.CharField(required=False, allow_null=True, allow_blank=True, max_length=256)
    memory_kind = serializers.ChoiceField(choices=MemoryKind.choices, required=False, allow_null=True)
    delivery_policy = serializers.ChoiceField(
        choices=DeliveryPolicy.choices,
        required=False,
        allow_null=True,
        help_text='"always" (or domain "hot") is refused with 403 while knowledge.hot_write_confirm is on',
    )
    namespace = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=128,
        help_text="blank: the agent's pinned namespace, or un-namespaced; another than the pinned one is 403",
    )
    expires_in_days = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=MIN_EXPIRES_DAYS,
        max_value=MAX_EXPIRES_DAYS,
        help_text="the row leaves delivery this many days from now (kept in the store)",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        initial = self.initial_data if isinstance(self.initial_data, dict) else {}
        forged = [name for name in FORGED_FIELDS if name in initial]
        if forged:
            raise serializers.ValidationError(
                {name: ["set by the server from the session; not accepted in the body"] for name in forged}
            )
        return attrs


class MemoryIngestInput(SharedFieldsMixin, _AgentWriteInput):
    content = serializers.CharField(max_length=MAX_CONTENT_CHARS, trim_whitespace=False)
    heading = serializers.CharField(required=False, default="", allow_blank=True, max_length=512)
    domain = serializers.CharField(
        required=False,
        default="fact",
        max_length=64,
        help_text='"fact" (default) is consolidated: a near-duplicate is skipped, a revision supersedes',
    )


class KnowledgeIngestInput(_AgentWriteInput):
    origin = serializers.CharField(max_length=1024, help_text="the document's URL or path: stored as source")
    title = serializers.CharField(required=False, default="", allow_blank=True, max_length=256)
    content = serializers.CharField(max_length=MAX_DOCUMENT_CHARS, trim_whitespace=False)
    domain = serializers.CharField(required=False, default="knowledge", max_length=64)
    max_chunk_chars = serializers.IntegerField(
        required=False, default=MAX_CHUNK_CHARS, min_value=200, max_value=8000
    )


class ChunkOutput(serializers.ModelSerializer):
    agent = serializers.IntegerField(source="agent_id", read_only=True, allow_null=True)
    trust = serializers.CharField(source="trust_label", read_only=True)
    trust_tier = serializers.IntegerField(read_only=True)
    superseded_by = serializers.IntegerField(source="superseded_by_id", read_only=True, allow_null=True)
    expires = serializers.SerializerMethodField()
    scope = serializers.SerializerMethodField(help_text='"private", "host" or "commons" (knowledge.scope)')
    proposes = serializers.IntegerField(
        source="proposes_id", read_only=True, allow_null=True, help_text="the row this proposal replaces"
    )
    risk = serializers.IntegerField(read_only=True, allow_null=True, help_text="1 = highest .. 3")
    held_reasons = serializers.SerializerMethodField(help_text="what the write inspection found")
    held = serializers.SerializerMethodField(help_text="kept out of delivery until reviewed (knowledge.hold)")
    held_detail = serializers.SerializerMethodField(
        help_text="why: each reason found (code, text, the matched snippet, and the rule when known), and "
        "the rows this one supersedes, proposes to replace or contradicts (chunk_id)"
    )

    class Meta:
        model = Chunk
        fields = [
            "id",
            "domain",
            "finding_type",
            "namespace",
            "source",
            "source_type",
            "trust",
            "trust_tier",
            "agent",
            "created_at",
            "invalidated_at",
            "invalidation_reason",
            "superseded_by",
            "memory_kind",
            "subject",
            "review_state",
            "expires_at",
            "expires",
            "lapse_recorded_at",
            "delivery_policy",
            "heading",
            "content",
            "scope",
            "promoted_from",
            "proposes",
            "risk",
            "held_reasons",
            "held",
            "held_detail",
        ]
        read_only_fields = fields

    @extend_schema_field(OpenApiTypes.DATE)
    def get_expires(self, obj: Chunk) -> str | None:
        return expires_date(obj)

    def get_scope(self, obj: Chunk) -> str:
        return row_scope(obj)

    def get_held_reasons(self, obj: Chunk) -> list[str]:
        return [code for code in (obj.held_reasons or "").split(",") if code]

    def get_held(self, obj: Chunk) -> bool:
        return bool(hold_reasons(obj))

    @extend_schema_field({"type": "array", "items": {"type": "object", "additionalProperties": True}})
    def get_held_detail(self, obj: Chunk) -> list[dict[str, object]]:
        return held_detail_of(obj)


class MemoryListItemOutput(ChunkOutput):
    line = serializers.SerializerMethodField(help_text="the memory_list line, with expires=YYYY-MM-DD")

    class Meta(ChunkOutput.Meta):
        fields = [*ChunkOutput.Meta.fields, "line"]
        read_only_fields = fields

    def get_line(self, obj: Chunk) -> str:
        return list_line(obj)


class IngestOutput(serializers.Serializer):
    action = serializers.ChoiceField(
        choices=["inserted", "duplicate", "superseded", "held_for_review", "dropped"],
        help_text=(
            "duplicate: nothing written, `chunk` already says it; dropped: only reasoning was sent; "
            "held_for_review: stored, but kept out of every prompt until a reviewer confirms it "
            "(`held_reasons` says why; `proposes` names the row it would replace)"
        ),
    )
    chunk = ChunkOutput(allow_null=True)
    superseded_id = serializers.IntegerField(allow_null=True)
    proposes = serializers.IntegerField(allow_null=True)
    held_reasons = serializers.ListField(child=serializers.CharField())
    score = serializers.FloatField(help_text="best token-set Jaccard against a live fact (facts)")


class KnowledgeIngestOutput(serializers.Serializer):
    action = serializers.ChoiceField(choices=["inserted", "replaced", "duplicate"])
    chunks = ChunkOutput(many=True)
    superseded_ids = serializers.ListField(child=serializers.IntegerField())
    proposed_ids = serializers.ListField(
        child=serializers.IntegerField(), help_text="old chunks not this agent's to replace: awaiting review"
    )
    held_ids = serializers.ListField(
        child=serializers.IntegerField(), help_text="new chunks held from delivery until reviewed"
    )


class RecallQueryInput(SharedFieldsMixin, serializers.Serializer):
    query = serializers.CharField(max_length=MAX_QUERY_CHARS)
    top_k = serializers.IntegerField(required=False, default=10, min_value=1, max_value=MAX_TOP_K)
    namespace = serializers.CharField(required=False, allow_blank=True, default="", max_length=128)
    include_superseded = serializers.BooleanField(required=False, default=False)


class RecallHitOutput(ChunkOutput):
    tag = serializers.CharField(help_text='"" for a live row, else "superseded by #ID" or "superseded"')
    line = serializers.CharField()

    class Meta(ChunkOutput.Meta):
        fields = [*ChunkOutput.Meta.fields, "tag", "line"]
        read_only_fields = fields


class RecallOutput(serializers.Serializer):
    query = serializers.CharField()
    count = serializers.IntegerField()
    results = RecallHitOutput(many=True)
    text = serializers.CharField(help_text="the hits' lines, one per line")


class ReviewInput(serializers.Serializer):
    state = serializers.ChoiceField(choices=ReviewState.choices)


class ReviseInput(serializers.Serializer):
    content = serializers.CharField(max_length=MAX_CONTENT_CHARS, trim_whitespace=False)
    heading = serializers.CharField(required=False, allow_null=True, max_length=512, help_text="omit to keep")


class RevisionOutput(serializers.Serializer):
    chunk = ChunkOutput(help_text="the new revision")
    supersedes = serializers.IntegerField(help_text="the row it replaced")


class BulkDeleteInput(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_DB_INT),
        required=False,
        max_length=MAX_BULK_IDS,
        allow_empty=False,
    )
    filter = serializers.DictField(
        required=False,
        allow_empty=False,
        help_text='the store list\'s filters (e.g. {"source": "thread-9", "domain": "fact"}); '
        "values are strings, numbers or booleans (ids: a list or comma-separated string)",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "ids" not in attrs and "filter" not in attrs:
            raise serializers.ValidationError({"ids": ["give ids or a filter"]})
        return attrs


class BulkRestoreInput(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_DB_INT),
        max_length=MAX_BULK_IDS,
        allow_empty=False,
    )


class BulkDeleteOutput(serializers.Serializer):
    marked = serializers.IntegerField()
    ids = serializers.ListField(child=serializers.IntegerField())
    reap_after = serializers.DateTimeField(help_text="the grace reap deletes them for good after this")


class BulkRestoreOutput(serializers.Serializer):
    restored = serializers.IntegerField()
    ids = serializers.ListField(child=serializers.IntegerField())
