"""The admin's erase action: a reason form, then memory.lifecycle.erasure.chunk_erase per row."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from memory.admin.forms import EraseForm
from memory.admin.html import ADMIN_PATH, actor_for
from memory.lifecycle.erasure import chunk_erase
from memory.store.models import Chunk
from protomem.errors import ApplicationError

logger = logging.getLogger(__name__)

ERASE_TEMPLATE = "admin/memory/erase_step.html"
APPLY = "erase_apply"


class EraseActionMixin:
    """Adds "erase_selected" to a chunk admin (list it in `actions`)."""

    admin_site: admin.AdminSite
    model: type[Chunk]

    @admin.action(
        description="Erase selected chunks' content and their revisions'", permissions=["remove", "review"]
    )
    def erase_selected(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> TemplateResponse | None:
        form = EraseForm(request.POST if APPLY in request.POST else None)
        if form.is_bound and form.is_valid():
            self._erase_rows(request, queryset, form.cleaned_data["reason"])
            return None
        context: dict[str, Any] = {
            **self.admin_site.each_context(request),
            "title": "Erase the content of these chunks?",
            "form": form,
            "rows": queryset.order_by("id"),
            "opts": self.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "apply": APPLY,
        }
        return TemplateResponse(request, ERASE_TEMPLATE, context)

    def _erase_rows(self, request: HttpRequest, queryset: QuerySet[Chunk], reason: str) -> None:
        erased = failed = 0
        for chunk_id in queryset.order_by("id").values_list("pk", flat=True):
            try:
                result = chunk_erase(
                    chunk_id=chunk_id, reason=reason, actor=actor_for(request), path=ADMIN_PATH
                )
            except (ApplicationError, Chunk.DoesNotExist) as exc:
                failed += 1
                logger.info("admin erase of #%s skipped: %s", chunk_id, exc)
            else:
                erased += len(result.erased)
        message = f"{erased} rows erased (content, heading and subject; revisions included)"
        if failed:
            message += f", {failed} skipped"
        self.message_user(request, message + ".", messages.SUCCESS if erased else messages.WARNING)  # type: ignore[attr-defined]
