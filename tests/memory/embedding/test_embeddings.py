"""memory.embedding.embeddings: the gateway client, the circuit breaker and the local backend."""

from __future__ import annotations

import dataclasses
import json
import logging
import struct
import sys
import time
import types
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import time_machine

from memory.embedding import embeddings
from memory.embedding.embeddings import (
    COOLDOWN_S,
    FAILURE_THRESHOLD,
    EmbeddingCallFailed,
    EmbeddingCircuitOpen,
    EmbeddingNotConfigured,
    embed_query,
    embed_texts,
)
from memory.embedding.local_model import SentenceEncoder, WordPieceTokenizer, gelu
from tests.fixtures.gateway import Reply
from tests.memory.store.vector_stub import (  # noqa: F401 - fixtures
    MODEL,
    clean_embedding_state,
    embed_requests,
    hybrid_fixture,
    vector_for,
)

pytestmark = pytest.mark.usefixtures("clean_embedding_state")

START = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def set_timeout(settings: Any, seconds: float) -> None:
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(cfg, gateway=dataclasses.replace(cfg.gateway, timeout_s=seconds))


# -- the gateway backend


def test_gateway_gets_raw_strings_and_the_configured_model(hybrid: Any) -> None:
    texts = ["how do I ship a build?", "second text, raw"]

    rows = embed_texts(texts)

    [request] = embed_requests(hybrid)
    assert request["path"] == "/v1/embeddings"
    assert request["body"] == {"model": MODEL, "input": texts}
    assert request["headers"]["Authorization"] == "Bearer stub-key"
    expected = np.asarray([vector_for(t) for t in texts], dtype=np.float32)
    assert rows.dtype == np.float32
    assert np.allclose(rows, expected, atol=1e-6)
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0)


def test_gateway_vectors_are_put_back_in_input_order(hybrid: Any) -> None:
    hybrid.enqueue(
        Reply(body={"data": [{"index": 1, "embedding": [0.0, 2.0]}, {"index": 0, "embedding": [3.0, 0.0]}]})
    )

    rows = embed_texts(["first", "second"])

    assert rows.tolist() == [[1.0, 0.0], [0.0, 1.0]]


def test_large_inputs_go_in_batches(hybrid: Any) -> None:
    texts = [f"text {i}" for i in range(embeddings.GATEWAY_BATCH + 5)]

    rows = embed_texts(texts)

    sizes = [len(r["body"]["input"]) for r in embed_requests(hybrid)]
    assert sizes == [embeddings.GATEWAY_BATCH, 5]
    assert rows.shape == (len(texts), 64)


@pytest.mark.parametrize(
    "reply",
    [
        Reply(status=401, body={"error": "bad key"}),
        Reply(status=404, body={"error": "no such model"}),
        Reply(status=500, body={"error": "boom"}),
        Reply(status=503, body="upstream down"),
        Reply(body={"data": []}),
        Reply(body="not json"),
    ],
)
def test_a_failed_call_raises_embedding_call_failed(hybrid: Any, reply: Reply) -> None:
    hybrid.enqueue(reply)

    with pytest.raises(EmbeddingCallFailed):
        embed_query("anything")


def test_a_slow_gateway_times_out_quickly(hybrid: Any, settings: Any) -> None:
    set_timeout(settings, 0.3)
    hybrid.enqueue(Reply(delay_s=1.5, body={"data": [{"index": 0, "embedding": [1.0]}]}))

    started = time.perf_counter()
    with pytest.raises(EmbeddingCallFailed, match="timed out"):
        embed_query("slow")

    assert time.perf_counter() - started < 1.2


def test_no_gateway_url_is_not_configured(hybrid: Any, settings: Any) -> None:
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(cfg, gateway=dataclasses.replace(cfg.gateway, base_url=""))

    with pytest.raises(EmbeddingNotConfigured):
        embed_query("anything")

    assert embed_requests(hybrid) == []


def test_embed_query_soon_hands_off_only_a_model_run(
    hybrid: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embeddings, "_background", None)
    fresh = embeddings.embed_query_soon("first time")  # a gateway call: on the pool thread
    assert fresh.result().shape == (64,)
    assert embeddings._background is not None

    monkeypatch.setattr(embeddings, "_background", None)
    cached = embeddings.embed_query_soon("first time")  # the query cache: no thread
    assert cached.done()
    assert np.array_equal(cached.result(), fresh.result())
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(cfg, gateway=dataclasses.replace(cfg.gateway, base_url=""))
    unconfigured = embeddings.embed_query_soon("anything")  # raises at once: no thread either
    assert unconfigured.done()
    assert isinstance(unconfigured.exception(), EmbeddingNotConfigured)
    assert embeddings._background is None
    assert len(embed_requests(hybrid)) == 1


# -- the circuit breaker


def fail_n(stub: Any, n: int, status: int = 500) -> None:
    stub.enqueue(*[Reply(status=status, body={"error": "down"}) for _ in range(n)])


@pytest.mark.parametrize("status", [401, 404, 500, 502])
def test_breaker_opens_after_repeated_failures_and_stops_calling(
    hybrid: Any, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    fail_n(hybrid, FAILURE_THRESHOLD, status)
    caplog.set_level(logging.INFO, logger="memory.embedding.embeddings")

    for _ in range(FAILURE_THRESHOLD):
        with pytest.raises(EmbeddingCallFailed):
            embed_query("q")
    for _ in range(5):
        with pytest.raises(EmbeddingCircuitOpen):
            embed_query("q")

    assert len(embed_requests(hybrid)) == FAILURE_THRESHOLD
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "open after 3 failures" in warnings[0].getMessage()
    assert f"HTTP {status}" in warnings[0].getMessage()


def test_breaker_opens_on_timeouts(hybrid: Any, settings: Any) -> None:
    set_timeout(settings, 0.2)
    hybrid.enqueue(*[Reply(delay_s=0.6, body={}) for _ in range(FAILURE_THRESHOLD)])

    for _ in range(FAILURE_THRESHOLD):
        with pytest.raises(EmbeddingCallFailed, match="timed out"):
            embed_query("q")
    started = time.perf_counter()
    with pytest.raises(EmbeddingCircuitOpen):
        embed_query("q")

    assert time.perf_counter() - started < 0.05
    assert len(embed_requests(hybrid)) == FAILURE_THRESHOLD


def test_failures_must_be_consecutive(hybrid: Any) -> None:
    for _ in range(FAILURE_THRESHOLD - 1):
        fail_n(hybrid, 1)
        with pytest.raises(EmbeddingCallFailed):
            embed_query("q")
    embed_query("q")  # a success in between resets the count
    fail_n(hybrid, FAILURE_THRESHOLD - 1)
    for _ in range(FAILURE_THRESHOLD - 1):
        with pytest.raises(EmbeddingCallFailed):
            embed_query("another q")  # not the cached "q": this one goes out and fails

    assert embed_query("another q").shape == (64,)


def test_breaker_recovers_after_the_cool_down(hybrid: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="memory.embedding.embeddings")
    with time_machine.travel(START, tick=False) as clock:
        fail_n(hybrid, FAILURE_THRESHOLD)
        for _ in range(FAILURE_THRESHOLD):
            with pytest.raises(EmbeddingCallFailed):
                embed_query("q")
        clock.shift(COOLDOWN_S - 1)
        with pytest.raises(EmbeddingCircuitOpen):
            embed_query("q")
        assert len(embed_requests(hybrid)) == FAILURE_THRESHOLD

        clock.shift(1)  # cool-down over: one trial goes out, and it succeeds
        vector = embed_query("q")

        assert vector.shape == (64,)
        assert len(embed_requests(hybrid)) == FAILURE_THRESHOLD + 1
        embed_query("another q")  # closed again: calls flow ("q" itself is now cached)
        assert len(embed_requests(hybrid)) == FAILURE_THRESHOLD + 2
    messages = [r.getMessage() for r in caplog.records if r.name == "memory.embedding.embeddings"]
    assert sum("open after" in m for m in messages) == 1
    assert sum("closed" in m for m in messages) == 1


def test_a_failed_trial_reopens_for_another_cool_down_without_a_new_warning(
    hybrid: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="memory.embedding.embeddings")
    with time_machine.travel(START, tick=False) as clock:
        fail_n(hybrid, FAILURE_THRESHOLD + 1)
        for _ in range(FAILURE_THRESHOLD):
            with pytest.raises(EmbeddingCallFailed):
                embed_query("q")
        clock.shift(COOLDOWN_S)
        with pytest.raises(EmbeddingCallFailed):  # the trial
            embed_query("q")
        with pytest.raises(EmbeddingCircuitOpen):
            embed_query("q")
        clock.shift(COOLDOWN_S - 1)
        with pytest.raises(EmbeddingCircuitOpen):
            embed_query("q")
        clock.shift(1)
        assert embed_query("q").shape == (64,)

    assert len(embed_requests(hybrid)) == FAILURE_THRESHOLD + 2
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1


def test_half_open_lets_one_trial_through_at_a_time() -> None:
    now = [1000.0]
    breaker = embeddings.CircuitBreaker(name="t", threshold=1, cooldown_s=10, clock=lambda: now[0])
    breaker.failure("boom")
    assert breaker.state == "open"
    now[0] += 10

    assert breaker.state == "half_open"
    assert breaker.allow() is True
    assert breaker.allow() is False  # the trial is still out
    breaker.success()
    assert breaker.state == "closed"
    assert breaker.allow() is True


def test_breakers_are_per_backend(hybrid: Any) -> None:
    fail_n(hybrid, FAILURE_THRESHOLD)
    for _ in range(FAILURE_THRESHOLD):
        with pytest.raises(EmbeddingCallFailed):
            embed_query("q")

    assert embed_query("q", model="other-model").shape == (64,)
    with pytest.raises(EmbeddingCircuitOpen):
        embed_query("q")


# -- the local backend: tokenizer and encoder, on a tiny checkpoint written here


VOCAB = [
    "[PAD]",
    "[UNK]",
    "[CLS]",
    "[SEP]",
    "[MASK]",
    "un",
    "##aff",
    "##able",
    "the",
    "cafe",
    ",",
    "!",
    "ship",
]
VOCAB += ["a", "build", "release", "pipeline", "is", "manual", "##s", "hello", "world", "?"]


def write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    header: dict[str, Any] = {"__metadata__": {"format": "pt"}}
    blobs, offset = [], 0
    for name, array in tensors.items():
        data = np.ascontiguousarray(array, dtype=np.float32).tobytes()
        header[name] = {
            "dtype": "F32",
            "shape": list(array.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    header["embeddings.position_ids"] = {
        "dtype": "I64",
        "shape": [1, 2],
        "data_offsets": [offset, offset + 16],
    }
    blobs.append(np.arange(2, dtype=np.int64).tobytes())
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b"".join(blobs))


def tiny_model(directory: Path, *, hidden: int = 8, layers: int = 2, heads: int = 2) -> Path:
    rng = np.random.default_rng(3)
    config = {
        "model_type": "bert",
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "intermediate_size": 16,
        "hidden_act": "gelu",
        "layer_norm_eps": 1e-12,
        "max_position_embeddings": 32,
    }
    (directory / "config.json").write_text(json.dumps(config))
    (directory / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 16}))
    (directory / "tokenizer.json").write_text(
        json.dumps({"model": {"vocab": {t: i for i, t in enumerate(VOCAB)}}})
    )

    def rand(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32) * 0.5

    tensors = {
        "embeddings.word_embeddings.weight": rand(len(VOCAB), hidden),
        "embeddings.position_embeddings.weight": rand(32, hidden),
        "embeddings.token_type_embeddings.weight": rand(2, hidden),
        "embeddings.LayerNorm.weight": np.ones(hidden, dtype=np.float32),
        "embeddings.LayerNorm.bias": np.zeros(hidden, dtype=np.float32),
    }
    for i in range(layers):
        p = f"encoder.layer.{i}."
        for name in ("query", "key", "value"):
            tensors[p + f"attention.self.{name}.weight"] = rand(hidden, hidden)
            tensors[p + f"attention.self.{name}.bias"] = rand(hidden)
        tensors[p + "attention.output.dense.weight"] = rand(hidden, hidden)
        tensors[p + "attention.output.dense.bias"] = rand(hidden)
        tensors[p + "attention.output.LayerNorm.weight"] = np.ones(hidden, dtype=np.float32)
        tensors[p + "attention.output.LayerNorm.bias"] = np.zeros(hidden, dtype=np.float32)
        tensors[p + "intermediate.dense.weight"] = rand(16, hidden)
        tensors[p + "intermediate.dense.bias"] = rand(16)
        tensors[p + "output.dense.weight"] = rand(hidden, 16)
        tensors[p + "output.dense.bias"] = rand(hidden)
        tensors[p + "output.LayerNorm.weight"] = np.ones(hidden, dtype=np.float32)
        tensors[p + "output.LayerNorm.bias"] = np.zeros(hidden, dtype=np.float32)
    write_safetensors(directory / "model.safetensors", tensors)
    return directory


def test_wordpiece_splits_like_bert() -> None:
    tok = WordPieceTokenizer({t: i for i, t in enumerate(VOCAB)}, max_tokens=64)
    ids = {t: i for i, t in enumerate(VOCAB)}

    assert tok.words("Hello,  World!") == ["hello", ",", "world", "!"]
    assert tok.words("Café\u00a0\x07ship") == ["cafe", "ship"]  # accents stripped, controls dropped
    assert tok.encode("unaffable") == [ids["[CLS]"], ids["un"], ids["##aff"], ids["##able"], ids["[SEP]"]]
    assert tok.encode("ships zzz") == [ids["[CLS]"], ids["ship"], ids["##s"], ids["[UNK]"], ids["[SEP]"]]
    assert tok.encode("x" * 101) == [ids["[CLS]"], ids["[UNK]"], ids["[SEP]"]]


def test_ascii_text_is_split_exactly_as_the_unicode_rules_split_it() -> None:
    from memory.evals.conversation_eval import load_corpus

    tok = WordPieceTokenizer({t: i for i, t in enumerate(VOCAB)}, max_tokens=64)
    corpus = load_corpus()
    crafted = [
        "a\tb\nc\rd\x0be\x0cf\x1cg\x7fh\x00i",  # spaces, and control characters dropped inside words
        "it's 3.5% -- e-mail: x@y.z [ok] {no} `q` ~_^|\\ ",
        "  UPPER lower MiXeD 2026-05-03  ",
        "",
    ]
    texts = [*crafted, *(q.text for q in corpus.questions), *(turn.content for turn in corpus.turns)]

    ascii_texts = [text for text in texts if text.isascii()]

    assert len(ascii_texts) > 4000
    for text in ascii_texts:
        assert tok.words(text) == tok.unicode_words(text), text
    assert tok.words("pastéis, Café") == ["pasteis", ",", "cafe"]  # the rest go by the Unicode rules


def test_wordpiece_truncates_to_the_model_length() -> None:
    tok = WordPieceTokenizer({t: i for i, t in enumerate(VOCAB)}, max_tokens=5)

    assert len(tok.encode("ship " * 50)) == 5
    assert tok.encode("ship " * 50)[-1] == VOCAB.index("[SEP]")


def test_gelu_matches_the_erf_definition() -> None:
    import math

    xs = np.linspace(-6, 6, 101, dtype=np.float64)
    expected = [0.5 * x * (1 + math.erf(x / math.sqrt(2))) for x in xs]

    assert np.allclose(gelu(xs), expected, atol=1e-6)


def test_encoder_returns_unit_vectors_independent_of_batch_padding(tmp_path: Path) -> None:
    encoder = SentenceEncoder(tiny_model(tmp_path))
    short, long = "ship a build", "the release pipeline is manual , hello world !"

    alone = encoder.encode([short])
    batched = encoder.encode([long, short, "unaffable"])

    assert alone.shape == (1, 8)
    assert np.allclose(np.linalg.norm(batched, axis=1), 1.0, atol=1e-6)
    assert np.allclose(alone[0], batched[1], atol=1e-5)  # padding is masked out
    assert not np.allclose(batched[0], batched[1])
    assert encoder.max_tokens == 16


def test_encoder_refuses_an_incomplete_checkpoint(tmp_path: Path) -> None:
    tiny_model(tmp_path)
    write_safetensors(tmp_path / "model.safetensors", {"embeddings.word_embeddings.weight": np.zeros((3, 8))})

    with pytest.raises(ValueError, match="checkpoint lacks"):
        SentenceEncoder(tmp_path)


@pytest.fixture
def tiny_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The tiny model installed as a package the local backend can load: its model name."""
    tiny_model(tmp_path)
    package = types.ModuleType("tiny_minilm_pkg")
    package.get_model_path = lambda: tmp_path  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tiny_minilm_pkg", package)
    monkeypatch.setitem(embeddings.LOCAL_MODELS, "tiny", "tiny_minilm_pkg")
    return "local:tiny"


def test_local_backend_loads_the_model_from_a_package(tiny_package: str, stub_gateway: Any) -> None:

    rows = embed_texts(["ship a build", "hello world"], model=tiny_package)
    again = embed_query("ship a build", model=tiny_package)

    assert rows.shape == (2, 8)
    assert float(rows[0] @ again) > 0.99  # the query ran on the int8 session (local_model)
    assert stub_gateway.requests == []  # local means local


def test_query_precision_fp32_embeds_a_query_as_a_stored_row(tiny_package: str, settings: Any) -> None:
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg, knowledge=dataclasses.replace(cfg.knowledge, query_precision="fp32")
    )

    rows = embed_texts(["ship a build", "hello world"], model=tiny_package)
    again = embed_query("ship a build", model=tiny_package)

    assert np.allclose(rows[0], again, atol=1e-6)


def test_local_backend_without_its_package_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(embeddings.LOCAL_MODELS, "missing", "no_such_model_package_here")

    with pytest.raises(EmbeddingNotConfigured, match="no-such-model-package-here"):
        embed_query("q", model="local:missing")
    with pytest.raises(EmbeddingNotConfigured, match="unknown local embedding model"):
        embed_query("q", model="local:not-a-model")


def test_a_repeated_query_is_embedded_once(hybrid: Any) -> None:
    first = embed_query("where does Marcus work")
    again = embed_query("where does Marcus work")

    assert len(embed_requests(hybrid)) == 1
    assert np.array_equal(first, again)
    embed_query("something else")
    assert len(embed_requests(hybrid)) == 2
