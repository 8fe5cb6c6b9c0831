"""The session page's memory panels: what a session wrote, what it received, and its quarantine.

A mixin of sessions_app.admin.SessionAdmin. The reads and the quarantine are
memory.lifecycle.quarantine and audit.selectors; this module only lays them out.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.text import Truncator

from audit.selectors import session_received
from memory.lifecycle.quarantine import (
    quarantine_lift,
    session_quarantine,
    session_quarantines,
    session_written,
)
from memory.lifecycle.selectors import chunks_by_ids
from memory.store.models import Quarantine
from sessions_app.models import Session

ADMIN_PATH = "admin"
PANEL_ROWS = 100


def _chunk_line(chunk: Any, note: str = "") -> tuple[str, int, str, str, str, str]:
    title = Truncator(chunk.heading or " ".join(chunk.content.split())).chars(80)
    url = reverse("admin:memory_chunk_change", args=[chunk.pk])
    return (url, chunk.pk, title, chunk.review_state or "unstamped", chunk.trust_label, note)


def _chunk_list(lines: list[tuple[str, int, str, str, str, str]], empty: str) -> SafeString:
    if not lines:
        return format_html('<span class="pm-quiet">{}</span>', empty)
    return format_html(
        '<ul class="pm-list">{}</ul>',
        format_html_join(
            "",
            '<li><a href="{}">#{}</a> {} <span class="pm-badge pm-state-{}">{}</span> '
            '<span class="pm-quiet">{}</span></li>',
            (
                (url, pk, title, state, state, f"{trust} {note}")
                for url, pk, title, state, trust, note in lines
            ),
        ),
    )


class SessionMemoryPanels:
    """Fields `written_display` / `received_display`, the quarantine page and the bulk action."""

    @admin.display(description="memories this session wrote")
    def written_display(self, obj: Session) -> SafeString:
        rows = list(session_written(session_id=obj.session_id, agent_id=obj.agent_id)[:PANEL_ROWS])
        listing = _chunk_list([_chunk_line(c) for c in rows], "This session wrote no memory.")
        if not rows:
            return listing
        quarantine = reverse("admin:sessions_app_session_quarantine", args=[obj.pk])
        queue = (
            reverse("admin:memory_pendingchunk_changelist")
            + "?"
            + urlencode({"session": obj.session_id, "agent": obj.agent_id, "state": "all"})
        )
        return format_html(
            '{}<p><a class="pm-session-queue" href="{}">Its rows in the review queue →</a></p>'
            '<p><a class="button pm-quarantine" href="{}">Quarantine this session…</a> '
            '<span class="pm-quiet">rejects everything it wrote, in one step; lifting it restores '
            "each row's earlier state.</span></p>",
            listing,
            queue,
            quarantine,
        )

    @admin.display(description="memories this session received")
    def received_display(self, obj: Session) -> SafeString:
        received = session_received(session_id=obj.session_id, agent_id=obj.agent_id)[:PANEL_ROWS]
        chunks = {c.pk: c for c in chunks_by_ids([chunk_id for chunk_id, _n, _s in received])}
        lines = [
            _chunk_line(chunks[chunk_id], f"· {turns} turn{'s' if turns != 1 else ''} as {sections}")
            for chunk_id, turns, sections in received
            if chunk_id in chunks
        ]
        return _chunk_list(lines, "No memory entered this session's turns.")

    @admin.display(description="quarantines")
    def quarantines_display(self, obj: Session) -> SafeString:
        records = list(session_quarantines(session_id=obj.session_id, agent_id=obj.agent_id))
        if not records:
            return format_html('<span class="pm-quiet">{}</span>', "Never quarantined.")
        return format_html(
            '<ul class="pm-list pm-quarantines">{}</ul>',
            format_html_join("", "<li>{}</li>", ((self._quarantine_line(obj, q),) for q in records)),
        )

    def _quarantine_line(self, session: Session, record: Quarantine) -> SafeString:
        rejected = sum(1 for r in record.rows.all() if r.rejected)
        head = format_html(
            "<strong>Quarantine #{}</strong> by {} on {} · {} row{} rejected{}",
            record.pk,
            record.actor,
            f"{record.created_at:%Y-%m-%d %H:%M}",
            rejected,
            "s" if rejected != 1 else "",
            format_html(" · “{}”", record.reason) if record.reason else "",
        )
        if record.lifted_at is not None:
            return format_html(
                '{} <span class="pm-badge pm-state-confirmed">lifted</span> '
                '<span class="pm-quiet">by {} on {}</span>',
                head,
                record.lifted_by,
                f"{record.lifted_at:%Y-%m-%d %H:%M}",
            )
        lift = reverse("admin:sessions_app_session_quarantine_lift", args=[session.pk, record.pk])
        return format_html('{} <a class="button pm-lift" href="{}">Lift quarantine…</a>', head, lift)

    # -- quarantine: a confirmation page (GET) and the action (POST), and a changelist action

    def has_quarantine_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("memory.review_chunk")

    def quarantine_urls(self) -> list[Any]:
        site = self.admin_site  # type: ignore[attr-defined]
        return [
            path(
                "<int:pk>/quarantine/",
                site.admin_view(self.quarantine_view),
                name="sessions_app_session_quarantine",
            ),
            path(
                "<int:pk>/quarantine/<int:quarantine_id>/lift/",
                site.admin_view(self.quarantine_lift_view),
                name="sessions_app_session_quarantine_lift",
            ),
        ]

    def quarantine_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        if not self.has_quarantine_permission(request):
            raise PermissionDenied
        session = get_object_or_404(Session, pk=pk)
        back = reverse("admin:sessions_app_session_change", args=[session.pk])
        if request.method == "POST":
            self._quarantine(request, [session], reason=request.POST.get("reason", ""))
            return HttpResponseRedirect(back)
        rows = list(session_written(session_id=session.session_id, agent_id=session.agent_id))
        context = {
            **self.admin_site.each_context(request),  # type: ignore[attr-defined]
            "title": f"Quarantine session {session.session_id}?",
            "opts": Session._meta,
            "session": session,
            "rows": rows,
            "to_reject": sum(1 for c in rows if c.review_state != "rejected"),
            "back_url": back,
        }
        return TemplateResponse(request, "admin/sessions_app/session_quarantine.html", context)

    def quarantine_lift_view(self, request: HttpRequest, pk: int, quarantine_id: int) -> HttpResponse:
        if not self.has_quarantine_permission(request):
            raise PermissionDenied
        session = get_object_or_404(Session, pk=pk)
        record = get_object_or_404(
            Quarantine, pk=quarantine_id, session_id=session.session_id, agent_id=session.agent_id
        )
        back = reverse("admin:sessions_app_session_change", args=[session.pk])
        if request.method == "POST":
            result = quarantine_lift(
                quarantine_id=record.pk, actor=f"user:{request.user.pk}", path=ADMIN_PATH
            )
            self.message_user(  # type: ignore[attr-defined]
                request,
                self._lift_message(record.pk, result.restored, result.changed_since, result.already_lifted),
                messages.WARNING if result.already_lifted else messages.SUCCESS,
            )
            return HttpResponseRedirect(back)
        rows = [r for r in record.rows.order_by("id") if r.rejected]
        chunks = {c.pk: c for c in chunks_by_ids([r.chunk_id for r in rows])}
        context = {
            **self.admin_site.each_context(request),  # type: ignore[attr-defined]
            "title": f"Lift quarantine #{record.pk} of session {session.session_id}?",
            "opts": Session._meta,
            "session": session,
            "record": record,
            "rows": [(r, chunks.get(r.chunk_id)) for r in rows],
            "back_url": back,
        }
        return TemplateResponse(request, "admin/sessions_app/quarantine_lift.html", context)

    @staticmethod
    def _lift_message(
        quarantine_id: int, restored: tuple[int, ...], changed: tuple[int, ...], already: bool
    ) -> str:
        if already:
            return f"Quarantine #{quarantine_id} was already lifted: nothing changed."
        text = (
            f"Quarantine #{quarantine_id} lifted: {len(restored)} row{'s' if len(restored) != 1 else ''} "
            "back to their earlier state"
        )
        if changed:
            ids = ", ".join(f"#{i}" for i in changed)
            text += f"; {len(changed)} reviewed again since, left as they are ({ids})"
        return text + "."

    def _quarantine(self, request: HttpRequest, sessions: list[Session], reason: str = "") -> None:
        rejected = already = 0
        for session in sessions:
            result = session_quarantine(
                session_id=session.session_id,
                agent_id=session.agent_id,
                actor=f"user:{request.user.pk}",
                path=ADMIN_PATH,
                reason=reason,
            )
            rejected += len(result.rejected)
            already += result.already
        self.message_user(  # type: ignore[attr-defined]
            request,
            f"Quarantined: {rejected} row{'s' if rejected != 1 else ''} rejected"
            + (f", {already} already rejected" if already else "")
            + ". Lift it from the session's page to restore each row's earlier state.",
            messages.SUCCESS if rejected else messages.WARNING,
        )

    @admin.action(
        description="Quarantine selected sessions (reject everything they wrote)", permissions=["quarantine"]
    )
    def quarantine_selected(self, request: HttpRequest, queryset: QuerySet[Session]) -> None:
        self._quarantine(request, list(queryset))
