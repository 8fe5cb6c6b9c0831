"""memory.embedding.local_model bulk path: length-sorted, per-batch padding, threads, and the query cache,
on both runtimes (numpy, and onnxruntime at fp32).

A tiny random BERT (tests.memory.embedding.test_embeddings.tiny_model) keeps these fast; the real
all-MiniLM-L6-v2 agreement is checked by bench/embed_throughput.py on the conversation corpus.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memory.embedding import local_model
from memory.embedding.local_model import SentenceEncoder, gelu, gelu_inplace, plan_batches
from tests.memory.embedding.test_embeddings import tiny_model

TEXTS = [
    "a",
    "hello world",
    "the release pipeline is manual",
    "build a release ? build a release ? hello",
    "un",
    "pipeline",
    "is the build manual",
    "hello hello hello world world world a a a a is is",
    "releases",
    "world",
]


RUNTIMES = ["numpy", "onnx"]


@pytest.fixture(params=RUNTIMES)
def encoder(tmp_path: Path, request: pytest.FixtureRequest) -> SentenceEncoder:
    encoder = SentenceEncoder(tiny_model(tmp_path), workers=2, runtime=request.param)
    assert encoder.runtime == {"numpy": "numpy", "onnx": "onnx-fp32"}[request.param]
    return encoder


def test_batches_are_grouped_by_length_and_bounded() -> None:
    lengths = [9, 3, 12, 3, 5, 7, 4, 12, 2]

    batches = plan_batches(lengths, max_rows=3, max_tokens=20)

    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    flat = [lengths[i] for batch in batches for i in batch]
    assert flat == sorted(flat)  # shortest first, so each batch pads only to its own longest
    assert all(len(batch) <= 3 for batch in batches)
    assert all(len(batch) * max(lengths[i] for i in batch) <= 20 or len(batch) == 1 for batch in batches)


def test_bulk_encoding_matches_one_text_at_a_time(
    encoder: SentenceEncoder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(local_model, "BATCH_TOKENS", 24)  # several batches, so the thread pool runs
    alone = np.stack([encoder._encode_ids([encoder.tokenizer.encode(t)])[0] for t in TEXTS])

    together = encoder.encode(TEXTS)

    assert len(plan_batches([len(encoder.tokenizer.encode(t)) for t in TEXTS], max_tokens=24)) > 2
    cosines = np.sum(alone * together, axis=1)
    assert together.shape == (len(TEXTS), encoder.dim)
    assert np.all(cosines > 1 - 1e-5)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)


def test_padding_does_not_leak_into_a_short_text(encoder: SentenceEncoder) -> None:
    short = encoder.tokenizer.encode("hello")
    long = encoder.tokenizer.encode("hello world the release pipeline is manual a build")

    padded = encoder._encode_ids([short, long])[0]
    unpadded = encoder._encode_ids([short])[0]

    assert len(long) > len(short) + 3
    assert np.allclose(padded, unpadded, atol=1e-6)


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_one_worker_and_two_agree(tmp_path: Path, runtime: str) -> None:
    serial = SentenceEncoder(tiny_model(tmp_path), workers=1, runtime=runtime).encode(TEXTS)
    threaded = SentenceEncoder(tiny_model(tmp_path), workers=2, runtime=runtime).encode(TEXTS)

    assert np.allclose(serial, threaded, atol=1e-6)


def test_a_repeated_query_is_served_from_the_cache(
    encoder: SentenceEncoder, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    forward = encoder._encode_ids
    monkeypatch.setattr(encoder, "_encode_ids", lambda *a, **kw: calls.append(1) or forward(*a, **kw))

    first = encoder.encode_query("hello world")
    second = encoder.encode_query("hello world")

    assert len(calls) == 1
    assert second is first
    assert not first.flags.writeable  # shared by every caller: nobody may change it
    assert first.shape == (encoder.dim,)


def test_the_cache_forgets_the_least_recently_used(tmp_path: Path) -> None:
    encoder = SentenceEncoder(tiny_model(tmp_path), cache_size=2)

    for text in ("a", "hello", "a", "world"):  # "hello" is the oldest when "world" arrives
        encoder.encode_query(text)

    assert list(encoder._cache) == ["a", "world"]


def test_inplace_gelu_matches_the_reference() -> None:
    x = np.random.default_rng(5).standard_normal((64, 96)).astype(np.float32) * 4

    expected = gelu(x)
    got = gelu_inplace(x.copy())

    assert got.dtype == np.float32
    assert np.allclose(got, expected, atol=1e-6)
