"""Audit in the operator console: the injection log and the audit events. Both read-only.

The injection log lives in its own database (protomem.routers); chunks and sessions live in the
other one, so rows carry plain ids and every cross-link here is a URL, never a join.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.contrib.auth import get_user_model
from django.db.models import Case, CharField, IntegerField, JSONField, OuterRef, Q, QuerySet, Subquery, When
from django.db.models.functions import Cast, Substr
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.text import Truncator

from audit.models import AuditEvent, InjectionLog, InjectionLogItem
from delivery.replay import Replay, replay_injection
from memory.lifecycle.selectors import chunks_by_ids
from sessions_app.models import Agent

RECENT_SESSIONS = 30  # session choices offered in the injection log's filter sidebar


def chunk_url(chunk_id: int) -> str:
    return reverse("admin:memory_chunk_change", args=[chunk_id])


def session_url(session_id: str, agent_id: int | None) -> str:
    params = {"session_id": session_id}
    if agent_id is not None:
        params["agent"] = str(agent_id)
    return reverse("admin:sessions_app_session_lookup") + "?" + urlencode(params)


def id_links(ids: list[int]) -> SafeString:
    if not ids:
        return format_html('<span class="pm-quiet">{}</span>', "none")
    return format_html_join(" ", '<a href="{}">#{}</a>', ((chunk_url(i), i) for i in ids))


class ReadOnlyAdmin(admin.ModelAdmin):
    """Forensics are append-only: nobody adds, edits or deletes them from the console."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# ----------------------------------------------------------------------------------------------
# Injection log

STATE_CSS = {
    "confirmed": "pm-state-confirmed",
    "pending": "pm-state-pending",
    "rejected": "pm-state-rejected",
}


class SessionFilter(admin.SimpleListFilter):
    """Filter by the runtime's session id; the sidebar offers the most recent ones."""

    title = "session"
    parameter_name = "session"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        recent: dict[str, None] = {}
        for session_id in InjectionLog.objects.order_by("-created_at", "-id").values_list(
            "session_id", flat=True
        )[: RECENT_SESSIONS * 20]:
            recent.setdefault(session_id, None)
            if len(recent) >= RECENT_SESSIONS:
                break
        value = self.value()
        if value and value not in recent:
            recent = {value: None, **recent}  # a session linked from elsewhere stays selectable
        return [(s, Truncator(s).chars(40)) for s in recent]

    def queryset(self, request: HttpRequest, queryset: QuerySet[InjectionLog]) -> QuerySet[InjectionLog]:
        value = self.value()
        return queryset.filter(session_id=value) if value else queryset


class AgentFilter(admin.SimpleListFilter):
    title = "agent"
    parameter_name = "agent"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        ids = (
            InjectionLog.objects.exclude(agent_id__isnull=True)
            .order_by("agent_id")
            .values_list("agent_id", flat=True)
            .distinct()[:50]
        )
        return [(str(i), f"agent #{i}") for i in ids]

    def queryset(self, request: HttpRequest, queryset: QuerySet[InjectionLog]) -> QuerySet[InjectionLog]:
        value = self.value()
        return queryset.filter(agent_id=int(value)) if value and value.isdigit() else queryset


class ChunkFilter(admin.SimpleListFilter):
    """?chunk=<id>: the turns one chunk entered (linked from the chunk's change page)."""

    title = "turns that received a chunk"
    parameter_name = "chunk"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        value = self.value()
        return [(value, f"turns that received chunk #{value}")] if value and value.isdigit() else []

    def queryset(self, request: HttpRequest, queryset: QuerySet[InjectionLog]) -> QuerySet[InjectionLog]:
        value = self.value()
        if not (value and value.isdigit()):
            return queryset
        return queryset.filter(pk__in=InjectionLogItem.objects.filter(chunk_id=int(value)).values("log_id"))


class LabelledChangeList(ChangeList):
    """Reads the page's agent names and chunk headings / trust in two queries, not one a row."""

    def get_results(self, request: HttpRequest) -> None:
        super().get_results(request)
        logs = list(self.result_list)
        agent_ids = {log.agent_id for log in logs if log.agent_id is not None}
        names = dict(Agent.objects.filter(pk__in=agent_ids).values_list("pk", "name"))
        chunk_ids = sorted({int(i) for log in logs for i in [*(log.hot_ids or []), *(log.rag_ids or [])]})
        chunks = {c.pk: c for c in chunks_by_ids(chunk_ids)}
        for log in logs:
            log.agent_name = names.get(log.agent_id)
            log.chunk_rows = chunks


def chunk_labels(ids: list[int], chunks: dict[int, Any]) -> SafeString:
    """#id, heading and trust of each delivered chunk (escaped: chunk text is untrusted)."""
    if not ids:
        return format_html('<span class="pm-quiet">{}</span>', "none")
    rows = []
    for chunk_id in ids:
        chunk = chunks.get(chunk_id)
        title = Truncator(chunk.heading or " ".join(chunk.content.split())).chars(40) if chunk else "(gone)"
        rows.append((chunk_url(chunk_id), chunk_id, title, chunk.trust_label if chunk else ""))
    return format_html_join("", '<div><a href="{}">#{}</a> {} <span class="pm-quiet">{}</span></div>', rows)


@admin.register(InjectionLog)
class InjectionLogAdmin(ReadOnlyAdmin):
    """Memory → Injections: one row per model call that had memory injected."""

    change_list_template = "admin/audit/injectionlog/change_list.html"
    result_noun, result_noun_plural = "injection", "injections"
    list_display = ("created", "session", "agent", "hot", "rag", "digest", "approx_tokens")
    list_display_links = ("created",)
    list_filter = (SessionFilter, AgentFilter, ("created_at", admin.DateFieldListFilter), ChunkFilter)
    ordering = ("-created_at", "-id")
    show_full_result_count = False
    list_per_page = 50
    fields = (
        "created_at",
        "session_display",
        "agent_display",
        "approx_tokens",
        "replay_status",
        "replay_envelope",
        "replay_rows",
        "hot_chunks",
        "rag_chunks",
        "digest_sessions",
    )
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[InjectionLog]:
        # The same session's previous turn's always-on ids, so an unchanged always-on set
        # collapses to one line (one correlated read per listed row, on injection_session_created).
        earlier = InjectionLog.objects.filter(
            Q(created_at__lt=OuterRef("created_at"))
            | Q(created_at=OuterRef("created_at"), pk__lt=OuterRef("pk")),
            session_id=OuterRef("session_id"),
            agent_id=OuterRef("agent_id"),
        ).order_by("-created_at", "-id")
        return (
            super()
            .get_queryset(request)
            .annotate(previous_hot_ids=Subquery(earlier.values("hot_ids")[:1], output_field=JSONField()))
        )

    @admin.display(description="when", ordering="created_at")
    def created(self, obj: InjectionLog) -> str:
        return f"{obj.created_at:%Y-%m-%d %H:%M:%S}"

    @admin.display(description="session", ordering="session_id")
    def session(self, obj: InjectionLog) -> SafeString:
        return format_html(
            '<a href="{}">{}</a>',
            session_url(obj.session_id, obj.agent_id),
            Truncator(obj.session_id).chars(40),
        )

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return LabelledChangeList

    @admin.display(description="agent", ordering="agent_id")
    def agent(self, obj: InjectionLog) -> SafeString | str:
        if obj.agent_id is None:
            return "—"
        name = getattr(obj, "agent_name", None)
        if name is None:
            name = Agent.objects.filter(pk=obj.agent_id).values_list("name", flat=True).first()
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:sessions_app_agent_change", args=[obj.agent_id]),
            name or f"#{obj.agent_id}",
        )

    @admin.display(description="hot memory")
    def hot(self, obj: InjectionLog) -> SafeString:
        chunks = getattr(obj, "chunk_rows", None)
        ids = list(obj.hot_ids or [])
        previous = getattr(obj, "previous_hot_ids", None)
        if ids and previous is not None and [int(i) for i in previous] == ids:
            return format_html(
                '<span class="pm-quiet pm-as-previous" title="{}">{} always-on, as the previous turn</span>',
                " ".join(f"#{i}" for i in ids),
                len(ids),
            )
        return id_links(ids) if chunks is None else chunk_labels(ids, chunks)

    @admin.display(description="RAG hits")
    def rag(self, obj: InjectionLog) -> SafeString:
        chunks = getattr(obj, "chunk_rows", None)
        ids = list(obj.rag_ids or [])
        return id_links(ids) if chunks is None else chunk_labels(ids, chunks)

    @admin.display(description="digest")
    def digest(self, obj: InjectionLog) -> str:
        count = len(obj.digest_session_ids or [])
        return f"{count} session{'s' if count != 1 else ''}" if count else "—"

    # change page

    def _replay(self, obj: InjectionLog) -> Replay:
        cached = getattr(obj, "_replay_cache", None)
        if cached is None:
            cached = obj._replay_cache = replay_injection(obj)
        return cached

    @admin.display(description="replay")
    def replay_status(self, obj: InjectionLog) -> SafeString:
        replay = self._replay(obj)
        if replay.exact:
            return format_html(
                '<strong class="pm-replay-status" data-exact="yes">'
                "Byte for byte what this turn delivered</strong>"
                ' <span class="pm-quiet">({} chars, sha256 {}, dates in {})</span>',
                len(replay.text),
                replay.sha256[:16],
                replay.time_zone,
            )
        if not replay.recorded:
            why = "this turn was logged before replay was recorded, so equality cannot be proven"
        else:
            changed = [f"#{i} erased since" for i in replay.erased_ids]
            changed += [f"#{i} no longer in the store" for i in replay.gone_ids]
            why = "; ".join(changed) or "the store no longer renders it as delivered"
        return format_html(
            '<strong class="pm-replay-status pm-warn" data-exact="no">Not the delivered text: {}</strong>'
            ' <span class="pm-quiet">(delivered sha256 {}, replay {})</span>',
            why,
            replay.delivered_sha256[:16] or "not recorded",
            replay.sha256[:16],
        )

    @admin.display(description="delivered envelope")
    def replay_envelope(self, obj: InjectionLog) -> SafeString:
        # Escaped, and a <pre>: the page shows the characters the model received, nothing rendered.
        return format_html('<pre class="pm-content-full pm-replay">{}</pre>', self._replay(obj).text)

    @admin.display(description="rows at delivery")
    def replay_rows(self, obj: InjectionLog) -> SafeString:
        rows = self._replay(obj).rows
        if not rows:
            return format_html('<span class="pm-quiet">{}</span>', "no memory rows (digest only)")
        body = []
        for row in rows:
            notes = []
            if row.erased:
                notes.append("erased since")
            if row.superseded_by is not None:
                notes.append(
                    format_html(
                        'revised since: <a href="{}">#{}</a>', chunk_url(row.superseded_by), row.superseded_by
                    )
                )
            if row.state_now == "gone":
                notes.append("no longer in the store")
            body.append(
                (
                    row.chunk_id,
                    chunk_url(row.chunk_id),
                    row.chunk_id,
                    "always-on" if row.section == "hot" else "RAG",
                    STATE_CSS.get(row.state_at_delivery, "pm-state-none"),
                    row.state_at_delivery or "not recorded",
                    row.state_now,
                    format_html_join(" · ", "{}", ((n,) for n in notes)) if notes else "—",
                )
            )
        return format_html(
            '<table class="pm-replay-rows"><thead><tr><th>row</th><th>section</th>'
            "<th>state when delivered</th><th>state now</th><th>since</th></tr></thead>"
            "<tbody>{}</tbody></table>",
            format_html_join(
                "",
                '<tr data-chunk="{}"><td><a href="{}">#{}</a></td><td>{}</td>'
                '<td><span class="pm-badge {}">{}</span></td><td>{}</td><td>{}</td></tr>',
                body,
            ),
        )

    @admin.display(description="session")
    def session_display(self, obj: InjectionLog) -> SafeString:
        return format_html(
            '<a href="{}">{}</a> · <a href="{}?{}">every injection of this session →</a>',
            session_url(obj.session_id, obj.agent_id),
            obj.session_id,
            reverse("admin:audit_injectionlog_changelist"),
            urlencode({"session": obj.session_id}),
        )

    @admin.display(description="agent")
    def agent_display(self, obj: InjectionLog) -> SafeString | str:
        return self.agent(obj)

    def _chunk_rows(self, ids: list[int]) -> SafeString:
        if not ids:
            return format_html('<span class="pm-quiet">{}</span>', "none")
        found = {c.pk: c for c in chunks_by_ids(ids)}
        rows = []
        for chunk_id in ids:
            chunk = found.get(chunk_id)
            title = (
                Truncator(chunk.heading or " ".join(chunk.content.split())).chars(90)
                if chunk
                else "(no longer in the store)"
            )
            label = chunk.trust_label if chunk else ""
            rows.append((chunk_url(chunk_id), chunk_id, title, label))
        return format_html(
            '<ul class="pm-list">{}</ul>',
            format_html_join("", '<li><a href="{}">#{}</a> {} <span class="pm-quiet">{}</span></li>', rows),
        )

    @admin.display(description="hot memory delivered")
    def hot_chunks(self, obj: InjectionLog) -> SafeString:
        return self._chunk_rows(list(obj.hot_ids or []))

    @admin.display(description="RAG hits delivered")
    def rag_chunks(self, obj: InjectionLog) -> SafeString:
        return self._chunk_rows(list(obj.rag_ids or []))

    @admin.display(description="digest sessions")
    def digest_sessions(self, obj: InjectionLog) -> SafeString:
        ids = list(obj.digest_session_ids or [])
        if not ids:
            return format_html('<span class="pm-quiet">{}</span>', "none")
        return format_html(
            '<ul class="pm-list">{}</ul>',
            format_html_join(
                "", '<li><a href="{}">{}</a></li>', ((session_url(s, obj.agent_id), s) for s in ids)
            ),
        )


# ----------------------------------------------------------------------------------------------
# Audit events


EVENT_CSS = {
    "memory.hot_written": "pm-policy-always",
    "memory.reviewed": "pm-state-confirmed",
    "memory.expired": "pm-flag-expired",
    "memory.bulk_deleted": "pm-state-rejected",
    "memory.bulk_restored": "pm-state-pending",
    "memory.reaped": "pm-flag-superseded",
    "login.locked_out": "pm-state-rejected",
    "login.lockout_lifted": "pm-state-pending",
}


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    """Who did what to which chunk, through which path."""

    result_noun, result_noun_plural = "event", "events"
    list_display = ("created", "event_badge", "actor_display", "path", "chunk", "details")
    list_display_links = ("created",)
    list_filter = ("event", "path", ("created_at", admin.DateFieldListFilter))
    search_fields = ("actor", "event")
    search_help_text = "Actor (e.g. user:3, agent:7, system) or event name."
    ordering = ("-created_at", "-id")

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        return super().changelist_view(request, {"title": "Audit events", **(extra_context or {})})

    fields = ("created_at", "event", "actor_display", "path", "chunk", "details")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[AuditEvent]:
        # "user:<id>" actors: show the operator's username (one subquery, no per-row lookups).
        # Only "user:" actors are cast: PostgreSQL refuses to cast the ":3" of "agent:3".
        user_id = Case(
            When(actor__regex=r"^user:[0-9]+$", then=Cast(Substr("actor", 6), output_field=IntegerField())),
            default=None,
            output_field=IntegerField(),
        )
        users = get_user_model().objects.filter(pk=OuterRef("actor_user_id"))
        return (
            super()
            .get_queryset(request)
            .annotate(actor_user_id=user_id)
            .annotate(actor_username=Subquery(users.values("username")[:1], output_field=CharField()))
        )

    @admin.display(description="when", ordering="created_at")
    def created(self, obj: AuditEvent) -> str:
        return f"{obj.created_at:%Y-%m-%d %H:%M:%S}"

    @admin.display(description="event", ordering="event")
    def event_badge(self, obj: AuditEvent) -> SafeString:
        return format_html(
            '<span class="pm-badge {}">{}</span>', EVENT_CSS.get(obj.event, "pm-state-none"), obj.event
        )

    @admin.display(description="actor", ordering="actor")
    def actor_display(self, obj: AuditEvent) -> SafeString | str:
        username = getattr(obj, "actor_username", None)
        if obj.actor.startswith("user:") and username:
            return format_html('{} <span class="pm-quiet">({})</span>', obj.actor, username)
        return obj.actor

    @admin.display(description="chunk", ordering="chunk_id")
    def chunk(self, obj: AuditEvent) -> SafeString | str:
        if obj.chunk_id is None:
            return "—"
        return format_html('<a href="{}">#{}</a>', chunk_url(obj.chunk_id), obj.chunk_id)

    @admin.display(description="details")
    def details(self, obj: AuditEvent) -> str:
        data = obj.data or {}
        if {"from", "to"} <= set(data):
            return f"{data['from'] or 'unstamped'} → {data['to']}"
        return ", ".join(f"{k}={v}" for k, v in data.items()) or "—"


from audit import admin_logins  # noqa: E402, F401 - registers Login lockouts (django-axes' attempts)
