"""The review queue: what waits for an operator's verdict."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from memory.admin.base import ChunkAdminBase
from memory.admin.filters import (
    DomainFilter,
    NamespaceFilter,
    QueueStateFilter,
    TrustTierFilter,
)
from memory.admin.html import (
    chunk_url,
)
from memory.store.models import Chunk, PendingChunk, ReviewState


@admin.register(PendingChunk)
class PendingChunkAdmin(ChunkAdminBase):
    """The review queue: current rows, pending first, newest first, provenance up front."""

    change_list_template = "admin/memory/pendingchunk/change_list.html"
    admin_model_name = "pendingchunk"
    result_noun, result_noun_plural = "row", "rows"
    list_display = ("id", "title_and_preview", "trust", "kind", "ns", "source_session", "created", "state")
    list_display_links = ("id",)
    list_filter = (QueueStateFilter, TrustTierFilter, "memory_kind", DomainFilter, NamespaceFilter)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Chunk]:
        return super().get_queryset(request).filter(invalidated_at__isnull=True)

    def get_ordering(self, request: HttpRequest) -> Any:
        if request.GET.get(QueueStateFilter.parameter_name, QueueStateFilter.DEFAULT) != "all":
            return ("-created_at", "-id")  # one state shown: newest first, straight off the index
        pending_first = Case(
            When(review_state=ReviewState.PENDING, then=Value(0)),
            default=Value(1),
            output_field=IntegerField(),
        )
        return (pending_first.asc(), "-created_at", "-id")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the queue holds what others wrote; operators add in Store or Hot memory

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        waiting = Chunk.objects.filter(invalidated_at__isnull=True, review_state=ReviewState.PENDING).count()
        context = {
            "title": "Review queue",
            **(extra_context or {}),
            "pending_total": waiting,
            "can_review": self.has_review_permission(request),
        }
        return super().changelist_view(request, context)

    def after_review_url(self, request: HttpRequest, obj: Chunk) -> str:
        """After a verdict, the next pending row (newest first), else back to the queue."""
        nxt = (
            Chunk.objects.filter(invalidated_at__isnull=True, review_state=ReviewState.PENDING)
            .exclude(pk=obj.pk)
            .order_by("-created_at", "-id")
            .values_list("pk", flat=True)
            .first()
        )
        if nxt is not None:
            return chunk_url(nxt, model=self.admin_model_name)
        return reverse("admin:memory_pendingchunk_changelist")
