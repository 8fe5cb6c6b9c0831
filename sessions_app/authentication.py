"""Authorization: Api-Key <key> for agents (and operator tokens); staff also use the session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from protomem.compiled_lookup import INT_MARKER, MARKER, CompiledLookup
from sessions_app.models import Agent, AgentAPIKey, OperatorAPIKey, Session

KEYWORD = "Api-Key"


@dataclass(frozen=True)
class AgentPrincipal:
    """request.user for an agent: authenticated, never staff, throttled per agent."""

    agent: Agent
    is_authenticated: bool = True
    is_active: bool = True
    is_staff: bool = False
    is_superuser: bool = False
    is_anonymous: bool = False

    @property
    def pk(self) -> str:
        return f"agent:{self.agent.pk}"

    id = pk

    def has_perm(self, perm: str, obj: Any = None) -> bool:
        return False

    def __str__(self) -> str:
        return f"agent:{self.agent.name}"


def _valid(key_obj: Any) -> bool:
    return not key_obj.revoked and (key_obj.expiry_date is None or key_obj.expiry_date > timezone.now())


def _key_lookup(model: Any, owner: str) -> tuple[CompiledLookup, tuple[str, ...], Any, tuple[str, ...]]:
    """The usable key with this prefix and its owner row, in one statement compiled once."""
    owner_model = model._meta.get_field(owner).related_model
    key_fields = tuple(f.attname for f in model._meta.concrete_fields)
    owner_fields = tuple(f.attname for f in owner_model._meta.concrete_fields)
    columns = (*key_fields, *(f"{owner}__{name}" for name in owner_fields))
    lookup = CompiledLookup(
        lambda prefix: model.objects.get_usable_keys().filter(prefix=prefix).values_list(*columns)
    )
    return lookup, key_fields, owner_model, owner_fields


_LOOKUPS: dict[Any, tuple[CompiledLookup, tuple[str, ...], Any, tuple[str, ...]]] = {}


def _key_with_owner(model: Any, owner: str, raw: str) -> Any:
    """model.objects.get_from_key(raw) with the owner row in the same query (one round trip on
    every API request instead of two: the key, then its agent or user), its SQL compiled once."""
    if model not in _LOOKUPS:
        _LOOKUPS[model] = _key_lookup(model, owner)
    lookup, key_fields, owner_model, owner_fields = _LOOKUPS[model]
    prefix, _, _ = raw.partition(".")
    using = model.objects.db
    rows = lookup.rows(prefix, using=using)
    if not rows:
        raise model.DoesNotExist
    row = rows[0]
    key_obj = model.from_db(using, key_fields, row[: len(key_fields)])
    setattr(key_obj, owner, owner_model.from_db(using, owner_fields, row[len(key_fields) :]))
    if not key_obj.is_valid(raw):
        raise model.DoesNotExist("Key is not valid.")
    return key_obj


class AgentAPIKeyAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        header = authentication.get_authorization_header(request).decode("latin-1")
        if not header:
            return None
        parts = header.split()
        if not parts or parts[0] != KEYWORD:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Malformed Api-Key header.")
        raw = parts[1]
        for model, owner in ((AgentAPIKey, "agent"), (OperatorAPIKey, "user")):
            try:
                key_obj = _key_with_owner(model, owner, raw)
            except model.DoesNotExist:
                continue
            if not _valid(key_obj):
                raise exceptions.AuthenticationFailed("API key revoked or expired.")
            if model is AgentAPIKey:
                if not key_obj.agent.is_active:
                    raise exceptions.AuthenticationFailed("Agent is disabled.")
                return AgentPrincipal(agent=key_obj.agent), key_obj
            if not key_obj.user.is_active:
                raise exceptions.AuthenticationFailed("User is disabled.")
            return key_obj.user, key_obj
        raise exceptions.AuthenticationFailed("Invalid API key.")

    def authenticate_header(self, request: Request) -> str:
        # Makes DRF answer 401 (not 403) when credentials are missing.
        return KEYWORD


_SESSION_FIELDS = tuple(f.attname for f in Session._meta.concrete_fields)
_SESSION_LOOKUP = CompiledLookup(
    lambda agent_id, session_id: Session.objects.filter(agent_id=agent_id, session_id=session_id).values_list(
        *_SESSION_FIELDS
    ),
    markers=(INT_MARKER, MARKER),
)


def own_session(agent: Agent, session_id: str) -> Session:
    """The authenticated agent's own session with this id; Http404 for an unknown one or
    someone else's (the same answer: a session id reveals nothing of other agents).

    The second lookup of every session-scoped agent request (ingest, context), compiled once
    like the key's; the returned row's agent is `agent` itself (no join, no second instance)."""
    using = Session.objects.db
    rows = _SESSION_LOOKUP.rows(agent.pk, session_id, using=using)
    if not rows:
        raise Http404
    session = Session.from_db(using, _SESSION_FIELDS, rows[0])
    session.agent = agent
    return session
