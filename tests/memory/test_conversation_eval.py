"""The conversational recall eval: corpus shape, loading, scoring, and a run on a tiny slice."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from memory.evals.conversation_eval import (
    CORPUS_DIR,
    Bucket,
    SearchScope,
    Turn,
    evaluate,
    format_table,
    keyword,
    load_corpus,
)
from memory.evals.conversation_eval import hybrid as hybrid_retriever
from memory.store.models import Chunk
from tests.memory.store.vector_stub import MODEL, clean_embedding_state, hybrid_fixture  # noqa: F401 - fixtures


def test_the_shipped_corpus_has_the_promised_shape() -> None:
    corpus = load_corpus()

    turns = Counter(t.conv for t in corpus.turns)
    sessions = {conv: {t.session for t in corpus.turns if t.conv == conv} for conv in turns}
    questions = Counter(q.conv for q in corpus.questions)
    kinds = {conv: {q.kind for q in corpus.questions if q.conv == conv} for conv in turns}
    held_out = {t.conv for t in corpus.turns if t.split == "held_out"}
    assert len(turns) >= 12
    assert min(turns.values()) >= 300
    assert min(len(s) for s in sessions.values()) >= 8
    assert min(questions.values()) >= 40
    assert all(k == {"single_hop", "multi_hop", "temporal", "open_domain"} for k in kinds.values())
    assert 3 <= len(held_out) <= 5
    assert all(len(q.evidence) >= 2 for q in corpus.questions if q.kind == "multi_hop")


def test_the_generator_reproduces_the_committed_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memory.evals.conversations import generate

    monkeypatch.setattr(generate, "HERE", tmp_path)
    generate.main()

    for name in ("conversations.jsonl", "questions.jsonl"):
        assert (tmp_path / name).read_text() == (CORPUS_DIR / name).read_text()


def test_a_question_naming_an_unknown_turn_is_refused(tmp_path: Path) -> None:
    turn = {
        "conv": "x",
        "session": "x-s01",
        "date": "2026-01-02",
        "turn": "x-t1",
        "speaker": "A",
        "text": "hi",
        "split": "tuning",
    }
    question = {
        "conv": "x",
        "qid": "x-q1",
        "split": "tuning",
        "kind": "single_hop",
        "question": "?",
        "answer": "",
        "evidence": ["x-t9"],
    }
    (tmp_path / "conversations.jsonl").write_text(json.dumps(turn) + "\n")
    (tmp_path / "questions.jsonl").write_text(json.dumps(question) + "\n")

    with pytest.raises(ValueError, match="x-t9"):
        load_corpus(tmp_path)


def test_turns_are_stored_with_speaker_and_date() -> None:
    turn = Turn("c", "c-s01", date(2026, 5, 3), "c-t1", "Alice", "We adopted a dog.", "tuning")

    assert turn.content == "[2026-05-03] Alice: We adopted a dog."
    assert turn.heading == "Sunday 3 May 2026"


def test_bucket_metrics() -> None:
    bucket = Bucket()
    bucket.add(["a", "b", "c", "d", "e", "f"], frozenset({"f", "b"}))  # both in top 10, one in top 5
    bucket.add(["x"] * 5 + ["y"], frozenset({"y", "z"}))  # one of two, at rank 6

    assert bucket.mean("r@5") == 0.5
    assert bucket.mean("r@10") == 1.0
    assert bucket.mean("all@10") == 0.5
    assert bucket.mean("mrr") == pytest.approx((1 / 2 + 1 / 6) / 2)


def tiny_corpus(tmp_path: Path) -> Path:
    """One short conversation: two sessions, questions whose answers sit in known turns."""
    lines = [
        ("s01", "2026-03-07", "Alice", "Hi Bob, how was your week?"),
        ("s01", "2026-03-07", "Bob", "Busy. I adopted a beagle called Biscuit last Saturday."),
        ("s01", "2026-03-07", "Alice", "Lovely. I started pottery classes at the arts centre."),
        ("s01", "2026-03-07", "Bob", "The weather has been awful all week."),
        ("s02", "2026-04-11", "Alice", "My pottery teacher says my bowls are improving."),
        ("s02", "2026-04-11", "Bob", "Biscuit swallowed a sock and needed surgery at the vet."),
        ("s02", "2026-04-11", "Alice", "Poor thing. Did you watch the football?"),
        ("s02", "2026-04-11", "Bob", "Only the highlights."),
    ]
    turns = [
        {
            "conv": "t1",
            "session": f"t1-{s}",
            "date": d,
            "turn": f"t1-t{i}",
            "speaker": who,
            "text": text,
            "split": "tuning",
        }
        for i, (s, d, who, text) in enumerate(lines, 1)
    ]
    questions = [
        ("single_hop", "What breed of dog did Bob adopt?", ["t1-t2"]),
        (
            "multi_hop",
            "What happened to Biscuit at the vet, and where did Bob get the beagle?",
            ["t1-t2", "t1-t6"],
        ),
        ("open_domain", "Would Alice enjoy a ceramics workshop?", ["t1-t3", "t1-t5"]),
        ("temporal", "What did Bob say in April about the sock?", ["t1-t6"]),
    ]
    (tmp_path / "conversations.jsonl").write_text("\n".join(json.dumps(t) for t in turns) + "\n")
    (tmp_path / "questions.jsonl").write_text(
        "\n".join(
            json.dumps(
                {
                    "conv": "t1",
                    "qid": f"t1-q{i}",
                    "split": "tuning",
                    "kind": kind,
                    "question": text,
                    "answer": "",
                    "evidence": ev,
                }
            )
            for i, (kind, text, ev) in enumerate(questions, 1)
        )
        + "\n"
    )
    return tmp_path


@pytest.mark.django_db(transaction=True)
def test_keyword_run_on_a_tiny_conversation_scores_and_leaves_nothing_behind(tmp_path: Path) -> None:
    corpus = load_corpus(tiny_corpus(tmp_path))

    result = evaluate(corpus, {"keyword": keyword})

    assert result.ranked["keyword"]["t1-q1"][0] == "t1-t2"
    assert result.score("keyword", "tuning", "single_hop", "mrr") == 1.0
    assert result.score("keyword", "all", "all", "r@10") > 0.5
    assert result.buckets["keyword"][("all", "all")].n == 4
    assert Chunk.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_plugged_in_retriever_is_scored_beside_the_others(tmp_path: Path, hybrid: object) -> None:
    corpus = load_corpus(tiny_corpus(tmp_path))
    seen: list[SearchScope] = []

    def last_turns(question: str, k: int, scope: SearchScope) -> list[int]:
        seen.append(scope)
        return list(scope.queryset.order_by("-pk").values_list("pk", flat=True)[:k])

    result = evaluate(
        corpus, {"keyword": keyword, "hybrid": hybrid_retriever, "last": last_turns}, model=MODEL
    )
    table = format_table(result)

    assert result.score("last", "all", "temporal", "mrr") == pytest.approx(1 / 3)  # t6 is third from the end
    assert result.score("hybrid", "all", "single_hop", "r@5") == 1.0
    assert {s.conv for s in seen} == {"t1"}
    assert seen[0].model == MODEL
    assert "keyword" in table.splitlines()[1]
    assert "last" in table.splitlines()[1]
    assert any(line.startswith("tuning    multi_hop") for line in table.splitlines())


@pytest.mark.django_db(transaction=True)
def test_eval_recall_scores_a_conversation_corpus_from_the_command(tmp_path: Path) -> None:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command(
        "protomem", "eval-recall", "--conversations", str(tiny_corpus(tmp_path)), "--keyword-only", stdout=out
    )

    table = out.getvalue().splitlines()
    assert table[0].startswith("8 turns, 4 questions")
    assert "keyword" in table[1]
    assert any(line.startswith("tuning    all") for line in table)
    assert Chunk.objects.count() == 0


def test_eval_recall_needs_a_dataset_or_conversations() -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--conversations"):
        call_command("protomem", "eval-recall")
