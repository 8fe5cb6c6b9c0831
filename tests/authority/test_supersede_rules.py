"""Trust order is a write rule (issue 19, item 1): no agent write supersedes a row it may not.

An agent's near-paraphrase (Jaccard 0.6-0.85) of an operator-confirmed host fact, of an
always-on standing rule, of another agent's row, of a commons row or of a higher-tier row is
stored as a pending proposed revision naming its target (`proposes`); the target stays valid
and delivered to every other agent until a reviewer confirms the proposal, which supersedes it
with the reviewer as the actor (audited); reopening restores it. The harvest's facts and
documents follow the same rule. All through HTTP, with knowledge.hot_write_confirm on.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from audit.models import AuditEvent
from audit.services import PROPOSAL_ACCEPTED, PROPOSAL_WITHDRAWN
from memory.lifecycle import dedup
from memory.lifecycle.scope import row_scope
from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.store.models import Chunk
from sessions_app.retirement import HarvestPolicy, session_harvest, session_retire
from sessions_app.services import MessageInput, session_register, session_turn_append
from tests.authority.conftest import configure, context, recall_ids, register
from tests.conftest import agent_client_for
from tests.factories import AgentFactory
from tests.fixtures.gateway import chat_reply

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

FACT = "The staging database accepts at most forty connections from the billing service"
PARAPHRASE = "The staging database accepts at most sixty connections from the billing service"
QUERY = "staging database connections billing"
RULE = "Every deploy to production needs an approved change ticket and a named reviewer"
RULE_PARAPHRASE = "Every deploy to production needs an approved change ticket and two named reviewers"
RULE_QUERY = "deploy production change ticket"
SID = "authority-thread"


@pytest.fixture(autouse=True)
def _config(settings: Any) -> None:
    configure(settings, hot_write_confirm=True, hold="risky", scope="scoped")


@pytest.fixture
def third_client(db: Any) -> Any:
    """A bystander agent: neither the writer nor the owner of the protected row."""
    client = agent_client_for(AgentFactory(name="agent-c"))
    register(client, SID)
    return client


def test_the_fixtures_are_paraphrases_in_the_revision_band() -> None:
    for a, b in ((FACT, PARAPHRASE), (RULE, RULE_PARAPHRASE)):
        assert 0.6 <= dedup.jaccard(dedup.tokens(a), dedup.tokens(b)) < 0.85


def operator_row(content: str, **fields: Any) -> Chunk:
    """A confirmed host row written the way the operator's surfaces write one (no agent)."""
    row = add_chunk(
        ChunkDraft(
            content=content, domain="fact", source_type="operator", review_state="confirmed", **fields
        ),
        actor="user:1",
        path="admin",
    )
    assert row is not None
    assert row.scope == "host"
    return row


def ingest(client: Any, content: str, **body: Any) -> dict[str, Any]:
    resp = client.post(f"/api/sessions/{SID}/memory/ingest/", {"content": content, **body}, format="json")
    assert resp.status_code in (200, 201), resp.content
    return resp.json()


def assert_proposal(answer: dict[str, Any], target: Chunk) -> Chunk:
    """The write was stored as a held proposal of `target`, and `target` is untouched."""
    assert answer["action"] == "held_for_review", answer
    assert answer["proposes"] == target.pk
    assert answer["superseded_id"] is None
    assert "proposed_revision" in answer["held_reasons"]
    proposal = Chunk.objects.get(pk=answer["chunk"]["id"])
    assert (proposal.proposes_id, proposal.review_state) == (target.pk, "pending")
    target.refresh_from_db()
    assert target.invalidated_at is None
    assert target.invalidation_reason == ""
    return proposal


def review(operator_client: Any, chunk_id: int, state: str) -> None:
    resp = operator_client.post(f"/api/memory/chunks/{chunk_id}/review", {"state": state}, format="json")
    assert resp.status_code == 200, resp.content


def assert_accept_then_withdraw(operator_client: Any, reviewer: Any, proposal: Chunk, target: Chunk) -> None:
    """Confirming supersedes the target with the reviewer as actor and gives the revision the
    target's scope (everyone who read the original reads it); reopening restores both."""
    own_scope = proposal.scope
    review(operator_client, proposal.pk, "confirmed")
    target.refresh_from_db()
    proposal.refresh_from_db()
    assert target.invalidated_at is not None
    assert target.invalidation_reason == f"superseded_by:{proposal.pk}"
    assert proposal.scope == row_scope(target)
    accepted = AuditEvent.objects.get(event=PROPOSAL_ACCEPTED, chunk_id=proposal.pk)
    assert accepted.actor == f"user:{reviewer.pk}"
    assert accepted.data == {"proposes": target.pk, "scope": row_scope(target)}

    review(operator_client, proposal.pk, "pending")
    target.refresh_from_db()
    proposal.refresh_from_db()
    assert (target.invalidated_at, target.invalidation_reason) == (None, "")
    assert proposal.scope == own_scope
    withdrawn = AuditEvent.objects.get(event=PROPOSAL_WITHDRAWN, chunk_id=proposal.pk)
    assert withdrawn.actor == f"user:{reviewer.pk}"


# ------------------------------------------------------------------------------ host rows


def test_a_paraphrase_of_an_operator_fact_is_a_proposal_until_a_reviewer_confirms_it(
    agent_client, other_agent_client, operator_client, reviewer
):
    # given an operator-confirmed host fact both agents read
    fact = operator_row(FACT)
    register(agent_client, SID)
    register(other_agent_client, SID)
    assert fact.pk in recall_ids(other_agent_client, QUERY)
    # when agent A stores a near-paraphrase of it
    answer = ingest(agent_client, PARAPHRASE)
    # then it is a held proposal naming the fact, and the fact stays valid and delivered
    proposal = assert_proposal(answer, fact)
    other_hits = recall_ids(other_agent_client, QUERY)
    assert fact.pk in other_hits
    assert proposal.pk not in other_hits
    assert fact.pk in context(other_agent_client, SID, QUERY)["injected"]["rag_ids"]
    # and only a reviewer's verdict supersedes it (and can take that back) ...
    assert_accept_then_withdraw(operator_client, reviewer, proposal, fact)
    assert fact.pk in recall_ids(other_agent_client, QUERY)
    # ... once accepted, the other agent reads the revision where it read the fact
    review(operator_client, proposal.pk, "confirmed")
    other_hits = recall_ids(other_agent_client, QUERY)
    assert (proposal.pk in other_hits, fact.pk in other_hits) == (True, False)


def test_a_paraphrase_of_an_always_on_rule_leaves_the_rule_in_every_prompt(
    agent_client, other_agent_client, operator_client, reviewer
):
    # given an operator's always-on standing rule (the hot-write gate is on)
    rule = operator_row(RULE, delivery_policy="always")
    register(agent_client, SID)
    register(other_agent_client, SID)
    assert context(other_agent_client, SID, "")["injected"]["hot_ids"] == [rule.pk]
    # when agent A stores a near-paraphrase of it (as a plain fact: the gate refuses "always")
    proposal = assert_proposal(ingest(agent_client, RULE_PARAPHRASE), rule)
    # then the rule is still in the other agent's always-on block and recall
    body = context(other_agent_client, SID, RULE_QUERY)
    assert body["injected"]["hot_ids"] == [rule.pk]
    assert RULE in body["text"]
    assert rule.pk in recall_ids(other_agent_client, RULE_QUERY)
    # and in the writer's own always-on block too
    assert context(agent_client, SID, "")["injected"]["hot_ids"] == [rule.pk]
    assert_accept_then_withdraw(operator_client, reviewer, proposal, rule)
    assert context(other_agent_client, SID, "")["injected"]["hot_ids"] == [rule.pk]


def test_an_exact_duplicate_of_a_protected_row_answers_duplicate(agent_client):
    fact = operator_row(FACT)
    register(agent_client, SID)
    answer = ingest(agent_client, FACT.lower() + ".")
    assert answer["action"] == "duplicate"
    assert answer["chunk"]["id"] == fact.pk
    assert answer["proposes"] is None
    assert list(Chunk.objects.values_list("pk", flat=True)) == [fact.pk]


# ------------------------------------------------------------------------------ other owners, commons, tiers


def test_another_agents_row_in_shared_scope_is_only_proposed_against(
    settings, agent_client, other_agent_client, third_client, operator_client, reviewer
):
    # given shared scope and agent B's fact (a commons row B wrote), read by everyone
    configure(settings, hot_write_confirm=True, scope="shared")
    register(other_agent_client, SID)
    register(agent_client, SID)
    theirs = Chunk.objects.get(pk=ingest(other_agent_client, FACT)["chunk"]["id"])
    assert (theirs.scope, theirs.agent_id) == ("commons", other_agent_client.agent.pk)
    # when agent A paraphrases it
    proposal = assert_proposal(ingest(agent_client, PARAPHRASE), theirs)
    # then B and a bystander still read B's row, not A's proposal
    for client in (other_agent_client, third_client):
        hits = recall_ids(client, QUERY)
        assert theirs.pk in hits
        assert proposal.pk not in hits
    assert_accept_then_withdraw(operator_client, reviewer, proposal, theirs)


def test_a_commons_row_in_layered_scope_is_only_proposed_against(
    settings, agent_client, other_agent_client, operator_client, reviewer
):
    # given a pending commons row agent A itself wrote (while the store was shared), now layered:
    # only the commons rule protects it (same owner, same tier, not confirmed)
    configure(settings, hot_write_confirm=True, scope="shared")
    register(agent_client, SID)
    register(other_agent_client, SID)
    commons = Chunk.objects.get(pk=ingest(agent_client, FACT)["chunk"]["id"])
    assert (commons.scope, commons.agent_id, commons.review_state) == (
        "commons",
        agent_client.agent.pk,
        "pending",
    )
    configure(settings, hot_write_confirm=True, scope="layered")
    # when A paraphrases it
    proposal = assert_proposal(ingest(agent_client, PARAPHRASE), commons)
    # then the other agent still reads the commons row
    hits = recall_ids(other_agent_client, QUERY)
    assert commons.pk in hits
    assert proposal.pk not in hits
    assert_accept_then_withdraw(operator_client, reviewer, proposal, commons)


def test_a_higher_tier_row_of_the_agents_own_is_only_proposed_against(
    agent_client, operator_client, reviewer
):
    # given agent A's own fact, revised by an operator (tier 3, still A's) and then reopened:
    # only the tier rule protects it (same owner, private, pending)
    register(agent_client, SID)
    own = ingest(agent_client, "The staging database accepts at most ten connections")["chunk"]["id"]
    resp = operator_client.put(f"/api/knowledge/chunks/{own}", {"content": FACT}, format="json")
    assert resp.status_code == 200, resp.content
    revised = Chunk.objects.get(pk=resp.json()["chunk"]["id"])
    review(operator_client, revised.pk, "pending")
    revised.refresh_from_db()
    assert (revised.agent_id, revised.source_type, revised.review_state, revised.scope) == (
        agent_client.agent.pk,
        "operator",
        "pending",
        "private",
    )
    # when A paraphrases the operator's wording
    proposal = assert_proposal(ingest(agent_client, PARAPHRASE), revised)
    # then A keeps reading the operator's row until a reviewer says otherwise
    hits = recall_ids(agent_client, QUERY)
    assert revised.pk in hits
    assert proposal.pk not in hits
    assert_accept_then_withdraw(operator_client, reviewer, proposal, revised)


def test_a_paraphrase_of_the_agents_own_pending_row_still_supersedes_it(agent_client):
    register(agent_client, SID)
    first = ingest(agent_client, FACT)
    assert first["action"] == "inserted"
    answer = ingest(agent_client, PARAPHRASE)
    assert answer["action"] == "superseded"
    assert answer["superseded_id"] == first["chunk"]["id"]
    assert answer["proposes"] is None
    old = Chunk.objects.get(pk=first["chunk"]["id"])
    assert old.invalidation_reason == f"superseded_by:{answer['chunk']['id']}"
    assert Chunk.objects.get(pk=answer["chunk"]["id"]).proposes_id is None


# ------------------------------------------------------------------------------ harvest and documents


def test_the_harvests_extracted_fact_is_a_proposal_against_a_host_fact(
    agent, other_agent_client, stub_gateway, operator_client, reviewer
):
    # given an operator fact, and a retired session whose harvest extracts a paraphrase of it
    fact = operator_row(FACT)
    session, _ = session_register(agent=agent, session_id="harvested-thread")
    session_turn_append(
        session=session,
        messages=[
            MessageInput(role="user", content="How many billing connections does staging take now?"),
            MessageInput(role="assistant", content="Sixty, since the pool was resized."),
        ],
        terminal=True,
    )
    session_retire(session=session)
    stub_gateway.enqueue(chat_reply(json.dumps({"summary": "Staging pool resized.", "facts": [PARAPHRASE]})))
    # when the harvest runs
    outcome = session_harvest(session_pk=session.pk, policy=HarvestPolicy(max_attempts=1, backoff_s=0.01))
    # then the extracted fact proposes a revision and the operator's fact stays delivered
    assert outcome.facts == 1
    session.refresh_from_db()
    assert session.harvest_result["fact_outcomes"] == {"proposed": 1}
    extracted = Chunk.objects.get(source_type="extracted")
    assert (extracted.proposes_id, extracted.review_state) == (fact.pk, "pending")
    fact.refresh_from_db()
    assert fact.invalidated_at is None
    register(other_agent_client, SID)
    assert fact.pk in recall_ids(other_agent_client, QUERY)
    assert extracted.pk not in recall_ids(other_agent_client, QUERY)
    assert_accept_then_withdraw(operator_client, reviewer, extracted, fact)


ORIGIN = "https://docs.example/runbook"


def document(client: Any, content: str) -> dict[str, Any]:
    resp = client.post(
        f"/api/sessions/{SID}/knowledge/ingest/",
        {"origin": ORIGIN, "title": "Runbook", "content": content},
        format="json",
    )
    assert resp.status_code in (200, 201), resp.content
    return resp.json()


def test_re_ingesting_a_host_document_proposes_instead_of_replacing(
    agent_client, other_agent_client, operator_client, reviewer
):
    # given the host's copy of a document (a row every agent reads, written without an agent)
    host_page = add_chunk(
        ChunkDraft(
            content=FACT, heading="Runbook", domain="knowledge", source=ORIGIN, source_type="knowledge_ingest"
        ),
        actor="system",
    )
    assert host_page is not None
    assert host_page.scope == "host"
    register(agent_client, SID)
    register(other_agent_client, SID)
    # when agent A ingests the same origin with changed text
    answer = document(agent_client, PARAPHRASE)
    # then its chunk is a proposal and the host's copy stays live for the other agent
    assert answer["action"] == "replaced"
    assert answer["superseded_ids"] == []
    assert answer["proposed_ids"] == [host_page.pk]
    [new] = answer["chunks"]
    assert answer["held_ids"] == [new["id"]]
    host_page.refresh_from_db()
    assert host_page.invalidated_at is None
    assert host_page.pk in recall_ids(other_agent_client, QUERY)
    assert_accept_then_withdraw(operator_client, reviewer, Chunk.objects.get(pk=new["id"]), host_page)


def test_re_ingesting_another_agents_document_in_shared_scope_proposes(
    settings, agent_client, other_agent_client, third_client
):
    configure(settings, hot_write_confirm=True, scope="shared")
    register(other_agent_client, SID)
    register(agent_client, SID)
    [theirs] = document(other_agent_client, FACT)["chunks"]
    answer = document(agent_client, PARAPHRASE)
    assert answer["proposed_ids"] == [theirs["id"]]
    assert answer["superseded_ids"] == []
    assert Chunk.objects.get(pk=theirs["id"]).invalidated_at is None
    assert theirs["id"] in recall_ids(third_client, QUERY)
