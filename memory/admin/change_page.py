"""The chunk change page of the memory console: what a row is, where it came from, where it went."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString

from audit.selectors import chunk_influence, chunk_influence_turns
from memory.admin import why
from memory.admin.forms import ADD_HELP, REVISE_HELP
from memory.admin.html import (
    ADMIN_PATH,
    INJECTION_HISTORY_ROWS,
    LIFECYCLE_BUTTONS,
    REVIEW_BUTTONS,
    VERDICT_WORDS,
    actor_for,
    badge,
    chunk_link,
    chunk_url,
    policy_badge,
    session_link,
    source_is_session,
    state_badge,
    trust_badge,
)
from memory.lifecycle.confirm_effect import ConfirmEffect, agent_names, confirm_effect
from memory.lifecycle.quarantine import Derived, chunk_reject_with_derived, derived_rows
from memory.lifecycle.queue_view import GroupSpread, group_spread
from memory.lifecycle.retention import (
    BULK_DELETE_MARKER,
    bulk_delete_grace,
    chunks_bulk_delete,
    chunks_bulk_restore,
)
from memory.lifecycle.review import chunk_review, chunk_revise
from memory.lifecycle.revision_chain import revision_chain
from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.store.deliverable import deliverable
from memory.store.models import Chunk, DeliveryPolicy, ReviewState
from protomem.errors import ApplicationError


class ChunkChangePage:
    """The chunk change / add page: status, trust, provenance, audit trail, revision chain, injections.

    A mixin for ChunkAdminBase (it calls the ModelAdmin methods after it in the MRO).
    """

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
        pieces = [state_badge(obj.review_state), trust_badge(obj.source_type)]
        if obj.review_state != ReviewState.REJECTED and obj.invalidated_at is None:
            pieces.append(policy_badge(obj.delivery_policy))  # a rejected or old row delivers nothing
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

    @admin.display(description="revisions (oldest first, by their links)")
    def supersession_chain(self, obj: Chunk) -> SafeString:
        steps = revision_chain(obj)
        if not steps:
            return format_html(
                '<span class="pm-quiet">{}</span>', "No other revisions: this row was never edited."
            )
        items = [
            (
                format_html("{} <em>(this row)</em>", chunk_link(step.chunk))
                if step.is_this
                else self._chain_item(step.chunk, note=step.note),
                "pm-this" if step.is_this else "",
            )
            for step in steps
        ]
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

    @admin.display(description="blast radius")
    def influence_summary(self, obj: Chunk) -> SafeString:
        reach = chunk_influence(obj.pk)
        if not reach.turns:
            return format_html('<span class="pm-quiet pm-influence">{}</span>', "Never entered a turn.")
        names = agent_names(list(reach.agent_ids))
        agents = ", ".join(names.get(i, f"#{i}") for i in reach.agent_ids)
        return format_html(
            '<div class="pm-influence">Entered <strong>{}</strong> turn{} ({} as always-on, {} as a RAG hit) '
            "in <strong>{}</strong> session{} of <strong>{}</strong> agent{} ({}), first {}, last {}. "
            '<a href="{}?{}">Turns that received chunk #{} →</a></div>',
            reach.turns,
            "s" if reach.turns != 1 else "",
            reach.hot_turns,
            reach.rag_turns,
            reach.sessions,
            "s" if reach.sessions != 1 else "",
            reach.agents,
            "s" if reach.agents != 1 else "",
            agents or "no agent",
            f"{reach.first_at:%Y-%m-%d %H:%M}",
            f"{reach.last_at:%Y-%m-%d %H:%M}",
            reverse("admin:audit_injectionlog_changelist"),
            urlencode({"chunk": obj.pk}),
            obj.pk,
        )

    @admin.display(description="entered these turns")
    def injection_history(self, obj: Chunk) -> SafeString:
        items = list(chunk_influence_turns(obj.pk)[: INJECTION_HISTORY_ROWS + 1])
        if not items:
            return format_html(
                '<span class="pm-quiet">{}</span>', "Never injected: no turn has been given this row yet."
            )
        sections = {item.log_id: [item.section] for item in items}
        logs = [item.log for item in items]
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
        if object_id:
            context.update(why.panels(self.get_object(request, object_id)))
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

    def _edited(self, request: HttpRequest, obj: Chunk) -> dict[str, str] | None:
        """The heading / content the operator typed, when they differ from the stored row."""
        if "content" not in request.POST:
            return None
        content = request.POST.get("content", "").replace("\r\n", "\n")
        heading = request.POST.get("heading", obj.heading)
        if content == obj.content.replace("\r\n", "\n") and heading == obj.heading:
            return None
        return {"content": content, "heading": heading}

    def _review_one(self, request: HttpRequest, object_id: str, state: str) -> HttpResponse:
        if not self.has_review_permission(request):
            raise PermissionDenied
        obj = self.get_object(request, object_id)
        if obj is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        edit = self._edited(request, obj)
        if edit is not None and state != ReviewState.CONFIRMED:
            self.message_user(
                request,
                f"Nothing changed: you edited the text, and “{VERDICT_WORDS[ReviewState(state)]}” judges the "
                "stored text. Save the edit as a new revision (or undo it) first.",
                messages.ERROR,
            )
            return HttpResponseRedirect(request.get_full_path())
        if state == ReviewState.CONFIRMED:
            effect = confirm_effect(obj)
            if effect.needs_second_step and "_effect_ack" not in request.POST:
                return self._verdict_step(request, obj, state, edit=edit, effect=effect)
            if edit is not None:
                return self._confirm_edit(request, obj, edit)
        if state == ReviewState.REJECTED and "_quarantine_ack" not in request.POST:
            derived = derived_rows(obj)
            group = self.verdict_ids(request, [obj.pk])
            if derived or len(group) > 1:
                spread = group_spread(group) if len(group) > 1 else None
                return self._verdict_step(request, obj, state, derived=derived, spread=spread)
        return self._apply_verdict(request, obj, state)

    def _apply_verdict(self, request: HttpRequest, obj: Chunk, state: str) -> HttpResponse:
        before = obj.review_state
        group = [i for i in self.verdict_ids(request, [obj.pk]) if i != obj.pk]
        also_reject = (
            []
            if request.POST.get("cascade") == "only"
            else [int(i) for i in request.POST.getlist("derived") if i.isdigit()]
        )
        try:
            if state == ReviewState.REJECTED:
                chunk_reject_with_derived(
                    chunk_id=obj.pk,
                    also_reject=also_reject,
                    actor=actor_for(request),
                    path=ADMIN_PATH,
                )
            else:
                chunk_review(chunk_id=obj.pk, state=state, actor=actor_for(request), path=ADMIN_PATH)
            for pk in group:
                chunk_review(
                    chunk_id=pk,
                    state=state,
                    actor=actor_for(request),
                    path=ADMIN_PATH,
                    cause=f"same content as #{obj.pk}",
                )
        except ApplicationError as exc:
            self.message_user(request, f"Not changed: {exc}", messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())
        word = VERDICT_WORDS[ReviewState(state)]
        extra = f" (and {len(group)} identical row{'s' if len(group) != 1 else ''})" if group else ""
        derived = len(also_reject) if state == ReviewState.REJECTED else 0
        if derived:
            extra += f", with {derived} derived row{'s' if derived != 1 else ''}"
        if before == state and not group:
            self.message_user(request, f"#{obj.pk} was already {state}.", messages.INFO)
        else:
            self.message_user(request, f"#{obj.pk} {word}{extra}.", messages.SUCCESS)
        return HttpResponseRedirect(self.after_review_url(request, obj, state))

    def _confirm_edit(self, request: HttpRequest, obj: Chunk, edit: dict[str, str]) -> HttpResponse:
        """Edit + Confirm: the edit becomes the confirmed revision, or is refused with a message."""
        if obj.proposes_id is not None:
            self.message_user(
                request,
                f"Not confirmed and not saved: #{obj.pk} proposes a revision of #{obj.proposes_id}; confirm "
                "it as written, or reject it and edit the original.",
                messages.ERROR,
            )
            return HttpResponseRedirect(request.get_full_path())
        try:
            new = chunk_revise(
                chunk_id=obj.pk,
                content=edit["content"],
                heading=edit["heading"],
                actor=actor_for(request),
                path=ADMIN_PATH,
            )
            if new.review_state != ReviewState.CONFIRMED:
                new = chunk_review(
                    chunk_id=new.pk, state=ReviewState.CONFIRMED, actor=actor_for(request), path=ADMIN_PATH
                )
        except ApplicationError as exc:
            self.message_user(request, f"Not confirmed and not saved: {exc}", messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())
        self.message_user(
            request,
            format_html(
                "Your edit was saved as revision <a href='{}'>#{}</a>, confirmed. #{} is kept as history, "
                "superseded by #{}.",
                chunk_url(new.pk),
                new.pk,
                obj.pk,
                new.pk,
            ),
            messages.SUCCESS,
        )
        return HttpResponseRedirect(self.after_review_url(request, obj, ReviewState.CONFIRMED))

    def _verdict_step(
        self,
        request: HttpRequest,
        obj: Chunk,
        state: str,
        *,
        edit: dict[str, str] | None = None,
        effect: ConfirmEffect | None = None,
        derived: list[Derived] | None = None,
        spread: GroupSpread | None = None,
    ) -> HttpResponse:
        """The second, explicit step: what the verdict will do, and a button to do it."""
        context = {
            **self.admin_site.each_context(request),
            "title": f"{'Confirm' if state == ReviewState.CONFIRMED else 'Reject'} #{obj.pk}?",
            "opts": self.opts,
            "original": obj,
            "button": next(key for key, s in REVIEW_BUTTONS.items() if s == state),
            "ack": "_effect_ack" if state == ReviewState.CONFIRMED else "_quarantine_ack",
            "edit": edit,
            "effect": effect,
            "derived": derived or [],
            "derived_ticked": sum(d.same_reason for d in derived or []),
            "spread": spread,
            "copies": len(spread.rows) - 1 if spread else 0,
            "back_url": request.get_full_path(),
            **why.panels(obj),
        }
        return TemplateResponse(request, "admin/memory/verdict_step.html", context)

    def after_review_url(self, request: HttpRequest, obj: Chunk, state: str) -> str:
        return request.get_full_path()

    def verdict_ids(self, request: HttpRequest, ids: list[int]) -> list[int]:
        return ids
