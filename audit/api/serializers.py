"""Serializers for the audit API."""

from __future__ import annotations

from rest_framework import serializers

from audit.models import InjectionLog


class InjectionLogOutput(serializers.ModelSerializer):
    digest_session_ids = serializers.ListField(child=serializers.CharField())
    hot_ids = serializers.ListField(child=serializers.IntegerField())
    rag_ids = serializers.ListField(child=serializers.IntegerField())

    class Meta:
        model = InjectionLog
        fields = [
            "id",
            "created_at",
            "agent_id",
            "session_id",
            "digest_session_ids",
            "hot_ids",
            "rag_ids",
            "approx_tokens",
        ]
        read_only_fields = fields
