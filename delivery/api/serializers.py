"""Serializers for delivery: the per-turn context call, the prompt preview and skills."""

from __future__ import annotations

from rest_framework import serializers

from protomem.api import MAX_DB_INT
from protomem.shared_fields import SharedFieldsMixin

MAX_QUERY_CHARS = 20_000
MAX_SKILL_QUERY_CHARS = 2_000
MAX_WORKING_STATE_CHARS = 200_000


class ContextInput(SharedFieldsMixin, serializers.Serializer):
    query = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=MAX_QUERY_CHARS,
        help_text="the turn's user message (searched for RAG hits and relevant sessions)",
    )
    model = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=256,
        help_text="the turn's model; its context window sets the budget",
    )
    goal_driven = serializers.BooleanField(
        required=False, default=False, help_text="goal-driven turns get no prior-sessions digest"
    )
    working_state = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        trim_whitespace=False,
        max_length=MAX_WORKING_STATE_CHARS,
        help_text="the agent's live commitments, delivered in <working_state>, never shed",
    )
    incognito = serializers.BooleanField(
        required=False, default=False, help_text="no memory in or out for this turn (skills still inject)"
    )


class PreviewQueryInput(ContextInput):
    session = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=255,
        help_text="preview as this session (its digest exclusion and incognito flag)",
    )
    agent = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=MAX_DB_INT,
        help_text="preview as this agent id (its namespace pin and digest)",
    )


class ProjectedSectionOutput(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    text = serializers.CharField()
    chars = serializers.IntegerField()
    ids = serializers.ListField(child=serializers.JSONField(), help_text="delivered ids, in order")
    items = serializers.IntegerField(help_text="items delivered")
    items_dropped = serializers.IntegerField(help_text="items shed (skills: descriptions dropped)")
    chars_dropped = serializers.IntegerField()
    truncated = serializers.BooleanField()


class OverflowOutput(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    items_dropped = serializers.IntegerField()
    chars_dropped = serializers.IntegerField()


class BudgetSummaryOutput(serializers.Serializer):
    ceiling = serializers.IntegerField(allow_null=True, help_text="chars; null = unbounded")
    chars_used = serializers.IntegerField()
    over_budget = serializers.BooleanField(help_text="standing context alone exceeded the ceiling")
    overflow = OverflowOutput(many=True)
    truncated = serializers.DictField(child=serializers.BooleanField())


class SourceOutput(serializers.Serializer):
    section = serializers.CharField()
    chunk_id = serializers.IntegerField(allow_null=True)
    session_id = serializers.CharField()
    source = serializers.CharField()
    source_type = serializers.CharField()
    trust = serializers.CharField()
    stored = serializers.CharField()
    scope = serializers.CharField(help_text='"private" / "commons" for a chunk, "" for a session')


class InjectedIdsOutput(serializers.Serializer):
    digest_session_ids = serializers.ListField(child=serializers.CharField())
    hot_ids = serializers.ListField(child=serializers.IntegerField())
    rag_ids = serializers.ListField(child=serializers.IntegerField())
    skill_names = serializers.ListField(child=serializers.CharField())


class ProjectedContextOutput(serializers.Serializer):
    text = serializers.CharField()
    approx_tokens = serializers.IntegerField()
    incognito = serializers.BooleanField()
    knowledge_enabled = serializers.BooleanField()
    memory_injected = serializers.BooleanField()
    sections = ProjectedSectionOutput(many=True)
    injected = InjectedIdsOutput(source="*")
    sources = SourceOutput(many=True)
    budget = BudgetSummaryOutput()


class ContextOutput(ProjectedContextOutput):
    injection_id = serializers.IntegerField(
        allow_null=True, help_text="the injection-log row this call appended (null: none)"
    )


class SkillListQueryInput(serializers.Serializer):
    query = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=MAX_SKILL_QUERY_CHARS,
        help_text="free-text search over name, description, content",
    )
    include_disabled = serializers.BooleanField(
        required=False, default=False, help_text="operators: list disabled skills too"
    )


class SkillOutput(serializers.Serializer):
    name = serializers.CharField()
    description = serializers.CharField()
    content = serializers.CharField()
    enabled = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class SkillCreateInput(serializers.Serializer):
    name = serializers.CharField(max_length=128)
    description = serializers.CharField(required=False, default="", allow_blank=True, max_length=512)
    content = serializers.CharField(required=False, default="", allow_blank=True, trim_whitespace=False)
    enabled = serializers.BooleanField(required=False, default=True)


class SkillUpdateInput(serializers.Serializer):
    description = serializers.CharField(required=False, allow_blank=True, max_length=512)
    content = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    enabled = serializers.BooleanField(required=False)
