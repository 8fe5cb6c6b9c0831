"""Filters for the session list."""

from __future__ import annotations

import django_filters

from sessions_app.models import HarvestState, Session, Surface


class SessionFilter(django_filters.FilterSet):
    surface = django_filters.ChoiceFilter(choices=Surface.choices)
    incognito = django_filters.BooleanFilter()
    retired = django_filters.BooleanFilter(
        field_name="retired_at", lookup_expr="isnull", exclude=True, help_text="true: retired only"
    )
    harvest_state = django_filters.ChoiceFilter(choices=HarvestState.choices)
    agent = django_filters.NumberFilter(field_name="agent_id", help_text="agent id (operators)")
    active_since = django_filters.IsoDateTimeFilter(field_name="last_activity_at", lookup_expr="gte")
    active_before = django_filters.IsoDateTimeFilter(field_name="last_activity_at", lookup_expr="lt")

    class Meta:
        model = Session
        fields: list[str] = []
