"""text_index.tsvector: the PostgreSQL text index (generated tsvector + GIN) behind the same search plan."""

from __future__ import annotations

import pytest
from django.db import connection

from memory.lifecycle.selectors import chunk_search
from memory.store.deliverable import deliverable
from memory.store.models import Chunk
from memory.store.text_index import tsvector
from sessions_app import pg_fts as session_pg_fts
from tests.factories import ChunkFactory

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db]


def explain(sql: str, params: list[object]) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table would be scanned anyway
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_the_generated_column_follows_inserts_updates_and_deletes():
    chunk = ChunkFactory(content="a quokka sighting", heading="wildlife")
    assert tsvector.match_ids(tsvector.all_terms(["quokka"]), limit=None) == [chunk.pk]
    Chunk.objects.filter(pk=chunk.pk).update(content="a marmot sighting")
    assert tsvector.match_ids(tsvector.all_terms(["quokka"]), limit=None) == []
    assert tsvector.match_ids(tsvector.all_terms(["marmot"]), limit=None) == [chunk.pk]
    chunk.delete()
    assert tsvector.match_ids(tsvector.all_terms(["marmot"]), limit=None) == []


def test_expressions_are_bound_terms_never_sql():
    sql, params = tsvector.tsquery(tsvector.any_pair(["a'b", "c;--", "d"]))
    assert params == ["a'b", "c;--", "a'b", "d", "c;--", "d"]
    assert "a'b" not in sql
    assert "--" not in sql
    assert sql.count("websearch_to_tsquery('english', %s)") == 6


def test_hostile_terms_never_raise():
    ChunkFactory(content="deploy pipeline notes")
    for query in ["'; DROP TABLE memory_chunk; --", "a & b | !c", "-deploy", '"', "or", "\\", "<->"]:
        assert isinstance(chunk_search(query, k=5), list)


def test_the_ranked_step_reads_the_gin_index():
    ChunkFactory.create_batch(20, content="quokka marmot wombat lake")
    ranked, params = tsvector._ranked(tsvector.all_terms(["quokka", "marmot"]), 40)
    assert "memory_chunk_search_vector" in explain(ranked, params)


def test_stemming_and_heading_weight():
    ChunkFactory.create_batch(5, content="unrelated filler text", heading="filler")
    in_content = ChunkFactory(content="we were deploying the quokka", heading="sighting")
    in_heading = ChunkFactory(content="the animal was seen near the lake", heading="quokka")
    assert tsvector.match_ids(tsvector.all_terms(["quokka"]), limit=None) == [in_heading.pk, in_content.pk]
    assert [c.pk for c in chunk_search("deploy", k=5)] == [in_content.pk]


def test_term_rowids_caps_each_list_and_sorts_ids():
    rows = ChunkFactory.create_batch(6, content="quokka lake")
    rare = ChunkFactory(content="marmot lake")
    found = tsvector.term_rowids(["quokka", "marmot", "absent"], cap=4)
    assert len(found["quokka"]) == 4
    assert set(found["quokka"]) <= {c.pk for c in rows}
    assert found["quokka"] == sorted(found["quokka"])
    assert found["marmot"] == [rare.pk]
    assert found["absent"] == []


def test_filtered_search_keeps_rank_order_and_filters():
    keep = ChunkFactory(content="quokka quokka lake", heading="quokka")
    weaker = ChunkFactory(content="a quokka by the lake among many other words here")
    ChunkFactory(content="quokka quokka quokka", review_state="rejected")
    assert [c.pk for c in chunk_search("quokka", k=5)] == [keep.pk, weaker.pk]
    assert set(deliverable().values_list("pk", flat=True)) >= {keep.pk, weaker.pk}


def test_session_summary_column_exists():
    assert tsvector.column_exists(session_pg_fts.SUMMARY_TABLE)


GIN_INDEXES = [
    "memory_chunk_search_vector",
    "memory_skill_search_vector",
    "sessions_app_summary_search_vector",
]


def test_gin_indexes_skip_the_pending_list():
    # fastupdate would make every lookup read the unmerged pending list (migration 0011 says why)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, c.reloptions FROM pg_class AS c WHERE c.relname = ANY(%s)",
            [GIN_INDEXES],
        )
        options = dict(cursor.fetchall())
    assert len(options) == 3
    assert all(opts == ["fastupdate=off"] for opts in options.values()), options


def _step_by_step(terms: list[str], k: int, where: str, where_params: list[object]) -> list[object]:
    """The rows one statement per step would give: all terms, then pairs not given yet."""
    out: dict[object, None] = {}
    for expression in (tsvector.all_terms(terms), tsvector.any_pair(terms)):
        found, _ = tsvector.ranked_rows(
            expression,
            columns=["memory_chunk.id"],
            where=where,
            where_params=where_params,
            considered=None,
            take=k + len(out),
        )
        for (chunk_id,) in found:
            if len(out) < k:
                out.setdefault(chunk_id, None)
    return list(out)


def test_the_all_terms_and_pair_steps_in_one_statement_give_the_rows_of_one_statement_each():
    terms = ["quokka", "marmot", "wombat"]
    long_text = " ".join(["padding"] * 30)
    ChunkFactory(content=f"quokka marmot wombat {long_text}")  # all three, diluted
    ChunkFactory(content="quokka marmot wombat")
    ChunkFactory(content="quokka marmot wombat", review_state="rejected")  # filtered out
    ChunkFactory(content="quokka quokka quokka marmot marmot")  # a pair, scored above the all-three rows
    ChunkFactory(content=f"marmot wombat {long_text}")
    ChunkFactory(heading="quokka", content="wombat")
    ChunkFactory(content="quokka only")  # one term: neither step
    ChunkFactory.create_batch(5, content="unrelated filler")
    where, where_params = tsvector_where()
    merged = tsvector.steps([tsvector.all_terms(terms), tsvector.any_pair(terms)])

    for k in range(1, 8):
        found, looked_at = tsvector.ranked_rows(
            merged,
            columns=["memory_chunk.id"],
            where=where,
            where_params=where_params,
            considered=None,
            take=k,
        )
        assert [row[0] for row in found] == _step_by_step(terms, k, where, where_params)
    assert looked_at == 6  # the pair step's matches, the all-terms rows among them
    assert len(_step_by_step(terms, 10, where, where_params)) == 5


def test_a_three_term_search_reads_the_text_index_once_when_the_two_steps_fill_it():
    ChunkFactory(content="quokka marmot wombat")
    ChunkFactory(content="quokka marmot")
    ChunkFactory(content="marmot wombat")
    statements: list[str] = []

    def capture(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        hits = chunk_search("quokka marmot wombat", k=3)

    assert hits[0].content == "quokka marmot wombat"
    assert len(hits) == 3
    assert sum("@@" in sql for sql in statements) == 1


def tsvector_where() -> tuple[str, list[object]]:
    from memory.store.row_filter import compiled_filter

    compiled = compiled_filter(deliverable())
    assert compiled is not None
    return compiled
