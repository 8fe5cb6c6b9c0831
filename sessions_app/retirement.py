"""Retirement and the harvest: the one-shot session-end pass (spec "Write paths" 3).

- session_retire / sessions_retire_aged: retirement, which enqueues the harvest on commit.
- session_harvest: claim by CAS, one aux-model call, summary chunk + facts in one transaction.
  sessions_harvest_sweep re-enqueues what got stuck. Every function here survives running twice.

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
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.store.deliverable import visible
from protomem.config import get_config
from protomem.queue import enqueue_on_commit
from sessions_app import harvest
from sessions_app.gateway import (
    PermanentGatewayError,
    TransientGatewayError,
    chat_completion,
    gateway_configured,
)
from sessions_app.models import (
    Agent,
    HarvestState,
    Message,
    Session,
    SessionSummary,
)
from sessions_app.services import (
    FACT_SOURCE_TYPE,
    HARVEST_ACTOR,
    HARVEST_PATH,
    HARVEST_SOURCE_TYPE,
)

logger = logging.getLogger(__name__)


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


HARVEST_TASK = "sessions.harvest"  # sessions_app.tasks.session_harvest_task


def _enqueue_harvest(session_pk: int) -> None:
    # The retry policy travels with the message, so the enqueuing side's settings decide it.
    policy = harvest_policy()
    enqueue_on_commit(HARVEST_TASK, session_pk, max_attempts=policy.max_attempts, backoff_s=policy.backoff_s)


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
            from memory.lifecycle.facts import (
                fact_ingest,
            )
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
