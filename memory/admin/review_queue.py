"""The review queue: what waits for an operator's verdict, riskiest first, duplicates grouped."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.safestring import SafeString

from memory.admin.base import ChunkAdminBase
from memory.admin.filters import (
    DomainFilter,
    NamespaceFilter,
    QueueExpiryFilter,
    QueueStateFilter,
    TrustTierFilter,
)
from memory.admin.html import chunk_url, risk_badge
from memory.lifecycle.triage import group_members, grouped_queue, pending_by_risk, risk_order
from memory.store.models import Chunk, PendingChunk, ReviewState

GROUP_VAR = "group"  # ?group=off lists identical rows one by one


class GroupedChangeList(ChangeList):
    """The queue's changelist: after the filters, one row per group of identical content."""

    def get_queryset(self, request: HttpRequest, exclude_parameters: Any = None) -> QuerySet[Chunk]:
        qs = super().get_queryset(request, exclude_parameters)
        if request.GET.get(GROUP_VAR) == "off" or self.query:
            return qs
        qs, sizes = grouped_queue(qs)
        if sizes:
            qs = qs.annotate(
                group_size=Case(
                    *(When(pk=pk, then=Value(n)) for pk, n in sizes.items()),
                    default=Value(1),
                    output_field=IntegerField(),
                )
            )
        return qs

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
        return risk_badge(obj)

    @admin.display(description="copies")
    def copies(self, obj: Chunk) -> SafeString | str:
        size = getattr(obj, "group_size", 1) or 1
        if size <= 1:
            return ""
        return format_html(
            '<span class="pm-badge pm-flag-superseded pm-group" title="{}">{} copies</span>',
            "identical rows (case and whitespace aside): a verdict applies to all of them",
            size,
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

    # -- a verdict on a group's row is a verdict on the group

    def verdict_ids(self, request: HttpRequest, ids: list[int]) -> list[int]:
        if request.GET.get(GROUP_VAR) == "off":
            return ids
        return group_members(ids, within=self.get_queryset(request))

    def after_review_url(self, request: HttpRequest, obj: Chunk, state: str) -> str:
        """Reopen: back where the operator came from. Confirm / reject: the next pending row by
        risk, keeping the filters; none left: back to the filtered queue."""
        back = self.changelist_url(request)
        if state == ReviewState.PENDING:
            return back
        nxt = (
            Chunk.objects.filter(invalidated_at__isnull=True, review_state=ReviewState.PENDING)
            .exclude(pk=obj.pk)
            .order_by(*risk_order())
            .values_list("pk", flat=True)
            .first()
        )
        if nxt is None:
            return back
        filters = request.GET.get("_changelist_filters")
        url = chunk_url(nxt, model=self.admin_model_name)
        return f"{url}?{urlencode({'_changelist_filters': filters})}" if filters else url

    def changelist_url(self, request: HttpRequest) -> str:
        base = reverse("admin:memory_pendingchunk_changelist")
        filters = request.GET.get("_changelist_filters")
        return f"{base}?{filters}" if filters else base
