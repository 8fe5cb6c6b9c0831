"""Delivery endpoints: the agent's per-turn context call, the operator prompt preview, skills.

Thin: parse, authorize, call delivery.projection / delivery.skills, serialize.
"""

from __future__ import annotations

import functools
from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from delivery.api.serializers import (
    ContextInput,
    ContextOutput,
    PreviewQueryInput,
    ProjectedContextOutput,
    SkillCreateInput,
    SkillListQueryInput,
    SkillOutput,
    SkillUpdateInput,
)
from delivery.projection import compose_projected_context, deliver_projected_context
from delivery.skills import skill_create, skill_get, skill_list, skill_update
from memory.store.models import Skill
from protomem.errors import ApplicationError
from protomem.representation import Representation, compile_representation
from sessions_app.authentication import AgentPrincipal, own_session
from sessions_app.models import Agent, Session
from sessions_app.permissions import HasModelPerms, IsAgent, IsOperator


@functools.cache
def _context_output() -> ProjectedContextOutput:
    """The per-turn answer's serializer, its nested fields built once per process (read-only use)."""
    serializer = ProjectedContextOutput()
    _ = serializer.fields
    return serializer


@functools.cache
def _context_dict() -> Representation:
    """The per-turn answer's serializer compiled (protomem.representation): same dict, less CPU."""
    return compile_representation(_context_output())


class ContextApi(APIView):
    """The agent's per-turn call: the projected context for one of its sessions."""

    permission_classes = [IsAgent]

    @extend_schema(
        request=ContextInput,
        responses={200: ContextOutput},
        summary="Compose this turn's injected context (and log what memory entered it)",
    )
    def post(self, request: Request, session_id: str) -> Response:
        data = ContextInput(data=request.data)
        data.is_valid(raise_exception=True)
        session = own_session(request.user.agent, session_id)
        context, log = deliver_projected_context(session=session, **data.validated_data)
        body = _context_dict()(context)
        body["injection_id"] = log.pk if log is not None else None
        return Response(body)


def _preview_session(agent: Agent | None, session_id: str) -> Session | None:
    if not session_id:
        return None
    sessions = Session.objects.select_related("agent").filter(session_id=session_id)
    if agent is not None:
        sessions = sessions.filter(agent=agent)
    found = list(sessions[:2])
    if not found:
        raise Session.DoesNotExist
    if len(found) > 1:
        raise ApplicationError(
            "several agents have a session with this id: pass agent", extra={"field": "agent"}
        )
    return found[0]


class PromptPreviewApi(APIView):
    """What a turn would be fed, with the budget summary. Operators; logs nothing."""

    permission_classes = [HasModelPerms]
    required_perms = {"GET": ("memory.view_chunk",)}

    @extend_schema(
        parameters=[PreviewQueryInput],
        responses={200: ProjectedContextOutput},
        summary="Preview the projected context of a turn (no injection-log row)",
    )
    def get(self, request: Request) -> Response:
        data = PreviewQueryInput(data=request.query_params)
        data.is_valid(raise_exception=True)
        params = dict(data.validated_data)
        agent_id, session_id = params.pop("agent"), params.pop("session")
        agent = get_object_or_404(Agent, pk=agent_id) if agent_id is not None else None
        try:
            session = _preview_session(agent, session_id)
        except Session.DoesNotExist:
            return Response({"detail": "No such session."}, status=status.HTTP_404_NOT_FOUND)
        if session is not None:
            agent = session.agent
            params["incognito"] = params["incognito"] or session.incognito
        context = compose_projected_context(agent=agent, session_id=session_id, **params)
        return Response(ProjectedContextOutput(context).data)


def _is_operator(request: Request) -> bool:
    return IsOperator().has_permission(request, None)


class AgentReadsOrOperatorPerms(HasModelPerms):
    """Agents may read (enabled skills); operators need the skill permissions the view declares."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if IsAgent().has_permission(request, view):
            return request.method in SAFE_METHODS
        return super().has_permission(request, view)


class SkillListApi(ListAPIView):
    """Skills by name, or those matching ?query= (best first). Operators may also add one."""

    serializer_class = SkillOutput
    filter_backends: list[Any] = []
    permission_classes = [AgentReadsOrOperatorPerms]
    required_perms = {"GET": ("memory.view_skill",), "POST": ("memory.add_skill",)}

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return Skill.objects.none()
        params = SkillListQueryInput(data=self.request.query_params)
        params.is_valid(raise_exception=True)
        include_disabled = params.validated_data["include_disabled"] and _is_operator(self.request)
        return skill_list(query=params.validated_data["query"], include_disabled=include_disabled)

    @extend_schema(parameters=[SkillListQueryInput])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(request=SkillCreateInput, responses={201: SkillOutput}, summary="Add a skill")
    def post(self, request: Request) -> Response:
        data = SkillCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        skill = skill_create(**data.validated_data)
        return Response(SkillOutput(skill).data, status=status.HTTP_201_CREATED)


class SkillDetailApi(APIView):
    """One skill's full playbook by name (agents see enabled skills only); operators may edit."""

    permission_classes = [AgentReadsOrOperatorPerms]
    required_perms = {"GET": ("memory.view_skill",), "PUT": ("memory.change_skill",)}

    def _get(self, request: Request, name: str) -> Skill:
        include_disabled = not isinstance(request.user, AgentPrincipal)
        try:
            return skill_get(name=name, include_disabled=include_disabled)
        except Skill.DoesNotExist as exc:
            raise Http404 from exc

    @extend_schema(responses={200: SkillOutput})
    def get(self, request: Request, name: str) -> Response:
        return Response(SkillOutput(self._get(request, name)).data)

    @extend_schema(request=SkillUpdateInput, responses={200: SkillOutput}, summary="Change a skill")
    def put(self, request: Request, name: str) -> Response:
        skill = self._get(request, name)
        data = SkillUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        skill = skill_update(skill=skill, **data.validated_data)
        return Response(SkillOutput(skill).data)
