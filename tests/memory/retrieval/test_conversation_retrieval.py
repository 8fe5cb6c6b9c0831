"""Recall over conversation turns (memory.retrieval.structure): the window, dates, small talk, filler."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from memory.embedding import embeddings
from memory.lifecycle.selectors import chunk_search
from memory.lifecycle.writes import ChunkDraft, add_chunks
from memory.retrieval import structure
from memory.retrieval.hybrid import StartedEmbedding, fused_ids, hybrid_chunk_ids, start_embedding
from memory.retrieval.search import search_chunk_ids
from memory.store import vectors
from memory.store.deliverable import deliverable
from memory.store.embedding_index import chunks_embed
from memory.store.models import Chunk
from memory.store.row_filter import RowFilter
from memory.store.text_index import fts5
from tests.memory.store.vector_stub import MODEL, clean_embedding_state, hybrid_fixture  # noqa: F401 - fixtures

pytestmark = [pytest.mark.usefixtures("clean_embedding_state"), pytest.mark.django_db]

NAMESPACE = "conv-test"


def store_sessions(sessions: list[tuple[str, str, list[str]]]) -> dict[str, int]:
    """Turns ("Speaker: text") of each (session id, ISO day, turns); returns text -> chunk id."""
    drafts = [
        ChunkDraft(
            content=f"[{day}] {turn}",
            domain="turn",
            namespace=NAMESPACE,
            source=session,
            created_at=datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC),
        )
        for session, day, turns in sessions
        for turn in turns
    ]
    add_chunks(drafts)
    rows = Chunk.objects.filter(namespace=NAMESPACE).values_list("pk", "content")
    return {content.split("] ", 1)[1]: pk for pk, content in rows}


def turns() -> Any:
    return Chunk.objects.filter(namespace=NAMESPACE)


def scope() -> Any:
    return deliverable(Chunk.objects.filter(namespace=NAMESPACE))


FILLER_SESSION = [
    "Alice: Ha!",
    "Bob: Classic Alice.",
    "Alice: What did you have for dinner?",
    "Bob: Pasta again, the usual.",
    "Alice: Traffic was a nightmare this morning.",
]
ADOPTION = [
    "Alice: So I finally did it. Last Saturday I adopted a corgi from the shelter on Harbor Road.",
    "Bob: No way! Congratulations.",
    "Alice: We went with Waffles. It just suited the face.",
    "Bob: Perfect choice, send photos soon.",
]


def test_a_question_that_needs_two_turns_gets_both() -> None:
    ids = store_sessions(
        [
            ("s1", "2026-01-10", FILLER_SESSION),
            ("s2", "2026-02-05", [*FILLER_SESSION[:2], *ADOPTION]),
            ("s3", "2026-03-01", ["Alice: The corgi at the park was adorable.", *FILLER_SESSION[2:]]),
        ]
    )
    question = "Which corgi did Alice adopt from the shelter, and what did she call it?"
    adopted, named = ids[ADOPTION[0]], ids[ADOPTION[2]]

    plain = search_chunk_ids(question, k=5, queryset=scope())
    found = [c.pk for c in chunk_search(question, k=5, queryset=turns())]

    assert named not in plain  # "Waffles" shares no word with the question
    assert adopted in found[:2]
    assert named in found  # the window brought the answer turn in beside its question turn
    assert found.index(named) < found.index(ids["Alice: The corgi at the park was adorable."])


def test_the_window_finds_the_next_real_turn_past_small_talk() -> None:
    ids = store_sessions(
        [
            (
                "s1",
                "2026-04-14",
                [
                    "Alice: Planning something fun: Marrakech, probably in spring.",
                    "Bob: Ha!",
                    "Alice: With my best friend, if we can line up our days off.",
                ],
            ),
            ("s2", "2026-04-20", FILLER_SESSION),
        ]
    )

    found = structure.rerank(
        "Who is Alice travelling to Marrakech with?",
        [search_chunk_ids("Who is Alice travelling to Marrakech with?", k=20, queryset=scope())],
        k=3,
        queryset=scope(),
    )

    assert set(found[:2]) == {
        ids["Alice: Planning something fun: Marrakech, probably in spring."],
        ids["Alice: With my best friend, if we can line up our days off."],  # the answer, two turns on
    }


def test_a_temporal_question_ranks_the_turn_from_the_right_session_date_first() -> None:
    march = "Alice: I bought new running shoes."
    may = "Alice: I bought new running shoes for the trail, grippy ones for the long hill routes near home."
    ids = store_sessions(
        [("s1", "2026-03-03", [march, *FILLER_SESSION]), ("s2", "2026-05-12", [may, *FILLER_SESSION])]
    )
    question = "Which running shoes did Alice buy in May 2026?"

    plain = search_chunk_ids(question, k=5, queryset=scope())
    found = [c.pk for c in chunk_search(question, k=5, queryset=turns())]
    relative = structure.rerank(
        "Which running shoes did Alice get last week?",
        [[ids[march], ids[may]]],
        k=2,
        queryset=scope(),
        today=date(2026, 5, 20),
    )

    assert plain.index(ids[march]) < plain.index(ids[may])  # the index alone prefers the shorter March turn
    assert found[0] == ids[may]
    assert relative[0] == ids[may]  # "last week" of 20 May 2026 is 11-17 May


def test_a_date_is_a_boost_not_a_filter() -> None:
    ids = store_sessions([("s1", "2026-03-03", ["Alice: I bought new running shoes.", *FILLER_SESSION])])

    found = [c.pk for c in chunk_search("running shoes in May 2026", k=3, queryset=turns())]

    assert found[0] == ids["Alice: I bought new running shoes."]


def test_question_words_do_not_pull_in_filler() -> None:
    ids = store_sessions(
        [
            (
                "s1",
                "2026-02-22",
                [
                    "Bob: What now? When is it ever done, honestly, and who does it now?",
                    "Alice: Marcus started at Quarry Labs on Monday.",
                    "Bob: Classic Marcus.",
                ],
            )
        ]
    )

    assert fts5.terms_of("Where does Marcus work now?") == ["marcus", "work"]
    assert fts5.terms_of("What would Alice likely be interested in?") == ["alice"]
    assert fts5.terms_of("what now?") == ["now"]  # nothing but filler left: keep it
    assert fts5.terms_of("what is it?") == ["what", "is", "it"]  # only stopwords: keep them all
    found = [c.pk for c in chunk_search("When did Marcus start now?", k=3, queryset=turns())]
    assert ids["Bob: What now? When is it ever done, honestly, and who does it now?"] not in found
    assert found[0] == ids["Alice: Marcus started at Quarry Labs on Monday."]
    assert found.index(ids["Bob: Classic Marcus."]) > 0  # small talk naming him says nothing


def test_rows_that_are_not_turns_keep_the_keyword_order() -> None:
    add_chunks(
        ChunkDraft(content=text, namespace=NAMESPACE, source="notes")
        for text in ("deploy the pipeline by hand", "the deploy pipeline runs nightly", "deploy notes")
    )
    base = Chunk.objects.filter(namespace=NAMESPACE)

    assert [c.pk for c in chunk_search("deploy pipeline", k=3, queryset=base)] == search_chunk_ids(
        "deploy pipeline", k=3, queryset=deliverable(base)
    )


def test_the_hybrid_path_returns_both_turns_of_an_exchange(hybrid: Any) -> None:
    ids = store_sessions([("s1", "2026-01-10", FILLER_SESSION), ("s2", "2026-02-05", ADOPTION)])
    chunks_embed(chunk_ids=list(ids.values()), model=MODEL)
    question = "Which corgi did Alice adopt from the shelter, and what did she call it?"

    vector = embeddings.embed_query(question, model=MODEL)
    found = fused_ids(question, vector, k=4, queryset=scope(), model=MODEL)

    assert vectors.vector_count(model=MODEL) == len(ids)
    assert ids[ADOPTION[0]] in found
    assert ids[ADOPTION[2]] in found


@pytest.fixture
def embedded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text embed_query is asked for, from now on (the background thread's too)."""
    texts: list[str] = []
    real = embeddings.embed_query

    def spy(text: str, *, model: str | None = None) -> Any:
        texts.append(text)
        return real(text, model=model)

    monkeypatch.setattr(embeddings, "embed_query", spy)
    return texts


def test_the_vector_side_embeds_the_question_without_the_speakers_names(
    hybrid: Any, embedded: list[str]
) -> None:
    ids = store_sessions([("s1", "2026-02-05", ADOPTION), ("s2", "2026-01-10", FILLER_SESSION)])
    chunks_embed(chunk_ids=list(ids.values()), model=MODEL)

    found = hybrid_chunk_ids("Which corgi did Alice's family adopt?", k=3, queryset=scope(), model=MODEL)
    first = list(embedded)
    plain = hybrid_chunk_ids("Which corgi did Carol adopt?", k=3, queryset=scope(), model=MODEL)

    # Alice was not met before: the guess embedded as asked, then the speaker-free text.
    assert sorted(first) == ["Which corgi did Alice's family adopt?", "Which corgi did family adopt?"]
    assert embedded[len(first) :] == ["Which corgi did Carol adopt?"]  # Carol never speaks
    assert found[0] == ids[ADOPTION[0]]
    assert plain[0] == ids[ADOPTION[0]]


def test_the_question_is_embedded_once_when_its_speakers_were_met_before(
    hybrid: Any, request: pytest.FixtureRequest
) -> None:
    ids = store_sessions([("s1", "2026-02-05", ADOPTION), ("s2", "2026-01-10", FILLER_SESSION)])
    chunks_embed(chunk_ids=list(ids.values()), model=MODEL)
    hybrid_chunk_ids("What did Alice have for dinner?", k=3, queryset=scope(), model=MODEL)  # meets Alice
    real = embeddings.embed_query
    embedded = request.getfixturevalue("embedded")  # from here on
    question = "Which corgi did Alice's family adopt?"

    found = hybrid_chunk_ids(question, k=3, queryset=scope(), model=MODEL)

    assert embedded == ["Which corgi did family adopt?"]
    speaker_free = real("Which corgi did family adopt?", model=MODEL)
    assert found == fused_ids(question, speaker_free, k=3, queryset=scope(), model=MODEL)


def test_a_question_of_nothing_but_a_speakers_name_is_embedded_as_asked() -> None:
    ids = store_sessions([("s1", "2026-01-10", FILLER_SESSION)])

    rows = [structure.Row.of(chunk) for chunk in Chunk.objects.filter(pk__in=ids.values())]

    assert structure.speakers(rows) == {"alice", "bob"}
    names = structure.speakers(rows)
    assert structure.vector_query("Alice?", names) == "Alice?"
    assert structure.vector_query("What did Bob eat?", names) == "What did eat?"
    assert structure.vector_query("What did Bob eat?", set()) == "What did Bob eat?"


def test_a_line_said_in_many_sessions_ranks_below_one_said_once() -> None:
    greeting = "Alice: Morning! Got a minute to catch up on the garden?"
    news = "Alice: Morning. The garden finally has tomatoes, a minute ago I picked the first."
    ids = store_sessions(
        [("s1", "2026-01-10", [greeting]), ("s2", "2026-02-10", [greeting]), ("s3", "2026-03-10", [news])]
    )
    repeated = list(Chunk.objects.filter(content__contains="catch up").values_list("pk", flat=True))

    found = structure.rerank("garden minute", [[*repeated, ids[news]]], k=3, queryset=scope())

    assert len(repeated) == 2
    assert found[0] == ids[news]  # ranked third by the index, first once the repeats are damped


def test_a_turn_that_matched_only_a_speakers_name_ranks_below_one_on_the_subject() -> None:
    ferry = "Marcus: The ferry was late again, two hours on deck in the rain."
    garden = "Alice: We finally started the garden, tomatoes and beans along the fence."
    ids = store_sessions([("s1", "2026-04-01", [ferry]), ("s2", "2026-04-08", [garden])])
    ranking = [ids[ferry], ids[garden]]  # the keyword side's order: bm25 liked the name match

    named = structure.rerank("When did Marcus start the garden?", [ranking], k=2, queryset=scope())
    unnamed = structure.rerank("garden tomatoes", [ranking], k=2, queryset=scope())

    assert named == [ids[garden], ids[ferry]]
    assert unnamed == ranking  # no speaker in the question: nothing to discount


def session_reads(queries: CaptureQueriesContext) -> list[str]:
    """The statements among `queries` that read whole sessions (structure.read_sessions)."""
    return [q["sql"] for q in queries.captured_queries if '"source" IN' in q["sql"]]


def test_rerank_reads_only_the_sessions_it_was_not_given() -> None:
    ids = store_sessions([("s1", "2026-01-10", FILLER_SESSION), ("s2", "2026-02-05", ADOPTION)])
    question = "Which corgi did Alice adopt from the shelter, and what did she call it?"
    ranking = [[ids[ADOPTION[0]], ids[FILLER_SESSION[2]]]]  # the answer turn only the window finds
    read = structure.read_sessions(["s1", "s2"], RowFilter(scope()))

    with CaptureQueriesContext(connection) as unread:
        found = structure.rerank(question, ranking, k=3, queryset=scope())
    with CaptureQueriesContext(connection) as given:
        reused = structure.rerank(question, ranking, k=3, queryset=scope(), sessions=read)
    blind = structure.rerank(question, ranking, k=3, queryset=scope(), sessions={**read, "s2": []})

    assert [turn_id for turn_id, _ in read["s2"]] == [ids[turn] for turn in ADOPTION]  # in session order
    assert len(session_reads(unread)) == 1
    assert session_reads(given) == []
    assert reused == found
    assert ids[ADOPTION[2]] in found  # the window's answer turn, two places after the question's
    assert ids[ADOPTION[2]] not in blind  # the sessions given are the ones the window walks


class LateVector(Future):  # type: ignore[type-arg]
    """A query embedding still running when the keyword search is done; it records when the
    vector is asked for."""

    def __init__(self, vector: Any, events: list[str]) -> None:
        super().__init__()
        self.vector, self.events = vector, events

    def result(self, timeout: float | None = None) -> Any:
        self.events.append("vector")
        self.set_result(self.vector)
        return super().result(timeout)


def test_hybrid_reads_the_keyword_turns_sessions_while_the_embedding_runs(
    hybrid: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = store_sessions([("s1", "2026-01-10", FILLER_SESSION), ("s2", "2026-02-05", ADOPTION)])
    chunks_embed(chunk_ids=list(ids.values()), model=MODEL)
    question = "Which corgi did Alice adopt from the shelter, and what did she call it?"
    structure.remember_speakers(["alice", "bob"])  # the guess is then the text the vector needs
    started = start_embedding(question, model=MODEL)
    vector = started.vector.result()
    events: list[str] = []
    real = structure.read_sessions

    def reads(sources: Any, passes: RowFilter) -> structure.Sessions:
        sources = sorted(sources)
        events.append(f"sessions {sources}")
        return real(sources, passes)

    monkeypatch.setattr(structure, "read_sessions", reads)
    late = StartedEmbedding(started.guess, LateVector(vector, events))
    found = hybrid_chunk_ids(question, k=4, queryset=scope(), model=MODEL, started=late)
    waited = list(events)
    ready = hybrid_chunk_ids(question, k=4, queryset=scope(), model=MODEL, started=started)

    # Read before the vector was waited for; rerank's window then had none left to read.
    assert waited == ["sessions ['s1', 's2']", "vector", "sessions []"]
    assert events[len(waited) :] == ["sessions ['s1', 's2']"]  # a vector ready: read by the window only
    assert found == ready == fused_ids(question, vector, k=4, queryset=scope(), model=MODEL)
    assert ids[ADOPTION[2]] in found


def test_a_date_range_question_on_a_store_of_notes_ranks_without_error() -> None:
    """Regression: no turns, more rows matching than k, one written in the named range.

    rerank fused only the top of each list for a notes-only store but boosted every row it had
    read, so the row below that top raised KeyError (a 500 on recall and context)."""
    today = timezone.localdate()
    old = datetime(2020, 1, 1, 12, tzinfo=UTC)
    drafts = [
        ChunkDraft(
            content=f"billing service note {n}: deployed to region {n}",
            namespace=NAMESPACE,
            source="notes",
            created_at=old,
        )
        for n in range(12)
    ]
    drafts += [ChunkDraft(content=f"ordinary note {n} about lunch", namespace=NAMESPACE) for n in range(17)]
    drafts.append(
        ChunkDraft(
            content="billing service deployed with the new invoice template",
            namespace=NAMESPACE,
            source="notes",
            created_at=datetime.now(UTC),
        )
    )
    add_chunks(drafts)
    recent = Chunk.objects.get(content__startswith="billing service deployed with")
    question = "billing service deployed this week"

    keyword = search_chunk_ids(question, k=20, queryset=scope())
    ranked = structure.rerank(question, [keyword], k=3, queryset=scope(), today=today)
    found = [c.pk for c in chunk_search(question, k=3, queryset=turns())]

    assert len(ranked) == 3
    assert recent.pk in ranked  # the row written this week gets the date boost
    assert recent.pk in found


def test_a_turn_said_by_the_speaker_the_question_names_ranks_first() -> None:
    asked = "Nate: I adopted two turtles from the rescue centre downtown last spring."
    addressed = "Joanna: Nate, the turtles from the rescue centre downtown sound adorable!"
    ids = store_sessions([("s1", "2026-04-02", [addressed, *FILLER_SESSION, asked])])
    keyword_first = [ids[addressed], ids[asked]]  # the other speaker's reply matched first

    ranked = structure.rerank(
        "What did Nate adopt from the rescue centre?", [keyword_first], k=2, queryset=scope()
    )
    unnamed = structure.rerank(
        "What came from the rescue centre downtown?", [keyword_first], k=2, queryset=scope()
    )

    assert ranked[0] == ids[asked]
    assert unnamed[0] == ids[addressed]  # no speaker named: the ranking stands


def test_the_window_lends_the_asked_speakers_boost_only_to_that_speakers_turns() -> None:
    hit = "Nate: I adopted two turtles from the rescue centre downtown last spring."
    reply = "Joanna: Wow, that sounds like a big responsibility, how are they settling in?"
    other = "Nate: The rescue centre let me adopt a third turtle, a tiny one, this week."
    ids = store_sessions([("s1", "2026-04-02", [hit, reply, *FILLER_SESSION]), ("s2", "2026-04-09", [other])])
    keyword = [ids[hit], *[None] * 8, ids[other]]  # the second Nate turn matched tenth

    named = structure.rerank("What did Nate adopt from the rescue centre?", [keyword], k=3, queryset=scope())
    unnamed = structure.rerank("What came from the rescue centre downtown?", [keyword], k=3, queryset=scope())

    assert named[:2] == [ids[hit], ids[other]]  # Joanna's reply, lent the hit's score, comes after
    assert unnamed[:2] == [ids[hit], ids[reply]]  # no speaker named: the reply is lent it all


def test_a_turn_that_says_more_of_the_question_outranks_a_shorter_one_word_match() -> None:
    short = "Alice: Fantasy is my favourite kind of story, honestly, always has been."
    full = "Alice: The fantasy movie about the dragon library was the best film of the festival."
    ids = store_sessions([("s1", "2026-04-02", [short, *FILLER_SESSION[2:], full])])
    bm25_first = [ids[short], ids[full]]  # bm25 favours the shorter turn

    ranked = structure.rerank(
        "Which fantasy movie at the festival was the best film?", [bm25_first], k=2, queryset=scope()
    )

    assert ranked[0] == ids[full]


# -- the vector ranking read past the pool (structure.VECTOR_DEPTH)


def test_a_deep_ranking_lends_its_ranks_to_the_pool_and_adds_no_row() -> None:
    deep = [7, 3, 9, 1]  # 3 and 1 are in the pool; 7 and 9 are not

    ranked = structure.ranks_within(deep, {1, 3, 5})
    scores = structure.fuse([[5, 1], ranked], structure.EQUAL_LISTS)

    assert ranked == [None, 3, None, 1]
    rrf_k = structure.EQUAL_LISTS.rrf_k
    assert scores == {5: 1 / (rrf_k + 1), 1: 1 / (rrf_k + 2) + 1 / (rrf_k + 4), 3: 1 / (rrf_k + 2)}


SHIP = [
    "Bob: I will ship the build tonight, then dinner with friends at seven.",  # both words, far in meaning
]
PARAPHRASE = [
    "Carol: The deploy pipeline release is manual, workflow_dispatch each release.",  # no word, same meaning
]


def test_a_keyword_hit_below_the_vector_pool_keeps_its_vector_share(
    hybrid: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A pool of one row a side: the keyword side holds Bob's turn, the vector side Carol's
    # paraphrase (closer in the stub's concept space). Read past its pool, the vector ranking
    # gives Bob's turn its rank 2 as well, and a turn found by both sides outranks one found by one.
    monkeypatch.setattr(structure, "POOL_FACTOR", 1)
    monkeypatch.setattr(structure, "MIN_POOL", 1)
    ids = store_sessions([("s1", "2026-01-10", SHIP), ("s2", "2026-01-11", PARAPHRASE)])
    chunks_embed(chunk_ids=list(ids.values()), model=MODEL)
    question = "ship build"
    vector = embeddings.embed_query(question, model=MODEL)
    assert vectors.nearest_ids(vector, k=2, model=MODEL, queryset=scope()) == [
        ids[PARAPHRASE[0]],
        ids[SHIP[0]],
    ]
    assert search_chunk_ids(question, k=2, queryset=scope()) == [ids[SHIP[0]]]

    found = fused_ids(question, vector, k=1, queryset=scope(), model=MODEL)
    monkeypatch.setattr(structure, "VECTOR_DEPTH", 1)  # the vector pool alone, as before
    pool_only = fused_ids(question, vector, k=1, queryset=scope(), model=MODEL)

    assert found == [ids[SHIP[0]]]
    assert pool_only == [ids[PARAPHRASE[0]]]


CAMPING_MARCH = "Alice: We went camping by the lake, lovely weather."
CAMPING_JUNE = "Alice: We went camping by the lake again, the kids loved the campfire and the hike."


def camping_sessions() -> tuple[int, int]:
    """Alice camping in March and again in June 2023, each in a session padded with filler: the
    turns' ids (march, june)."""
    ids = store_sessions(
        [
            ("s1", "2023-03-03", [CAMPING_MARCH, *FILLER_SESSION]),
            ("s2", "2023-06-20", [CAMPING_JUNE, *FILLER_SESSION]),
        ]
    )
    return ids[CAMPING_MARCH], ids[CAMPING_JUNE]


def test_a_yearless_month_is_read_from_the_conversations_own_time() -> None:
    """A conversation written in 2023 and asked about in 2026: "in June" is its June, not 2026's."""
    march, june = camping_sessions()
    question = "When did Alice go camping in June?"
    keyword_first = [march, june]
    today = date(2026, 12, 5)
    off = dataclasses.replace(structure.WEIGHTS, anchor_to_turns=False)

    anchored = structure.rerank(question, [keyword_first], k=2, queryset=scope(), today=today)
    from_today = structure.rerank(question, [keyword_first], k=2, queryset=scope(), today=today, weights=off)

    assert anchored[0] == june
    assert from_today[0] == march  # read from today, June 2026 holds no turn: the ranking stands


def test_this_week_on_a_past_conversation_is_not_read_from_its_newest_session() -> None:
    """Asked in 2026 about a 2023 conversation, "this week" names no week of it: counted from the
    newest session's day it boosted that session's turns over the older one holding the answer."""
    march, june = camping_sessions()
    question = "Where did Alice go camping this week?"
    keyword_first = [march, june]
    today = date(2026, 12, 5)
    newest = dataclasses.replace(structure.WEIGHTS, past_relative="newest")

    ranked = structure.rerank(question, [keyword_first], k=2, queryset=scope(), today=today)
    from_newest = structure.rerank(
        question, [keyword_first], k=2, queryset=scope(), today=today, weights=newest
    )

    assert ranked[0] == march  # no boost: the ranking stands
    assert from_newest[0] == june  # the week of 2023-06-20, the newest session's day


def test_a_named_year_is_still_read_on_a_past_conversation() -> None:
    march, june = camping_sessions()
    question = "Where did Alice go camping last weekend before 20 June 2023?"
    keyword_first = [march, june]

    ranked = structure.rerank(question, [keyword_first], k=2, queryset=scope(), today=date(2026, 12, 5))

    assert ranked[0] == june


def test_rows_that_are_not_turns_keep_today_as_the_reference_day() -> None:
    drafts = [
        ChunkDraft(
            content=f"camping trip by the lake, note {n}",
            namespace=NAMESPACE,
            source="notes",
            created_at=datetime(2023, month, 10, 12, tzinfo=UTC),
        )
        for n, month in enumerate((3, 6))
    ]
    add_chunks(drafts)
    march, june = (Chunk.objects.get(content=d.content).pk for d in drafts)

    ranked = structure.rerank(
        "camping trip by the lake in June", [[march, june]], k=2, queryset=scope(), today=date(2026, 12, 5)
    )

    assert ranked == [march, june]  # no turn: "in June" is June 2026, and neither note gets the boost


def test_the_keywords_first_turns_keep_a_place_past_rank_five() -> None:
    ranked = [(n, 1.0 - n / 100) for n in range(1, 21)]  # ids 1..20, best first
    keyword = [17, 19, 3, 12]

    kept = structure.keep_keyword_heads(ranked, keyword, k=10)
    top5 = structure.keep_keyword_heads(ranked, keyword, k=5)

    assert [i for i, _ in kept[:5]] == [1, 2, 3, 4, 5]  # the head stays as ranked
    assert {17, 19} <= {i for i, _ in kept}  # the keyword's first two
    assert 12 not in {i for i, _ in kept}  # only the first keyword_heads (2) are kept
    assert [i for i, _ in kept[5:8]] == [6, 7, 8]  # they replace the lowest, 9 and 10
    assert [s for _, s in kept] == sorted((s for _, s in kept), reverse=True)
    assert top5 == ranked[:5]  # a top 5 is never changed


def test_a_turn_the_keyword_side_ranks_first_stays_in_the_top_ten() -> None:
    texts = [f"Alice: We talked about the garden and the weather, part {n} of the chat." for n in range(14)]
    quip = "Gina: Ha, Shia!"
    ids = store_sessions([("s1", "2026-04-02", [*texts, quip])])
    others = [ids[t] for t in texts]
    rankings = [[ids[quip], *others[:3]], others]  # keyword first; the vector side misses it
    question = "When did Gina mention Shia Labeouf's films?"
    off = dataclasses.replace(structure.WEIGHTS, keyword_heads=0)

    kept = structure.rerank(question, rankings, k=10, queryset=scope())
    without = structure.rerank(question, rankings, k=10, queryset=scope(), weights=off)

    assert ids[quip] in kept
    assert ids[quip] not in without  # small talk, one list: fusion alone puts it past ten


def test_a_short_turn_that_says_only_the_questions_words_is_an_answer_not_small_talk() -> None:
    texts = [f"Alice: We talked about the garden and the weather, part {n} of the chat." for n in range(14)]
    answer, quip = "Gina: It's Shia Labeouf!", "Gina: Ha, Shia!"
    ids = store_sessions([("s1", "2026-04-02", [*texts, answer, quip])])
    others = [ids[t] for t in texts]
    question = "When did Gina mention Shia Labeouf?"
    off = dataclasses.replace(structure.WEIGHTS, keyword_heads=0)

    def rank_of(turn: str) -> int | None:
        found = structure.rerank(
            question, [[ids[turn], *others[:3]], others], k=10, queryset=scope(), weights=off
        )
        return found.index(ids[turn]) + 1 if ids[turn] in found else None

    assert rank_of(answer) is not None  # two words, both the question's: kept whole
    assert rank_of(quip) is None  # "ha" is not the question's: damped as small talk


def test_a_requery_on_the_exact_scan_reads_the_new_vector_once(
    hybrid: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the pool's speakers call for another vector, the exact scan's deep read is that
    vector's pool too: no second pool read first, and the same answer as starting from it."""
    ids = store_sessions([("s1", "2026-02-05", ADOPTION), ("s2", "2026-01-10", FILLER_SESSION)])
    chunks_embed(chunk_ids=list(ids.values()), model=MODEL)
    question = "Which corgi did Alice's family adopt?"
    asked = embeddings.embed_query(question, model=MODEL)
    better = embeddings.embed_query("Which corgi did family adopt?", model=MODEL)
    top = structure.search_rows(question, k=structure.PLAIN_DEPTH, queryset=scope(), any_term=False)
    calls: list[int] = []
    real = vectors.nearest_rows

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs["k"])
        return real(*args, **kwargs)

    monkeypatch.setattr(vectors, "nearest_rows", counted)
    options: dict[str, Any] = {"k": 3, "queryset": scope(), "model": MODEL, "held": top, "whole": False}
    found = fused_ids(question, asked, requery=lambda pool: better, **options)
    reads = len(calls)
    direct = fused_ids(question, better, requery=lambda pool: None, **options)

    # the first vector's top, then the new vector's pool and deep ranking in one scan; an approximate
    # index (pgvector) searches its pool and its deep ranking apart
    assert reads == (2 if vectors.exact_scan(MODEL, scope()) else 3)
    assert found == direct


WORKOUT = [
    "John: We've been exercising as a family, and the kids keep up with the workout.",
    "Maria: Love that! How often do you all work out together as a family?",
    "John: Thanks, Maria! Three times a week; it keeps us on track.",
]


def test_the_turn_after_a_question_is_its_answer_and_ranks_above_it() -> None:
    other = "John: The family workout at the gym together was tough today."
    ids = store_sessions([("s1", "2026-05-02", [*FILLER_SESSION, *WORKOUT]), ("s2", "2026-05-09", [other])])
    asking, answer = ids[WORKOUT[1]], ids[WORKOUT[2]]
    keyword = [asking, ids[other]]  # the answer says none of the question's words

    found = structure.rerank("How often does the family work out together?", [keyword], k=3, queryset=scope())

    assert found[:2] == [answer, asking]  # lent more than the next turn's 0.9, it passes both


def test_a_question_lends_its_answer_even_when_the_answer_is_small_talk_sized() -> None:
    asking = "Maria: That's so moving! How did the kids react when they saw the memorial?"
    answer = "John: They were awestruck and humbled."
    ids = store_sessions([("s1", "2026-05-02", [*FILLER_SESSION, asking, answer])])

    found = structure.rerank(
        "How did John's kids react at the memorial?", [[ids[asking]]], k=3, queryset=scope()
    )

    assert ids[answer] in found[:2]  # two content words: the window used to skip it as small talk


def test_a_question_ranked_past_the_window_hits_still_lends_its_answer() -> None:
    weights = structure.WEIGHTS
    above = [
        f"Alice: Garden diary entry {n}: planted tomatoes, beans and basil in the raised beds."
        for n in range(12)
    ]
    ids = store_sessions([("s1", "2026-05-02", [*FILLER_SESSION, *WORKOUT]), ("s2", "2026-05-09", above)])
    asking, answer = ids[WORKOUT[1]], ids[WORKOUT[2]]
    # the asking turn is ranked 11th, past the window's hits
    keyword = [*(ids[turn] for turn in above[: weights.window_hits]), asking]

    question = "How often do they work out together?"
    lent = dict(structure.rerank_scored(question, [keyword], k=20, queryset=scope()))
    hits_only = dataclasses.replace(weights, answer_hits=weights.window_hits, answer_raw="")
    unlent = dict(structure.rerank_scored(question, [keyword], k=20, queryset=scope(), weights=hits_only))

    assert lent[answer] > lent[asking]
    assert answer not in unlent  # only the window's hits lend: the answer matched nothing


def test_the_turns_ranked_11th_and_12th_lend_to_their_neighbours() -> None:
    above = [
        f"Alice: Garden diary entry {n}: planted tomatoes, beans and basil in the raised beds."
        for n in range(10)
    ]
    told = "John: We finally booked the family trip to the coast for the summer holidays."
    after = "John: My sister Rita is coming along with her two dogs and a canoe."
    ids = store_sessions([("s1", "2026-05-02", [*FILLER_SESSION, told, after]), ("s2", "2026-05-09", above)])
    keyword = [*(ids[turn] for turn in above), ids[told]]  # the trip's turn is ranked 11th
    question = "Who joined the family trip to the coast?"

    lent = dict(structure.rerank_scored(question, [keyword], k=20, queryset=scope()))
    ten = dataclasses.replace(structure.WEIGHTS, window_hits=10)
    unlent = dict(structure.rerank_scored(question, [keyword], k=20, queryset=scope(), weights=ten))

    assert ids[after] in lent  # Weights.window_hits: the 11th and 12th hits lend too
    assert ids[after] not in unlent  # it says none of the question's words


def test_a_question_about_the_asked_speaker_lends_its_answer_what_it_matched() -> None:
    shared = "Joanna: Here is the new screenplay draft, printed and bound at last."
    asking = "Nate: Wow, that looks great Joanna! Is that your third one?"
    answer = "Joanna: Yep! I chose to write about this because it's personal: loss, identity and connection."
    others = [
        f"Joanna: The screenplay workshop met again on day {n} of the course, lots of notes."
        for n in range(3)
    ]
    ids = store_sessions(
        [("s1", "2026-05-02", [*FILLER_SESSION, shared, asking, answer]), ("s2", "2026-05-09", others)]
    )
    keyword = [ids[asking], *(ids[turn] for turn in others)]  # Nate's question matched first
    question = "What is Joanna's third screenplay about?"

    vector: list[int] = []  # hybrid, its vector side finding none of these turns
    found = structure.rerank(question, [keyword, vector], k=3, queryset=scope())
    damped = structure.rerank(
        question,
        [keyword, vector],
        k=3,
        queryset=scope(),
        weights=dataclasses.replace(structure.WEIGHTS, answer_raw=""),
    )
    keyword_only = structure.rerank(question, [keyword], k=3, queryset=scope())

    assert found[0] == ids[answer]  # Nate's question is damped as his, but Joanna's reply answers it
    assert damped[0] != ids[answer]
    assert keyword_only[0] != ids[answer]  # bm25's match alone is what the damping corrects


# -- the vector ranking's tail: rows past the pool compete for the ranks past the head


HOBBIES = [
    f"Alice: On {day} I spent the whole afternoon {what} with my neighbours."
    for day, what in [
        ("Monday", "painting landscapes"),
        ("Tuesday", "baking sourdough bread"),
        ("Wednesday", "repairing old bicycles"),
        ("Thursday", "planting tomatoes"),
        ("Friday", "knitting warm scarves"),
        ("Saturday", "climbing granite boulders"),
        ("Sunday", "sailing across the bay"),
        ("one holiday", "writing long letters"),
    ]
]


def test_a_tail_row_competes_for_the_ranks_past_the_head_only() -> None:
    # One turn a session (no window); the vector ranking puts the tail's row first: in the pool
    # it would rank first, as tail it ranks sixth, and the head is the one ranked without it.
    ids = store_sessions([(f"s{at}", f"2026-01-{at + 10}", [turn]) for at, turn in enumerate(HOBBIES)])
    rows = [ids[turn] for turn in HOBBIES]
    pool, extra = rows[:7], rows[7]
    vector = [extra, *pool]

    as_pool = structure.rerank(HOBBIES[0], [[], vector], k=10, queryset=scope())
    without = structure.rerank(HOBBIES[0], [[], pool], k=10, queryset=scope())
    with_tail = structure.rerank(HOBBIES[0], [[], vector], k=10, queryset=scope(), tail=[extra])

    assert as_pool[0] == extra
    assert with_tail[:5] == without[:5]
    assert with_tail[5] == extra
    assert with_tail == [*without[:5], extra, *without[5:]]


def test_vector_tail_is_the_deep_rankings_rows_outside_the_pool_to_its_depth() -> None:
    weights = dataclasses.replace(structure.WEIGHTS, tail_depth=4)

    assert structure.vector_tail([5, 1, 7, 3, 9], {1, 3}, weights) == [5, 7]
    assert structure.vector_tail([5, 1, 7, 3, 9], {1, 3}, dataclasses.replace(weights, tail_depth=0)) == []


def test_hybrid_hands_rerank_the_deep_vector_rows_outside_the_pool_as_its_tail(
    hybrid: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A pool of 6 a side on a store of 8 one-turn sessions: the vector ranking's rows past its
    # pool that the keyword side did not find either are the tail, ranked as such.
    monkeypatch.setattr(structure, "POOL_FACTOR", 1)
    monkeypatch.setattr(structure, "MIN_POOL", 6)
    ids = store_sessions([(f"s{at}", f"2026-01-{at + 10}", [turn]) for at, turn in enumerate(HOBBIES)])
    chunks_embed(chunk_ids=list(ids.values()), model=MODEL)
    question = "painting landscapes"
    vector = embeddings.embed_query(question, model=MODEL)
    calls: list[dict[str, Any]] = []
    real = structure.rerank_scored

    def spy(query: str, rankings: Any, **options: Any) -> Any:
        calls.append({"rankings": rankings, **options})
        return real(query, rankings, **options)

    monkeypatch.setattr(structure, "rerank_scored", spy)
    found = fused_ids(question, vector, k=6, queryset=scope(), model=MODEL)

    deep = vectors.nearest_ids(vector, k=8, model=MODEL, queryset=scope())
    keyword, ranked = calls[0]["rankings"]
    pool = {*keyword, *deep[:6]}
    assert calls[0]["tail"] == [i for i in deep if i not in pool] != []
    assert [i for i in ranked if i is not None] == [i for i in deep if i in pool or i in calls[0]["tail"]]
    assert not set(found[:5]) & set(calls[0]["tail"])


def test_a_turn_of_the_session_holding_the_top_hits_moves_up_past_the_head() -> None:
    ranked = [(n, 1.0 - n / 100) for n in range(1, 13)]  # ids 1..12, best first
    source_of = {n: f"s{n}" for n in range(1, 13)} | {1: "busy", 2: "busy", 3: "busy", 12: "busy"}
    del source_of[11]  # not a turn: no session, no lift
    weights = dataclasses.replace(structure.WEIGHTS, session_prior=0.5, session_late=True)

    moved = structure.lift_by_session(ranked, source_of, weights)
    everywhere = structure.lift_by_session(
        ranked, source_of, dataclasses.replace(weights, session_late=False)
    )
    off = structure.lift_by_session(ranked, source_of, dataclasses.replace(weights, session_prior=0.0))

    assert moved[:5] == ranked[:5]  # the head stays as ranked
    assert moved[5][0] == 12  # the busy session's last turn, from twelfth to sixth
    assert dict(moved)[11] == dict(ranked)[11]
    assert [i for i, _ in everywhere[:4]] == [1, 2, 3, 12]  # without session_late the head moves too
    assert [i for i, _ in off] == [i for i, _ in ranked]


def test_rerank_lifts_the_turns_of_the_session_its_top_hits_share() -> None:
    # A busy session holding three of the top hits and a fourth turn the vector side ranks
    # twelfth; eight sessions of one turn each between them. The window is off, to see the prior.
    busy = [f"Alice: The allotment plans, chapter {w}, were discussed at length today." for w in "abcd"]
    alone = [
        f"Bob: A separate long story about trip {w} and the museum visit afterwards." for w in "efghijkl"
    ]
    ids = store_sessions(
        [("busy", "2026-02-01", busy), *((f"x{n}", "2026-02-02", [t]) for n, t in enumerate(alone))]
    )
    b, x = [ids[t] for t in busy], [ids[t] for t in alone]
    vector = [b[0], x[0], b[1], x[1], b[2], *x[2:], b[3]]
    quiet = dataclasses.replace(structure.WEIGHTS, window_hits=0, answer_hits=0, keyword_heads=0)
    lifted = dataclasses.replace(quiet, session_prior=1.0, session_late=True)
    question = "What were the allotment plans?"

    without = structure.rerank(
        question, [[], vector], k=10, queryset=scope(), weights=dataclasses.replace(quiet, session_prior=0.0)
    )
    found = structure.rerank(question, [[], vector], k=10, queryset=scope(), weights=lifted)
    keyword_alone = structure.rerank(question, [vector], k=10, queryset=scope(), weights=lifted)

    assert b[3] not in without
    assert found[:5] == without[:5]
    assert found[5] == b[3]
    assert b[3] not in keyword_alone  # no vector ranking fused in: no prior (Weights.session_prior)
