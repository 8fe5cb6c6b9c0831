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


class ReplayRowOutput(serializers.Serializer):
    chunk_id = serializers.IntegerField()
    section = serializers.ChoiceField(choices=["hot", "rag"])
    state_at_delivery = serializers.CharField(
        help_text="review state when delivered: confirmed / pending / rejected / unstamped; "
        '"" if not recorded'
    )
    state_now = serializers.CharField(help_text='review state now, or "gone" if no longer in the store')
    erased = serializers.BooleanField(help_text="the row's text was erased since; the replay shows [erased]")
    superseded_by = serializers.IntegerField(allow_null=True, help_text="the revision that replaced it since")


class InjectionReplayOutput(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    agent_id = serializers.IntegerField(allow_null=True)
    session_id = serializers.CharField()
    envelope = serializers.CharField(
        trim_whitespace=False, help_text="the <injected_memory> block rebuilt from the log and the store"
    )
    sha256 = serializers.CharField(help_text="sha256 of `envelope`")
    delivered_sha256 = serializers.CharField(
        help_text='sha256 of the envelope as delivered; "" for turns logged before replay was recorded'
    )
    exact = serializers.BooleanField(help_text="`envelope` is byte for byte what the turn delivered")
    time_zone = serializers.CharField()
    rows = ReplayRowOutput(many=True)
