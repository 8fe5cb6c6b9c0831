"""Liveness and readiness: plain Django views, no auth, no throttle."""

from __future__ import annotations

from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse


def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def readyz(request: HttpRequest) -> JsonResponse:
    from memory.store.text_index import CHUNKS

    checks: dict[str, str] = {}
    for alias in ("default", "injections"):
        try:
            with connections[alias].cursor() as cursor:
                cursor.execute("SELECT 1")
            checks[f"db:{alias}"] = "ok"
        except Exception as exc:
            checks[f"db:{alias}"] = f"error: {exc.__class__.__name__}"
    checks["search"] = CHUNKS.backend()
    ok = all(not v.startswith("error") for v in checks.values())
    return JsonResponse({"ok": ok, "checks": checks}, status=200 if ok else 503)
