"""An int8 copy of the vector index's columns, for a cheaper exact nearest-neighbour scan.

The exact scan (memory.store.vectors) is one float32 matrix-vector product over every column:
memory-bound, 77 MB read per query at 50k x 384 (~4 ms here, most of a hybrid query's time).
This module keeps each column quantized to int8 (its own scale: max |x| / COLUMN_LEVELS) in an
onnxruntime MatMulInteger session whose weights are prepacked once (MLAS' VNNI/AMX int8 kernels:
a quarter of the bytes; numpy has no int8 BLAS), and answers a top-`count` question exactly:

1. estimate every cosine from the int8 product (the query quantized to uint8 around 128);
2. rescore the best `m` estimates with the float32 columns (a gather of m columns);
3. accept when no other column can beat the count-th exact score: every estimate is within
   `bound` of the float32 score (below), so a column outside the m whose estimate + bound is
   below that score cannot be in the top; else widen m, and past a quarter of the columns
   score them all in float32, as before. The answer is the float32 scan's, never an estimate.

The bound, for a unit column x = s x^ + dx and the query q = a + dq (a = s_q q^):
|q.x - a.(s x^)| = |a.dx + dq.x| <= |a| |dx| + |dq| (Cauchy-Schwarz, |x| = 1), with |dx| kept
per column at build and |dq| known per query; plus SLACK for float32 rounding.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

SLACK = 1e-4  # float32 rounding of a 384-term dot (~2e-5 at worst) and of the estimate, with room
# Columns use 7 bits (|level| <= 63), as onnxruntime's own reduce_range: on AVX2 without VNNI,
# MLAS sums u8 x s8 pairs in a saturating int16 (vpmaddubsw), and 255 * 127 * 2 overflows it, so
# the products came out wrong and past the bound on such CPUs; 255 * 63 * 2 = 32130 fits.
COLUMN_LEVELS = 63
FIRST_EXTRA = 64  # candidates rescored beyond 2 * count on the first try (doubled until sure)
EXACT_SHARE = 4  # never rescore more than 1/EXACT_SHARE of the columns: score them all in float32


@functools.cache
def available() -> bool:
    """Whether the int8 copy can be built here (onnxruntime and onnx installed: the local
    embedding model's requirements)."""
    try:
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass(frozen=True, eq=False)
class Int8Columns:
    """The first `size` columns of a float32 (dim, n) column matrix, as int8 with scales."""

    size: int
    scales: np.ndarray  # float32 (size,)
    max_residual: float  # max over columns of |x - s x^|
    session: Any  # onnxruntime.InferenceSession: uint8 (1, dim) -> int32 (1, size)

    def estimates(self, query: np.ndarray) -> tuple[np.ndarray, float]:
        """(estimated cosines of the columns with the unit `query`, their error bound)."""
        top = float(np.abs(query).max())
        step = top / 127.0 if top > 0 else 1.0
        levels = np.clip(np.rint(query / step), -127, 127)
        approx = levels * step
        bound = float(np.linalg.norm(approx)) * self.max_residual + float(np.linalg.norm(query - approx))
        (products,) = self.session.run(None, {"q": (levels + 128).astype(np.uint8)[None, :]})
        return products[0].astype(np.float32) * (self.scales * np.float32(step)), bound + SLACK


def build(columns: np.ndarray) -> Int8Columns:
    """The int8 copy of float32 unit `columns` (dim, n); ~0.2 s at 50k x 384 here."""
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    dim, size = columns.shape
    scales = np.abs(columns).max(axis=0).astype(np.float32) / np.float32(COLUMN_LEVELS)
    scales[scales == 0] = 1.0
    weights = np.empty((dim, size), dtype=np.int8)
    max_residual = 0.0
    for start in range(0, size, 8192):  # a band of columns at a time: no float64 whole copy
        part = columns[:, start : start + 8192]
        s = scales[start : start + 8192]
        levels = np.clip(np.rint(part / s), -COLUMN_LEVELS, COLUMN_LEVELS)
        weights[:, start : start + 8192] = levels
        residual = np.linalg.norm(part - levels * s, axis=0)
        max_residual = max(max_residual, float(residual.max(initial=0.0)))
    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", ["q", "w", "zero"], ["out"])],
        "int8_scan",
        [helper.make_tensor_value_info("q", TensorProto.UINT8, [1, dim])],
        [helper.make_tensor_value_info("out", TensorProto.INT32, [1, size])],
        initializer=[
            numpy_helper.from_array(weights, "w"),  # one copy, freed with `model`; ORT prepacks it
            helper.make_tensor("zero", TensorProto.UINT8, [], [128]),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # one core per query, as the float32 scan (vectors.py)
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return Int8Columns(size, scales, max_residual, session)


def exact_top(query: np.ndarray, columns: np.ndarray, quantized: Int8Columns, count: int) -> np.ndarray:
    """Positions of the `count` columns of float32 `columns` (dim, n) with the highest cosine to
    the unit `query`, best first, ties to the lower position: the float32 scan's answer (module
    doc). `quantized` covers the first quantized.size columns; the rest are scored in float32."""
    total = columns.shape[1]
    count = min(count, total)
    if count <= 0:
        return np.empty(0, dtype=np.int64)
    estimates, bound = quantized.estimates(query)
    tail = columns[:, quantized.size : total]
    if tail.shape[1]:
        estimates = np.concatenate([estimates, query @ tail])
    limit = min(total // EXACT_SHARE, 8 * count + 4 * FIRST_EXTRA)  # candidates at most
    if limit > count:
        best = np.argpartition(-estimates, limit)[: limit + 1]  # one partition for every try
        best = best[np.argsort(-estimates[best], kind="stable")]
        want = min(limit, 2 * count + FIRST_EXTRA)
        while True:
            candidates = np.sort(best[:want])  # in column order: a gather ~2x faster than unsorted
            scores = query @ columns[:, candidates]
            order = np.lexsort((candidates, -scores))
            if float(estimates[best[want]]) + bound < float(scores[order[count - 1]]):
                return candidates[order[:count]].astype(np.int64)
            if want >= limit:
                break
            want = min(limit, want * 2)
    return top_positions(query @ columns, count)


def top_positions(scores: np.ndarray, count: int) -> np.ndarray:
    """Positions of the `count` highest scores, best first (ties: lower position first): the
    float32 scan's order (memory.store.vectors too)."""
    if count >= len(scores):
        return np.argsort(-scores, kind="stable")
    part = np.argpartition(-scores, count - 1)[:count]
    return part[np.lexsort((part, -scores[part]))]
