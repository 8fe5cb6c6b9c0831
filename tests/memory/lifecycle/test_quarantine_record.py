"""A session's quarantine is a record, and lifting it puts each row back as it was (issue 30)."""

from __future__ import annotations

from typing import Any

import pytest

from audit.models import AuditEvent
from audit.services import QUARANTINE_LIFTED, QUARANTINED, REVIEWED
from memory.lifecycle.quarantine import quarantine_lift, session_quarantine, session_quarantines
from memory.lifecycle.review import chunk_review
from memory.store.models import Chunk, Quarantine, QuarantineRow
from tests.factories import AgentFactory, ChunkFactory

pytestmark = pytest.mark.django_db


def states(rows: dict[str, Chunk]) -> dict[str, tuple[str | None, str | None]]:
    fresh = {c.pk: c for c in Chunk.objects.filter(pk__in=[r.pk for r in rows.values()])}
    return {name: (fresh[r.pk].review_state, fresh[r.pk].delivery_policy) for name, r in rows.items()}


@pytest.fixture
def written(db: Any) -> dict[str, Chunk]:
    """One session's rows in every state, an operator's confirmed always-on row among them."""
    agent = AgentFactory()
    row = ChunkFactory.create
    return {
        "pending": row(source="s-q", agent=agent),
        "confirmed": row(source="s-q", agent=agent, review_state="confirmed"),
        "operator_hot": row(
            source="s-q",
            agent=agent,
            source_type="operator",
            review_state="confirmed",
            delivery_policy="always",
        ),
        "unstamped": row(source="s-q", agent=agent, review_state=None),
        "was_rejected": row(source="s-q", agent=agent, review_state="rejected"),
    }


def quarantine(rows: dict[str, Chunk], reason: str = "poisoned vendor advice") -> Any:
    agent_id = rows["pending"].agent_id
    return session_quarantine(
        session_id="s-q", agent_id=agent_id, actor="user:7", path="admin", reason=reason
    )


def test_quarantine_records_who_why_and_each_rows_state_before(written: dict[str, Chunk]) -> None:
    # given a session's rows; when it is quarantined
    result = quarantine(written)
    # then every row it wrote is rejected, and the record keeps each one's state before
    record = Quarantine.objects.get(pk=result.quarantine_id)
    assert (record.actor, record.path, record.reason, record.session_id) == (
        "user:7",
        "admin",
        "poisoned vendor advice",
        "s-q",
    )
    assert record.agent_id == written["pending"].agent_id
    assert record.lifted_at is None
    before = {
        r.chunk_id: (r.review_state_before, r.delivery_policy_before, r.rejected) for r in record.rows.all()
    }
    assert before == {
        written["pending"].pk: ("pending", "retrieved", True),
        written["confirmed"].pk: ("confirmed", "retrieved", True),
        written["operator_hot"].pk: ("confirmed", "always", True),
        written["unstamped"].pk: (None, "retrieved", True),
        written["was_rejected"].pk: ("rejected", "retrieved", False),
    }
    assert {state for state, _ in states(written).values()} == {"rejected"}
    assert result.already == 1
    assert sorted(result.rejected) == sorted(
        written[n].pk for n in ("pending", "confirmed", "operator_hot", "unstamped")
    )
    event = AuditEvent.objects.get(event=QUARANTINED)
    assert event.data["quarantine"] == record.pk
    assert event.data["reason"] == "poisoned vendor advice"
    assert sorted(event.data["rejected"]) == sorted(result.rejected)
    causes = set(
        AuditEvent.objects.filter(event=REVIEWED, chunk_id__in=result.rejected).values_list(
            "data__cause", flat=True
        )
    )
    assert causes == {f"quarantine #{record.pk} of session s-q"}


def test_lift_restores_each_rows_earlier_state_in_one_event(written: dict[str, Chunk]) -> None:
    # given a quarantined session
    before = states(written)
    record_id = quarantine(written).quarantine_id
    # when it is lifted
    result = quarantine_lift(quarantine_id=record_id, actor="user:8", path="admin")
    # then each row is back as it was: the operator's always-on row confirmed, not pending
    assert states(written) == before
    assert states(written)["operator_hot"] == ("confirmed", "always")
    assert sorted(result.restored) == sorted(
        written[n].pk for n in ("pending", "confirmed", "operator_hot", "unstamped")
    )
    assert result.changed_since == ()
    record = Quarantine.objects.get(pk=record_id)
    assert record.lifted_by == "user:8"
    assert record.lifted_at is not None
    lifted = AuditEvent.objects.get(event=QUARANTINE_LIFTED)
    assert lifted.actor == "user:8"
    assert lifted.data["quarantine"] == record_id
    assert {(r["chunk"], r["to"]) for r in lifted.data["restored"]} == {
        (written["pending"].pk, "pending"),
        (written["confirmed"].pk, "confirmed"),
        (written["operator_hot"].pk, "confirmed"),
        (written["unstamped"].pk, None),
    }


def test_lift_leaves_rows_reviewed_since_and_lifting_twice_changes_nothing(
    written: dict[str, Chunk],
) -> None:
    # given a quarantine, then a reviewer reopened one of its rows by hand
    record_id = quarantine(written).quarantine_id
    chunk_review(chunk_id=written["confirmed"].pk, state="pending", actor="user:9")
    # when the quarantine is lifted
    result = quarantine_lift(quarantine_id=record_id, actor="user:8", path="api")
    # then that row keeps the later verdict and is reported
    assert result.changed_since == (written["confirmed"].pk,)
    assert Chunk.objects.get(pk=written["confirmed"].pk).review_state == "pending"
    assert Chunk.objects.get(pk=written["was_rejected"].pk).review_state == "rejected"
    # and a second lift restores nothing and records no second lift
    events = AuditEvent.objects.count()
    again = quarantine_lift(quarantine_id=record_id, actor="user:8", path="api")
    assert (again.already_lifted, again.restored, again.changed_since) == (True, (), ())
    assert AuditEvent.objects.count() == events


def test_lift_of_an_unknown_quarantine_raises(db: Any) -> None:
    with pytest.raises(Quarantine.DoesNotExist):
        quarantine_lift(quarantine_id=999, actor="user:8", path="api")
    assert not AuditEvent.objects.filter(event=QUARANTINE_LIFTED).exists()


def test_quarantining_nothing_new_keeps_no_record(written: dict[str, Chunk]) -> None:
    # given a session already quarantined; when quarantined again
    first = quarantine(written)
    again = quarantine(written)
    # then nothing is rejected and no second record or event is written
    assert (again.rejected, again.quarantine_id, again.already) == ((), None, 5)
    assert list(Quarantine.objects.values_list("pk", flat=True)) == [first.quarantine_id]
    assert AuditEvent.objects.filter(event=QUARANTINED).count() == 1
    assert QuarantineRow.objects.count() == 5


def test_session_quarantines_lists_only_that_sessions_records(written: dict[str, Chunk]) -> None:
    other = ChunkFactory(source="s-other", agent=written["pending"].agent)
    mine = quarantine(written).quarantine_id
    session_quarantine(session_id="s-other", agent_id=other.agent_id, actor="user:7", path="admin")
    listed = list(session_quarantines(session_id="s-q", agent_id=written["pending"].agent_id))
    assert [q.pk for q in listed] == [mine]
    assert len(listed[0].rows.all()) == 5
