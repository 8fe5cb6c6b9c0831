"""The operator console for memory: Knowledge → Store, the review queue, hot memory and skills.

Thin callers only. Writes go through memory.services (add_chunk, chunk_review, chunk_revise),
memory.lifecycle (the restorable bulk delete) and memory.skills; the hot-memory list is the
projection's own reader (memory.projection.hot_rows, i.e. selectors.hot_set); the search box is
the agents' ranked FTS5 search. Nothing here saves or hard-deletes a Chunk row: "delete" marks
rows for the grace reap (restorable until then, audited), and superseded rows are never reaped.
"""

from __future__ import annotations

import logging
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ORDER_VAR
from django.core.exceptions import PermissionDenied
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.db.models.functions import Lower, Trim
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.text import Truncator

from audit.selectors import injection_chunk_sections, injections_for_chunk
from memory.guardrail import is_only_reasoning, strip_reasoning
from memory.lifecycle import BULK_DELETE_MARKER, bulk_delete_grace, chunks_bulk_delete, chunks_bulk_restore
from memory.models import Chunk, DeliveryPolicy, HotChunk, PendingChunk, ReviewState, Skill
from memory.projection import hot_rows, resolve_namespaces
from memory.search import search_chunk_ids
from memory.selectors import HOT_MAX_CHARS, HOT_MAX_ROWS, deliverable
from memory.services import (
    SUPERSEDED_PREFIX,
    ChunkDraft,
    add_chunk,
    chunk_promote,
    chunk_review,
    chunk_revise,
)
from memory.skills import skill_create, skill_search_ids, skill_update
from memory.trust import AGENT_SOURCE_TYPES, OPERATOR_SOURCE_TYPES, trust_label
from protomem.config import get_config
from protomem.errors import ApplicationError

logger = logging.getLogger(__name__)

admin.site.site_header = "protomem console"
admin.site.site_title = "protomem console"
admin.site.index_title = "Operator console"
admin.site.enable_nav_sidebar = False  # the review tables need the width

ADMIN_PATH = "admin"
ADMIN_SEARCH_LIMIT = 200  # ranked hits the search box shows (best first)
CHAIN_MAX_STEPS = 50  # revision history shown each way on the change page
INJECTION_HISTORY_ROWS = 50
REVIEW_BUTTONS = {
    "_review_confirmed": ReviewState.CONFIRMED,
    "_review_rejected": ReviewState.REJECTED,
    "_review_pending": ReviewState.PENDING,
}
LIFECYCLE_BUTTONS = ("_remove", "_restore")
VERDICT_WORDS = {
    ReviewState.CONFIRMED: "confirmed",
    ReviewState.REJECTED: "rejected",
    ReviewState.PENDING: "reopened",
}


def actor_for(request: HttpRequest) -> str:
    """The audit actor string for the signed-in operator."""
    return f"user:{request.user.pk}"


# ----------------------------------------------------------------------------------------------
# Small HTML pieces (always format_html: chunk text is untrusted, it is escaped everywhere)


def badge(text: str, css: str, title: str = "") -> SafeString:
    return format_html('<span class="pm-badge {}" title="{}">{}</span>', css, title, text)


def state_badge(state: str | None) -> SafeString:
    return badge(state or "unstamped", f"pm-state-{state or 'none'}")


def trust_badge(source_type: str | None) -> SafeString:
    label = trust_label(source_type)
    return badge(label, f"pm-trust-{label}", title=f"source_type: {source_type or '(none)'}")


def policy_badge(policy: str | None) -> SafeString:
    text = "always-on" if policy == DeliveryPolicy.ALWAYS else (policy or "unstamped").replace("_", "-")
    return badge(text, f"pm-policy-{policy or 'none'}")


def chunk_url(chunk_id: int, *, model: str = "chunk") -> str:
    return reverse(f"admin:memory_{model}_change", args=[chunk_id])


def chunk_link(chunk: Chunk) -> SafeString:
    title = Truncator(chunk.heading or " ".join(chunk.content.split())).chars(70)
    return format_html('<a href="{}">#{}</a> {}', chunk_url(chunk.pk), chunk.pk, title)


def session_link(session_id: str, agent_id: int | None, text: str | None = None) -> SafeString:
    """Link to the session in the Sessions admin (found by the runtime's id and agent)."""
    params = {"session_id": session_id}
    if agent_id is not None:
        params["agent"] = str(agent_id)
    url = reverse("admin:sessions_app_session_lookup") + "?" + urlencode(params)
    return format_html('<a href="{}">{}</a>', url, text or session_id)


def preview(text: str, length: int = 160) -> str:
    return Truncator(" ".join((text or "").split())).chars(length)


def source_is_session(source: str) -> bool:
    """Agent-side writes (and their operator revisions) name their session in `source`.

    Third-party content carries its origin (a URL or path) and operator writes "user:<id>".
    """
    return bool(source) and "://" not in source and not source.startswith(("/", "user:"))


# ----------------------------------------------------------------------------------------------
# Filters


class TrustTierFilter(admin.SimpleListFilter):
    """Tiers map to source_type sets exactly as memory.trust ranks them (blank/unknown = external)."""

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


class QueueStateFilter(admin.SimpleListFilter):
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

    def current(self) -> str:
        return self.value() or self.DEFAULT

    def choices(self, changelist: Any) -> Any:
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.current() == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        value = self.current()
        if value == "all":
            return queryset
        return queryset.filter(review_state=value)


class HotReaderFilter(admin.SimpleListFilter):
    """Whose always-on set to show: the projection narrows it to an agent's pinned namespace."""

    title = "reader"
    parameter_name = "reader"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        names = (
            Chunk.objects.filter(delivery_policy=DeliveryPolicy.ALWAYS)
            .exclude(namespace="")
            .order_by("namespace")
            .values_list("namespace", flat=True)
            .distinct()
        )[:50]
        return [(name, f"agents pinned to “{name}”") for name in names]

    def choices(self, changelist: Any) -> Any:
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.parameter_name]),
            "display": "agents without a pinned namespace",
        }
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.value() == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        return queryset  # HotChunkAdmin.get_queryset already is the chosen reader's hot set


def hot_set_for(request: HttpRequest, pinned: str) -> list[Chunk]:
    """The always-on rows the projection delivers to an agent pinned to `pinned` ("" = unpinned).

    Cached on the request: the changelist, its budget panel and its actions read it once.
    """
    cache: dict[str, list[Chunk]] = request.__dict__.setdefault("_protomem_hot", {})
    if pinned not in cache:
        namespaces = resolve_namespaces(get_config().knowledge.inject_namespaces, pinned)
        cache[pinned] = hot_rows(namespaces=namespaces, now=None)
    return cache[pinned]


# ----------------------------------------------------------------------------------------------
# The form


class ChunkAdminForm(forms.ModelForm):
    class Meta:
        model = Chunk
        fields = [
            "heading",
            "content",
            "domain",
            "memory_kind",
            "subject",
            "namespace",
            "delivery_policy",
            "expires_at",
            "agent",
        ]
        widgets = {
            "heading": forms.TextInput(attrs={"size": 90}),
            "content": forms.Textarea(attrs={"rows": 10, "cols": 100}),
        }

    def clean_content(self) -> str:
        raw = self.cleaned_data.get("content") or ""
        if is_only_reasoning(raw, strip_reasoning(raw)) or not strip_reasoning(raw).strip():
            raise forms.ValidationError(
                "Nothing would be stored: the text is empty once reasoning blocks "
                "(<think>, <scratch_pad>) are removed."
            )
        return raw


# ----------------------------------------------------------------------------------------------
# The shared chunk admin


ADD_HELP = {
    "delivery_policy": "Blank: always-on for domain “hot”, retrieved otherwise.",
    "memory_kind": "Blank: derived from the domain.",
    "expires_at": "Optional: the row stays in the store but stops delivering once this passes.",
}
REVISE_HELP = {
    "content": "Saving stores a new, confirmed revision (trust: operator). This row is kept as history "
    "and marked superseded by the new one; nothing is overwritten.",
}


class ChunkAdminBase(admin.ModelAdmin):
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
    ]
    list_select_related = ("agent",)
    raw_id_fields = ("agent",)
    admin_model_name = "chunk"  # which changelist/change URLs this admin's links use

    # -- permissions: the proxies share Chunk's permissions (plus memory.review_chunk)

    def _chunk_perm(self, request: HttpRequest, action: str) -> bool:
        return request.user.has_perm(f"memory.{action}_chunk")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._chunk_perm(request, "view") or self._chunk_perm(request, "change")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._chunk_perm(request, "add")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if not self._chunk_perm(request, "change"):
            return False
        if obj is None:
            return True
        if obj.invalidated_at is not None:
            return False  # history: edit the newest revision instead
        # A revision is confirmed, so revising a pending row is a verdict too.
        return obj.review_state != ReviewState.PENDING or self.has_review_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # rows leave delivery by rejection or expiry; the history stays

    def has_review_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("memory.review_chunk")

    def has_remove_permission(self, request: HttpRequest) -> bool:
        """The restorable delete (memory.lifecycle) needs Django's own delete permission."""
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
        ids = search_chunk_ids(search_term, k=ADMIN_SEARCH_LIMIT, queryset=queryset)
        results = queryset.filter(pk__in=ids)
        if ids and ORDER_VAR not in request.GET:  # no column sort asked: keep the rank order
            rank = Case(
                *(When(pk=pk, then=Value(i)) for i, pk in enumerate(ids)), output_field=IntegerField()
            )
            results = results.order_by(rank)
        return results, False

    # -- review actions (memory.services.chunk_review per row, audited there)

    def _review_rows(self, request: HttpRequest, queryset: QuerySet[Chunk], state: str) -> None:
        changed = already = failed = 0
        for chunk_id, current in queryset.values_list("pk", "review_state"):
            if current == state:
                already += 1
                continue
            try:
                chunk_review(chunk_id=chunk_id, state=state, actor=actor_for(request), path=ADMIN_PATH)
            except (ApplicationError, Chunk.DoesNotExist) as exc:
                failed += 1
                logger.info("admin review of #%s to %s skipped: %s", chunk_id, state, exc)
            else:
                changed += 1
        word = VERDICT_WORDS[ReviewState(state)]
        parts = [f"{changed} {word}"]
        if already or failed:
            reasons = []
            if already:
                reasons.append(f"{already} already {state}")
            if failed:
                reasons.append(f"{failed} changed concurrently")
            parts.append(f"{already + failed} skipped ({', '.join(reasons)})")
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

    # -- promotion to the commons (memory.services.chunk_promote per row, audited there)

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
        ("Injection history", {"fields": ("injection_history",)}),
    )
    always_readonly = (
        "audit_trail",
        "status_summary",
        "trust_display",
        "source_display",
        "supersession_chain",
        "injection_history",
    )

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.change_fieldsets if obj is not None else self.add_fieldsets

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is None:
            kwargs["help_texts"] = ADD_HELP
        else:
            kwargs["help_texts"] = REVISE_HELP if self.has_change_permission(request, obj) else {}
        return super().get_form(request, obj, change, **kwargs)

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Any = None,
    ) -> HttpResponse:
        if obj is not None:  # one way to save an edit: as a new revision (then you land on it)
            context.update(show_save_and_add_another=False, show_save_and_continue=False)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ()
        return (
            *self.always_readonly,
            "domain",
            "memory_kind",
            "subject",
            "namespace",
            "delivery_policy",
            "expires_at",
            "agent",
            "created_at",
        )

    @admin.display(description="status")
    def status_summary(self, obj: Chunk) -> SafeString:
        pieces = [
            state_badge(obj.review_state),
            trust_badge(obj.source_type),
            policy_badge(obj.delivery_policy),
        ]
        if obj.is_expired():
            pieces.append(badge("expired", "pm-flag-expired"))
        deleted = obj.invalidation_reason == BULK_DELETE_MARKER
        if deleted:
            pieces.append(badge("deleted", "pm-state-rejected"))
        elif obj.invalidated_at is not None:
            pieces.append(badge("superseded", "pm-flag-superseded"))
        note = ""
        if deleted:
            note = format_html(
                ' <strong class="pm-warn">Deleted on {}: no longer delivered; reaped after {} unless '
                "restored.</strong>",
                f"{obj.invalidated_at:%Y-%m-%d %H:%M}",
                f"{obj.invalidated_at + bulk_delete_grace():%Y-%m-%d %H:%M}",
            )
        elif obj.superseded_by_id:
            note = format_html(
                ' <span class="pm-quiet">History: superseded by <a href="{}">#{}</a> on {}. '
                "Edit the newest revision instead.</span>",
                chunk_url(obj.superseded_by_id),
                obj.superseded_by_id,
                f"{obj.invalidated_at:%Y-%m-%d %H:%M}",
            )
        elif deliverable(Chunk.objects.filter(pk=obj.pk)).exists():
            if obj.review_state == ReviewState.PENDING and obj.delivery_policy == DeliveryPolicy.ALWAYS:
                note = format_html(
                    ' <strong class="pm-warn">{}</strong>',
                    "Pending but always-on: this row enters every turn until it is reviewed.",
                )
            else:
                note = format_html(
                    ' <span class="pm-quiet">{}</span>', "Deliverable: agents can be given this row."
                )
        else:
            note = format_html(' <span class="pm-quiet">{}</span>', "Not deliverable.")
        return format_html("{}{}", format_html_join(" ", "{}", ((p,) for p in pieces)), note)

    @admin.display(description="trust")
    def trust_display(self, obj: Chunk) -> SafeString:
        return format_html(
            '{} <span class="pm-quiet">source_type “{}”</span>',
            trust_badge(obj.source_type),
            obj.source_type or "",
        )

    @admin.display(description="source")
    def source_display(self, obj: Chunk) -> SafeString | str:
        if not obj.source:
            return "—"
        if source_is_session(obj.source):
            return format_html("session {}", session_link(obj.source, obj.agent_id))
        return format_html('<span class="pm-mono">{}</span>', obj.source)

    @admin.display(description="audit trail")
    def audit_trail(self, obj: Chunk) -> SafeString:
        url = reverse("admin:audit_auditevent_changelist") + "?" + urlencode({"chunk_id": obj.pk})
        return format_html(
            '<a href="{}">Reviews, always-on writes, deletes and lapses of #{} →</a>', url, obj.pk
        )

    @admin.display(description="revisions (oldest first)")
    def supersession_chain(self, obj: Chunk) -> SafeString:
        older = self._older_revisions(obj)
        newer = self._newer_revisions(obj)
        if not older and not newer:
            return format_html(
                '<span class="pm-quiet">{}</span>', "No other revisions: this row was never edited."
            )
        items = [(self._chain_item(c, note=f"superseded by #{c.superseded_by_id}"), "") for c in older]
        items.append((format_html("{} <em>(this row)</em>", chunk_link(obj)), "pm-this"))
        for c in newer:
            note = f"superseded by #{c.superseded_by_id}" if c.superseded_by_id else "current"
            items.append((self._chain_item(c, note=note), ""))
        return format_html(
            '<ol class="pm-chain">{}</ol>',
            format_html_join("", '<li class="{1}">{0}</li>', ((html, css) for html, css in items)),
        )

    def _chain_item(self, chunk: Chunk, *, note: str) -> SafeString:
        return format_html(
            '{} {} <span class="pm-quiet">{} · {}</span>',
            chunk_link(chunk),
            state_badge(chunk.review_state),
            f"{chunk.created_at:%Y-%m-%d %H:%M}",
            note,
        )

    def _older_revisions(self, obj: Chunk) -> list[Chunk]:
        """Rows this one superseded, transitively, oldest first (indexed on invalidation_reason)."""
        out: list[Chunk] = []
        frontier = [obj.pk]
        seen = {obj.pk}
        while frontier and len(out) < CHAIN_MAX_STEPS:
            reasons = [f"{SUPERSEDED_PREFIX}{pk}" for pk in frontier]
            rows = list(
                Chunk.objects.filter(invalidated_at__isnull=False, invalidation_reason__in=reasons)
                .exclude(pk__in=seen)
                .order_by("-created_at", "-id")
            )
            seen.update(r.pk for r in rows)
            out.extend(rows)
            frontier = [r.pk for r in rows]
        return sorted(out[:CHAIN_MAX_STEPS], key=lambda c: (c.created_at, c.pk))

    def _newer_revisions(self, obj: Chunk) -> list[Chunk]:
        """The rows that superseded this one, following superseded_by:<id>, oldest first."""
        out: list[Chunk] = []
        seen = {obj.pk}
        next_id = obj.superseded_by_id
        while next_id and next_id not in seen and len(out) < CHAIN_MAX_STEPS:
            row = Chunk.objects.filter(pk=next_id).first()
            if row is None:
                break
            out.append(row)
            seen.add(row.pk)
            next_id = row.superseded_by_id
        return out

    @admin.display(description="entered these turns")
    def injection_history(self, obj: Chunk) -> SafeString:
        logs = list(injections_for_chunk(obj.pk)[: INJECTION_HISTORY_ROWS + 1])
        if not logs:
            return format_html(
                '<span class="pm-quiet">{}</span>', "Never injected: no turn has been given this row yet."
            )
        sections = injection_chunk_sections(obj.pk)
        rows = [
            (
                f"{log.created_at:%Y-%m-%d %H:%M:%S}",
                session_link(log.session_id, log.agent_id),
                format_html_join(
                    " ", "{}", ((badge(s, f"pm-section-{s}"),) for s in sections.get(log.pk, []))
                ),
                reverse("admin:audit_injectionlog_change", args=[log.pk]),
                log.pk,
                log.approx_tokens,
            )
            for log in logs[:INJECTION_HISTORY_ROWS]
        ]
        more = ""
        if len(logs) > INJECTION_HISTORY_ROWS:
            more = format_html(
                '<p><a href="{}?{}">All injections of #{} →</a></p>',
                reverse("admin:audit_injectionlog_changelist"),
                urlencode({"chunk": obj.pk}),
                obj.pk,
            )
        return format_html(
            '<table class="pm-table"><thead><tr><th>when</th><th>session</th><th>as</th>'
            "<th>turn</th><th>≈tokens</th></tr></thead><tbody>{}</tbody></table>{}",
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td>"
                '<td><a href="{}">injection #{}</a></td><td>{}</td></tr>',
                rows,
            ),
            more,
        )

    # -- writes: add through add_chunk, edit through chunk_revise

    def draft_from_form(self, request: HttpRequest, data: dict[str, Any]) -> ChunkDraft:
        agent = data.get("agent")
        return ChunkDraft(
            content=data["content"],
            heading=data.get("heading") or "",
            domain=(data.get("domain") or "fact").strip(),
            namespace=(data.get("namespace") or "").strip(),
            source=actor_for(request),
            source_type="admin",
            agent_id=agent.pk if agent else None,
            memory_kind=data.get("memory_kind") or None,
            subject=data.get("subject") or None,
            expires_at=data.get("expires_at"),
            delivery_policy=data.get("delivery_policy") or None,
        )

    def save_model(self, request: HttpRequest, obj: Chunk, form: Any, change: bool) -> None:
        if not change:
            stored = add_chunk(
                self.draft_from_form(request, form.cleaned_data), actor=actor_for(request), path=ADMIN_PATH
            )
            if stored is None:  # the form already refuses reasoning-only text; keep the guard honest
                raise ApplicationError("content is only reasoning; nothing stored")
            obj.pk = stored.pk
            obj.refresh_from_db()
            return
        request._protomem_revision = None  # type: ignore[attr-defined]
        if not {"content", "heading"} & set(form.changed_data):
            return
        try:
            new = chunk_revise(
                chunk_id=obj.pk,
                content=form.cleaned_data.get("content", obj.content),
                heading=form.cleaned_data.get("heading", obj.heading),
                actor=actor_for(request),
                path=ADMIN_PATH,
            )
        except ApplicationError as exc:
            request._protomem_revise_error = exc  # type: ignore[attr-defined]
            return
        request._protomem_revision = new  # type: ignore[attr-defined]

    def construct_change_message(
        self, request: HttpRequest, form: Any, formsets: Any, add: bool = False
    ) -> Any:
        new = getattr(request, "_protomem_revision", None)
        if not add and new is not None:
            # Django's change-message format: shows as "Changed content for revision “#N”."
            fields = [f for f in ("heading", "content") if f in form.changed_data]
            return [{"changed": {"name": "revision", "object": f"#{new.pk}", "fields": fields}}]
        return super().construct_change_message(request, form, formsets, add)

    def revision_url(self, request: HttpRequest, new: Chunk) -> str:
        return chunk_url(new.pk, model=self.admin_model_name)

    def response_change(self, request: HttpRequest, obj: Chunk) -> HttpResponse:
        error = getattr(request, "_protomem_revise_error", None)
        if error is not None:
            self.message_user(request, f"Not saved: {error}", messages.ERROR)
            return HttpResponseRedirect(request.path)
        new = getattr(request, "_protomem_revision", None)
        if new is None:
            self.message_user(
                request, "No change to the heading or content: nothing was stored.", messages.INFO
            )
            return HttpResponseRedirect(request.path)
        verdict = (
            "it stays rejected (reopen it to deliver)"
            if new.review_state == ReviewState.REJECTED
            else "confirmed"
        )
        self.message_user(
            request,
            format_html(
                "Saved as revision <a href='{}'>#{}</a> ({}). #{} is kept as history, superseded by #{}.",
                chunk_url(new.pk),
                new.pk,
                verdict,
                obj.pk,
                new.pk,
            ),
            messages.SUCCESS,
        )
        return HttpResponseRedirect(self.revision_url(request, new))

    # -- one-row verdicts from the change page (buttons in the template)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: Any = None,
    ) -> HttpResponse:
        if request.method == "POST" and object_id:
            state = next((s for key, s in REVIEW_BUTTONS.items() if key in request.POST), None)
            if state is not None:
                return self._review_one(request, object_id, state)
            button = next((b for b in LIFECYCLE_BUTTONS if b in request.POST), None)
            if button is not None:
                return self._remove_or_restore_one(request, object_id, restore=button == "_restore")
        context = {
            **(extra_context or {}),
            "can_review": self.has_review_permission(request),
            "can_remove": self.has_remove_permission(request),
            "bulk_delete_marker": BULK_DELETE_MARKER,
        }
        return super().changeform_view(request, object_id, form_url, context)

    def _remove_or_restore_one(self, request: HttpRequest, object_id: str, *, restore: bool) -> HttpResponse:
        if not self.has_remove_permission(request):
            raise PermissionDenied
        obj = self.get_object(request, object_id)
        if obj is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if restore:
            done = bool(chunks_bulk_restore(ids=[obj.pk], actor=actor_for(request), path=ADMIN_PATH))
            text = f"#{obj.pk} restored." if done else f"#{obj.pk} was not deleted."
        else:
            result = chunks_bulk_delete(ids=[obj.pk], actor=actor_for(request), path=ADMIN_PATH)
            done = bool(result.marked)
            text = (
                f"#{obj.pk} deleted: it no longer delivers and is reaped after "
                f"{result.reap_after:%Y-%m-%d %H:%M} UTC unless restored."
                if done
                else f"#{obj.pk} was not deleted (superseded rows are history and are kept)."
            )
        self.message_user(request, text, messages.SUCCESS if done else messages.WARNING)
        return HttpResponseRedirect(request.path)

    def _review_one(self, request: HttpRequest, object_id: str, state: str) -> HttpResponse:
        if not self.has_review_permission(request):
            raise PermissionDenied
        obj = self.get_object(request, object_id)
        if obj is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        before = obj.review_state
        try:
            chunk_review(chunk_id=obj.pk, state=state, actor=actor_for(request), path=ADMIN_PATH)
        except ApplicationError as exc:
            self.message_user(request, f"Not changed: {exc}", messages.ERROR)
            return HttpResponseRedirect(request.path)
        if before == state:
            self.message_user(request, f"#{obj.pk} was already {state}.", messages.INFO)
        else:
            self.message_user(request, f"#{obj.pk} {VERDICT_WORDS[ReviewState(state)]}.", messages.SUCCESS)
        return HttpResponseRedirect(self.after_review_url(request, obj))

    def after_review_url(self, request: HttpRequest, obj: Chunk) -> str:
        return request.path


@admin.register(Chunk)
class ChunkAdmin(ChunkAdminBase):
    """Knowledge → Store: every row, current and historical."""

    list_display = (
        "id",
        "title",
        "kind",
        "domain",
        "ns",
        "trust",
        "state",
        "policy",
        "created",
        "expiry",
    )
    list_display_links = ("id",)
    list_filter = (
        "review_state",
        "memory_kind",
        DomainFilter,
        TrustTierFilter,
        "delivery_policy",
        NamespaceFilter,
        ExpiredFilter,
        SupersededFilter,
        ("created_at", admin.DateFieldListFilter),
    )
    # No date_hierarchy: its DISTINCT over truncated dates scans the whole table (4.5 s at 200k
    # rows on SQLite); the created-date list filter below costs nothing until it is used.
    ordering = ("-created_at", "-id")

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        return super().changelist_view(request, {"title": "Store", **(extra_context or {})})


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


@admin.register(HotChunk)
class HotChunkAdmin(ChunkAdminBase):
    """Hot memory: exactly the always-on set the projection reads, with its budget."""

    change_list_template = "admin/memory/hotchunk/change_list.html"
    admin_model_name = "hotchunk"
    result_noun, result_noun_plural = "always-on row", "always-on rows"
    list_display = ("id", "title_and_preview", "chars", "ns", "trust", "state", "created", "expiry")
    list_display_links = ("id",)
    list_filter = (HotReaderFilter,)
    actions = ["reject_selected", "delete_restorably"]
    ordering = ("-created_at", "-id")  # hot_set's own order: newest first
    list_per_page = HOT_MAX_ROWS

    hot_add_fieldsets = (
        (None, {"fields": ("heading", "content")}),
        (
            "Classification",
            {
                "fields": ("domain", "memory_kind", "subject", "namespace", "expires_at", "agent"),
                "description": "Always-on: injected into every turn (delivery policy “always”), within the "
                f"{HOT_MAX_CHARS:,}-char budget. Stored as an operator write: trust “operator”, confirmed; "
                "the write is recorded as memory.hot_written.",
            },
        ),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Chunk]:
        """The changelist: exactly the hot set for the chosen reader. Other views: any always-on row."""
        qs = super().get_queryset(request).filter(delivery_policy=DeliveryPolicy.ALWAYS)
        match = getattr(request, "resolver_match", None)
        if match is not None and match.url_name == "memory_hotchunk_changelist":
            pinned = request.GET.get(HotReaderFilter.parameter_name, "")
            qs = qs.filter(pk__in=[c.pk for c in hot_set_for(request, pinned)])
        return qs

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.change_fieldsets if obj is not None else self.hot_add_fieldsets

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        return {"domain": "hot", **super().get_changeform_initial_data(request)}

    def draft_from_form(self, request: HttpRequest, data: dict[str, Any]) -> ChunkDraft:
        draft = super().draft_from_form(request, data)
        draft.delivery_policy = DeliveryPolicy.ALWAYS
        return draft

    @admin.action(description="Reject selected rows (removes them from hot memory)", permissions=["review"])
    def reject_selected(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> None:
        self._review_rows(request, queryset, ReviewState.REJECTED)

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        pinned = request.GET.get(HotReaderFilter.parameter_name, "")
        rows = hot_set_for(request, pinned)
        used = sum(len(c.content) for c in rows)
        namespaces = resolve_namespaces(get_config().knowledge.inject_namespaces, pinned)
        always = Chunk.objects.filter(delivery_policy=DeliveryPolicy.ALWAYS, invalidated_at__isnull=True)
        if namespaces:
            always = always.filter(namespace__in=namespaces)
        eligible = deliverable(always).count() if namespaces != () else 0
        now = timezone.now()
        context = {
            "title": "Hot memory",
            **(extra_context or {}),
            "hot_rows": len(rows),
            "hot_used": used,
            "hot_budget": HOT_MAX_CHARS,
            "hot_max_rows": HOT_MAX_ROWS,
            "hot_pct": min(100, round(100 * used / HOT_MAX_CHARS)) if HOT_MAX_CHARS else 0,
            "hot_held_back": max(eligible - len(rows), 0),
            "hot_excluded_note": self._excluded_note(always, now),
            "hot_namespaces": "all" if namespaces is None else ", ".join(n or "(none)" for n in namespaces),
            "hot_store_url": reverse("admin:memory_chunk_changelist") + "?delivery_policy__exact=always",
        }
        return super().changelist_view(request, context)

    @staticmethod
    def _excluded_note(always: QuerySet[Chunk], now: Any) -> str:
        rejected = always.filter(review_state=ReviewState.REJECTED).count()
        expired = always.exclude(review_state=ReviewState.REJECTED).filter(expires_at__lte=now).count()
        parts = [f"{n} {word}" for n, word in ((rejected, "rejected"), (expired, "expired")) if n]
        if not parts:
            return ""
        total = rejected + expired
        rows, verb = ("row", "delivers") if total == 1 else ("rows", "deliver")
        return f"{' and '.join(parts)} always-on {rows} never {verb}."


# ----------------------------------------------------------------------------------------------
# Skills (procedural memory), written through memory.skills


class SkillAdminForm(forms.ModelForm):
    class Meta:
        model = Skill
        fields = ["name", "description", "content", "enabled"]
        widgets = {
            "description": forms.TextInput(attrs={"size": 90}),
            "content": forms.Textarea(attrs={"rows": 14, "cols": 100}),
        }

    def clean_name(self) -> str:
        name = (self.cleaned_data.get("name") or "").strip()
        if not name or any(ch.isspace() for ch in name) or "/" in name:
            raise forms.ValidationError("One word: no spaces or slashes (it is how agents ask for it).")
        return name


@admin.register(Skill)
class SkillAdmin(admin.ModelAdmin):
    form = SkillAdminForm
    list_display = ("name", "description_preview", "enabled_badge", "updated_at")
    list_display_links = ("name",)
    list_filter = ("enabled",)
    search_fields = ("name",)
    search_help_text = "Full-text search over name, description and content (the skills' own FTS5 index)."
    ordering = ("name",)

    @admin.display(description="description")
    def description_preview(self, obj: Skill) -> str:
        return preview(obj.description, 120)

    @admin.display(description="listed", ordering="enabled")
    def enabled_badge(self, obj: Skill) -> SafeString:
        if obj.enabled:
            return badge("listed", "pm-state-confirmed", title="in every turn's <available_skills> index")
        return badge("disabled", "pm-state-none")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("name", "created_at", "updated_at") if obj is not None else ()

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Skill], search_term: str
    ) -> tuple[QuerySet[Skill], bool]:
        if not search_term.strip():
            return queryset, False
        ids = skill_search_ids(search_term, queryset=queryset)
        return queryset.filter(pk__in=ids), False

    def save_model(self, request: HttpRequest, obj: Skill, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if change:
            current = Skill.objects.get(pk=obj.pk)
            skill_update(
                skill=current,
                description=data.get("description", ""),
                content=data.get("content", ""),
                enabled=data.get("enabled", True),
            )
            return
        created = skill_create(
            name=data["name"],
            description=data.get("description", ""),
            content=data.get("content", ""),
            enabled=data.get("enabled", True),
        )
        obj.pk = created.pk
        obj.refresh_from_db()
