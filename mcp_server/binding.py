"""Who is calling and in which session: fixed by the transport, never by a tool argument.

The agent comes from its API key (the same check as the HTTP API's `Authorization: Api-Key`).
The session comes from the connection: over stdio the operator names it at launch
(`--session`), else the process registers one of its own; over HTTP the operator's client
config may name it in the X-Protomem-Session header, else the key is bound to `mcp-<key prefix>`.
A session is looked up, or registered on first use, by sessions_app's own services.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import HttpRequest
from rest_framework.exceptions import AuthenticationFailed

from protomem.errors import ApplicationError
from sessions_app import selectors, services
from sessions_app.authentication import KEYWORD, AgentAPIKeyAuthentication, AgentPrincipal
from sessions_app.models import Agent, AgentAPIKey, Session

SESSION_HEADER = "X-Protomem-Session"
SESSION_PREFIX = "mcp-"


class BindingError(Exception):
    """The key or the session named for a connection cannot be used."""


def key_session_id(key: AgentAPIKey) -> str:
    """The session an HTTP key is bound to when the client names none (the key's public prefix)."""
    return f"{SESSION_PREFIX}{key.prefix}"


def authenticate_key(raw_key: str) -> tuple[Agent, AgentAPIKey]:
    """The agent behind a raw API key, checked exactly like `Authorization: Api-Key <key>`."""
    request = HttpRequest()
    request.META["HTTP_AUTHORIZATION"] = f"{KEYWORD} {raw_key}"
    try:
        result = AgentAPIKeyAuthentication().authenticate(request)  # type: ignore[arg-type]
    except AuthenticationFailed as exc:
        raise BindingError(str(exc.detail)) from None
    if result is None or not isinstance(result[0], AgentPrincipal):
        raise BindingError("not an agent API key")
    return result[0].agent, result[1]


@dataclass
class Binding:
    """One connection's caller: the agent, and the id of the session its writes are stamped with."""

    agent: Agent
    session_id: str
    _session: Session | None = field(default=None, repr=False)

    def session(self) -> Session:
        """The bound session, registered for this agent on first use (idempotent)."""
        if self._session is None:
            found = selectors.session_get_for_agent(agent=self.agent, session_id=self.session_id)
            if found is None:
                found, _ = services.session_register(agent=self.agent, session_id=self.session_id)
            self._session = found
        return self._session


def checked_session_id(session_id: str) -> str:
    """The operator-given session id if it is a valid one; BindingError naming the problem otherwise."""
    try:
        return services.validate_session_id(session_id)
    except ApplicationError as exc:
        raise BindingError(exc.message) from None
