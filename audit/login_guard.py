"""django-axes handler that also writes each lockout to the audit log (AXES_HANDLER points here).

A handler, not a `user_locked_out` receiver: axes calls it explicitly on every failed login, and
it knows the count, so a lockout is audited once (when the count reaches the limit), not on every
refused retry after it.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit
from django.http import HttpRequest

from audit.services import login_lockout_record


class AuditedAxesHandler(AxesDatabaseHandler):
    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or not getattr(request, "axes_locked_out", False):
            return
        failures = int(getattr(request, "axes_failures_since_start", 0))
        if failures == get_failure_limit(request, credentials):
            login_lockout_record(
                username=get_client_username(request, credentials),
                ip_address=getattr(request, "axes_ip_address", None),
                failures=failures,
                path=request.path[:64],
            )
