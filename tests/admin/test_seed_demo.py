"""`manage.py protomem seed-demo`: a store the console can be tried on at once."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from audit.models import AuditEvent, InjectionLog
from audit.services import HOT_WRITTEN, REVIEWED
from memory.lifecycle.retention import BULK_DELETE_MARKER
from memory.lifecycle.selectors import hot_set
from memory.store.models import Chunk, Skill
from sessions_app.models import Session, SessionSummary

pytestmark = pytest.mark.django_db(databases=["default", "injections"])


def seed(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("protomem", "seed-demo", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_seed_demo_fills_every_console_view() -> None:
    out, err = seed()
    assert out.startswith("seeded round 1: 7 sessions, 20 chunks, 3 skills, 6 injections.")
    assert "seed-demo: sessions: 7" in err  # progress on stderr
    # sessions with summaries (incognito and background ones without)
    assert Session.objects.count() == 7
    assert SessionSummary.objects.count() == 5
    assert not SessionSummary.objects.filter(session__incognito=True).exists()
    # every review state, expired rows, and supersession chains (operator edits and facts)
    states = set(Chunk.objects.values_list("review_state", flat=True))
    assert states == {"pending", "confirmed", "rejected"}
    assert Chunk.objects.filter(expires_at__isnull=False).count() == 2
    assert Chunk.objects.filter(invalidation_reason__startswith="superseded_by:").count() == 3
    assert Chunk.objects.filter(invalidation_reason=BULK_DELETE_MARKER).count() == 1
    assert {"operator", "agent", "external"} == {c.trust_label for c in Chunk.objects.all()}
    # hot memory, audited as always-on writes; the agent's instruction-shaped always-on row
    # waits for a reviewer instead of entering every turn
    hot = hot_set()
    assert len(hot) == 3
    held = Chunk.objects.get(delivery_policy="always", review_state="pending")
    assert "instruction" in held.held_reasons.split(",")
    assert held.pk not in {c.pk for c in hot}
    assert (
        AuditEvent.objects.filter(event=HOT_WRITTEN).count()
        == Chunk.objects.filter(delivery_policy="always").count()
    )
    assert AuditEvent.objects.filter(event=REVIEWED).count() == 4
    assert Skill.objects.count() == 3
    # injections logged by the real projection, naming the hot rows it delivered
    logs = list(InjectionLog.objects.all())
    assert len(logs) == 6
    # the researcher's only always-on row is the held vendor instruction: none reaches its turns
    assert {bool(log.hot_ids) for log in logs if log.agent_id != held.agent_id} == {True}
    assert [log.hot_ids for log in logs if log.agent_id == held.agent_id] == [[]]
    assert any(log.digest_session_ids for log in logs)


def test_seed_demo_refuses_to_run_twice_unless_forced() -> None:
    seed()
    chunks = Chunk.objects.count()
    out, err = seed()
    assert out == ""
    assert "demo data is already here" in err
    assert Chunk.objects.count() == chunks
    out, _ = seed("--force", "--no-progress")
    assert out.startswith("seeded round 2: 7 sessions,")
    assert Session.objects.filter(session_id__startswith="demo-r2-").count() == 6
    assert Chunk.objects.count() > chunks
