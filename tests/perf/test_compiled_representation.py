"""protomem.representation: a compiled output serializer returns exactly what DRF's
to_representation returns (same keys, same order, same values), on real rows in every state the
hot endpoints answer with, and on the odd field shapes that take DRF's own path."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework import serializers

from delivery.api.serializers import ProjectedContextOutput
from delivery.projection import compose_projected_context
from memory.api.serializers import ChunkOutput, MemoryListItemOutput, RecallHitOutput
from memory.store.models import Chunk
from protomem.representation import compile_representation
from tests.factories import AgentFactory, ChunkFactory

pytestmark = pytest.mark.django_db


def _same(serializer: serializers.BaseSerializer, instance: Any) -> tuple[Any, Any]:
    expected = serializer.to_representation(instance)
    got = compile_representation(serializer)(instance)
    return got, expected


def _rows() -> list[Chunk]:
    agent = AgentFactory(name="rep-agent")
    now = timezone.now()
    plain = ChunkFactory(agent=agent, content="plain ascii row")
    newer = ChunkFactory(agent=agent, content="its revision, naïve café ✓", namespace="ops")
    old = ChunkFactory(
        agent=agent,
        invalidated_at=now,
        invalidation_reason=f"superseded_by:{newer.pk}",
        expires_at=now + timedelta(days=3),
        lapse_recorded_at=now,
    )
    held = ChunkFactory(
        agent=agent,
        held_reasons="instruction,secret",
        risk=1,
        proposes_id=plain.pk,
        review_state="pending",
        subject="deploys",
    )
    commons = ChunkFactory(agent=None, scope="commons", promoted_from=plain.pk, review_state="confirmed")
    host = ChunkFactory(agent=None, delivery_policy="always", memory_kind=None, source="doc://x")
    return [Chunk.objects.get(pk=c.pk) for c in (plain, newer, old, held, commons, host)]


def test_chunk_outputs_equal_drf_on_rows_in_every_state() -> None:
    rows = _rows()
    for row in rows:
        row.tag, row.line = ("superseded", f"- line {row.pk}")  # type: ignore[attr-defined]
    for serializer_class in (ChunkOutput, MemoryListItemOutput, RecallHitOutput):
        serializer = serializer_class()
        for row in rows:
            got, expected = _same(serializer, row)
            assert list(got) == list(expected), serializer_class.__name__
            assert got == expected, (serializer_class.__name__, row.pk)
    many = RecallHitOutput(many=True)
    got, expected = _same(many, rows)
    assert got == expected
    assert len(got) == len(rows)
    assert {r["held"] for r in got} == {True, False}
    assert any(r["superseded_by"] for r in got)
    assert any(r["promoted_from"] for r in got)
    assert any(r["expires"] for r in got)
    assert any(r["held_detail"] for r in got)


def test_context_output_equals_drf(agent_client: Any) -> None:
    ChunkFactory(
        agent=agent_client.agent, content="the deploy script lives in ops/deploy.sh", review_state="confirmed"
    )
    ChunkFactory(agent=None, delivery_policy="always", content="always say which host", scope="host")
    context = compose_projected_context(
        agent=agent_client.agent, session_id="s1", query="deploy", model="", working_state="- ship it"
    )
    got, expected = _same(ProjectedContextOutput(), context)
    assert got == expected
    assert list(got) == list(expected)
    assert got["sections"], "the envelope has sections to compare"


class _Item:
    def __init__(self, name: str, sub: Any = None) -> None:
        self.name = name
        self.sub = sub

    def shout(self) -> str:
        return self.name.upper()


class _Odd(serializers.Serializer):
    name = serializers.CharField()
    shout = serializers.CharField()  # a method: DRF calls it
    sub_name = serializers.CharField(source="sub.name", allow_null=True)  # dotted source
    optional = serializers.CharField(required=False)  # missing attribute: left out (SkipField)
    defaulted = serializers.CharField(default="dflt")  # missing attribute: its default
    whole = serializers.SerializerMethodField()
    numbers = serializers.ListField(child=serializers.IntegerField(), required=False)
    ratio = serializers.FloatField(required=False)

    def get_whole(self, obj: Any) -> str:
        return f"<{obj['name'] if isinstance(obj, dict) else obj.name}>"


def test_odd_fields_follow_drf() -> None:
    serializer = _Odd()
    for instance in (_Item("a", sub=_Item("b")), _Item("c", sub=None)):
        got, expected = _same(serializer, instance)
        assert got == expected
        assert "optional" not in got
        assert got["defaulted"] == "dflt"
        assert got["shout"] == instance.name.upper()
    mapping = {"name": "m", "shout": "s", "sub": {"name": "n"}, "numbers": ["1", None, 3.0], "ratio": "0.5"}
    got, expected = _same(serializer, mapping)
    assert got == expected
    assert got["sub_name"] == "n"
    assert got["numbers"] == [1, None, 3]
    assert got["ratio"] == 0.5
