"""The chunk admin every memory page shares: columns, permissions, search, verdict actions."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.views.main import ORDER_VAR
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.text import Truncator

from audit.selectors import audit_events_for_chunk
from memory.admin.change_page import ChunkChangePage
from memory.admin.erase import EraseActionMixin
from memory.admin.forms import ChunkAdminForm
from memory.admin.html import (
    ADMIN_PATH,
    ADMIN_SEARCH_LIMIT,
    VERDICT_WORDS,
    actor_for,
    badge,
    chunk_url,
    policy_badge,
    preview,
    session_link,
    source_is_session,
    state_badge,
    trust_badge,
)
from memory.lifecycle.confirm_effect import needs_second_step
from memory.lifecycle.retention import (
    BULK_DELETE_MARKER,
    chunks_bulk_delete,
    chunks_bulk_restore,
)
from memory.lifecycle.review import chunk_promote, chunk_review
from memory.retrieval.retrieve import Options, retrieve_ids
from memory.store.models import Chunk, DeliveryPolicy, ReviewState
from protomem.errors import ApplicationError

logger = logging.getLogger(__name__)
HISTORY_EVENTS = 200  # audit events shown on a row's HISTORY page; the audit log lists them all


class ChunkAdminBase(EraseActionMixin, ChunkChangePage, admin.ModelAdmin):
    """What Store, the review queue and hot memory share: columns, review, revise, add, history."""

    result_noun = "chunk"
    result_noun_plural = "chunks"

    form = ChunkAdminForm
    change_form_template = "admin/memory/chunk_change_form.html"
    list_per_page = 50
    search_fields = ("content",)  # shows the box; get_search_results does the FTS5 search
    search_help_text = (
        f"Full-text search, ranked exactly like agent recall (FTS5): the best {ADMIN_SEARCH_LIMIT} matches, "
        "most relevant first unless you sort by a column."
    )
    actions = [
        "confirm_selected",
        "reject_selected",
        "reopen_selected",
        "delete_restorably",
        "restore_deleted",
        "promote_to_commons",
        "erase_selected",
    ]
    list_select_related = ("agent",)
    raw_id_fields = ("agent",)
    admin_model_name = "chunk"  # which changelist/change URLs this admin's links use
    object_history_template = "admin/memory/chunk_history.html"

    def history_view(self, request: HttpRequest, object_id: str, extra_context: Any = None) -> Any:
        """HISTORY shows the row's audit trail: verdicts and revisions are audit events, and the
        admin's own change log only knows console saves (which rows never get: writes are services)."""
        events = audit_events_for_chunk(int(object_id)) if object_id.isdigit() else None
        context = {
            "audit_events": list(events[:HISTORY_EVENTS]) if events is not None else [],
            "audit_total": events.count() if events is not None else 0,
            "audit_url": (
                reverse("admin:audit_auditevent_changelist") + "?" + urlencode({"chunk_id": object_id})
                if request.user.has_perm("audit.view_auditevent")
                else ""
            ),
        }
        return super().history_view(request, object_id, {**context, **(extra_context or {})})

    # -- permissions: the proxies share Chunk's permissions (plus memory.review_chunk)

    def _chunk_perm(self, request: HttpRequest, action: str) -> bool:
        return request.user.has_perm(f"memory.{action}_chunk")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._chunk_perm(request, "view") or self._chunk_perm(request, "change")

    def has_add_permission(self, request: HttpRequest) -> bool:
        # An operator's row is stored confirmed: adding one is a verdict (as on the API).
        return self._chunk_perm(request, "add") and self.has_review_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if not self._chunk_perm(request, "change"):
            return False
        if obj is None:
            return True
        if obj.invalidated_at is not None:
            return False  # history: edit the newest revision instead
        # A revision is confirmed (a rejected row's stays rejected): revising is a verdict too.
        return obj.review_state == ReviewState.REJECTED or self.has_review_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # rows leave delivery by rejection or expiry; the history stays

    def has_review_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("memory.review_chunk")

    def has_remove_permission(self, request: HttpRequest) -> bool:
        """The restorable delete (memory.lifecycle.retention) needs Django's own delete permission."""
        return request.user.has_perm("memory.delete_chunk")

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    # -- list

    @admin.display(description="chunk", ordering="heading")
    def title(self, obj: Chunk) -> SafeString:
        return self._title(obj, with_preview=False)

    @admin.display(description="chunk", ordering="heading")
    def title_and_preview(self, obj: Chunk) -> SafeString:
        return self._title(obj, with_preview=True)

    def _title(self, obj: Chunk, *, with_preview: bool) -> SafeString:
        url = chunk_url(obj.pk, model=self.admin_model_name)
        text = obj.heading or preview(obj.content, 90)
        flags = []
        if (
            with_preview
            and obj.delivery_policy == DeliveryPolicy.ALWAYS
            and obj.review_state != ReviewState.REJECTED
            and obj.invalidated_at is None
            and self.admin_model_name != "hotchunk"
        ):
            flags.append(policy_badge(obj.delivery_policy))  # an always-on proposal is the risky kind
        if with_preview and obj.is_expired():
            flags.append(badge("expired", "pm-flag-expired", title=f"{obj.expires_at:%Y-%m-%d %H:%M}"))
        if obj.invalidated_at is not None:
            if obj.superseded_by_id:
                flags.append(badge(f"superseded by #{obj.superseded_by_id}", "pm-flag-superseded"))
            elif obj.invalidation_reason == BULK_DELETE_MARKER:
                flags.append(
                    badge("deleted", "pm-state-rejected", title=f"{obj.invalidated_at:%Y-%m-%d %H:%M}")
                )
            else:
                flags.append(badge("invalidated", "pm-flag-superseded", title=obj.invalidation_reason))
        return format_html(
            '<a href="{}">{}</a> {}{}',
            url,
            text,
            format_html_join(" ", "{}", ((f,) for f in flags)) if flags else "",
            format_html('<div class="pm-quiet pm-preview">{}</div>', preview(obj.content, 220))
            if with_preview and obj.heading
            else "",
        )

    @admin.display(description="kind", ordering="memory_kind")
    def kind(self, obj: Chunk) -> str:
        return obj.memory_kind or "—"

    @admin.display(description="trust", ordering="source_type")
    def trust(self, obj: Chunk) -> SafeString:
        return trust_badge(obj.source_type)

    @admin.display(description="review", ordering="review_state")
    def state(self, obj: Chunk) -> SafeString:
        return state_badge(obj.review_state)

    @admin.display(description="policy", ordering="delivery_policy")
    def policy(self, obj: Chunk) -> SafeString:
        return policy_badge(obj.delivery_policy)

    @admin.display(description="expires", ordering="expires_at")
    def expiry(self, obj: Chunk) -> SafeString | str:
        if obj.expires_at is None:
            return "—"
        if obj.is_expired():
            return format_html("{} {}", badge("expired", "pm-flag-expired"), f"{obj.expires_at:%Y-%m-%d}")
        return f"{obj.expires_at:%Y-%m-%d %H:%M}"

    @admin.display(description="created", ordering="created_at")
    def created(self, obj: Chunk) -> str:
        return f"{obj.created_at:%Y-%m-%d %H:%M}"

    @admin.display(description="namespace", ordering="namespace")
    def ns(self, obj: Chunk) -> str:
        return obj.namespace or "—"

    @admin.display(description="source session", ordering="source")
    def source_session(self, obj: Chunk) -> SafeString | str:
        if not obj.source:
            return "—"
        if source_is_session(obj.source):
            link = session_link(obj.source, obj.agent_id, Truncator(obj.source).chars(40))
        else:
            link = format_html(
                '<span class="pm-quiet" title="{}">{}</span>', obj.source, preview(obj.source, 32)
            )
        if obj.agent_id is None:
            return link
        return format_html('{}<div class="pm-quiet">{}</div>', link, obj.agent)

    @admin.display(description="content")
    def content_preview(self, obj: Chunk) -> SafeString:
        return format_html('<span class="pm-preview">{}</span>', preview(obj.content))

    @admin.display(description="chars")
    def chars(self, obj: Chunk) -> int:
        return len(obj.content)

    # -- search: the same ranked FTS5 search agents get

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Chunk], search_term: str
    ) -> tuple[QuerySet[Chunk], bool]:
        if not search_term.strip():
            return queryset, False
        # the text index's order over every row of the changelist (history and held rows too)
        ids = retrieve_ids(search_term, queryset, ADMIN_SEARCH_LIMIT, Options(mode="text", every_row=True))
        results = queryset.filter(pk__in=ids)
        if ids and ORDER_VAR not in request.GET:  # no column sort asked: keep the rank order
            rank = Case(
                *(When(pk=pk, then=Value(i)) for i, pk in enumerate(ids)), output_field=IntegerField()
            )
            results = results.order_by(rank)
        return results, False

    # -- review actions (memory.lifecycle.review.chunk_review per row, audited there)

    def verdict_ids(self, request: HttpRequest, ids: list[int]) -> list[int]:
        """The rows a verdict on `ids` applies to (the review queue widens it to duplicate groups)."""
        return ids

    def _review_rows(self, request: HttpRequest, queryset: QuerySet[Chunk], state: str) -> None:
        chosen = list(queryset.values_list("pk", flat=True))
        ids = self.verdict_ids(request, chosen)
        changed = already = failed = two_step = 0
        for chunk in Chunk.objects.filter(pk__in=ids).order_by("id"):
            if chunk.review_state == state:
                already += 1
                continue
            if state == ReviewState.CONFIRMED and needs_second_step(chunk):
                two_step += 1  # enters every turn once confirmed: only from its page, in two steps
                continue
            cause = None if chunk.pk in chosen else "same content as a row the verdict was given on"
            try:
                chunk_review(
                    chunk_id=chunk.pk, state=state, actor=actor_for(request), path=ADMIN_PATH, cause=cause
                )
            except (ApplicationError, Chunk.DoesNotExist) as exc:
                failed += 1
                logger.info("admin review of #%s to %s skipped: %s", chunk.pk, state, exc)
            else:
                changed += 1
        word = VERDICT_WORDS[ReviewState(state)]
        parts = [f"{changed} {word}"]
        if already or failed or two_step:
            reasons = []
            if already:
                reasons.append(f"{already} already {state}")
            if failed:
                reasons.append(f"{failed} changed concurrently")
            if two_step:
                reasons.append(
                    f"{two_step} always-on written by an agent or a document: confirm "
                    f"{'it' if two_step == 1 else 'them'} on the row's page, which shows the effect first"
                )
            parts.append(f"{already + failed + two_step} skipped ({', '.join(reasons)})")
        self.message_user(request, ", ".join(parts) + ".", messages.SUCCESS if changed else messages.WARNING)

    @admin.action(description="Confirm selected chunks", permissions=["review"])
    def confirm_selected(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> None:
        self._review_rows(request, queryset, ReviewState.CONFIRMED)

    @admin.action(description="Reject selected chunks (they stop delivering)", permissions=["review"])
    def reject_selected(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> None:
        self._review_rows(request, queryset, ReviewState.REJECTED)

    @admin.action(description="Reopen selected chunks (back to pending)", permissions=["review"])
    def reopen_selected(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> None:
        self._review_rows(request, queryset, ReviewState.PENDING)

    # -- the lifecycle's restorable delete (audited per row there; reaped after the grace)

    @admin.action(description="Delete selected chunks (restorable until the reap)", permissions=["remove"])
    def delete_restorably(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> None:
        ids = list(queryset.values_list("pk", flat=True))
        result = chunks_bulk_delete(ids=ids, actor=actor_for(request), path=ADMIN_PATH)
        skipped = len(ids) - result.marked
        message = f"{result.marked} deleted (restorable until {result.reap_after:%Y-%m-%d %H:%M} UTC)"
        if skipped:
            message += f", {skipped} skipped (superseded or already deleted)"
        self.message_user(request, message + ".", messages.SUCCESS if result.marked else messages.WARNING)

    @admin.action(description="Restore selected deleted chunks", permissions=["remove"])
    def restore_deleted(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> None:
        ids = list(queryset.values_list("pk", flat=True))
        restored = chunks_bulk_restore(ids=ids, actor=actor_for(request), path=ADMIN_PATH)
        skipped = len(ids) - len(restored)
        message = f"{len(restored)} restored"
        if skipped:
            message += f", {skipped} skipped (not deleted)"
        self.message_user(request, message + ".", messages.SUCCESS if restored else messages.WARNING)

    # -- promotion to the commons (memory.lifecycle.review.chunk_promote per row, audited there)

    @admin.action(description="Promote to commons", permissions=["review"])
    def promote_to_commons(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> None:
        promoted = already = failed = 0
        for chunk_id in queryset.values_list("pk", flat=True):
            if Chunk.objects.filter(promoted_from=chunk_id).exists():
                already += 1
                continue
            try:
                chunk_promote(chunk_id=chunk_id, actor=actor_for(request), path=ADMIN_PATH)
            except (ApplicationError, Chunk.DoesNotExist) as exc:
                failed += 1
                logger.info("admin promotion of #%s skipped: %s", chunk_id, exc)
            else:
                promoted += 1
        message = f"{promoted} promoted to the commons"
        if already or failed:
            message += f", {already} already promoted, {failed} not promotable (commons or superseded)"
        self.message_user(request, message + ".", messages.SUCCESS if promoted else messages.WARNING)

    # -- change page: readonly panels

    add_fieldsets = (
        (None, {"fields": ("heading", "content")}),
        (
            "Classification",
            {
                "fields": (
                    "domain",
                    "memory_kind",
                    "subject",
                    "namespace",
                    "delivery_policy",
                    "expires_at",
                    "agent",
                ),
                "description": "Stored as an operator write: trust “operator”, confirmed on arrival.",
            },
        ),
    )
    change_fieldsets = (
        (None, {"fields": ("status_summary", "heading", "content")}),
        (
            "Classification",
            {"fields": ("domain", "memory_kind", "subject", "namespace", "delivery_policy", "expires_at")},
        ),
        ("Provenance", {"fields": ("trust_display", "source_display", "agent", "created_at", "audit_trail")}),
        ("Revision history", {"fields": ("supersession_chain",)}),
        ("Blast radius: where this row went", {"fields": ("influence_summary", "injection_history")}),
    )
    always_readonly = (
        "audit_trail",
        "status_summary",
        "trust_display",
        "source_display",
        "supersession_chain",
        "injection_history",
        "influence_summary",
    )
