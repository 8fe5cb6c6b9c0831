"""The chunk text index: query sanitizing, sync with writes, rank order, rebuild, and the statement plan.

Most tests run on both backends through memory.store.text_index; those about FTS5 itself are sqlite_only.
"""

from __future__ import annotations

import pytest
from django.db import connection

from memory.lifecycle.selectors import chunk_search
from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.retrieval.search import plan, search_chunks
from memory.store import text_index
from memory.store.deliverable import deliverable
from memory.store.models import Chunk
from memory.store.text_index import fts5
from tests.factories import ChunkFactory

HOSTILE = [
    '"',
    '""',
    '"unbalanced quote',
    "it's",
    "deploy-pipeline",
    "-deploy",
    "deploy -pipeline",
    "heading:deploy",
    "content:deploy OR heading:x",
    ":",
    "(deploy",
    "deploy)",
    "((()))",
    "AND",
    "OR",
    "NOT",
    "NEAR",
    "and or not near",
    "deploy AND",
    "OR deploy",
    "NOT deploy",
    "NEAR(deploy pipeline, 2)",
    "deploy NEAR/2 pipeline",
    "*",
    "deploy*",
    "*deploy",
    "^deploy",
    "+deploy",
    "{deploy pipeline}",
    "[deploy]",
    "deploy;",
    "'; DROP TABLE memory_chunk; --",
    "%s",
    "%",
    "_",
    "\\",
    "\x00",
    "\t\n",
    "ünïcödé déploy",
    "日本語のテキスト",
    "emoji 🚀 deploy",
    "ﬁ ligature",
    "a" * 2000,
    " ".join(["deploy"] * 300),
    " ".join(f"word{i}" for i in range(300)),
]


@pytest.fixture
def store(db):
    return [
        add_chunk(
            ChunkDraft(content="The deploy pipeline is manual via workflow_dispatch.", heading="Release")
        ),
        add_chunk(ChunkDraft(content="Déploy notes in French: ünïcödé text.", heading="Notes")),
        add_chunk(ChunkDraft(content="日本語のテキスト about deployments", heading="JP")),
        add_chunk(ChunkDraft(content="near and not or: grammar words", heading="Words")),
    ]


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_query_never_raises(store, query):
    hits = chunk_search(query, k=10)
    assert all(isinstance(c, Chunk) for c in hits)
    for expression in plan(fts5.terms_of(query)):
        text_index.sql().match_ids(expression, limit=10)


@pytest.mark.parametrize("query", ["", "   ", "\n\t", '"', "()", "*", ":-^", "\x00"])
def test_empty_query_returns_no_hits(store, query):
    assert fts5.terms_of(query) == []
    assert chunk_search(query, k=10) == []


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("deploy-pipeline", "deploy pipeline"),
        ("heading:deploy", "heading deploy"),
        ("NEAR(deploy pipeline)", "near deploy pipeline"),
        ('"deploy" OR "notes"', "deploy or notes"),
        ("(near AND grammar)", "near and grammar"),
        ("deploy* -pipeline", "deploy pipeline"),
    ],
)
def test_operators_are_plain_words(store, query, words):
    # the words are searched, never interpreted as FTS5 syntax
    assert [c.pk for c in chunk_search(query, k=10)] == [c.pk for c in chunk_search(words, k=10)]
    assert chunk_search(query, k=10)


@pytest.mark.sqlite_only  # PostgreSQL's english dictionary drops these words as stopwords
def test_operator_words_are_searchable(store):
    assert [c.heading for c in chunk_search("NOT", k=10)] == ["Words"]
    assert [c.heading for c in chunk_search("near grammar", k=10)] == ["Words"]


def test_unicode_terms_match(store):
    assert [c.heading for c in chunk_search("ünïcödé", k=10)] == ["Notes"]
    assert [c.heading for c in chunk_search("日本語のテキスト", k=10)] == ["JP"]


def test_terms_of():
    assert fts5.terms_of('The "deploy" pipeline: is-it (manual)?') == ["deploy", "pipeline", "manual"]
    assert fts5.terms_of("the and of") == ["the", "and", "of"]  # only stopwords: keep them
    assert fts5.terms_of("Deploy DEPLOY deploy") == ["deploy"]
    assert fts5.terms_of("___ a_b") == ["a_b"]
    assert len(fts5.terms_of(" ".join(f"w{i}" for i in range(50)))) == fts5.MAX_TERMS


def test_both_is_the_frame_of_a_comparison_not_a_term():
    # "X and Y both ..." asks what two people share; the turns that answer say each thing once
    assert fts5.terms_of("What do Jon and Gina both have in common?") == ["jon", "gina", "common"]
    assert fts5.terms_of("both") == ["both"]  # nothing else left: kept


@pytest.mark.sqlite_only
def test_quoting_doubles_embedded_quotes():
    assert fts5.quote('say "hi"') == '"say ""hi"""'
    assert fts5.all_terms(["a", "b"]) == '"a" AND "b"'
    assert fts5.any_term(["a", "b"]) == '"a" OR "b"'
    assert fts5.any_pair(["a", "b", "c"]) == '("a" AND "b") OR ("a" AND "c") OR ("b" AND "c")'


# -- triggers keep the external-content index in sync


def ids_for(term: str) -> list[int]:
    return sorted(ranked_ids(term))


def ranked_ids(term: str, limit: int | None = None) -> list[int]:
    index = text_index.sql()
    return index.match_ids(index.all_terms([term]), limit=limit)


@pytest.mark.django_db
def test_insert_is_indexed():
    chunk = ChunkFactory(content="a quokka sighting", heading="wildlife")
    assert ids_for("quokka") == [chunk.pk]
    assert ids_for("wildlife") == [chunk.pk]
    assert text_index.sql().integrity_check()


@pytest.mark.django_db
def test_update_reindexes_content_and_heading():
    chunk = ChunkFactory(content="a quokka sighting", heading="wildlife")
    Chunk.objects.filter(pk=chunk.pk).update(content="a marmot sighting")  # bulk ORM update
    assert ids_for("quokka") == []
    assert ids_for("marmot") == [chunk.pk]
    chunk.refresh_from_db()
    chunk.heading = "fauna"
    chunk.save()
    assert ids_for("wildlife") == []
    assert ids_for("fauna") == [chunk.pk]
    assert text_index.sql().integrity_check()


@pytest.mark.django_db
def test_update_of_other_columns_keeps_the_index():
    chunk = ChunkFactory(content="a quokka sighting")
    Chunk.objects.filter(pk=chunk.pk).update(review_state="rejected", namespace="x")
    assert ids_for("quokka") == [chunk.pk]
    assert text_index.sql().integrity_check()


@pytest.mark.django_db
def test_delete_unindexes():
    keep = ChunkFactory(content="quokka one")
    gone = ChunkFactory(content="quokka two")
    gone.delete()
    assert ids_for("quokka") == [keep.pk]
    Chunk.objects.all().delete()
    assert ids_for("quokka") == []
    assert text_index.sql().integrity_check()


@pytest.mark.django_db
def test_porter_stemming():
    chunk = ChunkFactory(content="we were deploying builds")
    assert ids_for("deploy") == [chunk.pk]
    assert ids_for("build") == [chunk.pk]


@pytest.mark.sqlite_only
@pytest.mark.django_db
def test_rebuild_restores_a_damaged_index():
    chunk = ChunkFactory(content="a quokka sighting")
    with connection.cursor() as cursor:  # damage: drop the row from the index only
        cursor.execute(
            "INSERT INTO memory_chunk_fts(memory_chunk_fts, rowid, heading, content) "
            "VALUES ('delete', %s, %s, %s)",
            [chunk.pk, chunk.heading, chunk.content],
        )
    assert ids_for("quokka") == []
    fts5.rebuild()
    assert ids_for("quokka") == [chunk.pk]
    assert text_index.sql().integrity_check()


# -- ranking


@pytest.mark.django_db
def test_bm25_weights_a_heading_hit_above_a_content_hit():
    ChunkFactory.create_batch(10, content="unrelated filler text", heading="filler")
    in_content = ChunkFactory(content="the quokka was seen near the lake", heading="sighting")
    in_heading = ChunkFactory(content="the animal was seen near the lake", heading="quokka")
    assert ranked_ids("quokka") == [in_heading.pk, in_content.pk]


@pytest.mark.django_db
def test_bm25_ranks_more_occurrences_first_and_limit_cuts_the_tail():
    filler = ChunkFactory.create_batch(10, content="unrelated filler text", heading="filler")
    once = ChunkFactory(content="the quokka was seen near the lake", heading="sighting")
    thrice = ChunkFactory(content="the quokka quokka quokka near lake", heading="sighting")
    twice = ChunkFactory(content="the quokka was quokka near the lake", heading="sighting")
    ranked = ranked_ids("quokka")
    assert ranked == [thrice.pk, twice.pk, once.pk]
    assert not set(ranked) & {c.pk for c in filler}
    assert ranked_ids("quokka", limit=2) == [thrice.pk, twice.pk]


@pytest.mark.django_db
def test_chunk_search_keeps_bm25_order_within_a_step():
    ChunkFactory.create_batch(10, content="unrelated filler text", heading="filler")
    weak = ChunkFactory(content="quokka and marmot seen near the lake today with friends", heading="x")
    strong = ChunkFactory(content="quokka marmot", heading="quokka marmot")
    assert [c.pk for c in chunk_search("quokka marmot", k=10)] == [strong.pk, weak.pk]


# -- the statement plan: MATCH drives, the chunk table is probed by rowid


def captured_statements(fn):
    statements = []

    def capture(execute, sql, params, many, context):
        statements.append((sql, list(params or ())))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        fn()
    return statements


@pytest.mark.sqlite_only
@pytest.mark.django_db
@pytest.mark.parametrize(
    "queryset",
    [
        lambda: deliverable(),
        lambda: deliverable(include_superseded=True),
        lambda: deliverable().filter(namespace__in=["a", ""], source_type__in=["console", "harvest"]),
        lambda: Chunk.objects.all(),
    ],
)
def test_filters_never_make_sqlite_abandon_the_fts_index(queryset):
    # given a store where filters and the FTS index both could drive the query
    ChunkFactory.create_batch(30, content="quokka marmot wombat lake")
    # when the service searches with delivery filters
    statements = captured_statements(lambda: search_chunks("quokka marmot wombat", k=10, queryset=queryset()))
    searches = [(sql, p) for sql, p in statements if "MATCH" in sql]
    assert searches
    for sql, params in searches:
        plan_lines = fts5.explain(sql, params)
        text = "\n".join(plan_lines)
        # then the FTS table is read through its MATCH index, and chunks only by rowid
        assert any("VIRTUAL TABLE INDEX" in line and "memory_chunk_fts" in line for line in plan_lines), text
        assert any("memory_chunk USING INTEGER PRIMARY KEY" in line for line in plan_lines), text
        assert not any(line.startswith("SCAN memory_chunk") and "fts" not in line for line in plan_lines), (
            text
        )
        assert "INDEX chunk_" not in text, text


@pytest.mark.sqlite_only
@pytest.mark.django_db
def test_missing_schema_names_what_is_gone():
    assert fts5.missing_schema() == []
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER memory_chunk_fts_au")  # rolled back with the test transaction
    assert fts5.missing_schema() == ["memory_chunk_fts_au"]


@pytest.mark.sqlite_only
@pytest.mark.django_db
def test_term_rowids_caps_each_list_in_id_order_and_merge_keeps_the_index():
    rows = [ChunkFactory(content="quokka lake") for _ in range(6)]
    rare = ChunkFactory(content="marmot lake")
    found = fts5.term_rowids(["quokka", "marmot", "absent"], cap=4)
    assert found["quokka"] == sorted(c.pk for c in rows)[:4]
    assert found["marmot"] == [rare.pk]
    assert found["absent"] == []
    before = fts5.segment_count()
    fts5.merge_segments(1000)
    assert fts5.segment_count() <= before
    assert fts5.integrity_check()


@pytest.mark.sqlite_only
@pytest.mark.django_db
def test_the_usermerge_setting_is_migrated():
    with connection.cursor() as cursor:
        cursor.execute("SELECT v FROM memory_chunk_fts_config WHERE k = 'usermerge'")
        assert cursor.fetchone() == (2,)
