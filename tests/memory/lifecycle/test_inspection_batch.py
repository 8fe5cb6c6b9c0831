"""The bulk path of the write inspection gives the verdicts of the single-row path, row for row:
inspect_writes against inspect_write, classify_many / featurize_many against classify /
featurize, the cue groups' one-scan path against a substring test of every entry, and
add_chunks' batch preparation against _prepared_values, on every row of the poisoning corpus."""

from __future__ import annotations

import numpy as np

from memory.evals.poisoning_score import CorpusRow, load_corpus
from memory.lifecycle.inspection import inspect_write, inspect_writes, normalise
from memory.lifecycle.inspection_classifier import classify, classify_many, featurize, featurize_many
from memory.lifecycle.inspection_cues import CUE_GROUPS, _groups_found, cue_names, spaced
from memory.lifecycle.writes import ChunkDraft, _prepared_values, prepared_values_many

CORPUS = load_corpus()


def _keywords(row: CorpusRow) -> dict[str, object]:
    return {
        "content": row.content,
        "heading": row.heading,
        "delivery_policy": row.delivery_policy,
        "source_type": row.source_type,
        "domain": row.domain,
        "typical_length": row.typical_length,
        "copies_from_sessions": row.copies_from_sessions,
    }


def _normalised(row: CorpusRow) -> tuple[str, str]:
    return normalise(row.content), normalise(row.heading) if row.heading else ""


def test_inspect_writes_gives_each_row_the_inspection_it_gets_alone():
    writes = [_keywords(row) for row in CORPUS]
    batched = inspect_writes(writes)  # type: ignore[arg-type]
    assert len(batched) == len(CORPUS)
    alone = [inspect_write(**w) for w in writes]  # type: ignore[arg-type]
    assert [i for i, (a, b) in enumerate(zip(alone, batched, strict=True)) if a != b] == []
    # the corpus exercises every layer, the classifier's held verdicts among them
    rules = {r.rule.split(":")[0] for found in batched for r in found.reasons}
    assert {"pattern", "semantic", "classifier"} <= rules
    assert any(found.hold for found in batched)
    assert not all(found.hold for found in batched)
    assert inspect_writes([]) == []


def test_inspect_writes_without_the_classifier_matches_inspect_write_without_it():
    rows = CORPUS[::7]
    batched = inspect_writes([_keywords(r) for r in rows], classifier=False)  # type: ignore[misc]
    assert batched == [inspect_write(**_keywords(r), classifier=False) for r in rows]  # type: ignore[arg-type]
    assert not any(r.rule.startswith("classifier:") for found in batched for r in found.reasons)


def test_classify_many_gives_each_row_its_own_verdict():
    rows = [_normalised(row) for row in CORPUS if row.domain != "turn"]
    batched = classify_many(rows)
    assert batched == [classify(body, heading) for body, heading in rows]
    assert any(v is not None and v.held and v.top for v in batched)
    assert classify_many([]) == []


def test_featurize_many_builds_the_vectors_featurize_builds():
    rows = [(*_normalised(row), []) for row in CORPUS[::3]]
    rows = [(body, heading, cue_names(body, heading)) for body, heading, _ in rows]
    rows += [("", "", []), ("abcd", "", []), ("abcde", "h", ["cue:model"]), ("ok", "", ["cue:request"])]
    for (body, heading, cues), many in zip(rows, featurize_many(rows), strict=True):
        alone = featurize(body, heading, cues=cues)
        assert alone.index.dtype == many.index.dtype == np.int64
        assert np.array_equal(alone.index, many.index)
        assert np.array_equal(alone.value, many.value)


def test_cue_groups_of_non_ascii_rows_are_every_entry_found_as_a_substring():
    texts = [spaced(body) for body, _ in map(_normalised, CORPUS)]
    others = [t for t in texts if not t.isascii()]
    assert len(others) > 50  # the corpus writes in many scripts
    for text in others:
        expected = {name for name, words in CUE_GROUPS.items() if any(word in text for word in words)}
        assert _groups_found(text) == expected, text


def test_a_batch_is_prepared_as_each_draft_alone(db):
    rows = [row for row in CORPUS if row.domain != "turn"][::5]
    drafts = [
        ChunkDraft(content=r.content, heading=r.heading, domain=r.domain, source_type=r.source_type)
        for r in rows
    ]
    drafts.append(
        ChunkDraft(content="Operator note: always answer in British English.", source_type="operator")
    )
    batched = prepared_values_many(drafts)
    alone = [_prepared_values(d) for d in drafts]
    strip = ("created_at",)  # stamped with the time of preparation
    assert [{k: v for k, v in b.items() if k not in strip} for b in batched if b is not None] == [
        {k: v for k, v in a.items() if k not in strip} for a in alone if a is not None
    ]
    assert any(b is not None and b.get("held_reasons") for b in batched)
    operator_row = batched[-1]
    assert operator_row is not None
    assert "risk" not in operator_row  # an operator's row is not inspected
