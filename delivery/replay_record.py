"""What a delivered turn records so delivery.replay can rebuild it (the hook in
deliver_projected_context). Kept apart from delivery.replay, which renders with the projection,
so the projection can call this without an import cycle.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.utils import timezone

from delivery.types import DIGEST, ENVELOPE, ProjectedContext
from memory.store.models import Chunk
from memory.store.row_filter import RowFilter

UNSTAMPED = "unstamped"  # a row with no review state (older rows, operator rows on some paths)
GONE = "gone"  # a row no longer in the store (reaped)


def envelope_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def delivered_envelope(text: str) -> str:
    """The <injected_memory> block of a projection's text ("" when the turn had none).

    It is always the first block; no delivered text can contain its closing tag (rendering
    neutralises frame tags), so the first closing tag ends it.
    """
    if not text.startswith(ENVELOPE.header):
        return ""
    end = text.find("\n" + ENVELOPE.footer)
    return text[: end + 1 + len(ENVELOPE.footer)] if end >= 0 else ""


def _digest_lines(context: ProjectedContext) -> list[str]:
    """The delivered digest lines, from the digest section (its last lines, one per session)."""
    section = context.section(DIGEST)
    count = len(context.digest_session_ids)
    if section is None or not count:
        return []
    return [line.removeprefix("- ") for line in section.text.split("\n")[-count:]]


def replay_record(context: ProjectedContext) -> dict[str, Any]:
    """What the injection-log row keeps for a replay of `context` (InjectionLog's replay fields).

    One indexed read for the delivered rows' review states (a plain `id IN (...)`, as
    memory.store.row_filter runs it: the ORM spent more CPU preparing the ids than the read took).
    """
    ids = [*context.hot_ids, *context.rag_ids]
    states = dict(RowFilter(Chunk.objects.all()).rows(ids, ("id", "review_state"))) if ids else {}
    return {
        "envelope_sha256": envelope_sha256(delivered_envelope(context.text)),
        "digest_lines": _digest_lines(context),
        "time_zone": timezone.get_current_timezone_name(),
        "row_states": {i: states.get(i) or UNSTAMPED for i in ids},
    }
