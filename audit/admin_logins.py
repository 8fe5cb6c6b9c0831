"""Login lockouts in the console: django-axes' failed-login records, with an audited lift.

Read-only like the other forensics; the one write is "Lift lockout" (superusers only), which goes
through audit.services so the lift is in the audit log. Deleting a row here would lift a lockout
silently, so delete is not offered.
"""

from __future__ import annotations

from typing import Any

from axes.models import AccessAttempt
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString

from audit.selectors import login_attempts_with_lockouts
from audit.services import login_lockout_lift

ADMIN_PATH = "admin"


@admin.register(AccessAttempt)
class LoginLockoutAdmin(admin.ModelAdmin):
    list_display = ("username", "ip_address", "failures_since_start", "attempt_time", "status")
    list_display_links = None
    search_fields = ("username", "ip_address")
    search_help_text = "Username or address."
    ordering = ("-attempt_time",)
    actions = ("lift_lockout",)
    result_noun, result_noun_plural = "attempt", "attempts"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_lift_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def get_queryset(self, request: HttpRequest) -> QuerySet[AccessAttempt]:
        return login_attempts_with_lockouts()

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        return super().changelist_view(request, {"title": "Login lockouts", **(extra_context or {})})

    @admin.display(description="status")
    def status(self, obj: AccessAttempt) -> SafeString:
        why = [
            label
            for label, locked in (("username", obj.username_locked), ("address", obj.address_locked))
            if locked
        ]
        if why:
            return format_html('<span class="pm-badge pm-state-rejected">locked: {}</span>', " + ".join(why))
        return format_html('<span class="pm-quiet">{}</span>', "counting")

    @admin.action(
        description="Lift lockout (username and address of the selected rows)", permissions=["lift"]
    )
    def lift_lockout(self, request: HttpRequest, queryset: QuerySet[AccessAttempt]) -> None:
        pairs = list(dict.fromkeys(queryset.values_list("username", "ip_address")))
        cleared = sum(
            login_lockout_lift(
                actor=f"user:{request.user.pk}", path=ADMIN_PATH, username=username, ip_address=ip_address
            )
            for username, ip_address in pairs
        )
        who = ", ".join(f"{u or '?'} @ {ip or '?'}" for u, ip in pairs)
        self.message_user(
            request, f"Lifted the lockout of {who}: cleared {cleared} failed-login rows.", messages.SUCCESS
        )
