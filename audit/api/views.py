"""Audit API: the injection log (operators), newest first, cursor-paginated."""

from __future__ import annotations

import dataclasses
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.api.filters import InjectionLogFilter
from audit.api.serializers import InjectionLogOutput, InjectionReplayOutput
from audit.selectors import injection_log_by_id, injection_logs
from delivery.replay import replay_injection
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


class InjectionReplayApi(APIView):
    """The <injected_memory> envelope one logged turn delivered, rebuilt byte for byte, with each
    delivered row's review state then and now (delivery.replay)."""

    permission_classes = [HasModelPerms]
    required_perms = {"GET": ("audit.view_injectionlog",)}

    @extend_schema(
        parameters=[OpenApiParameter("log_id", int, OpenApiParameter.PATH, description="injection-log id")],
        responses={200: InjectionReplayOutput, 404: OpenApiResponse(description="no such injection")},
        summary="Replay one logged turn",
    )
    def get(self, request: Request, log_id: int) -> Response:
        log = injection_log_by_id(int(log_id))
        if log is None:
            raise NotFound(f"No injection #{log_id} in the log.")
        replay = replay_injection(log)
        body = {
            "id": log.pk,
            "created_at": log.created_at,
            "agent_id": log.agent_id,
            "session_id": log.session_id,
            "envelope": replay.text,
            "sha256": replay.sha256,
            "delivered_sha256": replay.delivered_sha256,
            "exact": replay.exact,
            "time_zone": replay.time_zone,
            "rows": [dataclasses.asdict(row) for row in replay.rows],
        }
        return Response(InjectionReplayOutput(body).data)
