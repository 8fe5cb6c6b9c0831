"""Thin Celery wrappers around sessions_app.retirement; names are stable (beat and queued messages)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from sessions_app import retirement


@shared_task(name="sessions.harvest", bind=True, acks_late=True, max_retries=None)
def session_harvest_task(
    self: Any, session_pk: int, max_attempts: int | None = None, backoff_s: float | None = None
) -> str:
    """Harvest one retired session; safe to deliver twice, to any worker (the service claims by CAS).

    Transient failures retry with exponential backoff; the attempt budget lives on the session
    row (harvest_attempts), so redeliveries and sweeps can never loop past it. The retry policy
    comes with the message (see retirement._enqueue_harvest), else from settings.
    """
    policy = retirement.harvest_policy()
    if max_attempts is not None or backoff_s is not None:
        policy = retirement.HarvestPolicy(
            max_attempts=policy.max_attempts if max_attempts is None else int(max_attempts),
            backoff_s=policy.backoff_s if backoff_s is None else float(backoff_s),
            backoff_max_s=policy.backoff_max_s,
        )
    try:
        outcome = retirement.session_harvest(session_pk=session_pk, policy=policy)
    except retirement.HarvestRetryable as exc:
        if self.request.is_eager:  # no broker to come back through: the next attempt runs inline
            return str(self.run(session_pk, policy.max_attempts, policy.backoff_s))
        raise self.retry(exc=exc, countdown=policy.countdown(exc.attempt), max_retries=None) from exc
    if outcome.state == "busy" and _redelivered(self):
        # Our earlier delivery's worker died holding the claim (a lost prefork child is requeued
        # at once): come back when its lease runs out. A plain duplicate just stops here.
        raise self.retry(countdown=(outcome.retry_in or 0.0) + 1.0, max_retries=None)
    return outcome.state


def _redelivered(task: Any) -> bool:
    return bool((task.request.delivery_info or {}).get("redelivered"))


@shared_task(name="sessions.retire_aged")
def sessions_retire_aged_task() -> int:
    """Retire sessions idle past memory.retire_after_days (each enqueues its harvest)."""
    return retirement.sessions_retire_aged()


@shared_task(name="sessions.harvest_sweep")
def sessions_harvest_sweep_task() -> int:
    """Re-enqueue retired sessions still unharvested past the grace period (incl. stale claims)."""
    return retirement.sessions_harvest_sweep()
