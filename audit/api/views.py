"""Audit API: the injection log (operators), newest first, cursor-paginated."""

from __future__ import annotations

from typing import Any

from rest_framework.generics import ListAPIView

from audit.api.filters import InjectionLogFilter
from audit.api.serializers import InjectionLogOutput
from audit.selectors import injection_logs
from protomem.api import NewestFirstCursorPagination
from sessions_app.permissions import HasModelPerms


class InjectionLogPagination(NewestFirstCursorPagination):
    ordering = ("-created_at", "-id")


class InjectionLogListApi(ListAPIView):
    """Which digest sessions, hot chunks and RAG chunks entered which session's prompts."""

    permission_classes = [HasModelPerms]
    required_perms = {"GET": ("audit.view_injectionlog",)}
    serializer_class = InjectionLogOutput
    pagination_class = InjectionLogPagination
    filterset_class = InjectionLogFilter

    def get_queryset(self) -> Any:
        return injection_logs()
