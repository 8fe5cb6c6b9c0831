"""Sessions in the operator console: agents and their keys, sessions and their summaries.

A session's summary is shown the way the prior-sessions digest derives it (the same
sessions_app.digest code), and in full the way recall_session returns it (cleaned on read).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.text import Truncator
from rest_framework_api_key.admin import APIKeyModelAdmin
from rest_framework_api_key.models import APIKey

from memory.lifecycle.queue_view import session_has_waiting, session_waiting_count
from sessions_app.digest import digest_cache_clear, digest_entries, format_line
from sessions_app.models import Agent, AgentAPIKey, OperatorAPIKey, Session, SessionSummary
from sessions_app.retirement import session_harvest_requeue, session_retire
from sessions_app.selectors import session_summary_get
from sessions_app.services import agent_deactivate
from sessions_app.session_memory_admin import SessionMemoryPanels

# The package's own key model is unused here (agents and operators have their own key models).
if admin.site.is_registered(APIKey):
    admin.site.unregister(APIKey)


def badge(text: str, css: str, title: str = "") -> SafeString:
    return format_html('<span class="pm-badge {}" title="{}">{}</span>', css, title, text)


def injections_url(session_id: str | None = None, agent_id: int | None = None) -> str:
    params = {}
    if session_id is not None:
        params["session"] = session_id
    if agent_id is not None:
        params["agent"] = str(agent_id)
    return reverse("admin:audit_injectionlog_changelist") + ("?" + urlencode(params) if params else "")


# ----------------------------------------------------------------------------------------------
# Agents and keys


@admin.register(Agent)
class AgentAdmin(admin.ModelAdmin):
    """Agents. One that owns memory is never deleted (its private rows would lose their owner):
    the delete page lists those rows as protected; deactivate it instead, which revokes its keys."""

    list_display = ("name", "namespace_display", "active", "key_count", "session_count", "created_at")
    list_filter = ("is_active",)
    search_fields = ("name", "namespace")
    ordering = ("name",)
    actions = ["deactivate_selected"]

    @admin.action(description="Deactivate selected agents (revokes their API keys; memory stays private)")
    def deactivate_selected(self, request: HttpRequest, queryset: QuerySet[Agent]) -> None:
        count = 0
        for agent in queryset:
            count += agent_deactivate(agent=agent, actor=f"user:{request.user.pk}")
        self.message_user(request, f"Deactivated {count} agent(s); their keys are revoked.", messages.SUCCESS)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Agent]:
        return (
            super()
            .get_queryset(request)
            .annotate(n_keys=Count("api_keys", distinct=True), n_sessions=Count("sessions", distinct=True))
        )

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> tuple[Any, Any, set[str], list[Any]]:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        if protected:
            # Chunks are never deletable in the admin, so Django would report the protected rows
            # as a missing "delete chunk" permission and list none of them; the delete is
            # refused either way, so the page lists the rows that keep the agent instead.
            perms_needed = set()
        return deleted, counts, perms_needed, protected

    @admin.display(description="namespace", ordering="namespace")
    def namespace_display(self, obj: Agent) -> str:
        return obj.namespace or "— (any)"

    @admin.display(description="active", ordering="is_active")
    def active(self, obj: Agent) -> SafeString:
        return (
            badge("active", "pm-state-confirmed") if obj.is_active else badge("disabled", "pm-state-rejected")
        )

    @admin.display(description="keys", ordering="n_keys")
    def key_count(self, obj: Agent) -> SafeString:
        url = (
            reverse("admin:sessions_app_agentapikey_changelist")
            + "?"
            + urlencode({"agent__id__exact": obj.pk})
        )
        return format_html('<a href="{}">{}</a>', url, obj.n_keys)

    @admin.display(description="sessions", ordering="n_sessions")
    def session_count(self, obj: Agent) -> SafeString:
        url = reverse("admin:sessions_app_session_changelist") + "?" + urlencode({"agent__id__exact": obj.pk})
        return format_html('<a href="{}">{}</a>', url, obj.n_sessions)


@admin.register(AgentAPIKey)
class AgentAPIKeyAdmin(APIKeyModelAdmin):
    """Hashed keys: the raw key is shown once, on creation (the package's admin does that)."""

    list_display = ("prefix", "name", "agent", "created", "expiry_date", "_has_expired", "revoked")
    list_filter = ("agent", "revoked", "created")
    list_select_related = ("agent",)
    raw_id_fields = ("agent",)
    search_fields = ("name", "prefix", "agent__name")


@admin.register(OperatorAPIKey)
class OperatorAPIKeyAdmin(APIKeyModelAdmin):
    list_display = ("prefix", "name", "user", "created", "expiry_date", "_has_expired", "revoked")
    list_filter = ("revoked", "created")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    search_fields = ("name", "prefix", "user__username")


# ----------------------------------------------------------------------------------------------
# Sessions


class RetiredFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "retired"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("no", "active"), ("yes", "retired")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Session]) -> QuerySet[Session]:
        if self.value() == "no":
            return queryset.filter(retired_at__isnull=True)
        if self.value() == "yes":
            return queryset.filter(retired_at__isnull=False)
        return queryset


class WaitingFilter(admin.SimpleListFilter):
    """Sessions that wrote rows still waiting for an operator's verdict."""

    title = "review"
    parameter_name = "waiting"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "wrote rows waiting for review"), ("no", "nothing waiting")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Session]) -> QuerySet[Session]:
        if self.value() == "yes":
            return queryset.filter(session_has_waiting())
        if self.value() == "no":
            return queryset.exclude(session_has_waiting())
        return queryset


class HasSummaryFilter(admin.SimpleListFilter):
    title = "summary"
    parameter_name = "summary"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "has a summary (can be in the digest)"), ("no", "no summary")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Session]) -> QuerySet[Session]:
        if self.value() == "yes":
            return queryset.filter(summary__isnull=False)
        if self.value() == "no":
            return queryset.filter(summary__isnull=True)
        return queryset


HARVEST_CSS = {
    "done": "pm-state-confirmed",
    "failed": "pm-state-rejected",
    "pending": "pm-state-pending",
    "running": "pm-state-pending",
}


def summary_of(session: Session) -> SessionSummary | None:
    try:
        return session.summary
    except SessionSummary.DoesNotExist:
        return None


def digest_line(summary: SessionSummary) -> str:
    """The summary's line exactly as the digest renders it (sessions_app.digest.format_line)."""
    return format_line(
        session_id=summary.session_key,
        timestamp=summary.updated_at,
        surface=summary.surface,
        topic=summary.topic,
        message_count=summary.message_count,
    )


@admin.register(Session)
class SessionAdmin(SessionMemoryPanels, admin.ModelAdmin):
    """Memory → Sessions: each thread, its summary as the digest shows it, and its injections."""

    result_noun, result_noun_plural = "session", "sessions"
    actions = ["retire_selected", "requeue_harvest", "quarantine_selected"]
    list_display = (
        "session_id",
        "agent",
        "flags",
        "waiting",
        "digest_topic",
        "messages_count",
        "last_activity_at",
        "harvest",
        "injections",
    )
    list_display_links = ("session_id",)
    list_filter = (
        "agent",
        "surface",
        RetiredFilter,
        WaitingFilter,
        HasSummaryFilter,
        "incognito",
        "harvest_state",
        ("last_activity_at", admin.DateFieldListFilter),
    )
    list_select_related = ("agent", "summary")
    search_fields = ("session_id",)
    ordering = ("-last_activity_at", "-id")
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "session_id",
                    "agent",
                    "surface",
                    "flags",
                    "created_at",
                    "last_activity_at",
                    "retired_at",
                )
            },
        ),
        ("In the prior-sessions digest", {"fields": ("digest_display",)}),
        ("Summary (as recall_session returns it)", {"fields": ("summary_display",)}),
        ("Memory it wrote", {"fields": ("written_display", "quarantines_display")}),
        ("Memory it received", {"fields": ("received_display", "injections_display")}),
        (
            "Harvest",
            {"fields": ("harvest", "harvest_attempts", "harvest_error", "harvested_at", "harvest_result")},
        ),
    )
    readonly_fields = (
        "session_id",
        "agent",
        "surface",
        "flags",
        "created_at",
        "last_activity_at",
        "retired_at",
        "digest_display",
        "summary_display",
        "injections_display",
        "written_display",
        "quarantines_display",
        "received_display",
        "harvest",
        "harvest_attempts",
        "harvest_error",
        "harvested_at",
        "harvest_result",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # agents register their own threads

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # view and delete only

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("sessions_app.view_session") or request.user.has_perm(
            "sessions_app.change_session"
        )

    # -- lookup by the runtime's id (chunk provenance and injection rows link here)

    def get_urls(self) -> list[Any]:
        lookup = path(
            "lookup/", self.admin_site.admin_view(self.lookup_view), name="sessions_app_session_lookup"
        )
        return [lookup, *self.quarantine_urls(), *super().get_urls()]

    def lookup_view(self, request: HttpRequest) -> HttpResponse:
        """Open the session with this runtime id (and agent): its page, or the matching list."""
        session_id = request.GET.get("session_id", "")
        agent = request.GET.get("agent", "")
        qs = Session.objects.filter(session_id=session_id)
        if agent.isdigit():
            qs = qs.filter(agent_id=int(agent))
        pks = list(qs.values_list("pk", flat=True)[:2])
        if len(pks) == 1:
            return HttpResponseRedirect(reverse("admin:sessions_app_session_change", args=[pks[0]]))
        if not pks:
            self.message_user(
                request,
                f"No session “{session_id}” is registered (it may have been deleted).",
                messages.WARNING,
            )
        url = reverse("admin:sessions_app_session_changelist") + "?" + urlencode({"q": session_id})
        return HttpResponseRedirect(url)

    # -- columns

    @admin.display(description="surface · flags")
    def flags(self, obj: Session) -> SafeString:
        pieces = [badge(obj.surface, "pm-policy-none")]
        if obj.incognito:
            pieces.append(badge("incognito", "pm-state-none", "leaves no memory trail"))
        if obj.is_background and obj.surface != "background":
            pieces.append(badge("background", "pm-state-none", "worker session: never summarized"))
        if obj.retired_at:
            pieces.append(badge("retired", "pm-flag-superseded", f"{obj.retired_at:%Y-%m-%d %H:%M}"))
        if len(pieces) == 1:
            pieces.append(badge("active", "pm-state-confirmed"))
        return format_html_join(" ", "{}", ((p,) for p in pieces))

    def get_queryset(self, request: HttpRequest) -> QuerySet[Session]:
        return super().get_queryset(request).annotate(n_waiting=session_waiting_count())

    @admin.display(description="waiting review", ordering="n_waiting")
    def waiting(self, obj: Session) -> SafeString | str:
        if not obj.n_waiting:
            return "—"
        queue = (
            reverse("admin:memory_pendingchunk_changelist")
            + "?"
            + urlencode({"session": obj.session_id, "agent": obj.agent_id})
        )
        return format_html('<a class="pm-session-waiting" href="{}">{} waiting</a>', queue, obj.n_waiting)

    @admin.display(description="topic (digest)")
    def digest_topic(self, obj: Session) -> SafeString | str:
        summary = summary_of(obj)
        if summary is None:
            return format_html('<span class="pm-quiet">{}</span>', "no summary")
        return Truncator(summary.topic or "(no topic)").chars(70)

    @admin.display(description="messages", ordering="message_count")
    def messages_count(self, obj: Session) -> int:
        return obj.message_count

    @admin.display(description="harvest", ordering="harvest_state")
    def harvest(self, obj: Session) -> SafeString:
        state = obj.harvest_state
        if state == "none":
            return format_html('<span class="pm-quiet">{}</span>', "— (active)")
        return badge(state, HARVEST_CSS.get(state, "pm-state-none"), obj.harvest_error[:200])

    @admin.display(description="injections")
    def injections(self, obj: Session) -> SafeString:
        return format_html('<a href="{}">turns →</a>', injections_url(obj.session_id, obj.agent_id))

    # -- change page

    @admin.display(description="digest line")
    def digest_display(self, obj: Session) -> SafeString:
        summary = summary_of(obj)
        if summary is None:
            reason = (
                "incognito and background sessions are never summarized"
                if not obj.leaves_trail
                else "no summary yet: one is written on the session's terminal turn"
            )
            return format_html('<span class="pm-quiet">Not in any digest: {}.</span>', reason)
        listed = [
            e.session_id for e in digest_entries(agent=obj.agent, active_session_id=None, policy="newest")
        ]
        where = (
            format_html(
                "listed now, #{} of {} in the agent's newest-sessions digest",
                listed.index(obj.session_id) + 1,
                len(listed),
            )
            if obj.session_id in listed
            else "not among the newest sessions the digest lists right now"
        )
        return format_html(
            '<div class="pm-mono">- {}</div><p class="pm-quiet">{} (other sessions of {} see this line; '
            "a session never sees its own).</p>",
            digest_line(summary),
            where,
            obj.agent,
        )

    @admin.display(description="summary")
    def summary_display(self, obj: Session) -> SafeString:
        recalled = session_summary_get(agent=obj.agent, session_id=obj.session_id)
        if recalled is None:
            return format_html('<span class="pm-quiet">{}</span>', "No summary.")
        messages_html = format_html_join(
            "",
            "<tr><td><strong>{}</strong></td><td class='pm-content-full'>{}</td></tr>",
            ((m.get("role", ""), m.get("content", "")) for m in recalled.messages),
        )
        tools = ", ".join(f"{t.get('name')} ({t.get('count')}x)" for t in recalled.top_tool_calls) or "none"
        return format_html(
            "<p>Topic: <strong>{}</strong> · {} messages · updated {}</p>"
            '<table class="pm-table">{}</table><p>Top tool calls: {}</p>'
            '<p>Final output:</p><div class="pm-content-full">{}</div>',
            recalled.topic or "(no topic)",
            recalled.message_count,
            f"{recalled.updated_at:%Y-%m-%d %H:%M}",
            messages_html,
            tools,
            recalled.final_output or "—",
        )

    @admin.display(description="injections")
    def injections_display(self, obj: Session) -> SafeString:
        return format_html(
            '<a href="{}">Every turn of this session that had memory injected →</a>',
            injections_url(obj.session_id, obj.agent_id),
        )

    # -- actions (services; the harvest itself runs in the worker, enqueued on commit)

    def has_retire_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("sessions_app.change_session")

    @admin.action(description="Retire selected sessions (queues their harvest)", permissions=["retire"])
    def retire_selected(self, request: HttpRequest, queryset: QuerySet[Session]) -> None:
        retired = sum(1 for session in queryset.select_related("agent") if session_retire(session=session))
        skipped = queryset.count() - retired
        self.message_user(
            request,
            f"{retired} retired, {skipped} skipped (already retired)." if skipped else f"{retired} retired.",
            messages.SUCCESS if retired else messages.WARNING,
        )

    @admin.action(description="Re-queue failed harvests", permissions=["retire"])
    def requeue_harvest(self, request: HttpRequest, queryset: QuerySet[Session]) -> None:
        queued = sum(1 for session in queryset if session_harvest_requeue(session=session))
        skipped = queryset.count() - queued
        self.message_user(
            request,
            f"{queued} re-queued, {skipped} skipped (not failed)." if skipped else f"{queued} re-queued.",
            messages.SUCCESS if queued else messages.WARNING,
        )

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        return super().changelist_view(request, {"title": "Sessions", **(extra_context or {})})

    # -- delete: the digest cache must not keep serving a deleted session

    def delete_model(self, request: HttpRequest, obj: Session) -> None:
        agent = obj.agent
        super().delete_model(request, obj)
        digest_cache_clear(agent=agent)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Session]) -> None:
        agents = list(Agent.objects.filter(pk__in=queryset.values("agent_id")))
        super().delete_queryset(request, queryset)
        for agent in agents:
            digest_cache_clear(agent=agent)
