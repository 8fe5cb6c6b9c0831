"""memory.embedding.onnx_encoder: the ONNX graph agrees with the numpy forward, its on-disk cache is
reused, rebuilt when corrupt or stale, and SentenceEncoder falls back to numpy without onnxruntime.

All on the tiny random BERT of test_embeddings; the real model's agreement is measured by
bench/embed_throughput.py on the conversation corpus.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
import pytest

from memory.embedding import onnx_encoder
from memory.embedding.local_model import BertConfig, SentenceEncoder, read_safetensors
from memory.embedding.onnx_encoder import OnnxEncoder, cache_key
from tests.memory.embedding.test_embeddings import tiny_model, write_safetensors
from tests.memory.embedding.test_local_model_batching import TEXTS


@pytest.fixture
def model(tmp_path: Path) -> Path:
    directory = tmp_path / "model"
    directory.mkdir()
    return tiny_model(directory)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv(onnx_encoder.MODEL_CACHE_ENV, str(directory))
    return directory


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The precision of every graph built while the test runs."""
    built: list[str] = []
    real = onnx_encoder.build

    def counting(*args: object) -> bytes:
        built.append(str(args[2]))
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(onnx_encoder, "build", counting)
    return built


def graph_encoder(model: Path) -> OnnxEncoder:
    def weights() -> dict[str, np.ndarray]:
        return {k.removeprefix("bert."): v for k, v in read_safetensors(model / "model.safetensors").items()}

    return OnnxEncoder(model, BertConfig.from_file(model / "config.json"), weights)


def rescale(model: Path, name: str, factor: float) -> None:
    tensors = read_safetensors(model / "model.safetensors")
    tensors[name] = tensors[name] * factor
    write_safetensors(model / "model.safetensors", tensors)


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1)


def test_fp32_graph_agrees_with_the_numpy_forward(model: Path, cache: Path) -> None:
    reference = SentenceEncoder(model, runtime="numpy").encode(TEXTS)
    encoder = SentenceEncoder(model, runtime="onnx")

    rows = encoder.encode(TEXTS)

    assert encoder.runtime == "onnx-fp32"
    assert "w" not in vars(encoder)  # the numpy copy of the weights was never loaded
    assert rows.shape == reference.shape
    assert np.all(cosines(rows, reference) > 0.9999)
    assert np.allclose(rows, reference, atol=1e-5)
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)


def test_int8_graph_stays_close_to_the_numpy_forward(model: Path, cache: Path) -> None:
    reference = SentenceEncoder(model, runtime="numpy").encode(TEXTS)
    encoder = SentenceEncoder(model, runtime="onnx", precision="int8")

    rows = encoder.encode(TEXTS)

    ops = {node.op_type for node in onnx.load(next(cache.glob("*-int8.onnx"))).graph.node}
    assert encoder.runtime == "onnx-int8"
    assert "DynamicQuantizeMatMul" in ops or "MatMulInteger" in ops
    assert cosines(rows, reference).mean() > 0.99
    assert not np.allclose(rows, reference, atol=1e-6)  # the quantized weights did run


def test_int8_weights_use_seven_bits(model: Path, cache: Path) -> None:
    SentenceEncoder(model, runtime="onnx", precision="int8").encode(TEXTS[:1])

    graph = onnx.load(next(cache.glob("*-int8.onnx"))).graph
    weights = [
        onnx.numpy_helper.to_array(tensor)
        for tensor in graph.initializer
        if tensor.data_type == onnx.TensorProto.INT8 and tensor.name.endswith("_quantized")
    ]

    # CPUs without VNNI add u8 x s8 products in pairs into 16 bits: full-range weights saturate.
    assert len(weights) == 4 * BertConfig.from_file(model / "config.json").layers  # QKV, dense, FFN x2
    assert {int(np.abs(w).max()) for w in weights} == {64}  # symmetric, 7 bits: full range would be 127


def test_queries_run_on_an_int8_session_while_stored_rows_stay_fp32(
    model: Path, cache: Path, builds: list[str]
) -> None:
    reference = SentenceEncoder(model, runtime="numpy").encode(TEXTS)
    encoder = SentenceEncoder(model, runtime="onnx")

    rows = encoder.encode(TEXTS)
    built_for_rows = list(builds)
    queries = np.stack([encoder.encode_query(text) for text in TEXTS])

    assert built_for_rows == ["fp32"]  # the query graph waits for the first query
    assert builds == ["fp32", "int8"]
    assert np.allclose(rows, reference, atol=1e-5)
    assert cosines(queries, reference).mean() > 0.99
    assert not np.allclose(queries, reference, atol=1e-6)  # the int8 session answered
    assert np.array_equal(encoder.encode_query(TEXTS[0]), queries[0])


def test_query_precision_fp32_embeds_a_query_as_a_stored_row(
    model: Path, cache: Path, builds: list[str]
) -> None:
    encoder = SentenceEncoder(model, runtime="onnx", query_precision="fp32")

    query = encoder.encode_query(TEXTS[0])

    assert builds == ["fp32"]
    assert np.allclose(query, encoder.encode(TEXTS[:1])[0], atol=1e-6)


def test_the_cached_model_is_reused(model: Path, cache: Path, builds: list[str]) -> None:
    first = graph_encoder(model)
    stamp = first.path.stat().st_mtime_ns

    second = graph_encoder(model)

    assert builds == ["fp32"]
    assert sorted(cache.iterdir()) == [first.path] == [second.path]  # and no temp file left behind
    assert second.path.stat().st_mtime_ns == stamp


def test_a_corrupt_cache_file_is_rebuilt(model: Path, cache: Path, builds: list[str]) -> None:
    path = graph_encoder(model).path
    path.write_bytes(path.read_bytes()[:1000])  # a truncated file

    encoder = graph_encoder(model)
    rows = encoder.encode(np.array([[2, 12, 3], [2, 13, 3]]), np.ones((2, 3), dtype=np.int64))

    assert builds == ["fp32", "fp32"]
    assert encoder.path == path
    assert path.stat().st_size > 1000
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)


def test_a_stale_cache_file_is_rebuilt(model: Path, cache: Path, builds: list[str], tmp_path: Path) -> None:
    """A file under this checkpoint's name but built from other weights is never used."""
    other = tmp_path / "other"
    other.mkdir()
    rescale(tiny_model(other), "embeddings.word_embeddings.weight", 2.0)
    foreign = graph_encoder(other)
    target = cache / f"sentence-encoder-{cache_key(model, 'fp32')}-fp32.onnx"
    target.write_bytes(foreign.path.read_bytes())

    encoder = graph_encoder(model)
    rows = SentenceEncoder(model, runtime="onnx").encode(TEXTS)

    assert foreign.key != encoder.key
    assert encoder.path == target
    assert builds == ["fp32", "fp32"]
    assert np.allclose(rows, SentenceEncoder(model, runtime="numpy").encode(TEXTS), atol=1e-5)


def test_an_unwritable_cache_still_gives_a_working_encoder(
    model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[str]
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setenv(onnx_encoder.MODEL_CACHE_ENV, str(blocker / "cache"))

    rows = SentenceEncoder(model, runtime="onnx").encode(TEXTS)

    assert builds == ["fp32"]
    assert np.allclose(rows, SentenceEncoder(model, runtime="numpy").encode(TEXTS), atol=1e-5)


def test_a_forked_child_opens_its_own_session(
    model: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoder = graph_encoder(model)
    ids, mask = np.array([[2, 12, 3]]), np.ones((1, 3), dtype=np.int64)
    before, parent_session = encoder.encode(ids, mask), encoder.session
    monkeypatch.setattr(onnx_encoder.os, "getpid", lambda: -1)  # as seen from a child process

    after = encoder.encode(ids, mask)

    assert encoder.session is not parent_session
    assert np.allclose(after, before, atol=1e-6)


def test_changed_weights_or_precision_change_the_cache_key(model: Path) -> None:
    before = cache_key(model, "fp32")

    rescale(model, "embeddings.LayerNorm.weight", 1.5)

    assert cache_key(model, "fp32") != before
    assert cache_key(model, "fp32") != cache_key(model, "int8")


def test_without_onnxruntime_the_encoder_runs_numpy(
    model: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = SentenceEncoder(model, runtime="numpy").encode(TEXTS)
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # `import onnxruntime` raises ImportError

    encoder = SentenceEncoder(model)

    assert encoder.runtime == "numpy"
    assert np.allclose(encoder.encode(TEXTS), reference, atol=1e-6)
    assert not cache.exists()
    with pytest.raises(ImportError):
        SentenceEncoder(model, runtime="onnx")
