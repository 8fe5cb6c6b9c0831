"""Sessions API: register / list / retire threads, append turns, session_search, recall_session.

Thin: parse, authorize, call sessions_app.services / selectors, serialize. An agent only ever
sees its own sessions (someone else's is 404). Operators (staff) may read for review: the list
across agents, and one session or summary with ?agent=<id>.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from protomem.api import MAX_DB_INT
from sessions_app import retirement, selectors, services
from sessions_app.api.filters import SessionFilter
from sessions_app.api.serializers import (
    MessageOutput,
    SessionCreateInput,
    SessionOutput,
    SessionSearchInput,
    SessionSearchOutput,
    SessionSummaryOutput,
    TurnCreateInput,
    TurnOutput,
)
from sessions_app.authentication import AgentPrincipal
from sessions_app.models import Message, Session
from sessions_app.permissions import HasModelPerms, IsAgent

# Operators read sessions (and their summaries) with the permission the admin's session pages need.
SESSION_READ_PERMS = {"GET": ("sessions_app.view_session",)}

AGENT_PARAM = OpenApiParameter(
    "agent", int, required=False, description="operators: the agent that owns the session"
)


def _session_for(request: Request, session_id: str) -> Session:
    """The caller's session (agents), or ?agent=<id>'s (operators); 404 otherwise."""
    user = request.user
    if isinstance(user, AgentPrincipal):
        session = selectors.session_get_for_agent(agent=user.agent, session_id=session_id)
    else:
        try:
            agent_id = int(request.query_params.get("agent", ""))
        except ValueError:
            raise Http404 from None
        if not 0 < agent_id <= MAX_DB_INT:  # no agent has it (and the lookup would overflow)
            raise Http404
        session = (
            Session.objects.filter(agent_id=agent_id, session_id=session_id).select_related("summary").first()
        )
    if session is None:
        raise Http404
    return session


class SessionListCreateApi(ListAPIView):
    """GET: the caller's sessions (operators: all, filter by agent). POST: register a thread."""

    serializer_class = SessionOutput
    filterset_class = SessionFilter

    required_perms = SESSION_READ_PERMS

    def get_permissions(self) -> list[Any]:
        if self.request.method == "POST":
            return [IsAgent()]
        return [(IsAgent | HasModelPerms)()]

    def get_queryset(self) -> Any:
        user = self.request.user
        if isinstance(user, AgentPrincipal):
            return selectors.sessions_for_agent(agent=user.agent)
        return selectors.sessions_all()

    @extend_schema(
        request=SessionCreateInput,
        responses={201: SessionOutput, 200: SessionOutput},
        summary="Register a session (idempotent: 200 with the existing one)",
    )
    def post(self, request: Request) -> Response:
        data = SessionCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        session, created = services.session_register(agent=request.user.agent, **data.validated_data)
        session = selectors.session_get_for_agent(agent=request.user.agent, session_id=session.session_id)
        return Response(
            SessionOutput(session).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )


class SessionDetailApi(APIView):
    """GET one session; DELETE retires it (and enqueues its harvest)."""

    required_perms = SESSION_READ_PERMS

    def get_permissions(self) -> list[Any]:
        if self.request.method == "DELETE":
            return [IsAgent()]
        return [(IsAgent | HasModelPerms)()]

    @extend_schema(parameters=[AGENT_PARAM], responses={200: SessionOutput}, summary="One session")
    def get(self, request: Request, session_id: str) -> Response:
        return Response(SessionOutput(_session_for(request, session_id)).data)

    @extend_schema(responses={204: None}, summary="Retire the session (idempotent); harvest follows")
    def delete(self, request: Request, session_id: str) -> Response:
        retirement.session_retire(session=_session_for(request, session_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SessionMessagesApi(ListAPIView):
    """GET: the transcript (oldest first). POST: append one turn of messages."""

    serializer_class = MessageOutput
    permission_classes = [IsAgent]
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return Message.objects.none()
        session = _session_for(self.request, self.kwargs["session_id"])
        return Message.objects.filter(session=session).select_related("turn").order_by("seq")

    @extend_schema(
        request=TurnCreateInput,
        responses={201: TurnOutput, 200: TurnOutput},
        summary="Append a turn (201; 200 when turn_id was already stored); terminal turns write the summary",
    )
    def post(self, request: Request, session_id: str) -> Response:
        session = _session_for(request, session_id)
        data = TurnCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        outcome = services.session_turn_append(
            session=session,
            messages=[services.MessageInput(**m) for m in values["messages"]],
            terminal=values["terminal"],
            goal_driven=values["goal_driven"],
            turn_id=values.get("turn_id"),
        )
        session.refresh_from_db(fields=["message_count"])
        turn = outcome.turn
        body = {
            "session_id": session.session_id,
            "seq": turn.seq,
            "turn_id": turn.turn_id,
            "terminal": turn.terminal,
            "goal_driven": turn.goal_driven,
            "created": outcome.created,
            "summary_written": outcome.summary_written,
            "message_count": session.message_count,
        }
        code = status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK
        return Response(TurnOutput(body).data, status=code)


class SessionSearchApi(APIView):
    """session_search: the caller's sessions whose summary matches the query (ids + snippets)."""

    permission_classes = [IsAgent]

    @extend_schema(
        parameters=[SessionSearchInput],
        responses={200: SessionSearchOutput},
        summary="Search your prior sessions by content (stemmed full text)",
    )
    def get(self, request: Request) -> Response:
        data = SessionSearchInput(data=request.query_params)
        data.is_valid(raise_exception=True)
        query, limit = data.validated_data["query"], data.validated_data["limit"]
        hits = selectors.session_search(agent=request.user.agent, query=query, k=limit)
        body = {"query": query, "backend": selectors.search_backend_name(), "results": hits}
        return Response(SessionSearchOutput(body).data)


class SessionSummaryApi(APIView):
    """recall_session: one session's full summary (reasoning-stripped, credentials redacted)."""

    required_perms = SESSION_READ_PERMS

    def get_permissions(self) -> list[Any]:
        return [(IsAgent | HasModelPerms)()]

    @extend_schema(parameters=[AGENT_PARAM], responses={200: SessionSummaryOutput}, summary="One summary")
    def get(self, request: Request, session_id: str) -> Response:
        session = _session_for(request, session_id)
        summary = selectors.session_summary_get(agent=session.agent, session_id=session.session_id)
        if summary is None:
            raise Http404
        return Response(SessionSummaryOutput(summary).data)
