"""protomem eval-recall: the shipped dataset, the metrics, and the command end to end."""

from __future__ import annotations

import json
from collections import Counter
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from memory.evals.recall_eval import (
    DatasetError,
    EvalQuery,
    Scores,
    half_of,
    load_dataset,
    recall_at_k,
    reciprocal_rank,
)
from memory.store import vectors
from memory.store.models import Chunk
from tests.factories import ChunkFactory
from tests.fixtures.gateway import Reply
from tests.memory.store.vector_stub import clean_embedding_state, hybrid_fixture  # noqa: F401 - fixtures

pytestmark = pytest.mark.usefixtures("clean_embedding_state")

SHIPPED = Path(__file__).resolve().parents[2] / "memory" / "evals" / "recall.jsonl"
FACTS = SHIPPED.with_name("recall_facts.jsonl")


def test_the_shipped_dataset_has_200_plus_labelled_pairs_with_paraphrases() -> None:
    dataset = load_dataset(SHIPPED)

    pairs = sum(len(q.relevant) for q in dataset.queries)
    kinds = Counter(q.kind for q in dataset.queries)
    texts = [q.text.lower() for q in dataset.queries]
    assert pairs >= 200
    assert kinds["paraphrase"] >= 100
    assert set(kinds) == {"paraphrase", "lexical", "identifier"}
    assert len(texts) == len(set(texts))
    targets = {cid for q in dataset.queries for cid in q.relevant}
    assert len(dataset.chunks) - len(targets) >= 30  # distractors nobody asks for


def test_the_facts_set_asks_for_user_facts_in_other_words() -> None:
    dataset = load_dataset(FACTS)

    assert len(dataset.chunks) == 30
    assert len(dataset.queries) == 32
    assert all(content.startswith("The user") for _, content in dataset.chunks.values())
    assert {cid for q in dataset.queries for cid in q.relevant} == set(dataset.chunks)
    assert Counter(q.half for q in dataset.queries) == {"A": 16, "B": 16}


@pytest.mark.parametrize(
    ("chunk_id", "half"), [("k034", "A"), ("k001", "B"), ("f030", "A"), ("v2-k117", "B"), ("rel", "")]
)
def test_a_query_half_is_its_relevant_chunks_number_even_or_odd(chunk_id: str, half: str) -> None:
    assert half_of(chunk_id) == half


def test_a_query_naming_several_chunks_takes_the_half_of_the_lowest() -> None:
    assert EvalQuery(text="q", relevant=frozenset({"k013", "k010"})).half == "A"


def test_scores_split_by_half() -> None:
    scores = Scores()
    scores.add("paraphrase", 1.0, 0.5, "A")
    scores.add("paraphrase", 0.0, 0.0, "B")
    scores.add("lexical", 1.0, 1.0, "B")

    assert scores.half_scores("A") == (1, 1.0, 0.5)
    assert scores.half_scores("B") == (2, 0.5, 0.5)
    assert scores.half_scores("") == (0, 0.0, 0.0)
    assert (scores.recall, scores.mrr) == (2 / 3, 0.5)


def write(tmp_path: Path, records: list[dict[str, Any]]) -> Path:
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    return path


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([{"chunk": "a", "content": "x"}, {"chunk": "a", "content": "y"}], "defined twice"),
        ([{"chunk": "a", "content": "x"}, {"query": "q", "relevant": ["b"]}], "unknown chunk"),
        ([{"chunk": "a", "content": "x"}, {"query": "q", "relevant": []}], "non-empty 'relevant'"),
        ([{"chunk": "a", "content": "x"}], "no queries"),
        ([{"something": 1}], "needs 'chunk' or 'query'"),
    ],
)
def test_a_malformed_dataset_is_refused(tmp_path: Path, records: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(DatasetError, match=message):
        load_dataset(write(tmp_path, records))


def test_a_line_that_is_not_json_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"chunk": "a", "content": "x"}\nnot json\n')

    with pytest.raises(DatasetError, match=r"bad.jsonl:2: not JSON"):
        load_dataset(path)


def test_metrics() -> None:
    relevant = frozenset({"b", "z"})

    assert recall_at_k(["a", "b", "c"], relevant, 3) == 0.5
    assert recall_at_k(["a", "b", "c"], relevant, 1) == 0.0
    assert reciprocal_rank(["a", "b", "c"], relevant, 3) == 0.5
    assert reciprocal_rank(["a", "c"], relevant, 2) == 0.0


SMALL = [
    {"chunk": "rel", "heading": "", "content": "the release pipeline is manual via workflow_dispatch"},
    {"chunk": "dog", "heading": "", "content": "the office hound sleeps under the desk"},
    {"chunk": "food", "heading": "", "content": "lunch is ordered on fridays"},
    {"query": "how do I ship a build?", "relevant": ["rel"], "kind": "paraphrase"},
    {"query": "is there a puppy around?", "relevant": ["dog"], "kind": "paraphrase"},
    {"query": "workflow_dispatch pipeline", "relevant": ["rel"], "kind": "lexical"},
    {"query": "when is lunch ordered", "relevant": ["food"], "kind": "lexical"},
]


@pytest.mark.django_db
def test_eval_recall_reports_keyword_vs_hybrid_and_leaves_nothing_behind(hybrid: Any, tmp_path: Path) -> None:
    existing = ChunkFactory(content="an unrelated row already in the store")
    out = StringIO()

    call_command("protomem", "eval-recall", str(write(tmp_path, SMALL)), "--k", "1", "--json", stdout=out)

    report = json.loads(out.getvalue())
    modes = report["modes"]
    assert report["queries"] == 4
    assert report["chunks"] == 3
    assert modes["keyword"]["recall@1"] == 0.5
    assert modes["keyword"]["by_kind"] == {"lexical": {"recall@1": 1.0}, "paraphrase": {"recall@1": 0.0}}
    assert modes["vector"]["recall@1"] == 1.0
    assert modes["hybrid"]["recall@1"] == 1.0
    assert modes["hybrid"]["mrr@1"] == 1.0
    assert list(Chunk.objects.values_list("pk", flat=True)) == [existing.pk]
    assert vectors.vector_count() == 0


HALVED = [
    {"chunk": "c1", "heading": "", "content": "the release pipeline is manual via workflow_dispatch"},
    {"chunk": "c2", "heading": "", "content": "the office hound sleeps under the desk"},
    {"query": "workflow_dispatch pipeline", "relevant": ["c1"], "kind": "lexical"},
    {"query": "office hound", "relevant": ["c2"], "kind": "lexical"},
    {"query": "is there a puppy around?", "relevant": ["c2"], "kind": "paraphrase"},
]


@pytest.mark.django_db
def test_eval_recall_reports_halves_by_the_relevant_chunks_number(hybrid: Any, tmp_path: Path) -> None:
    out = StringIO()

    call_command("protomem", "eval-recall", str(write(tmp_path, HALVED)), "--k", "1", "--json", stdout=out)

    keyword = json.loads(out.getvalue())["modes"]["keyword"]
    assert keyword["by_half"] == {
        "A": {"queries": 2, "recall@1": 0.5, "mrr@1": 0.5},
        "B": {"queries": 1, "recall@1": 1.0, "mrr@1": 1.0},
    }


@pytest.mark.django_db
def test_eval_recall_prints_a_table_of_halves(hybrid: Any, tmp_path: Path) -> None:
    out = StringIO()

    call_command(
        "protomem", "eval-recall", str(write(tmp_path, HALVED)), "--k", "1", "--no-progress", stdout=out
    )

    lines = out.getvalue().splitlines()
    assert lines[5].split() == ["mode", "half", "n", "recall@1", "MRR@1"]
    assert lines[6].split() == ["keyword", "A", "2", "0.500", "0.500"]
    assert lines[7].split() == ["keyword", "B", "1", "1.000", "1.000"]
    assert [line.split()[:2] for line in lines[8:]] == [
        ["vector", "A"],
        ["vector", "B"],
        ["hybrid", "A"],
        ["hybrid", "B"],
    ]


@pytest.mark.django_db
def test_eval_recall_prints_a_table(hybrid: Any, tmp_path: Path) -> None:
    out = StringIO()

    call_command("protomem", "eval-recall", str(write(tmp_path, SMALL)), "--no-progress", stdout=out)

    lines = out.getvalue().splitlines()
    assert lines[1].split() == ["mode", "recall@5", "MRR@5", "lexical", "r@5", "paraphrase", "r@5"]
    assert lines[2].split()[:3] == ["keyword", "0.500", "0.500"]
    assert lines[4].split()[:3] == ["hybrid", "1.000", "1.000"]


@pytest.mark.django_db
def test_eval_recall_runs_the_shipped_dataset(hybrid: Any) -> None:
    out = StringIO()

    call_command("protomem", "eval-recall", str(SHIPPED), "--json", stdout=out)

    report = json.loads(out.getvalue())
    keyword = report["modes"]["keyword"]
    assert report["queries"] == len(load_dataset(SHIPPED).queries)
    assert keyword["by_kind"]["lexical"]["recall@5"] >= 0.9  # the lexical half is answerable by keywords
    assert keyword["by_kind"]["paraphrase"]["recall@5"] <= 0.5  # and the paraphrase half mostly is not


@pytest.mark.django_db
def test_eval_recall_without_embeddings_says_so(hybrid: Any, tmp_path: Path) -> None:
    hybrid.default = lambda path, body: Reply(status=404, body={"error": "model not found"})

    with pytest.raises(CommandError, match="no embeddings, so no hybrid score: HTTP 404"):
        call_command("protomem", "eval-recall", str(write(tmp_path, SMALL)), stdout=StringIO())


def test_eval_recall_refuses_a_missing_file_and_bad_k(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="No such file"):
        call_command("protomem", "eval-recall", str(tmp_path / "nope.jsonl"), stdout=StringIO())
    with pytest.raises(CommandError, match="--k must be at least 1"):
        call_command("protomem", "eval-recall", str(SHIPPED), "--k", "0", stdout=StringIO())
