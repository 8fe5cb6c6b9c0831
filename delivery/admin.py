"""The delivery pages of the console: hot memory (the always-on set the projection reads) and skills."""

from __future__ import annotations

from functools import partial
from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.safestring import SafeString

from delivery.hot_review import identical_groups
from delivery.preview_admin import prompt_preview_view
from delivery.projection import hot_rows
from delivery.skills import skill_create, skill_search_ids, skill_update
from memory.admin.base import ChunkAdminBase
from memory.admin.html import (
    badge,
    preview,
)
from memory.lifecycle.scope import readers_of
from memory.lifecycle.selectors import HOT_MAX_CHARS, HOT_MAX_ROWS, resolve_namespaces
from memory.lifecycle.writes import ChunkDraft
from memory.store.deliverable import deliverable
from memory.store.models import Chunk, DeliveryPolicy, HotChunk, ReviewState, Skill
from protomem.config import get_config


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


@admin.register(HotChunk)
class HotChunkAdmin(ChunkAdminBase):
    """Hot memory: exactly the always-on set the projection reads, with its budget."""

    change_list_template = "admin/memory/hotchunk/change_list.html"
    admin_model_name = "hotchunk"
    result_noun, result_noun_plural = "always-on row", "always-on rows"
    list_display = (
        "id",
        "title_and_preview",
        "chars",
        "owner",
        "readers",
        "ns",
        "trust",
        "state",
        "created",
        "expiry",
    )
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

    @admin.display(description="owner", ordering="agent__name")
    def owner(self, obj: Chunk) -> str:
        return str(obj.agent) if obj.agent_id is not None else "operator"

    @admin.display(description="read by")
    def readers(self, obj: Chunk) -> str:
        return readers_of(obj)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(partial(prompt_preview_view, self.admin_site))
        return [path("preview/", view, name="delivery_prompt_preview"), *super().get_urls()]

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
            "hot_identical": [", ".join(f"#{pk}" for pk in ids) for ids in identical_groups(rows)],
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
# Skills (procedural memory), written through delivery.skills


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
