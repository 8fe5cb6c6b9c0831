from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission

from sessions_app.authentication import AgentPrincipal


class IsAgent(BasePermission):
    message = "This endpoint is for agents (Api-Key auth)."

    def has_permission(self, request: Any, view: Any) -> bool:
        return isinstance(request.user, AgentPrincipal)


class IsOperator(BasePermission):
    message = "Operators only."

    def has_permission(self, request: Any, view: Any) -> bool:
        user = request.user
        return bool(user and not isinstance(user, AgentPrincipal) and user.is_staff)


class CanReview(IsOperator):
    message = "Needs the memory.review_chunk permission."

    def has_permission(self, request: Any, view: Any) -> bool:
        return super().has_permission(request, view) and request.user.has_perm("memory.review_chunk")
