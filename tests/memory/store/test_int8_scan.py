"""memory.store.int8_scan: the int8 estimate plus float32 rescore gives the float32 scan's answer."""

from __future__ import annotations

import numpy as np
import pytest

from memory.store import int8_scan
from tests.memory.store.vector_stub import clean_embedding_state  # noqa: F401 - fixture


def float32_top(query: np.ndarray, columns: np.ndarray, count: int) -> np.ndarray:
    scores = query @ columns
    part = np.argpartition(-scores, count - 1)[:count]
    return part[np.lexsort((part, -scores[part]))]


def unit_columns(rng: np.random.Generator, rows: int, dim: int) -> np.ndarray:
    matrix = rng.standard_normal((rows, dim)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.ascontiguousarray(matrix.T)


def test_estimates_stay_within_their_bound() -> None:
    rng = np.random.default_rng(3)
    columns = unit_columns(rng, 3000, 384)
    quantized = int8_scan.build(columns)
    for seed in range(20):
        query = unit_columns(np.random.default_rng(100 + seed), 1, 384)[:, 0]
        estimates, bound = quantized.estimates(query)
        assert np.abs(estimates - query @ columns).max() < bound
        assert bound < 0.05  # loose enough to hold, tight enough to prune


@pytest.mark.parametrize("count", [1, 5, 20, 40, 100])
def test_top_is_the_float32_top(count: int) -> None:
    """Queries near a column (a clear top) and far from all (a flat one), a quantized prefix and
    a float32 tail, and duplicate columns (ties go to the lower position, as the float32 scan's)."""
    rng = np.random.default_rng(5)
    columns = unit_columns(rng, 6000, 64)
    columns[:, 5000] = columns[:, 17]  # a tie
    quantized = int8_scan.build(columns[:, :5500])
    for seed in range(30):
        noise = 0.2 + seed / 5
        query = columns[:, seed * 7] + noise * rng.standard_normal(64).astype(np.float32)
        query /= np.linalg.norm(query)
        found = int8_scan.exact_top(query, columns, quantized, count)
        assert found.tolist() == float32_top(query, columns, count).tolist()
    tied = int8_scan.exact_top(columns[:, 17].copy(), columns, quantized, 2)
    assert tied.tolist() == [17, 5000]


@pytest.mark.usefixtures("clean_embedding_state")
def test_the_index_answers_the_same_with_its_int8_copy(
    transactional_db: object, settings: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through memory.store.vectors (nearest_ids, and nearest_rows with a filter that rejects
    some of the best rows): the same ids, in the same order, with and without the int8 copy."""
    from memory.store import vectors
    from memory.store.models import Chunk
    from tests.factories import ChunkFactory

    settings.PROTOMEM_PGVECTOR = False  # type: ignore[attr-defined]
    monkeypatch.setattr(vectors, "INT8_MIN_ROWS", 50)
    rng = np.random.default_rng(9)
    chunks = [ChunkFactory(namespace="a" if i % 3 else "b") for i in range(150)]
    matrix = unit_columns(rng, 150, 32).T
    vectors.vectors_store(zip([c.pk for c in chunks], matrix, strict=True), model="m8")
    queries = [matrix[i] + 0.8 * rng.standard_normal(32).astype(np.float32) for i in range(0, 150, 10)]
    only_a = Chunk.objects.filter(content__isnull=False).exclude(namespace="b")

    def answers() -> list[list[object]]:
        out: list[list[object]] = []
        for query in queries:
            out.append(vectors.nearest_ids(query, k=7, model="m8"))
            out.append([row[0] for row in vectors.nearest_rows(query, k=7, model="m8", queryset=only_a)])
        return out

    vectors.reset_cache()
    assert vectors.warm("m8") == 150
    assert all(s.quantized is not None for s in vectors.snapshot("m8"))
    with_int8 = answers()
    monkeypatch.setattr(int8_scan, "available", lambda: False)
    vectors.reset_cache()
    vectors.warm("m8")
    assert all(s.quantized is None for s in vectors.snapshot("m8"))
    assert with_int8 == answers()
    assert all(len(ids) == 7 for ids in with_int8)
