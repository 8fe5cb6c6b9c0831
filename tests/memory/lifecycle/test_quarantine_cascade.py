"""The reject cascade is an offer: who is offered, who starts ticked, and what the service refuses."""

from __future__ import annotations

from typing import Any

import pytest

from audit.models import AuditEvent
from audit.services import REVIEWED
from memory.lifecycle.quarantine import chunk_reject_with_derived, derived_rows
from memory.store.models import Chunk
from protomem.errors import ApplicationError
from tests.factories import AgentFactory, ChunkFactory

pytestmark = pytest.mark.django_db


def states(*rows: Chunk) -> list[str]:
    return [Chunk.objects.get(pk=row.pk).review_state for row in rows]


@pytest.fixture
def session(db: Any) -> dict[str, Chunk]:
    """One session's writes: the flagged row, a row flagged alike, an unrelated one, and two never offered."""
    agent = AgentFactory()
    row = ChunkFactory(source="s-1", agent=agent, held_reasons="instruction,url")
    return {
        "root": row,
        "alike": ChunkFactory(source="s-1", agent=agent, held_reasons="url"),
        "unrelated": ChunkFactory(source="s-1", agent=agent, held_reasons="secret"),
        "plain": ChunkFactory(source="s-1", agent=agent),
        "confirmed": ChunkFactory(source="s-1", agent=agent, review_state="confirmed"),
        "operator": ChunkFactory(source="s-1", agent=agent, source_type="operator"),
        "rejected": ChunkFactory(source="s-1", agent=agent, review_state="rejected"),
    }


def test_confirmed_operator_and_rejected_rows_are_never_offered(session: dict[str, Chunk]) -> None:
    offered = {d.chunk.pk for d in derived_rows(session["root"])}
    assert offered == {session[k].pk for k in ("alike", "unrelated", "plain")}


def test_only_rows_flagged_for_the_same_reason_start_ticked(session: dict[str, Chunk]) -> None:
    ticked = {d.chunk.pk: d.same_reason for d in derived_rows(session["root"])}
    assert ticked == {session["alike"].pk: True, session["unrelated"].pk: False, session["plain"].pk: False}


def test_an_unflagged_row_ticks_nothing(session: dict[str, Chunk]) -> None:
    assert [d.same_reason for d in derived_rows(session["plain"])] == [False, False, False]


def test_reject_only_rejects_the_one_row(session: dict[str, Chunk]) -> None:
    result = chunk_reject_with_derived(
        chunk_id=session["root"].pk, also_reject=[], actor="user:1", path="admin"
    )
    assert result.rejected == (session["root"].pk,)
    assert states(session["alike"], session["unrelated"], session["plain"]) == ["pending"] * 3


def test_a_cascade_cannot_reach_a_confirmed_or_operator_row(session: dict[str, Chunk]) -> None:
    for key in ("confirmed", "operator"):
        with pytest.raises(ApplicationError, match="not offered with"):
            chunk_reject_with_derived(
                chunk_id=session["root"].pk,
                also_reject=[session["alike"].pk, session[key].pk],
                actor="user:1",
                path="api",
            )
    # nothing was written: not the root, not the offered row, not the protected ones
    assert states(session["root"], session["alike"], session["confirmed"], session["operator"]) == [
        "pending",
        "pending",
        "confirmed",
        "pending",
    ]
    assert not AuditEvent.objects.filter(event=REVIEWED).exists()
