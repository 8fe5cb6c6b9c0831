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


def required_perms(view: Any, method: str) -> tuple[str, ...]:
    """The Django permissions `view` declares for `method` (view.required_perms; "*" = any method)."""
    declared: dict[str, tuple[str, ...]] = getattr(view, "required_perms", {})
    return tuple(declared.get(method.upper(), declared.get("*", ())))


class HasModelPerms(IsOperator):
    """Staff holding every Django model permission the view declares for the request's method.

    The same permissions the admin checks (view / change / delete chunk, review_chunk for any
    verdict, promote_chunk, view injection log), so no route is wider than its admin page. A
    view that declares none for a method refuses it: an operator route must say what it needs.
    """

    def has_permission(self, request: Any, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False
        needed = required_perms(view, request.method)
        missing = [perm for perm in needed if not request.user.has_perm(perm)]
        if needed and not missing:
            return True
        self.message = (
            f"Needs the permission(s): {', '.join(missing)}." if missing else "No permission declared."
        )
        return False
