"""Serializers for the sessions API (inputs validate shape; services validate rules)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sessions_app.models import Message, Role, Session, Surface


class SessionCreateInput(serializers.Serializer):
    session_id = serializers.CharField(max_length=255, trim_whitespace=False)
    surface = serializers.ChoiceField(
        choices=Surface.choices, required=False, help_text="default chat (background for background:*)"
    )
    incognito = serializers.BooleanField(default=False)


class SessionOutput(serializers.ModelSerializer):
    agent = serializers.IntegerField(source="agent_id", read_only=True)
    is_background = serializers.BooleanField(read_only=True)
    topic = serializers.SerializerMethodField()
    has_summary = serializers.SerializerMethodField()

    class Meta:
        model = Session
        fields = [
            "session_id",
            "agent",
            "surface",
            "incognito",
            "is_background",
            "created_at",
            "last_activity_at",
            "retired_at",
            "turn_count",
            "message_count",
            "topic",
            "has_summary",
            "harvest_state",
            "harvest_error",
            "harvest_attempts",
            "harvested_at",
            "harvest_result",
        ]
        read_only_fields = fields

    def _summary(self, obj: Session) -> Any:
        try:
            return obj.summary
        except Session.summary.RelatedObjectDoesNotExist:
            return None

    def get_topic(self, obj: Session) -> str:
        summary = self._summary(obj)
        return summary.topic if summary is not None else ""

    def get_has_summary(self, obj: Session) -> bool:
        return self._summary(obj) is not None


class MessageInputSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)
    content = serializers.CharField(allow_blank=True, default="", trim_whitespace=False)
    name = serializers.CharField(
        allow_blank=True, default="", max_length=128, help_text="tool name (role=tool)"
    )
    tool_calls = serializers.ListField(
        child=serializers.DictField(), default=list, help_text="OpenAI-style tool calls (assistant)"
    )


class TurnCreateInput(serializers.Serializer):
    messages = MessageInputSerializer(many=True, allow_empty=False)
    terminal = serializers.BooleanField(default=False, help_text="the turn ended with a final answer")
    goal_driven = serializers.BooleanField(default=False)
    turn_id = serializers.CharField(
        max_length=128,
        required=False,
        allow_blank=False,
        help_text="idempotency key: a re-post stores nothing",
    )


class TurnOutput(serializers.Serializer):
    session_id = serializers.CharField()
    seq = serializers.IntegerField()
    turn_id = serializers.CharField(allow_null=True)
    terminal = serializers.BooleanField()
    goal_driven = serializers.BooleanField()
    created = serializers.BooleanField(help_text="false when turn_id was already stored")
    summary_written = serializers.BooleanField()
    message_count = serializers.IntegerField()


class MessageOutput(serializers.ModelSerializer):
    turn = serializers.IntegerField(source="turn.seq", read_only=True)

    class Meta:
        model = Message
        fields = ["seq", "turn", "role", "name", "content", "tool_calls", "created_at"]
        read_only_fields = fields


class SessionSearchInput(serializers.Serializer):
    query = serializers.CharField(max_length=1000, trim_whitespace=True)
    limit = serializers.IntegerField(min_value=1, max_value=50, default=10)


class SessionHitOutput(serializers.Serializer):
    session_id = serializers.CharField()
    surface = serializers.CharField()
    topic = serializers.CharField()
    message_count = serializers.IntegerField()
    updated_at = serializers.DateTimeField()
    snippet = serializers.CharField()


class SessionSearchOutput(serializers.Serializer):
    query = serializers.CharField()
    backend = serializers.CharField(help_text="fts5 or like")
    results = SessionHitOutput(many=True)


class ToolCountOutput(serializers.Serializer):
    name = serializers.CharField()
    count = serializers.IntegerField()


class SummaryMessageOutput(serializers.Serializer):
    role = serializers.CharField()
    content = serializers.CharField()


class SessionSummaryOutput(serializers.Serializer):
    session_id = serializers.CharField()
    surface = serializers.CharField()
    topic = serializers.CharField()
    message_count = serializers.IntegerField()
    updated_at = serializers.DateTimeField()
    retired = serializers.BooleanField()
    messages = SummaryMessageOutput(many=True)
    top_tool_calls = ToolCountOutput(many=True)
    final_output = serializers.CharField()
