"""List filters of the memory console (store, review queue, hot memory)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.db.models.functions import Lower, Trim
from django.http import HttpRequest
from django.utils import timezone

from memory.admin.html import REASON_WORDS
from memory.lifecycle.confirm_effect import agent_names
from memory.lifecycle.queue_view import held_for, queue_agents, queue_sessions
from memory.lifecycle.retention import (
    BULK_DELETE_MARKER,
)
from memory.lifecycle.writes import SUPERSEDED_PREFIX
from memory.store.deliverable import deliverable
from memory.store.models import Chunk, ReviewState
from memory.store.trust import AGENT_SOURCE_TYPES, OPERATOR_SOURCE_TYPES

# ----------------------------------------------------------------------------------------------
# Filters


class TrustTierFilter(admin.SimpleListFilter):
    """Tiers map to source_type sets exactly as memory.store.trust ranks them (blank/unknown = external)."""

    title = "trust tier"
    parameter_name = "trust"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("3", "operator (tier 3)"), ("2", "agent (tier 2)"), ("1", "external (tier 1)")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        value = self.value()
        if value not in {"1", "2", "3"}:
            return queryset
        qs = queryset.annotate(norm_source_type=Lower(Trim("source_type")))
        if value == "3":
            return qs.filter(norm_source_type__in=sorted(OPERATOR_SOURCE_TYPES))
        if value == "2":
            return qs.filter(norm_source_type__in=sorted(AGENT_SOURCE_TYPES))
        return qs.exclude(norm_source_type__in=sorted(OPERATOR_SOURCE_TYPES | AGENT_SOURCE_TYPES))


class NamespaceFilter(admin.SimpleListFilter):
    title = "namespace"
    parameter_name = "ns"
    BLANK = "__none__"
    MAX_CHOICES = 50

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        names = (Chunk.objects.order_by("namespace").values_list("namespace", flat=True).distinct())[
            : self.MAX_CHOICES
        ]
        return [(name or self.BLANK, name or "(no namespace)") for name in names]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        value = self.value()
        if value is None:
            return queryset
        return queryset.filter(namespace="" if value == self.BLANK else value)


class DomainFilter(admin.SimpleListFilter):
    """Domains across the whole store (an index-only DISTINCT), whatever else is filtered."""

    title = "domain"
    parameter_name = "domain"
    MAX_CHOICES = 50

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        names = (
            Chunk.objects.order_by("domain").values_list("domain", flat=True).distinct()[: self.MAX_CHOICES]
        )
        return [(name, name) for name in names]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        value = self.value()
        return queryset if value is None else queryset.filter(domain=value)


class ExpiredFilter(admin.SimpleListFilter):
    title = "expiry"
    parameter_name = "expired"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "expired"), ("no", "not expired"), ("soon", "expiring within 24 h")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        now = timezone.now()
        value = self.value()
        if value == "yes":
            return queryset.filter(expires_at__lte=now)
        if value == "no":
            return queryset.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        if value == "soon":
            return queryset.filter(expires_at__gt=now, expires_at__lte=now + timezone.timedelta(days=1))
        return queryset


class SupersededFilter(admin.SimpleListFilter):
    title = "revision"
    parameter_name = "superseded"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("no", "current (not invalidated)"),
            ("yes", "superseded by a revision"),
            ("deleted", "deleted (restorable until the reap)"),
            ("invalidated", "invalidated (any reason)"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        value = self.value()
        if value == "no":
            return queryset.filter(invalidated_at__isnull=True)
        if value == "yes":
            return queryset.filter(
                invalidated_at__isnull=False, invalidation_reason__startswith=SUPERSEDED_PREFIX
            )
        if value == "deleted":
            return queryset.filter(invalidated_at__isnull=False, invalidation_reason=BULK_DELETE_MARKER)
        if value == "invalidated":
            return queryset.filter(invalidated_at__isnull=False)
        return queryset


class DefaultedFilter(admin.SimpleListFilter):
    """A list filter that applies DEFAULT when none is chosen (and shows it selected), instead of "All"."""

    DEFAULT = ""

    def current(self) -> str:
        return self.value() or self.DEFAULT

    def choices(self, changelist: Any) -> Any:
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.current() == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }


class QueueStateFilter(DefaultedFilter):
    """The review queue opens on pending rows; the other verdicts are one click away."""

    title = "review state"
    parameter_name = "state"
    DEFAULT = ReviewState.PENDING.value

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("pending", "pending (waiting for you)"),
            ("confirmed", "confirmed"),
            ("rejected", "rejected"),
            ("all", "all, pending first"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        value = self.current()
        if value == "all":
            return queryset
        return queryset.filter(review_state=value)


class QueueExpiryFilter(DefaultedFilter):
    """Expired rows never deliver: the queue hides them unless asked."""

    title = "expiry"
    parameter_name = "expired"
    DEFAULT = "hide"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("hide", "not expired"), ("yes", "expired only"), ("all", "expired or not")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        now = timezone.now()
        value = self.current()
        if value == "yes":
            return queryset.filter(expires_at__lte=now)
        if value == "all":
            return queryset
        return queryset.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))


# ----------------------------------------------------------------------------------------------
# The review queue's view: by agent, by session, by reason, live or held


class QueueAgentFilter(admin.SimpleListFilter):
    """The agents with the most rows waiting (and the chosen one)."""

    title = "agent"
    parameter_name = "agent"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        choices = [(str(pk), f"{name} ({n} waiting)") for pk, name, n in queue_agents()]
        chosen = self.value()
        if chosen and chosen.isdigit() and chosen not in {c for c, _ in choices}:
            choices.append((chosen, agent_names([int(chosen)]).get(int(chosen), f"#{chosen}")))
        return choices

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        value = self.value()
        return queryset.filter(agent_id=int(value)) if value and value.isdigit() else queryset


class QueueSessionFilter(admin.SimpleListFilter):
    """The sessions that wrote the most rows waiting (and the chosen one, e.g. from its page)."""

    title = "session"
    parameter_name = "session"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        choices = [(source, f"{source} ({n} waiting)") for source, n in queue_sessions()]
        chosen = self.value()
        if chosen and chosen not in {c for c, _ in choices}:
            choices.append((chosen, chosen))
        return choices

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        value = self.value()
        return queryset.filter(source=value) if value else queryset


class QueueReasonFilter(admin.SimpleListFilter):
    """Rows the write inspection held for one reason."""

    title = "held for"
    parameter_name = "reason"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return list(REASON_WORDS.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        value = self.value()
        return queryset.filter(held_for(value)) if value else queryset


class QueueLiveFilter(admin.SimpleListFilter):
    """Live: agents are given the row now (deliverable, e.g. pending and not held); held: not."""

    title = "delivery"
    parameter_name = "live"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "live (delivered now)"), ("no", "not delivered")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        value = self.value()
        if value == "yes":
            return deliverable(queryset)
        if value == "no":
            return queryset.exclude(pk__in=deliverable().values("pk"))
        return queryset
