"""memory.retrieval.search: the tiered FTS5 plan, delivery filters, widening, and the LIKE fallback."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from memory.lifecycle.selectors import at_or_above_trust, chunk_search, in_namespaces
from memory.lifecycle.writes import ChunkDraft, add_chunk, chunk_supersede
from memory.retrieval.search import (
    plan,
    reset_backend_cache,
    search_backend_name,
    search_chunk_ids,
    search_chunks,
    search_deliverable,
)
from memory.store import deliverable as deliverable_module
from memory.store import row_filter, text_index
from memory.store.deliverable import deliverable
from memory.store.models import Chunk, PendingChunk
from memory.store.text_index import fts5, tsvector
from tests.factories import AgentFactory, ChunkFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def like(settings):
    settings.PROTOMEM_SEARCH_BACKEND = "like"
    assert search_backend_name() == "like"
    return settings


@pytest.fixture
def fresh_backend():
    reset_backend_cache()
    yield
    reset_backend_cache()


def filler(n: int = 12) -> None:
    ChunkFactory.create_batch(n, content="unrelated filler about lunch menus", heading="filler")


def headings(hits) -> list[str]:
    return [c.heading for c in hits]


def index_statements(ctx: CaptureQueriesContext) -> int:
    """Statements that read the text index (FTS5 MATCH or a tsvector @@)."""
    return sum("MATCH" in q["sql"] or "@@" in q["sql"] for q in ctx.captured_queries)


@pytest.mark.sqlite_only
def test_plan_steps():
    assert plan([]) == []
    assert plan(["a"]) == ['"a"']
    assert plan(["a", "b"]) == ['"a" AND "b"', '"a" OR "b"']
    assert plan(["a", "b", "c"]) == [
        '"a" AND "b" AND "c"',
        '("a" AND "b") OR ("a" AND "c") OR ("b" AND "c")',
        '"a" OR "b" OR "c"',
    ]


@pytest.mark.sqlite_only
def test_backend_is_fts5_here():
    assert search_backend_name() == "fts5"


@pytest.mark.postgres_only
def test_backend_is_tsvector_on_postgresql():
    assert search_backend_name() == "tsvector"
    first, last = plan(["a", "b", "c"])
    # the all-terms and pair steps in one statement (text_index.chunk_plan), then any term
    assert isinstance(first, tsvector.Steps)
    assert list(first) == [(("a", "b", "c"),), (("a", "b"), ("a", "c"), ("b", "c"))]
    assert last == (("a",), ("b",), ("c",))
    assert plan(["a", "b", "c"], any_term=False) == [first]


# -- the intended order (module docstring): coverage of the query first, bm25 within a step


@pytest.fixture
def coverage_rows(db):
    filler(20)
    long_text = " ".join(["padding"] * 40)
    return {
        "all3": ChunkFactory(heading="all3", content=f"quokka marmot wombat {long_text}"),
        "two": ChunkFactory(heading="two", content="quokka quokka quokka marmot marmot marmot"),
        "one": ChunkFactory(heading="one", content="wombat wombat wombat wombat"),
        "two-long": ChunkFactory(heading="two-long", content=f"quokka wombat {long_text}"),
    }


def test_all_terms_outrank_two_terms_outrank_one_term(coverage_rows):
    hits = chunk_search("quokka marmot wombat", k=10)
    assert headings(hits) == ["all3", "two", "two-long", "one"]


def test_the_tiered_order_is_not_pure_bm25(coverage_rows):
    # pure bm25 over OR would put the short, repetitive rows first: the plan deliberately does not
    index = text_index.sql()
    naive = index.match_ids(index.any_term(["quokka", "marmot", "wombat"]), limit=None)
    by_id = {c.pk: name for name, c in coverage_rows.items()}
    assert by_id[naive[0]] != "all3"
    assert headings(chunk_search("quokka marmot wombat", k=10))[0] == "all3"


def test_k_cuts_across_steps(coverage_rows):
    assert headings(chunk_search("quokka marmot wombat", k=1)) == ["all3"]
    assert headings(chunk_search("quokka marmot wombat", k=2)) == ["all3", "two"]
    assert headings(chunk_search("quokka marmot wombat", k=3)) == ["all3", "two", "two-long"]


def test_two_term_query_and_then_or(coverage_rows):
    assert headings(chunk_search("quokka marmot", k=10)) == ["two", "all3", "two-long"]


@pytest.mark.parametrize("k", [0, -1, -10])
def test_non_positive_k_returns_nothing(coverage_rows, k):
    assert chunk_search("quokka", k=k) == []
    assert search_chunk_ids("quokka", k=k, queryset=deliverable()) == []


def test_stopwords_are_dropped_when_there_is_more():
    filler()
    hit = ChunkFactory(heading="h", content="the deploy freeze")
    assert [c.pk for c in chunk_search("what is the deploy freeze", k=10)] == [hit.pk]


# -- what delivery excludes


@pytest.fixture
def lifecycle_rows(db):
    now = timezone.now()
    filler()
    rows = {
        "pending": ChunkFactory(heading="pending", content="zebrafish pending", review_state="pending"),
        "confirmed": ChunkFactory(
            heading="confirmed", content="zebrafish confirmed", review_state="confirmed"
        ),
        "unstamped": ChunkFactory(heading="unstamped", content="zebrafish legacy", review_state=None),
        "rejected": ChunkFactory(heading="rejected", content="zebrafish rejected", review_state="rejected"),
        "expired": ChunkFactory(
            heading="expired", content="zebrafish expired", expires_at=now - timedelta(seconds=1)
        ),
        "expiring": ChunkFactory(
            heading="expiring", content="zebrafish expiring", expires_at=now + timedelta(days=1)
        ),
        "old": ChunkFactory(heading="old", content="zebrafish old revision"),
    }
    new = ChunkFactory(heading="new", content="zebrafish new revision")
    assert chunk_supersede(old_id=rows["old"].pk, new_id=new.pk)
    rows["new"] = new
    return rows


def test_invalidated_rejected_and_expired_are_excluded_by_default(lifecycle_rows):
    assert sorted(headings(chunk_search("zebrafish", k=20))) == [
        "confirmed",
        "expiring",
        "new",
        "pending",
        "unstamped",
    ]


def test_include_superseded_adds_history_only(lifecycle_rows):
    hits = chunk_search("zebrafish", k=20, include_superseded=True)
    assert sorted(headings(hits)) == ["confirmed", "expiring", "new", "old", "pending", "unstamped"]
    old = next(c for c in hits if c.heading == "old")
    assert old.superseded_by_id == lifecycle_rows["new"].pk


def test_exclusions_hold_in_the_like_fallback(lifecycle_rows, like):
    assert sorted(headings(chunk_search("zebrafish", k=20))) == [
        "confirmed",
        "expiring",
        "new",
        "pending",
        "unstamped",
    ]
    assert "old" in headings(chunk_search("zebrafish", k=20, include_superseded=True))


# -- filters that drop the best matches: the step widens instead of coming back short


def test_widening_finds_a_deliverable_row_behind_many_rejected_ones():
    filler()
    rejected = [
        ChunkFactory(heading="quokka", content="quokka quokka", review_state="rejected") for _ in range(45)
    ]
    weak = ChunkFactory(heading="weak", content="a long note that mentions a quokka once among many words")
    index = text_index.sql()
    ranked = index.match_ids(index.all_terms(["quokka"]), limit=None)
    assert ranked[-1] == weak.pk  # it is the worst match
    assert len(ranked) == len(rejected) + 1
    # k=1: considers 4, then 40 (all rejected), then all of them
    assert [c.pk for c in chunk_search("quokka", k=1)] == [weak.pk]
    with CaptureQueriesContext(connection) as ctx:
        chunk_search("quokka", k=1)
    assert index_statements(ctx) == 3


def test_an_exhausted_step_is_not_widened():
    filler()
    ChunkFactory(heading="a", content="quokka marmot")
    ChunkFactory(heading="b", content="marmot only")
    with CaptureQueriesContext(connection) as ctx:
        hits = chunk_search("quokka marmot", k=10)
    assert headings(hits) == ["a", "b"]
    # one statement per step: AND (1 match < 40 considered), OR (2 < 40): no widening
    assert index_statements(ctx) == 2


def test_the_fallback_path_widens_the_same_way():
    filler()
    agent = AgentFactory(is_active=True)
    for _ in range(45):
        ChunkFactory(heading="quokka", content="quokka quokka", agent=agent, review_state="rejected")
    weak = ChunkFactory(heading="weak", content="a long note that mentions a quokka once", agent=agent)
    joined = deliverable().filter(agent__is_active=True)  # a join: not a plain single-table filter
    assert row_filter.compiled_filter(joined) is None
    assert [c.pk for c in search_chunks("quokka", k=1, queryset=joined)] == [weak.pk]


# -- querysets: the one-statement path and the ORM fallback agree


@pytest.fixture
def scoped_rows(db):
    filler()
    active, idle = AgentFactory(is_active=True), AgentFactory(is_active=False)
    rows = []
    for i, (ns, st, agent) in enumerate(
        [
            ("proj-a", "console", active),
            ("proj-a", "web", active),
            ("", "harvest", idle),
            ("proj-b", "memory_ingest", active),
            ("", "", active),
            ("proj-a", "extracted", idle),
        ]
    ):
        words = "otter " * (i + 1) + "beaver"
        rows.append(ChunkFactory(heading=f"r{i}", content=words, namespace=ns, source_type=st, agent=agent))
    return rows


@pytest.mark.parametrize(
    ("fast", "slow"),
    [
        (lambda: deliverable(), lambda: deliverable().filter(agent__name__isnull=False) | deliverable()),
        (
            lambda: in_namespaces(deliverable(), ["proj-a", ""]),
            lambda: in_namespaces(deliverable(), ["proj-a", ""]).filter(agent__name__isnull=False),
        ),
        (
            lambda: at_or_above_trust(deliverable(), 2),
            lambda: at_or_above_trust(deliverable(), 2).filter(agent__name__isnull=False),
        ),
        (
            lambda: deliverable().filter(agent__in=AgentFactory._meta.model.objects.filter(is_active=True)),
            lambda: deliverable().filter(agent__is_active=True),
        ),
    ],
)
def test_fast_and_fallback_paths_agree(scoped_rows, fast, slow):
    fast_qs, slow_qs = fast(), slow()
    assert row_filter.compiled_filter(fast_qs) is not None
    assert row_filter.compiled_filter(slow_qs) is None
    for query in ["otter", "otter beaver", "beaver otter nothing"]:
        expected = [c.pk for c in search_chunks(query, k=4, queryset=slow_qs)]
        assert expected
        assert [c.pk for c in search_chunks(query, k=4, queryset=fast_qs)] == expected
        assert search_chunk_ids(query, k=4, queryset=fast_qs) == expected
        assert search_chunk_ids(query, k=4, queryset=slow_qs) == expected


def test_namespace_and_trust_scoping(scoped_rows):
    scoped = in_namespaces(deliverable(), ["proj-a"])
    assert sorted(headings(search_chunks("otter", k=10, queryset=scoped))) == ["r0", "r1", "r5"]
    operator_or_agent = at_or_above_trust(deliverable(), 2)
    assert sorted(headings(search_chunks("otter", k=10, queryset=operator_or_agent))) == [
        "r0",
        "r2",
        "r3",
        "r5",
    ]
    assert headings(search_chunks("otter", k=10, queryset=at_or_above_trust(deliverable(), 3))) == ["r0"]


def test_rows_come_back_as_the_orm_would_load_them(scoped_rows):
    hits = search_chunks("otter", k=10, queryset=deliverable())
    assert len(hits) == 6
    for chunk in hits:
        loaded = Chunk.objects.get(pk=chunk.pk)
        fields = [f.attname for f in Chunk._meta.concrete_fields]
        assert {f: getattr(chunk, f) for f in fields} == {f: getattr(loaded, f) for f in fields}
        assert timezone.is_aware(chunk.created_at)
        assert chunk._state.adding is False
        assert chunk._state.db == "default"


def test_a_proxy_queryset_returns_proxy_rows(scoped_rows):
    hits = search_chunks("otter", k=3, queryset=PendingChunk.objects.all())
    assert hits
    assert all(type(c) is PendingChunk for c in hits)


def test_an_empty_queryset_finds_nothing(scoped_rows):
    assert search_chunks("otter", k=10, queryset=Chunk.objects.none()) == []


# -- the LIKE fallback (forced, or when FTS5 / its table is missing)


@pytest.fixture
def like_rows(db):
    now = timezone.now()
    return {
        "both-old": ChunkFactory(
            heading="Deploy", content="freeze on fridays", created_at=now - timedelta(days=3)
        ),
        "both-new": ChunkFactory(
            heading="x", content="DEPLOY FREEZE notes", created_at=now - timedelta(days=1)
        ),
        "one": ChunkFactory(heading="y", content="deployment schedule", created_at=now),
        "none": ChunkFactory(heading="z", content="lunch menu", created_at=now),
    }


def test_like_fallback_ranks_by_terms_matched_then_newest(like_rows, like):
    hits = chunk_search("deploy freeze", k=10)
    assert headings(hits) == ["x", "Deploy", "y"]
    assert headings(chunk_search("deploy freeze", k=2)) == ["x", "Deploy"]


def test_like_fallback_is_case_insensitive_and_literal(like_rows, like):
    assert headings(chunk_search("DEPLOYMENT", k=10)) == ["y"]
    assert chunk_search("%", k=10) == []  # no word characters: no terms
    assert chunk_search("50% off_", k=10) == []  # % and _ are not wildcards


@pytest.mark.parametrize("query", ["", "   ", '"', "()", "*"])
def test_like_fallback_empty_query(like_rows, like, query):
    assert chunk_search(query, k=10) == []


def test_like_fallback_hostile_queries_never_raise(like_rows, like):
    from tests.memory.store.test_fts import HOSTILE

    for query in HOSTILE:
        chunk_search(query, k=5)


def test_like_fallback_ids(like_rows, like):
    assert search_chunk_ids("freeze", k=10, queryset=deliverable()) == [
        like_rows["both-new"].pk,
        like_rows["both-old"].pk,
    ]


@pytest.mark.sqlite_only
def test_fallback_when_the_fts_table_is_missing(like_rows, fresh_backend):
    # given a store whose FTS table is gone (rolled back with the test transaction)
    with connection.cursor() as cursor:
        for trigger in fts5.TRIGGERS:
            cursor.execute(f"DROP TRIGGER {trigger}")
        cursor.execute("DROP TABLE memory_chunk_fts")
    reset_backend_cache()
    # then search still answers, through LIKE
    assert search_backend_name() == "like"
    assert headings(chunk_search("deploy freeze", k=10)) == ["x", "Deploy", "y"]


@pytest.mark.sqlite_only
def test_fallback_when_sqlite_lacks_fts5(like_rows, fresh_backend, monkeypatch):
    monkeypatch.setattr(fts5, "fts5_compiled", lambda: False)
    reset_backend_cache()
    assert search_backend_name() == "like"
    assert headings(chunk_search("freeze", k=10)) == ["x", "Deploy"]


def test_add_chunk_rows_are_searchable_at_once():
    filler()
    chunk = add_chunk(ChunkDraft(content="The release pipeline is manual via workflow_dispatch."))
    assert [c.pk for c in chunk_search("release pipeline", k=5)] == [chunk.pk]


# -- chunk_search's default path: deliverable()'s SQL compiled once, `now` filled per call


@pytest.mark.parametrize("include_superseded", [False, True])
@pytest.mark.parametrize(
    "now",
    [
        datetime(2026, 7, 1, 12, 0, tzinfo=UTC),
        datetime(2031, 1, 2, 3, 4, 5, 678901, tzinfo=UTC),
        datetime(2026, 7, 1, 14, 0, tzinfo=timezone.get_fixed_timezone(120)),
    ],
)
def test_deliverable_template_equals_a_fresh_compile(include_superseded, now):
    built = deliverable_module._conditions(
        Chunk.objects.all(), now=now, include_superseded=include_superseded, hold="risky"
    )
    fresh = row_filter._compile(built)
    assert deliverable_module.deliverable_sql(include_superseded=include_superseded, now=now) == fresh
    assert row_filter.compiled_filter(deliverable(now=now, include_superseded=include_superseded)) == fresh
    assert deliverable_module._template(include_superseded, "risky") is not None


def test_expiry_is_judged_at_call_time_not_cached():
    filler()
    start = timezone.now()
    chunk = ChunkFactory(heading="lapsing", content="quokka lapsing", expires_at=start + timedelta(hours=1))
    with time_machine.travel(start, tick=False):
        assert [c.pk for c in chunk_search("quokka", k=5)] == [chunk.pk]
    with time_machine.travel(start + timedelta(hours=2), tick=False):
        assert chunk_search("quokka", k=5) == []
    assert search_deliverable("quokka", k=5, now=start) == [chunk]
    assert search_deliverable("quokka", k=5, now=start + timedelta(hours=2)) == []


def test_default_path_equals_the_queryset_path(lifecycle_rows):
    for superseded in (False, True):
        default = chunk_search("zebrafish", k=20, include_superseded=superseded)
        explicit = search_chunks("zebrafish", k=20, queryset=deliverable(include_superseded=superseded))
        assert [c.pk for c in default] == [c.pk for c in explicit]
        assert default
