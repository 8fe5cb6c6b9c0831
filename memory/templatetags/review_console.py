"""Template tags of the operator console: the admin index's count of rows waiting for review."""

from __future__ import annotations

from django import template
from django.urls import reverse

from memory.lifecycle.triage import pending_by_risk

register = template.Library()


@register.inclusion_tag("admin/memory/review_waiting.html")
def review_waiting() -> dict[str, object]:
    """Current pending rows by risk level, with the queue's link."""
    by_risk = pending_by_risk()
    return {
        "total": sum(by_risk.values()),
        "levels": [(level, by_risk[level]) for level in (1, 2, 3)],
        "queue_url": reverse("admin:memory_pendingchunk_changelist"),
    }
