"""Hot input serializers build their fields once per class, and validate as DRF always did."""

from __future__ import annotations

import pytest
from rest_framework import serializers

from delivery.api.serializers import ContextInput, PreviewQueryInput
from memory.api.serializers import MemoryIngestInput, RecallQueryInput
from protomem.shared_fields import SharedFieldsMixin


class _Plain(serializers.Serializer):
    query = serializers.CharField(max_length=5)
    top_k = serializers.IntegerField(required=False, default=3, min_value=1, max_value=9)
    flag = serializers.BooleanField(required=False, default=False)


class _Shared(SharedFieldsMixin, _Plain):
    pass


@pytest.mark.parametrize("cls", [RecallQueryInput, MemoryIngestInput, ContextInput, PreviewQueryInput])
def test_instances_share_one_set_of_fields_per_class(cls: type) -> None:
    first, second = cls(data={}), cls(data={})
    assert first.fields is second.fields
    assert list(first.fields) == list(cls._declared_fields)


def test_a_subclass_gets_its_own_fields() -> None:
    assert "session" in PreviewQueryInput().fields
    assert "session" not in ContextInput().fields


@pytest.mark.parametrize(
    "data",
    [
        {"query": "abc"},
        {"query": "abc", "top_k": "4", "flag": "true"},
        {"query": "abcdefgh", "top_k": 0},
        {"top_k": "x", "flag": "maybe"},
        {"query": None},
        {"query": ""},
    ],
)
def test_validation_and_errors_equal_the_per_instance_fields(data: dict) -> None:
    plain, shared = _Plain(data=data), _Shared(data=data)
    assert plain.is_valid() == shared.is_valid()
    assert plain.errors == shared.errors
    if plain.errors:
        assert {k: [e.code for e in v] for k, v in plain.errors.items()} == {
            k: [e.code for e in v] for k, v in shared.errors.items()
        }
    else:
        assert dict(plain.validated_data) == dict(shared.validated_data)


def test_one_instance_keeps_its_own_data_and_errors() -> None:
    bad, good = _Shared(data={"query": "abcdefgh"}), _Shared(data={"query": "ok"})
    assert not bad.is_valid()
    assert good.is_valid()
    assert set(bad.errors) == {"query"}
    assert good.validated_data["query"] == "ok"
