"""Input serializers whose fields are built once per class instead of once per request.

DRF deep-copies every declared field into each new serializer (~0.4 ms for a hot input
serializer, more than a recall's own validation). A class using SharedFieldsMixin binds one
copy to a prototype instance the first time and every later instance reads that copy. Safe
only for fields that keep no per-call state and read no context: the scalar fields of the hot
inputs (CharField, IntegerField, BooleanField, ChoiceField; validation reads `root.partial`,
False on the prototype as on every instance these inputs get). Validation, errors and the
OpenAPI schema are DRF's own code over the same fields, so they are unchanged.
"""

from __future__ import annotations

import threading
from typing import Any

from django.utils.functional import cached_property
from rest_framework.utils.serializer_helpers import BindingDict

_lock = threading.Lock()


# No docstring: drf-spectacular would take it as the description of every serializer using this.
class SharedFieldsMixin:  # mix in before serializers.Serializer; no partial / context use
    _shared_prototype: Any = None

    @cached_property
    def fields(self) -> BindingDict:
        cls = type(self)
        proto = cls.__dict__.get("_shared_prototype")
        if proto is None:
            with _lock:
                proto = cls.__dict__.get("_shared_prototype")
                if proto is None:
                    proto = cls()  # type: ignore[call-arg]
                    fields = BindingDict(proto)
                    for name, field in proto.get_fields().items():  # DRF's own build, bound to proto
                        fields[name] = field
                    proto.__dict__["fields"] = fields  # cached_property's slot: proto never rebuilds
                    cls._shared_prototype = proto
        return proto.fields
