"""Filters for the injection log list."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet

from audit.models import InjectionLog, InjectionLogItem


class InjectionLogFilter(django_filters.FilterSet):
    session = django_filters.CharFilter(field_name="session_id", help_text="the runtime's session id")
    agent = django_filters.NumberFilter(field_name="agent_id", help_text="agent id")
    date = django_filters.DateFilter(field_name="created_at", lookup_expr="date", help_text="UTC day")
    since = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    until = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="lt")
    chunk = django_filters.NumberFilter(method="filter_chunk", help_text="rows that delivered this chunk")

    class Meta:
        model = InjectionLog
        fields: list[str] = []

    def filter_chunk(self, queryset: QuerySet[InjectionLog], name: str, value: int) -> QuerySet[InjectionLog]:
        log_ids = InjectionLogItem.objects.filter(chunk_id=value).values("log_id")
        return queryset.filter(pk__in=log_ids)
