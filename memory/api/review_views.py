"""The review console over HTTP: a chunk's blast radius, a session's quarantine and erasure (operators)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.models import InjectionLogItem
from audit.selectors import chunk_influence, chunk_influence_turns
from memory.api.review_serializers import (
    EraseInput,
    EraseOutput,
    InfluencePageOutput,
    InfluenceSummaryOutput,
    InfluenceTurnOutput,
    QuarantineInput,
    QuarantineLiftOutput,
    QuarantineOutput,
)
from memory.api.views import CHUNK_ID, chunk_or_404, operator_actor
from memory.lifecycle.erasure import chunk_erase
from memory.lifecycle.quarantine import quarantine_lift, session_quarantine
from memory.store.models import Quarantine
from protomem.api import MAX_DB_INT
from sessions_app.models import Session
from sessions_app.permissions import HasModelPerms

QUARANTINE_PATH = "quarantine_api"
ERASE_PATH = "erase_api"
QUARANTINE_ID = OpenApiParameter("quarantine_id", int, OpenApiParameter.PATH, description="quarantine id")


class InfluencePagination(CursorPagination):
    ordering = "-log_id"  # log ids grow with time: newest first, a walk down injection_item_chunk
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


class ChunkInfluenceApi(ListAPIView):
    """Operators: the turns, sessions and agents one chunk entered (summary + the turns, paginated)."""

    permission_classes = [HasModelPerms]
    required_perms = {"GET": ("memory.view_chunk", "audit.view_injectionlog")}
    serializer_class = InfluenceTurnOutput
    pagination_class = InfluencePagination
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return InjectionLogItem.objects.none()
        return chunk_influence_turns(chunk_or_404(self.kwargs["chunk_id"]).pk)

    @extend_schema(
        parameters=[CHUNK_ID],
        responses={
            200: InfluencePageOutput,
            403: OpenApiResponse(description="not an operator with view_chunk and view_injectionlog"),
            404: OpenApiResponse(description="no such chunk"),
        },
        summary="Blast radius of a chunk: where it went (turns newest first)",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        response = super().get(request, *args, **kwargs)
        summary = InfluenceSummaryOutput(chunk_influence(int(self.kwargs["chunk_id"]))).data
        response.data = {"summary": summary, **response.data}
        return response


class SessionQuarantineApi(APIView):
    """Reviewers: reject everything a session wrote, in one transaction, as a liftable record."""

    permission_classes = [HasModelPerms]
    required_perms = {"POST": ("memory.review_chunk",)}

    @extend_schema(
        request=QuarantineInput,
        responses={
            200: QuarantineOutput,
            400: OpenApiResponse(description="several agents have a session with this id: pass agent"),
            403: OpenApiResponse(description="not an operator with memory.review_chunk"),
            404: OpenApiResponse(description="no such session"),
        },
        summary="Quarantine a session: reject every memory it wrote",
    )
    def post(self, request: Request, session_id: str) -> Response:
        data = QuarantineInput(data=request.data)
        data.is_valid(raise_exception=True)
        sessions = Session.objects.filter(session_id=session_id)
        if data.validated_data.get("agent") is not None:
            sessions = sessions.filter(agent_id=data.validated_data["agent"])
        found = list(sessions.values_list("agent_id", flat=True)[:2])
        if not found:
            raise Http404
        if len(found) > 1:
            raise ValidationError({"agent": ["several agents have a session with this id: pass agent"]})
        result = session_quarantine(
            session_id=session_id,
            agent_id=found[0],
            actor=operator_actor(request),
            path=QUARANTINE_PATH,
            reason=data.validated_data.get("reason", ""),
        )
        body = {
            "session_id": session_id,
            "agent_id": found[0],
            "rejected": list(result.rejected),
            "already_rejected": result.already,
            "quarantine_id": result.quarantine_id,
        }
        return Response(QuarantineOutput(body).data)


class ChunkEraseApi(APIView):
    """Operators: erase a row's text and its revisions' (right to erasure); audited with the reason."""

    permission_classes = [HasModelPerms]
    required_perms = {"POST": ("memory.delete_chunk", "memory.review_chunk")}

    @extend_schema(
        parameters=[CHUNK_ID],
        request=EraseInput,
        responses={
            200: EraseOutput,
            400: OpenApiResponse(description="no reason given"),
            403: OpenApiResponse(
                description="not an operator with memory.delete_chunk and memory.review_chunk"
            ),
            404: OpenApiResponse(description="no such chunk"),
        },
        summary="Erase a chunk's content and its revisions' (idempotent)",
    )
    def post(self, request: Request, chunk_id: int) -> Response:
        chunk_or_404(chunk_id)
        data = EraseInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = chunk_erase(
            chunk_id=int(chunk_id),
            reason=data.validated_data["reason"],
            actor=operator_actor(request),
            path=ERASE_PATH,
        )
        return Response(EraseOutput({"erased": list(result.erased), "already": list(result.already)}).data)


class QuarantineLiftApi(APIView):
    """Reviewers: put every row a quarantine rejected back to its state before it (idempotent)."""

    permission_classes = [HasModelPerms]
    required_perms = {"POST": ("memory.review_chunk",)}

    @extend_schema(
        parameters=[QUARANTINE_ID],
        request=None,
        responses={
            200: QuarantineLiftOutput,
            403: OpenApiResponse(description="not an operator with memory.review_chunk"),
            404: OpenApiResponse(description="no such quarantine"),
        },
        summary="Lift a quarantine: restore each row's review state from before it",
    )
    def post(self, request: Request, quarantine_id: str) -> Response:
        if int(quarantine_id) > MAX_DB_INT:  # no record has it (and the lookup would overflow)
            raise Http404
        try:
            result = quarantine_lift(
                quarantine_id=int(quarantine_id), actor=operator_actor(request), path=QUARANTINE_PATH
            )
        except Quarantine.DoesNotExist:
            raise Http404 from None
        body = {
            "quarantine_id": int(quarantine_id),
            "restored": list(result.restored),
            "changed_since": list(result.changed_since),
            "already_lifted": result.already_lifted,
        }
        return Response(QuarantineLiftOutput(body).data)
