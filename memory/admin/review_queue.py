"""The review queue: what waits for an operator's verdict, riskiest first, duplicates grouped."""

from __future__ import annotations

from copy import copy
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ChangeList
from django.db.models import Case, CharField, IntegerField, QuerySet, Value, When
from django.http import HttpRequest, HttpResponse, QueryDict
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString

from memory.admin import why
from memory.admin.base import ChunkAdminBase
from memory.admin.filters import (
    DomainFilter,
    NamespaceFilter,
    QueueAgentFilter,
    QueueExpiryFilter,
    QueueLiveFilter,
    QueueReasonFilter,
    QueueSessionFilter,
    QueueStateFilter,
    TrustTierFilter,
)
from memory.admin.html import chunk_url, risk_badge
from memory.lifecycle.queue_view import group_spread, queue_groups
from memory.lifecycle.triage import group_members, pending_by_risk, risk_order
from memory.store.models import Chunk, PendingChunk, ReviewState

GROUP_VAR = "group"  # ?group=off lists identical rows one by one
FILTERS_VAR = "_changelist_filters"  # the view a row was opened from (Django's own parameter)
DONE_VAR = "_view_done"  # verdicts given in this view since it was opened: "3 of 12 left"


class GroupedChangeList(ChangeList):
    """The queue's changelist: after the filters, one row per group of identical content.

    `view_rows` counts the rows behind the listed groups, for the page's one count.
    """

    extra_rows = 0  # rows hidden behind the shown groups (a group of 9 hides 8)

    def get_queryset(self, request: HttpRequest, exclude_parameters: Any = None) -> QuerySet[Chunk]:
        qs = super().get_queryset(request, exclude_parameters)
        if request.GET.get(GROUP_VAR) == "off" or self.query:
            return qs
        qs, members = queue_groups(qs)
        if members:
            qs = qs.annotate(
                group_size=Case(
                    *(When(pk=pk, then=Value(len(ids))) for pk, ids in members.items()),
                    default=Value(1),
                    output_field=IntegerField(),
                ),
                group_ids=Case(
                    *(When(pk=pk, then=Value(",".join(map(str, ids)))) for pk, ids in members.items()),
                    default=Value(""),
                    output_field=CharField(),
                ),
            )
        if exclude_parameters is None:  # the listed view (not a facet count)
            self.extra_rows = sum(len(ids) - 1 for ids in members.values())
        return qs

    @property
    def view_rows(self) -> int:
        return int(self.result_count) + self.extra_rows

    def get_filters_params(self, params: Any = None) -> Any:
        lookup_params = super().get_filters_params(params)
        lookup_params.pop(GROUP_VAR, None)  # not a field lookup
        return lookup_params


@admin.register(PendingChunk)
class PendingChunkAdmin(ChunkAdminBase):
    """The review queue: current rows, riskiest first, newest first within a level."""

    change_list_template = "admin/memory/pendingchunk/change_list.html"
    admin_model_name = "pendingchunk"
    result_noun, result_noun_plural = "row", "rows"
    list_display = (
        "id",
        "risk_display",
        "title_and_preview",
        "copies",
        "trust",
        "kind",
        "ns",
        "source_session",
        "created",
        "state",
    )
    list_display_links = ("id",)
    list_filter = (
        QueueStateFilter,
        QueueExpiryFilter,
        QueueAgentFilter,
        QueueSessionFilter,
        QueueReasonFilter,
        QueueLiveFilter,
        TrustTierFilter,
        "memory_kind",
        DomainFilter,
        NamespaceFilter,
    )

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return GroupedChangeList

    def get_queryset(self, request: HttpRequest) -> QuerySet[Chunk]:
        return super().get_queryset(request).filter(invalidated_at__isnull=True)

    def get_ordering(self, request: HttpRequest) -> Any:
        if request.GET.get(QueueStateFilter.parameter_name, QueueStateFilter.DEFAULT) != "all":
            return risk_order()  # one state shown: riskiest first, then newest (chunk_review_risk)
        pending_first = Case(
            When(review_state=ReviewState.PENDING, then=Value(0)),
            default=Value(1),
            output_field=IntegerField(),
        )
        return (pending_first.asc(), *risk_order())

    @admin.display(description="risk", ordering="risk")
    def risk_display(self, obj: Chunk) -> SafeString:
        return format_html("{} {}", risk_badge(obj), why.replaces_mark(obj))

    @admin.display(description="copies")
    def copies(self, obj: Chunk) -> SafeString | str:
        ids = [int(i) for i in (getattr(obj, "group_ids", "") or "").split(",") if i]
        if len(ids) <= 1:
            return ""
        spread = group_spread(ids)
        items = format_html_join(
            "",
            '<li><a href="{}">#{}</a> <span class="pm-quiet">{} · {}</span></li>',
            (
                (
                    chunk_url(row.pk, model=self.admin_model_name),
                    row.pk,
                    row.agent.name if row.agent_id else "(no agent)",
                    row.source or "(no source)",
                )
                for row in spread.rows
            ),
        )
        return format_html(
            '<details class="pm-copies"><summary><span class="pm-badge pm-flag-superseded pm-group" '
            'title="{}">{} copies</span></summary><p class="pm-spread">{}</p><ul class="pm-list">{}</ul>'
            "</details>",
            "identical rows (case and whitespace aside): a verdict applies to all of them",
            len(ids),
            spread.text,
            items,
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the queue holds what others wrote; operators add in Store or Hot memory

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        by_risk = pending_by_risk()
        context = {
            "title": "Review queue",
            **(extra_context or {}),
            "pending_total": sum(by_risk.values()),
            "pending_by_risk": by_risk,
            "can_review": self.has_review_permission(request),
        }
        return super().changelist_view(request, context)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: Any = None,
    ) -> HttpResponse:
        # The page's form posts its verdict with the view's count so far (Django keeps only
        # _changelist_filters in the form's action).
        done = request.GET.get(DONE_VAR, "")
        if done.isdigit() and not form_url:
            form_url = "?" + urlencode({DONE_VAR: done})
        return super().changeform_view(request, object_id, form_url, extra_context)

    # -- a verdict on a group's row is a verdict on the group

    def verdict_ids(self, request: HttpRequest, ids: list[int]) -> list[int]:
        if request.GET.get(GROUP_VAR) == "off":
            return ids
        return group_members(ids, within=self.get_queryset(request))

    def after_review_url(self, request: HttpRequest, obj: Chunk, state: str) -> str:
        """Reopen: back where the operator came from. Confirm / reject: the next row waiting in
        the same view (the changelist's filters and search, its order), saying how many are left;
        none left: back to the view, saying it is done."""
        back = self.changelist_url(request)
        if state == ReviewState.PENDING:
            return back
        filters = request.GET.get(FILTERS_VAR, "")
        left = self.view_waiting(request, filters).exclude(pk=obj.pk)
        given = request.GET.get(DONE_VAR, "")
        done = (int(given) if given.isdigit() else 0) + 1
        nxt = left.values_list("pk", flat=True).first()
        if nxt is None:
            self.message_user(request, "View done: nothing left waiting in this view.", messages.INFO)
            return back
        count = left.count()
        self.message_user(request, f"{count} of {count + done} left in this view.", messages.INFO)
        url = chunk_url(nxt, model=self.admin_model_name)
        params = {FILTERS_VAR: filters, DONE_VAR: done} if filters else {DONE_VAR: done}
        return f"{url}?{urlencode(params)}"

    def view_waiting(self, request: HttpRequest, filters: str) -> QuerySet[Chunk]:
        """The rows still waiting (pending) in the queue view `filters` describes, in its order:
        the changelist's own queryset (filters, search, grouping), as the operator saw it."""
        view_request = copy(request)
        view_request.method = "GET"
        view_request.GET = QueryDict(filters)
        try:
            rows = self.get_changelist_instance(view_request).queryset
        except IncorrectLookupParameters:  # a stale or hand-made query string: the default view
            view_request.GET = QueryDict("")
            rows = self.get_changelist_instance(view_request).queryset
        return rows.filter(review_state=ReviewState.PENDING)

    def changelist_url(self, request: HttpRequest) -> str:
        base = reverse("admin:memory_pendingchunk_changelist")
        filters = request.GET.get(FILTERS_VAR)
        return f"{base}?{filters}" if filters else base
