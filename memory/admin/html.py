"""Small HTML pieces of the memory console (always format_html: chunk text is untrusted)."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.text import Truncator

from memory.lifecycle.principals import is_operator_source
from memory.store.models import Chunk, DeliveryPolicy, ReviewState
from memory.store.trust import trust_label

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


RISK_WORDS = {1: "risk 1 · high", 2: "risk 2", 3: "risk 3"}
REASON_WORDS = {
    "instruction": "instruction-shaped",
    "hidden_text": "hidden text",
    "secret": "secret (redacted)",
    "protected_subject": "protected subject",
    "oversized": "oversized",
    "repeated": "repeated across sessions",
    "proposed_revision": "proposed revision",
    "split_instruction": "instruction split across writes",
    "always_on": "always-on",
}


def risk_badge(chunk: Chunk) -> SafeString:
    """The inspection's risk level (NULL = 3) with the held reasons beside it."""
    level = chunk.risk if chunk.risk in (1, 2, 3) else 3
    reasons = [code for code in (chunk.held_reasons or "").split(",") if code]
    held = format_html_join(
        " ", '<span class="pm-badge pm-reason">{}</span>', ((REASON_WORDS.get(r, r),) for r in reasons)
    )
    return format_html(
        '<span class="pm-badge pm-risk-{}" title="{}">{}</span> {}',
        level,
        "held: " + ", ".join(reasons) if reasons else "not held",
        RISK_WORDS[level],
        held,
    )


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
    if not source or "://" in source or source.startswith("/"):
        return False
    return not is_operator_source(source)
