"""Facts stay apart (issue 30): the subject / value decision, pure and through both write paths."""

from __future__ import annotations

import pytest

from memory.lifecycle import dedup, facts, facts_bulk, facts_subject
from memory.lifecycle.facts import fact_ingest
from memory.lifecycle.facts_links import CONTRADICTS_CONFIRMED, replaced_rows, word_diff
from memory.lifecycle.writes import ChunkDraft
from memory.store.models import Chunk
from tests.factories import AgentFactory

SERVICES = [
    "Search",
    "Exports",
    "Billing",
    "Auth",
    "Checkout",
    "Inventory",
    "Ledger",
    "Gateway",
    "Reports",
    "Mail",
]


def kind(old: str, new: str) -> str:
    return facts_subject.classify(old, new).kind


# ------------------------------------------------------------------------------ pure decision


@pytest.mark.parametrize(
    ("old", "new", "expected", "rule"),
    [
        # another thing named: a new fact, however much else is shared
        ("Search's p99 budget is 200 ms.", "Exports' p99 budget is 250 ms.", "new", "other_subject"),
        ("The p99 budget for the Search service is 200 ms.",
         "The p99 budget for the Exports service is 250 ms.", "new", "other_name"),
        ("Host web-01 serves the API.", "Host web-02 serves the API.", "new", "other_name"),
        ("Dana reviews the iOS release.", "Emeka reviews the iOS release.", "new", "other_subject"),
        # the same thing with another value: a revision
        ("The p99 budget for the Search service is 200 ms.",
         "The p99 budget for the Search service is 250 ms.", "revision", "value_changed"),
        ("Standup is on Mondays at 09:00.", "Standup is on Tuesdays at 10:00.", "revision", "value_changed"),
        ("The API gateway is Kong.", "The API gateway is Envoy.", "revision", "reworded"),
        # turned round
        ("The user drinks coffee.", "The user does not drink coffee.", "contradiction", "negation_flip"),
        ("Der Kunde möchte Rechnungen.", "Der Kunde möchte keine Rechnungen.",
         "contradiction", "negation_flip"),
        # nothing but wording
        ("Backups run at 02:00.", "backups run at 02:00", "duplicate", "same_words"),
    ],
)  # fmt: skip
def test_classify_by_the_roles_of_the_differing_words(old, new, expected, rule):
    verdict = facts_subject.classify(old, new)
    assert (verdict.kind, verdict.rule) == (expected, rule)


def test_roles_of_words():
    roles = {
        t.surface: t.role
        for t in facts_subject.tokenize("On Mondays Alice sets svc-12 to v2.3 (200ms), not 5 s")
    }
    assert roles["Mondays"] == "value"  # a time word, capitalised or not
    assert roles["Alice"] == "name"
    assert roles["svc-12"] == "name"  # letters with digits that are no amount: an identifier
    assert [roles["v2.3"], roles["200ms"], roles["s"]] == ["value"] * 3  # "s": a unit after a number
    assert roles["not"] == "negation"
    assert roles["sets"] == "word"


def test_capitals_carry_no_signal_where_a_language_capitalises_its_nouns():
    # German capitalises every noun: "Farbe" -> "Größe" is not two names
    roles = {
        t.surface: t.role for t in facts_subject.tokenize("Die Farbe des Logos im Kopf der Seite ist Blau")
    }
    assert [roles["Farbe"], roles["Logos"]] == ["word", "word"]


def test_judge_corrects_the_overlap_band_both_ways():
    # 10 of 12 tokens shared (a duplicate by overlap alone) but a different service: new
    old, new = (
        "The p99 budget for the Search service is 200 ms",
        "The p99 budget for the Exports service is 200 ms",
    )
    shared, union = dedup.overlap(dedup.tokens(new), dedup.tokens(old))
    assert dedup.decide_overlap(shared, union) != "new"
    assert dedup.judge(old, new, shared, union)[0] == "new"
    # 5 of 9 (below the band) but only values changed: a revision
    old, new = "Standup is on Mondays at 09:00", "Standup is on Tuesdays at 10:00"
    shared, union = dedup.overlap(dedup.tokens(new), dedup.tokens(old))
    assert dedup.decide_overlap(shared, union) == "new"
    assert dedup.judge(old, new, shared, union)[0] == "revision"
    # a long fact with one number changed is a revision, not a duplicate to skip
    old = "The nightly export of the orders database to the analytics warehouse starts at 02:00 UTC every day"
    new = old.replace("02:00", "03:00")
    shared, union = dedup.overlap(dedup.tokens(new), dedup.tokens(old))
    assert dedup.decide_overlap(shared, union) == "duplicate"
    assert dedup.judge(old, new, shared, union)[0] == "revision"


def test_word_diff_marks_what_changed():
    parts = word_diff("Search p99 budget is 200 ms", "Search p99 budget is 250 ms")
    assert [(p.op, p.text) for p in parts] == [
        ("same", "Search p99 budget is"),
        ("del", "200"),
        ("ins", "250"),
        ("same", "ms"),
    ]


# ------------------------------------------------------------------------------ through the store


def draft(content: str, **kw) -> ChunkDraft:
    return ChunkDraft(
        **{"content": content, "domain": "fact", "source": "t-1", "source_type": "extracted", **kw}
    )


@pytest.fixture(autouse=True)
def _fresh_common_words():
    facts.reset_common_words()
    yield
    facts.reset_common_words()


@pytest.mark.django_db
def test_ten_services_budgets_stay_ten_facts_and_a_revision_supersedes_its_own():
    outcomes = [
        fact_ingest(
            draft=draft(f"The p99 latency budget for the {s} service is {200 + 10 * i} ms."),
            actor="t",
            path="t",
        )
        for i, s in enumerate(SERVICES)
    ]
    assert [o.action for o in outcomes] == ["inserted"] * 10
    assert Chunk.objects.filter(invalidated_at__isnull=True).count() == 10
    # the Search budget changes: only the Search row is replaced
    revised = fact_ingest(
        draft=draft("The p99 latency budget for the Search service is 180 ms."), actor="t", path="t"
    )
    assert (revised.action, revised.superseded_id) == ("superseded", outcomes[0].chunk.pk)
    assert Chunk.objects.filter(invalidated_at__isnull=True).count() == 10
    # and the new row says so: what it replaces, by which rule, and the word diff
    entry = next(e for e in revised.chunk.held_detail if e["code"] == "supersedes")
    assert (entry["chunk_id"], entry["rule"], entry["snippet"]) == (
        outcomes[0].chunk.pk,
        "value_changed",
        "200 -> 180",
    )
    [replaced] = replaced_rows(Chunk.objects.get(pk=revised.chunk.pk))
    assert replaced.row.pk == outcomes[0].chunk.pk
    assert [(p.op, p.text) for p in replaced.diff if p.op != "same"] == [("del", "200"), ("ins", "180")]


@pytest.mark.django_db
def test_bulk_path_keeps_the_ten_services_apart_too():
    drafts = [draft(f"{s} p99 budget: {200 + 10 * i} ms") for i, s in enumerate(SERVICES)]
    drafts.append(draft("Search p99 budget: 190 ms"))
    outcomes = facts_bulk.facts_ingest(drafts, actor="t", path="t")
    assert [o.action for o in outcomes] == ["inserted"] * 10 + ["superseded"]
    assert Chunk.objects.filter(invalidated_at__isnull=True).count() == 10


@pytest.mark.django_db
@pytest.mark.parametrize("protected", ["confirmed", "operator"])
def test_a_contradiction_of_a_row_a_person_stands_behind_is_linked_and_held(protected):
    agent = AgentFactory()
    if protected == "confirmed":
        base = fact_ingest(
            draft=draft("Deploys are frozen after 15:00.", agent_id=agent.pk), actor="t", path="t"
        )
        Chunk.objects.filter(pk=base.chunk.pk).update(review_state="confirmed")
    else:
        base = fact_ingest(
            draft=ChunkDraft(
                content="Deploys are frozen after 15:00.", domain="fact", source_type="operator"
            ),
            actor="user:1",
            path="t",
        )
    outcome = fact_ingest(
        draft=draft("Deploys are frozen after 17:00.", agent_id=agent.pk, source_type="memory_ingest"),
        actor="t",
        path="t",
    )
    assert outcome.action == "proposed"
    new = Chunk.objects.get(pk=outcome.chunk.pk)
    old = Chunk.objects.get(pk=base.chunk.pk)
    assert old.invalidated_at is None  # linked, not superseded
    assert (new.proposes_id, new.review_state) == (old.pk, "pending")
    assert CONTRADICTS_CONFIRMED in new.held_reasons.split(",")
    entry = next(e for e in new.held_detail if e["code"] == CONTRADICTS_CONFIRMED)
    assert (entry["chunk_id"], entry["rule"], entry["snippet"]) == (old.pk, "value_changed", "15:00 -> 17:00")


@pytest.mark.django_db
def test_a_short_value_revision_below_the_overlap_band_is_still_found():
    # 5 of 9 tokens shared: the overlap bands alone called this a new fact
    for i in range(30):  # other rows sharing the common words, so the lookup has to choose
        fact_ingest(draft=draft(f"The team standup notes for squad{i} live in doc {i}."), actor="t", path="t")
    first = fact_ingest(draft=draft("The team standup is on Mondays at 09:00."), actor="t", path="t")
    moved = fact_ingest(draft=draft("The team standup is on Tuesdays at 10:00."), actor="t", path="t")
    assert (moved.action, moved.superseded_id) == ("superseded", first.chunk.pk)
    entry = next(e for e in moved.chunk.held_detail if e["code"] == "supersedes")
    assert entry["snippet"] == "Mondays 09:00 -> Tuesdays 10:00"
