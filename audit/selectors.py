"""Reads over the audit records. The injection log lives in its own database (router)."""

from __future__ import annotations

from datetime import date, datetime

from django.db.models import QuerySet

from audit.models import InjectionLog, InjectionLogItem


def injection_logs(
    *,
    session_id: str | None = None,
    agent_id: int | None = None,
    on_date: date | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> QuerySet[InjectionLog]:
    """Injection-log rows, newest first, optionally narrowed by session, agent and time."""
    qs = InjectionLog.objects.order_by("-created_at", "-id")
    if session_id:
        qs = qs.filter(session_id=session_id)
    if agent_id is not None:
        qs = qs.filter(agent_id=agent_id)
    if on_date is not None:
        qs = qs.filter(created_at__date=on_date)
    if since is not None:
        qs = qs.filter(created_at__gte=since)
    if until is not None:
        qs = qs.filter(created_at__lt=until)
    return qs


def injections_for_chunk(chunk_id: int) -> QuerySet[InjectionLog]:
    """Every injection that delivered `chunk_id` (as hot memory or a RAG hit), newest first.

    An index read on InjectionLogItem(chunk_id), so it stays cheap with many log rows.
    """
    log_ids = InjectionLogItem.objects.filter(chunk_id=chunk_id).values("log_id")
    return InjectionLog.objects.filter(pk__in=log_ids).order_by("-created_at", "-id")


def injection_chunk_sections(chunk_id: int) -> dict[int, list[str]]:
    """For `chunk_id`: log id -> the sections ("hot", "rag") it was delivered in."""
    out: dict[int, list[str]] = {}
    for log_id, section in InjectionLogItem.objects.filter(chunk_id=chunk_id).values_list(
        "log_id", "section"
    ):
        out.setdefault(log_id, []).append(section)
    return out
