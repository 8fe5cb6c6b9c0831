"""JSON Schemas for tool arguments, read off the API's own serializers and filtersets.

The tools validate with the same DRF serializers (and django-filter filtersets) the HTTP API
uses, so the schema a model sees is derived from them rather than written twice.
"""

from __future__ import annotations

from typing import Any

import django_filters
from rest_framework import serializers
from rest_framework.fields import empty


def _typed(kind: str, nullable: bool) -> dict[str, Any]:
    return {"type": [kind, "null"] if nullable else kind}


def field_schema(field: serializers.Field) -> dict[str, Any]:
    """One serializer field as a JSON Schema property (type, bounds, enum, default, description)."""
    nullable = bool(getattr(field, "allow_null", False))
    if isinstance(field, serializers.ChoiceField):
        schema = _typed("string", nullable)
        schema["enum"] = [*field.choices, *([None] if nullable else [])]
    elif isinstance(field, serializers.BooleanField):
        schema = _typed("boolean", nullable)
    elif isinstance(field, serializers.IntegerField):
        schema = _typed("integer", nullable)
        if field.min_value is not None:
            schema["minimum"] = field.min_value
        if field.max_value is not None:
            schema["maximum"] = field.max_value
    elif isinstance(field, serializers.CharField):
        schema = _typed("string", nullable)
        if field.max_length is not None:
            schema["maxLength"] = field.max_length
    else:  # pragma: no cover - every field the tools use is one of the above
        raise TypeError(f"no JSON Schema for {type(field).__name__}")
    if field.default is not empty and not callable(field.default):
        schema["default"] = field.default
    if field.help_text:
        schema["description"] = str(field.help_text)
    return schema


def serializer_schema(serializer_class: type[serializers.Serializer]) -> dict[str, Any]:
    """An object schema of the serializer's writable fields; unknown properties are refused."""
    fields = {name: f for name, f in serializer_class().fields.items() if not f.read_only}
    return {
        "type": "object",
        "properties": {name: field_schema(f) for name, f in fields.items()},
        "required": [name for name, f in fields.items() if f.required],
        "additionalProperties": False,
    }


def filter_schema(filter_: django_filters.Filter) -> dict[str, Any]:
    """One filterset filter as an optional JSON Schema property."""
    if isinstance(filter_, django_filters.ChoiceFilter):
        schema: dict[str, Any] = {"type": "string", "enum": [value for value, _ in filter_.extra["choices"]]}
    elif isinstance(filter_, django_filters.BooleanFilter):
        schema = {"type": "boolean"}
    elif isinstance(filter_, django_filters.IsoDateTimeFilter):
        schema = {"type": "string", "format": "date-time"}
    elif isinstance(filter_, django_filters.CharFilter):
        schema = {"type": "string"}
    else:  # pragma: no cover - every filter memory_list uses is one of the above
        raise TypeError(f"no JSON Schema for {type(filter_).__name__}")
    help_text = filter_.extra.get("help_text")
    if help_text:
        schema["description"] = str(help_text)
    return schema


def filterset_properties(filterset_class: type[django_filters.FilterSet]) -> dict[str, Any]:
    return {name: filter_schema(f) for name, f in filterset_class.base_filters.items()}
