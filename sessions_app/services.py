"""Session-side writes. Chunks are only ever written through memory.services (and memory.facts).

- session_register / session_turn_append: the transcript; a terminal turn (re)writes the
  session's summary in the same transaction (never for incognito, background:* or a session
  without identity; never when memory is disabled).
- session_retire / sessions_retire_aged: retirement, which enqueues the harvest on commit.
- session_harvest: the one-shot session-end pass (claim by CAS, one aux-model call, summary
  chunk + facts in one transaction). sessions_harvest_sweep re-enqueues what got stuck.
Every function here survives running twice.

Fleet safety (many workers, any of them killed at any point):
- The claim is a lease: `harvest_claimed_at` is both the owner's token and its start. A claim
  older than SESSIONS_HARVEST_STALE_S is presumed dead and the next delivery takes it over with
  a CAS on that exact token, so of N racing workers exactly one wins.
- Every write after the model call starts with a CAS on the owner's token inside the store
  transaction: an owner whose lease was taken over rolls back and writes nothing. At most one
  transaction ever moves a session from running to done, so the summary and facts land once.
- The lease must be longer than one harvest (task time limit, gateway timeout) and shorter than
  the broker's visibility timeout, so a task redelivered after its worker died finds it stale.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Q
from django.utils import timezone

from memory.selectors import visible
from memory.services import ChunkDraft, add_chunk
from protomem.config import get_config
from protomem.errors import ApplicationError, ConflictError
from sessions_app import harvest
from sessions_app.gateway import (
    PermanentGatewayError,
    TransientGatewayError,
    chat_completion,
    gateway_configured,
)
from sessions_app.models import (
    Agent,
    AgentAPIKey,
    HarvestState,
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


# --------------------------------------------------------------------------------------------
# Retirement


@dataclass(frozen=True)
class HarvestPolicy:
    """Retry policy for the harvest task; settings.SESSIONS_HARVEST_* override the defaults."""

    max_attempts: int = 4
    backoff_s: float = 30.0
    backoff_max_s: float = 600.0

    def countdown(self, attempt: int) -> float:
        """Exponential backoff before attempt `attempt + 1` (attempt counts from 1)."""
        return min(self.backoff_max_s, self.backoff_s * (2 ** max(0, attempt - 1)))


def harvest_policy() -> HarvestPolicy:
    return HarvestPolicy(
        max_attempts=int(getattr(settings, "SESSIONS_HARVEST_MAX_ATTEMPTS", HarvestPolicy.max_attempts)),
        backoff_s=float(getattr(settings, "SESSIONS_HARVEST_BACKOFF_S", HarvestPolicy.backoff_s)),
        backoff_max_s=float(getattr(settings, "SESSIONS_HARVEST_BACKOFF_MAX_S", HarvestPolicy.backoff_max_s)),
    )


def _enqueue_harvest(session_pk: int) -> None:
    # The retry policy travels with the message, so the enqueuing side's settings decide it.
    from sessions_app.tasks import session_harvest_task

    policy = harvest_policy()
    session_harvest_task.delay_on_commit(
        session_pk, max_attempts=policy.max_attempts, backoff_s=policy.backoff_s
    )


def session_retire(*, session: Session, now: datetime | None = None) -> bool:
    """Retire once (CAS on retired_at) and enqueue the harvest on commit; False if already retired.

    Incognito and background:* threads are marked skipped and their transcript dropped: no trail.
    """
    now = now or timezone.now()
    leaves_trail = session.leaves_trail
    state = HarvestState.PENDING if leaves_trail else HarvestState.SKIPPED
    with transaction.atomic():
        updated = Session.objects.filter(pk=session.pk, retired_at__isnull=True).update(
            retired_at=now,
            harvest_state=state,
            harvest_updated_at=now,
            harvest_result={} if leaves_trail else {"skipped": _skip_reason(session)},
        )
        if updated != 1:
            return False
        if leaves_trail:
            _enqueue_harvest(session.pk)
        else:
            Message.objects.filter(session_id=session.pk).delete()
    logger.info("session %s retired (harvest %s)", session.pk, state)
    return True


def _skip_reason(session: Session) -> str:
    if session.incognito:
        return "incognito"
    if session.is_background:
        return "background"
    return "no session identity"


def sessions_retire_aged(*, now: datetime | None = None) -> int:
    """Retire sessions idle longer than memory.retire_after_days (0 = never); returns how many."""
    days = get_config().memory.retire_after_days
    if days <= 0:
        return 0
    now = now or timezone.now()
    cutoff = now - timedelta(days=days)
    retired = 0
    candidates = Session.objects.filter(retired_at__isnull=True, last_activity_at__lt=cutoff)
    for session in candidates.select_related("agent").iterator(chunk_size=500):
        retired += session_retire(session=session, now=now)
    return retired


# --------------------------------------------------------------------------------------------
# Harvest


class HarvestRetryable(Exception):
    """A transient failure; the session is pending again and the task should retry."""

    def __init__(self, message: str, *, attempt: int) -> None:
        super().__init__(message)
        self.attempt = attempt


class _ClaimLost(Exception):
    """Another worker took the session over (stale-claim recovery): roll back, write nothing."""


@dataclass(frozen=True)
class HarvestOutcome:
    state: str  # done / skipped / failed / not_claimed / busy / lost_claim
    summary_chunk_id: int | None = None
    facts: int = 0
    mode: str = ""
    retry_in: float | None = None  # busy: seconds until the holder's lease runs out


def harvest_lease() -> timedelta:
    """How long a harvest claim is honoured before another worker may take it over."""
    return timedelta(seconds=float(getattr(settings, "SESSIONS_HARVEST_STALE_S", 900)))


def _claim(session_pk: int, now: datetime) -> HarvestOutcome | None:
    """None once claimed (CAS pending -> running, or over a lease that ran out), else why not."""
    row = Session.objects.filter(pk=session_pk).values("harvest_state", "harvest_claimed_at").first()
    if row is None:
        return HarvestOutcome(state="not_claimed")
    state, held_since = row["harvest_state"], row["harvest_claimed_at"]
    lease = harvest_lease()
    if state == HarvestState.PENDING:
        claimable = Q(harvest_state=HarvestState.PENDING)
    elif state == HarvestState.RUNNING and held_since is not None and held_since > now - lease:
        retry_in = (held_since + lease - now).total_seconds()
        return HarvestOutcome(state="busy", retry_in=max(0.0, retry_in))
    elif state == HarvestState.RUNNING:  # its worker died (or overran): the exact token it held
        claimable = Q(harvest_state=HarvestState.RUNNING, harvest_claimed_at=held_since)
    else:
        return HarvestOutcome(state="not_claimed")
    claimed = Session.objects.filter(claimable, pk=session_pk).update(
        harvest_state=HarvestState.RUNNING,
        harvest_claimed_at=now,
        harvest_updated_at=now,
        harvest_attempts=F("harvest_attempts") + 1,
    )
    if claimed != 1:  # another worker won the same CAS
        return HarvestOutcome(state="not_claimed")
    if state == HarvestState.RUNNING:
        logger.warning("harvest of session %s took over a stale claim from %s", session_pk, held_since)
    return None


def _finish(session_pk: int, claim: datetime, state: str, *, error: str = "", result: dict[str, Any]) -> bool:
    """CAS running(claim) -> state; False when the claim was lost."""
    updated = Session.objects.filter(
        pk=session_pk, harvest_state=HarvestState.RUNNING, harvest_claimed_at=claim
    ).update(
        harvest_state=state,
        harvest_error=error[:2000],
        harvest_result=result,
        harvest_updated_at=timezone.now(),
        harvested_at=timezone.now() if state == HarvestState.DONE else None,
    )
    return updated == 1


def _store_harvest(
    session: Session, claim: datetime, result: harvest.HarvestResult, *, mode: str, topic: str
) -> HarvestOutcome:
    """Summary chunk + facts + done, in one transaction; nothing is written twice."""
    agent = session.agent
    with transaction.atomic():
        # Harvest stores of one agent queue here on PostgreSQL, so concurrent workers consolidate
        # its facts one after another (fact dedup reads, then inserts). SQLite's BEGIN IMMEDIATE
        # already serializes writers and Django skips the lock there. NO KEY: plain chunk
        # inserts referencing the agent are not blocked.
        list(Agent.objects.select_for_update(no_key=True).filter(pk=agent.pk).values_list("pk"))
        # Take the row first: a lost claim rolls back before anything is written.
        if not _finish(session.pk, claim, HarvestState.DONE, result={}):
            raise _ClaimLost
        chunk_id = _stored_summary_id(session)
        if chunk_id is not None:
            logger.info("session %s already harvested; nothing stored again", session.pk)
            Session.objects.filter(pk=session.pk).update(
                harvest_result={"summary_chunk": chunk_id, "mode": mode, "repeat": True}
            )
            return HarvestOutcome(state=HarvestState.DONE, summary_chunk_id=chunk_id, mode=mode)
        heading = f"Session {session.session_id}" + (f": {topic}" if topic else "")
        chunk = add_chunk(
            ChunkDraft(
                content=result.summary,
                heading=heading[:512],
                domain="conversation",
                finding_type="conversation",
                namespace=agent.namespace,
                source=session.session_id,
                source_type=HARVEST_SOURCE_TYPE,
                agent_id=agent.pk,
            ),
            actor=HARVEST_ACTOR,
            path=HARVEST_PATH,
        )
        outcomes: dict[str, int] = {}
        facts = result.facts if get_config().knowledge.facts and mode == "gateway" else ()
        if facts:
            from memory.facts import fact_ingest  # the memory API's consolidation (dedup + supersede)
        for fact in facts:
            outcome = fact_ingest(
                draft=ChunkDraft(
                    content=fact,
                    domain="fact",
                    finding_type="fact",
                    namespace=agent.namespace,
                    source=session.session_id,
                    source_type=FACT_SOURCE_TYPE,
                    agent_id=agent.pk,
                ),
                actor=HARVEST_ACTOR,
                path=HARVEST_PATH,
            )
            kind = str(getattr(outcome, "action", None) or getattr(outcome, "status", None) or "stored")
            outcomes[kind] = outcomes.get(kind, 0) + 1
        summary_id = chunk.pk if chunk is not None else None
        Session.objects.filter(pk=session.pk).update(
            harvest_result={
                "summary_chunk": summary_id,
                "facts": sum(outcomes.values()),
                "fact_outcomes": outcomes,
                "mode": mode,
            }
        )
        Message.objects.filter(session_id=session.pk).delete()  # retired and harvested: the turns go
    return HarvestOutcome(
        state=HarvestState.DONE, summary_chunk_id=summary_id, facts=sum(outcomes.values()), mode=mode
    )


def _stored_summary_id(session: Session) -> int | None:
    """The harvest chunk already stored for this thread, if any (history included)."""
    rows = visible(include_superseded=True).filter(
        agent_id=session.agent_id, source=session.session_id, source_type=HARVEST_SOURCE_TYPE
    )
    return rows.order_by("id").values_list("pk", flat=True).first()


def _transient_failure(
    session: Session, claim: datetime, error: str, policy: HarvestPolicy
) -> HarvestOutcome:
    attempt = session.harvest_attempts
    if attempt >= policy.max_attempts:
        error = f"{error} (after {attempt} attempts)"
        _finish(session.pk, claim, HarvestState.FAILED, error=error, result={})
        logger.warning("harvest of session %s failed after %s attempts: %s", session.pk, attempt, error)
        return HarvestOutcome(state=HarvestState.FAILED)
    if _finish(session.pk, claim, HarvestState.PENDING, error=error, result={}):
        logger.info("harvest of session %s attempt %s failed (%s); will retry", session.pk, attempt, error)
        raise HarvestRetryable(error, attempt=attempt)
    return HarvestOutcome(state="lost_claim")


def session_harvest(*, session_pk: int, policy: HarvestPolicy | None = None) -> HarvestOutcome:
    """The session-end pass for one retired session; safe to run twice, on any number of workers.

    Claims by CAS (or takes over a stale lease, see the module doc); `busy` when another
    worker's lease is still fresh, `not_claimed` when there is nothing to do. Raises
    HarvestRetryable after a transient failure (the session is pending again); records `failed`
    once attempts run out or on a permanent error. Never stores raw turns.
    """
    policy = policy or harvest_policy()
    claim = timezone.now()
    refused = _claim(session_pk, claim)
    if refused is not None:
        return refused
    session = Session.objects.select_related("agent").get(pk=session_pk)
    if session.harvest_attempts > policy.max_attempts:  # e.g. re-queued by the sweep after crashes
        _finish(session_pk, claim, HarvestState.FAILED, error="attempts exhausted", result={})
        return HarvestOutcome(state=HarvestState.FAILED)
    if not session.leaves_trail:
        _finish(session_pk, claim, HarvestState.SKIPPED, result={"skipped": _skip_reason(session)})
        return HarvestOutcome(state=HarvestState.SKIPPED)
    stored = _stored_summary_id(session)
    if stored is not None:  # harvested before (a forced re-run): no second model call, no write
        logger.info("session %s already harvested; nothing stored again", session_pk)
        _finish(session_pk, claim, HarvestState.DONE, result={**session.harvest_result, "repeat": True})
        return HarvestOutcome(state=HarvestState.DONE, summary_chunk_id=stored)
    transcript = harvest.transcript_of(
        session.messages.order_by("seq"), session_id=session.session_id, surface=session.surface
    )
    if not transcript.has_content:
        _finish(session_pk, claim, HarvestState.SKIPPED, result={"skipped": "empty transcript"})
        return HarvestOutcome(state=HarvestState.SKIPPED)
    cfg = get_config()
    try:
        if gateway_configured(cfg.gateway):
            reply = chat_completion(messages=harvest.build_prompt(transcript), cfg=cfg.gateway)
            result = harvest.parse_reply(reply.content)
            mode = "gateway"
        else:
            logger.info(
                "no gateway configured: session %s gets an extractive summary and no fact extraction",
                session_pk,
            )
            result = harvest.extractive_summary(transcript)
            mode = "extractive"
    except (TransientGatewayError, harvest.MalformedHarvestOutput) as exc:
        return _transient_failure(session, claim, f"{exc.__class__.__name__}: {exc}", policy)
    except PermanentGatewayError as exc:
        _finish(session_pk, claim, HarvestState.FAILED, error=f"{exc.__class__.__name__}: {exc}", result={})
        logger.warning("harvest of session %s failed permanently: %s", session_pk, exc)
        return HarvestOutcome(state=HarvestState.FAILED)
    except Exception as exc:  # a bug, not the gateway: record it instead of crash-looping
        logger.exception("harvest of session %s failed unexpectedly", session_pk)
        error = f"unexpected: {exc.__class__.__name__}"
        _finish(session_pk, claim, HarvestState.FAILED, error=error, result={})
        return HarvestOutcome(state=HarvestState.FAILED)
    topic = SessionSummary.objects.filter(session_id=session_pk).values_list("topic", flat=True).first()
    try:
        return _store_harvest(session, claim, result, mode=mode, topic=topic or "")
    except _ClaimLost:
        logger.info("harvest of session %s lost its claim; the other run owns it", session_pk)
        return HarvestOutcome(state="lost_claim")
    except Exception as exc:  # a write failed: the transaction rolled back, record it for operators
        logger.exception("harvest of session %s could not be stored", session_pk)
        error = f"store failed: {exc.__class__.__name__}"
        _finish(session_pk, claim, HarvestState.FAILED, error=error, result={})
        return HarvestOutcome(state=HarvestState.FAILED)


def session_harvest_requeue(*, session: Session) -> bool:
    """Operator: put a failed harvest back in the queue with fresh attempts (CAS failed -> pending)."""
    with transaction.atomic():
        updated = Session.objects.filter(pk=session.pk, harvest_state=HarvestState.FAILED).update(
            harvest_state=HarvestState.PENDING,
            harvest_attempts=0,
            harvest_error="",
            harvest_updated_at=timezone.now(),
        )
        if updated == 1:
            _enqueue_harvest(session.pk)
    return updated == 1


def sessions_harvest_sweep(*, now: datetime | None = None) -> int:
    """Re-enqueue retired sessions stuck unharvested past the grace period, incl. stale claims.

    Pending rows untouched for SESSIONS_HARVEST_GRACE_S (default 10 min: longer than a normal
    backoff wait) and running claims older than SESSIONS_HARVEST_STALE_S (default 15 min: longer
    than the task time limit), e.g. a worker killed mid-harvest whose message was acked or lost.
    Duplicates are harmless: the harvest claims by CAS.
    """
    now = now or timezone.now()
    grace = timedelta(seconds=float(getattr(settings, "SESSIONS_HARVEST_GRACE_S", 600)))
    stale = harvest_lease()
    queued = 0
    running = Session.objects.filter(
        harvest_state=HarvestState.RUNNING, harvest_claimed_at__lt=now - stale
    ).values_list("pk", "harvest_claimed_at")
    for pk, claimed_at in list(running):
        with transaction.atomic():
            if Session.objects.filter(
                pk=pk, harvest_state=HarvestState.RUNNING, harvest_claimed_at=claimed_at
            ).update(harvest_state=HarvestState.PENDING, harvest_updated_at=now):
                _enqueue_harvest(pk)
                queued += 1
    pending = (
        Session.objects.filter(harvest_state=HarvestState.PENDING, retired_at__isnull=False)
        .filter(Q(harvest_updated_at__lt=now - grace) | Q(harvest_updated_at__isnull=True))
        .values_list("pk", "harvest_updated_at")
    )
    for pk, updated_at in list(pending):
        with transaction.atomic():
            if Session.objects.filter(
                pk=pk, harvest_state=HarvestState.PENDING, harvest_updated_at=updated_at
            ).update(harvest_updated_at=now):
                _enqueue_harvest(pk)
                queued += 1
    if queued:
        logger.info("harvest sweep re-enqueued %s sessions", queued)
    return queued
