"""Session-side writes. Chunks are only ever written through lifecycle.writes (and memory.lifecycle.facts).

- session_register / session_turn_append: the transcript; a terminal turn (re)writes the
  session's summary in the same transaction (never for incognito, background:* or a session
  without identity; never when memory is disabled).
Every function here survives running twice. Retirement and the harvest live in
sessions_app.retirement.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone

from audit.services import AGENT_DEACTIVATED, audit_event_record
from memory.lifecycle.principals import is_operator_source
from protomem.config import get_config
from protomem.errors import ApplicationError, ConflictError
from sessions_app.models import (
    Agent,
    AgentAPIKey,
    Message,
    Role,
    Session,
    SessionSummary,
    Surface,
    Turn,
)
from sessions_app.summaries import build_summary, counted

logger = logging.getLogger(__name__)

RESERVED_SESSION_IDS = frozenset({"search"})  # URL segments under /api/sessions/
_SESSION_ID = re.compile(r"^[^\s/\x00-\x1f\x7f]{1,255}$")
HARVEST_ACTOR = "system"
HARVEST_PATH = "harvest"
HARVEST_SOURCE_TYPE = "harvest"
FACT_SOURCE_TYPE = "extracted"
MAX_MESSAGES_PER_TURN = 200


def agent_key_create(*, name: str, namespace: str | None = None) -> tuple[Agent, str]:
    """Create the agent if new (updating its namespace if given) and issue a fresh key."""
    with transaction.atomic():
        agent, _ = Agent.objects.get_or_create(name=name)
        if namespace is not None and agent.namespace != namespace:
            agent.namespace = namespace
            agent.save(update_fields=["namespace"])
        _, raw_key = AgentAPIKey.objects.create_key(name=f"{name}-key", agent=agent)
    return agent, raw_key


def agent_deactivate(*, agent: Agent, actor: str) -> int:
    """Disable an agent and revoke its keys (1), or do nothing if it already is (0); audited.

    This, not deletion, is how an agent leaves: its private memory stays its own (readable by
    no other agent), and Chunk.agent's PROTECT refuses deleting an agent that owns rows.
    """
    with transaction.atomic():
        changed = Agent.objects.filter(pk=agent.pk, is_active=True).update(is_active=False)
        revoked = AgentAPIKey.objects.filter(agent=agent, revoked=False).update(revoked=True)
        if changed or revoked:
            audit_event_record(
                event=AGENT_DEACTIVATED, actor=actor, path="admin", data={"agent": agent.pk, "keys": revoked}
            )
    return 1 if changed else 0


# --------------------------------------------------------------------------------------------
# Sessions and turns


def validate_session_id(session_id: str) -> str:
    """The runtime's id: 1-255 chars, no whitespace, control characters or '/', not reserved."""
    if not isinstance(session_id, str) or not _SESSION_ID.match(session_id):
        raise ApplicationError(
            "session_id must be 1-255 characters without whitespace, control characters or '/'",
            extra={"field": "session_id"},
        )
    if session_id in RESERVED_SESSION_IDS:
        raise ApplicationError(f"session_id {session_id!r} is reserved", extra={"field": "session_id"})
    # A session id becomes the source of what the agent writes: it must never read as an
    # operator surface ("user:7", "admin") in the console or the audit trail.
    if is_operator_source(session_id):
        raise ApplicationError(
            f"session_id {session_id!r} starts with a prefix reserved for operator sources",
            extra={"field": "session_id"},
        )
    return session_id


def session_register(
    *, agent: Agent, session_id: str, surface: str | None = None, incognito: bool = False
) -> tuple[Session, bool]:
    """Register a thread (idempotent): (session, created). A flag mismatch on re-register is 409."""
    validate_session_id(session_id)
    if surface is None:
        surface = Surface.BACKGROUND if session_id.startswith("background:") else Surface.CHAT
    if surface not in Surface.values:
        raise ApplicationError(
            f"surface must be one of {', '.join(Surface.values)}", extra={"field": "surface"}
        )
    try:
        with transaction.atomic():
            session, created = Session.objects.get_or_create(
                agent=agent, session_id=session_id, defaults={"surface": surface, "incognito": incognito}
            )
    except IntegrityError:  # registered concurrently: the other request won
        session, created = Session.objects.get(agent=agent, session_id=session_id), False
    if not created and session.incognito != incognito:
        raise ConflictError(
            "session is already registered with a different incognito flag",
            extra={"incognito": session.incognito},
        )
    return session, created


@dataclass(frozen=True)
class MessageInput:
    role: str
    content: str = ""
    name: str = ""
    tool_calls: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class TurnOutcome:
    turn: Turn
    created: bool
    summary_written: bool


def summaries_enabled() -> bool:
    return not get_config().disable_memory


def session_summary_write(*, session: Session, now: datetime | None = None) -> SessionSummary | None:
    """(Re)write the session's summary from its transcript; None when it must leave no trail.

    Runs inside the caller's transaction, so the row and its FTS entry land together or not at all.
    """
    if not session.leaves_trail or not summaries_enabled():
        return None
    now = now or timezone.now()
    doc = build_summary(session.messages.order_by("seq"))
    values = {
        "agent_id": session.agent_id,
        "session_key": session.session_id,
        "surface": session.surface,
        "topic": doc.topic,
        "message_count": doc.message_count,
        "data": doc.data,
        "text": doc.text,
        "updated_at": now,
    }
    with transaction.atomic():
        summary, _ = SessionSummary.objects.update_or_create(
            session=session, defaults=values, create_defaults={**values, "created_at": now}
        )
    return summary


def _check_messages(messages: Sequence[MessageInput]) -> None:
    if not messages:
        raise ApplicationError("a turn needs at least one message", extra={"field": "messages"})
    if len(messages) > MAX_MESSAGES_PER_TURN:
        raise ApplicationError(
            f"at most {MAX_MESSAGES_PER_TURN} messages per turn", extra={"field": "messages"}
        )
    for message in messages:
        if message.role not in Role.values:
            raise ApplicationError(f"role must be one of {', '.join(Role.values)}", extra={"field": "role"})


def session_turn_append(
    *,
    session: Session,
    messages: Sequence[MessageInput],
    terminal: bool = False,
    goal_driven: bool = False,
    turn_id: str | None = None,
    now: datetime | None = None,
) -> TurnOutcome:
    """Append one turn; a terminal turn rewrites the summary in the same transaction.

    Idempotent on `turn_id`: re-posting it returns the stored turn and writes nothing.
    A retired session refuses new turns (409).
    """
    _check_messages(messages)
    now = now or timezone.now()
    with transaction.atomic():
        fresh = Session.objects.get(pk=session.pk)
        if turn_id:
            existing = Turn.objects.filter(session=fresh, turn_id=turn_id).first()
            if existing is not None:
                return TurnOutcome(turn=existing, created=False, summary_written=False)
        if fresh.retired_at is not None:
            raise ConflictError("session is retired; start a new one")
        seq = (fresh.turn_count or 0) + 1
        turn = Turn.objects.create(
            session=fresh,
            seq=seq,
            turn_id=turn_id or None,
            terminal=terminal,
            goal_driven=goal_driven,
            created_at=now,
        )
        start = (Message.objects.filter(session=fresh).aggregate(m=Max("seq"))["m"] or 0) + 1
        Message.objects.bulk_create(
            Message(
                session=fresh,
                turn=turn,
                seq=start + i,
                role=m.role,
                name=(m.name or "")[:128],
                content=m.content or "",
                tool_calls=m.tool_calls or [],
                created_at=now,
            )
            for i, m in enumerate(messages)
        )
        Session.objects.filter(pk=fresh.pk).update(
            turn_count=F("turn_count") + 1,
            message_count=F("message_count") + sum(1 for m in messages if counted(m.role)),
            last_activity_at=now,
        )
        fresh.refresh_from_db()
        written = terminal and session_summary_write(session=fresh, now=now) is not None
    return TurnOutcome(turn=turn, created=True, summary_written=written)
