"""Serializers of the review console's API: a chunk's blast radius and quarantine."""

from __future__ import annotations

from rest_framework import serializers

from memory.lifecycle.erasure import REASON_MAX_CHARS
from protomem.api import MAX_DB_INT


class InfluenceSummaryOutput(serializers.Serializer):
    chunk_id = serializers.IntegerField()
    turns = serializers.IntegerField()
    hot_turns = serializers.IntegerField()
    rag_turns = serializers.IntegerField()
    sessions = serializers.IntegerField()
    agents = serializers.IntegerField()
    agent_ids = serializers.ListField(child=serializers.IntegerField())
    first_at = serializers.DateTimeField(allow_null=True)
    last_at = serializers.DateTimeField(allow_null=True)


class InfluenceTurnOutput(serializers.Serializer):
    """One turn the chunk entered: the injection-log row and the section it was given in."""

    log_id = serializers.IntegerField()
    section = serializers.CharField()
    created_at = serializers.DateTimeField(source="log.created_at")
    agent_id = serializers.IntegerField(source="log.agent_id", allow_null=True)
    session_id = serializers.CharField(source="log.session_id")


class InfluencePageOutput(serializers.Serializer):
    summary = InfluenceSummaryOutput()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = InfluenceTurnOutput(many=True)


class QuarantineInput(serializers.Serializer):
    agent = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_DB_INT,
        help_text="the session's agent, when several agents share the id",
    )
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=2000, help_text="why, kept on the quarantine record"
    )


class QuarantineOutput(serializers.Serializer):
    session_id = serializers.CharField()
    agent_id = serializers.IntegerField()
    rejected = serializers.ListField(child=serializers.IntegerField())
    already_rejected = serializers.IntegerField()
    quarantine_id = serializers.IntegerField(
        allow_null=True,
        help_text="the record to lift (POST /api/quarantines/{id}/lift/); null: nothing rejected",
    )


class QuarantineLiftOutput(serializers.Serializer):
    quarantine_id = serializers.IntegerField()
    restored = serializers.ListField(
        child=serializers.IntegerField(), help_text="rows put back to their state before the quarantine"
    )
    changed_since = serializers.ListField(
        child=serializers.IntegerField(), help_text="rows reviewed again since: left as they are"
    )
    already_lifted = serializers.BooleanField()


class EraseInput(serializers.Serializer):
    reason = serializers.CharField(
        max_length=REASON_MAX_CHARS,
        help_text="why the row is erased (kept in the audit record; the content is not)",
    )


class EraseOutput(serializers.Serializer):
    erased = serializers.ListField(
        child=serializers.IntegerField(), help_text="rows erased now, this one first"
    )
    already = serializers.ListField(
        child=serializers.IntegerField(), help_text="rows that were erased before"
    )
