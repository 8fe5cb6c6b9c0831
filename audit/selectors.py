"""Reads over the audit records. The injection log lives in its own database (router)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from audit.models import AuditEvent, InjectionLog, InjectionLogItem


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


def injection_log_by_id(log_id: int) -> InjectionLog | None:
    """One injection-log row, or None (ids past the database's integer range included)."""
    if not 0 < int(log_id) < 2**63:
        return None
    return InjectionLog.objects.filter(pk=log_id).first()


def previous_hot_ids(log: InjectionLog) -> list[int] | None:
    """The always-on ids of the same session's turn before `log` (None for its first turn)."""
    earlier = InjectionLog.objects.filter(session_id=log.session_id, agent_id=log.agent_id).filter(
        Q(created_at__lt=log.created_at) | Q(created_at=log.created_at, pk__lt=log.pk)
    )
    row = earlier.order_by("-created_at", "-id").values_list("hot_ids", flat=True).first()
    return None if row is None else [int(i) for i in row]


def audit_events_for_chunk(chunk_id: int) -> QuerySet[AuditEvent]:
    """Every audit event about one chunk (verdicts, revisions, deletes, promotions), newest first."""
    return AuditEvent.objects.filter(chunk_id=chunk_id).order_by("-created_at", "-id")


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


# ----------------------------------------------------------------------------------------------
# Blast radius: where one chunk went, what one session received


@dataclass(frozen=True)
class ChunkInfluence:
    """The turns, sessions and agents one chunk entered (as hot memory or a RAG hit)."""

    chunk_id: int
    turns: int
    hot_turns: int
    rag_turns: int
    sessions: int
    agents: int
    agent_ids: tuple[int, ...]
    first_at: datetime | None
    last_at: datetime | None


MAX_INFLUENCE_AGENTS = 100  # agent ids listed (the count covers them all)


def chunk_influence(chunk_id: int) -> ChunkInfluence:
    """Blast radius of `chunk_id` from the injection log, index-only on its items.

    Sessions and agents come from injection_item_reach (chunk, agent, session, section), grouped
    in index order; first and last time are those of its lowest and highest log ids (log ids
    grow with time). The projection never gives one row as hot memory and a RAG hit in the same
    turn, so turns = hot turns + RAG turns.
    """
    items = InjectionLogItem.objects.filter(chunk_id=chunk_id)
    per_session = (
        items.values("agent_id", "session_id")
        .annotate(hot=Count("id", filter=Q(section="hot")), rag=Count("id", filter=Q(section="rag")))
        .order_by()
    )
    totals = per_session.aggregate(
        sessions=Count("session_id"),
        agents=Count("agent_id", distinct=True),
        hot_turns=Sum("hot"),
        rag_turns=Sum("rag"),
    )
    hot_turns, rag_turns = totals["hot_turns"] or 0, totals["rag_turns"] or 0
    first_at = last_at = None
    if hot_turns or rag_turns:
        first_log = items.order_by("log_id").values_list("log_id", flat=True).first()
        last_log = items.order_by("-log_id").values_list("log_id", flat=True).first()
        ends = InjectionLog.objects.filter(pk__in=[first_log, last_log])
        times = dict(ends.values_list("pk", "created_at"))
        first_at, last_at = times.get(first_log), times.get(last_log)
    agent_ids = items.exclude(agent_id__isnull=True).order_by("agent_id").values_list("agent_id", flat=True)
    return ChunkInfluence(
        chunk_id=chunk_id,
        turns=hot_turns + rag_turns,
        hot_turns=hot_turns,
        rag_turns=rag_turns,
        sessions=totals["sessions"] or 0,
        agents=totals["agents"] or 0,
        agent_ids=tuple(agent_ids.distinct()[:MAX_INFLUENCE_AGENTS]),
        first_at=first_at,
        last_at=last_at,
    )


def chunk_influence_turns(chunk_id: int) -> QuerySet[InjectionLogItem]:
    """The turns `chunk_id` entered as its log items (with `.log`), newest first by log id (log
    ids grow with time): a walk down injection_item_chunk, so a page costs the same at any size."""
    return InjectionLogItem.objects.filter(chunk_id=chunk_id).select_related("log").order_by("-log_id")


def session_received(*, session_id: str, agent_id: int | None) -> list[tuple[int, int, str]]:
    """What one session's turns were given: (chunk id, turns, sections) for each chunk, most
    often first."""
    logs = InjectionLog.objects.filter(session_id=session_id)
    if agent_id is not None:
        logs = logs.filter(agent_id=agent_id)
    rows = (
        InjectionLogItem.objects.filter(log__in=logs.values("id"))
        .values("chunk_id", "section")
        .annotate(n=Count("log_id", distinct=True))
        .order_by()
    )
    merged: dict[int, tuple[int, set[str]]] = {}
    for row in rows:
        turns, sections = merged.get(row["chunk_id"], (0, set()))
        sections.add(row["section"])
        merged[row["chunk_id"]] = (max(turns, row["n"]), sections)
    ordered = sorted(merged.items(), key=lambda kv: (-kv[1][0], kv[0]))
    return [(chunk_id, turns, ",".join(sorted(sections))) for chunk_id, (turns, sections) in ordered]


def _recent_attempts() -> QuerySet[AccessAttempt]:
    """Failed-login rows inside django-axes' cool-off window (all of them without one)."""
    attempts = AccessAttempt.objects.all()
    cool_off = get_cool_off()
    if cool_off is not None:
        attempts = attempts.filter(attempt_time__gte=timezone.now() - cool_off)
    return attempts


def login_attempts_with_lockouts() -> QuerySet[AccessAttempt]:
    """Failed-login rows, each annotated with whether its username and its address are locked out.

    Counted as django-axes counts: failures summed per username and, separately, per address,
    over the cool-off window, against AXES_FAILURE_LIMIT.
    """
    recent = _recent_attempts()

    def total(field: str) -> Subquery:
        same = recent.filter(**{field: OuterRef(field)}).values(field).annotate(t=Sum("failures_since_start"))
        return Subquery(same.values("t")[:1], output_field=IntegerField())

    limit = int(settings.AXES_FAILURE_LIMIT)
    return AccessAttempt.objects.annotate(
        username_failures=Coalesce(total("username"), 0), address_failures=Coalesce(total("ip_address"), 0)
    ).annotate(
        username_locked=Q(username__isnull=False, username_failures__gte=limit),
        address_locked=Q(ip_address__isnull=False, address_failures__gte=limit),
    )


def login_lockouts_active() -> QuerySet[AccessAttempt]:
    """The failed-login rows whose username or address is locked out now."""
    return login_attempts_with_lockouts().filter(Q(username_locked=True) | Q(address_locked=True))
