"""Filters for memory_list (agents) and the store browser / bulk delete (operators)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Q, QuerySet
from django.utils import timezone

from memory.lifecycle.retention import BULK_DELETE_MARKER
from memory.store.models import Chunk, DeliveryPolicy, MemoryKind, ReviewState
from sessions_app.authentication import AgentPrincipal


class NumberInFilter(django_filters.BaseInFilter, django_filters.NumberFilter):
    pass


class MemoryListFilter(django_filters.FilterSet):
    review_state = django_filters.ChoiceFilter(choices=ReviewState.choices)
    memory_kind = django_filters.ChoiceFilter(choices=MemoryKind.choices)
    delivery_policy = django_filters.ChoiceFilter(choices=DeliveryPolicy.choices)
    domain = django_filters.CharFilter()
    namespace = django_filters.CharFilter()
    subject = django_filters.CharFilter()
    created_after = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="lt")
    expired = django_filters.BooleanFilter(method="filter_expired", help_text="true: lapsed rows only")
    mine = django_filters.BooleanFilter(method="filter_mine", help_text="true: rows this agent wrote")

    class Meta:
        model = Chunk
        fields: list[str] = []

    def filter_expired(self, queryset: QuerySet[Chunk], name: str, value: bool | None) -> QuerySet[Chunk]:
        lapsed = Q(expires_at__isnull=False, expires_at__lte=timezone.now())
        return queryset.filter(lapsed) if value else queryset.exclude(lapsed)

    def filter_mine(self, queryset: QuerySet[Chunk], name: str, value: bool | None) -> QuerySet[Chunk]:
        user: Any = getattr(self.request, "user", None)
        if not isinstance(user, AgentPrincipal):
            return queryset
        return queryset.filter(agent_id=user.agent.pk) if value else queryset.exclude(agent_id=user.agent.pk)


class StoreFilter(MemoryListFilter):
    """The operator's view of the whole store (history included unless filtered out)."""

    source = django_filters.CharFilter(help_text="session id or document origin")
    source_type = django_filters.CharFilter()
    finding_type = django_filters.CharFilter()
    agent = django_filters.NumberFilter(field_name="agent_id", help_text="agent id")
    invalidated = django_filters.BooleanFilter(
        field_name="invalidated_at",
        lookup_expr="isnull",
        exclude=True,
        help_text="true: invalidated rows only",
    )
    superseded = django_filters.BooleanFilter(
        method="filter_superseded", help_text="true: revised-away rows only"
    )
    deleted = django_filters.BooleanFilter(method="filter_deleted", help_text="true: bulk-deleted rows only")
    ids = NumberInFilter(field_name="id", help_text="comma-separated ids")

    def filter_superseded(self, queryset: QuerySet[Chunk], name: str, value: bool | None) -> QuerySet[Chunk]:
        chained = Q(invalidated_at__isnull=False) & ~Q(invalidation_reason=BULK_DELETE_MARKER)
        return queryset.filter(chained) if value else queryset.exclude(chained)

    def filter_deleted(self, queryset: QuerySet[Chunk], name: str, value: bool | None) -> QuerySet[Chunk]:
        deleted = Q(invalidated_at__isnull=False, invalidation_reason=BULK_DELETE_MARKER)
        return queryset.filter(deleted) if value else queryset.exclude(deleted)


BULK_FILTER_KEYS = frozenset(StoreFilter.base_filters) - {"mine"}
