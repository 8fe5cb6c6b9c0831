"""The console's prompt preview: what a turn of an agent would be given, without logging it.

The same delivery.projection.compose_projected_context the /api/prompts/preview/ view calls;
served under Hot memory (delivery.admin.HotChunkAdmin.get_urls).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin import AdminSite
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from delivery.projection import compose_projected_context
from memory.admin.html import chunk_link, state_badge
from memory.lifecycle.selectors import chunks_by_ids
from memory.store.models import ReviewState
from sessions_app.models import Agent, Session


class PreviewForm(forms.Form):
    agent = forms.ModelChoiceField(queryset=Agent.objects.order_by("name"), required=False)
    session_id = forms.CharField(required=False, max_length=255, label="session id")
    query = forms.CharField(required=False, max_length=2000, label="the turn's user message")


def prompt_preview_view(site: AdminSite, request: HttpRequest) -> HttpResponse:
    """GET with agent / session_id / query: the projected context, sections and budget."""
    if not request.user.has_perm("memory.view_chunk"):
        raise PermissionDenied
    form = PreviewForm(request.GET or None)
    context: dict[str, Any] = {
        **site.each_context(request),
        "title": "Prompt preview",
        "form": form,
        "projection": None,
        "error": "",
    }
    if form.is_bound and form.is_valid():
        agent = form.cleaned_data["agent"]
        session_id = form.cleaned_data["session_id"]
        incognito = False
        if session_id:
            sessions = Session.objects.select_related("agent").filter(session_id=session_id)
            if agent is not None:
                sessions = sessions.filter(agent=agent)
            found = list(sessions[:2])
            if len(found) != 1:
                context["error"] = "No such session." if not found else "Several agents have it: pick one."
            else:
                agent, incognito = found[0].agent, found[0].incognito
        if not context["error"]:
            projection = compose_projected_context(
                agent=agent, session_id=session_id, query=form.cleaned_data["query"], incognito=incognito
            )
            context["projection"] = projection
            context["delivered"] = delivered_rows([*projection.hot_ids], [*projection.rag_ids])
    return TemplateResponse(request, "admin/delivery/prompt_preview.html", context)


def delivered_rows(hot_ids: list[int], rag_ids: list[int]) -> list[dict[str, Any]]:
    """The preview's rows, each linked, with its section and review state (pending rows marked)."""
    section = {**dict.fromkeys(rag_ids, "RAG"), **dict.fromkeys(hot_ids, "always-on")}
    return [
        {
            "link": chunk_link(chunk),
            "section": section[chunk.pk],
            "state": state_badge(chunk.review_state),
            "unreviewed": chunk.review_state == ReviewState.PENDING,
        }
        for chunk in chunks_by_ids([*hot_ids, *rag_ids])
    ]
