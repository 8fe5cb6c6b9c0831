"""The BERT sentence encoder of memory.embedding.local_model as an ONNX graph run by onnxruntime.

Why: on the 2-core box the numpy forward spends ~80% of its time in OpenBLAS sgemm and tops out
at ~120-170 chunks/s; onnxruntime's MLAS kernels run the same fp32 graph at ~390 (2.3x, and a
cold query in ~3 ms instead of ~12; bench/embed_throughput.py), and can run int8 weights
(VNNI/AMX) when asked for.

One job: build the graph for a checkpoint directory from its own weights (model.safetensors +
config.json, nothing downloaded), cache it on disk, and encode padded id batches with it. The
graph is the same computation as SentenceEncoder._forward plus mean pooling and L2 normalisation
(standard ONNX ops, opset 18, and onnxruntime's own fused Attention), so its rows agree with the
numpy reference to ~1e-7 cosine.

Cache: MODEL_CACHE_ENV or ~/.cache/protomem (XDG_CACHE_HOME respected). The file name carries
a digest of the checkpoint files, BUILDER_VERSION and the precision, and the same key is stored
in the model's metadata and checked on load: a stale, foreign or corrupt file is rebuilt, never
used. Writes go to a temp file in the same directory and os.replace, so racing processes each
leave a complete file; if the directory is not writable the graph runs from memory (and is
rebuilt by the next process). `onnx` is needed only to build; a cached file needs only onnxruntime.

Precision: "fp32" (the default: exact agreement with rows already stored by the numpy path) or
"int8" (quantize_dynamic, per-channel QInt8 weights): ~2x the fp32 throughput here but ~0.992
mean cosine to the fp32 rows, too far to mix with vectors stored by fp32 (see the bench); the
local encoder runs search queries on it (local_model, knowledge.query_precision).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

if TYPE_CHECKING:
    import onnx
    import onnxruntime

logger = logging.getLogger(__name__)

Precision = Literal["fp32", "int8"]
BUILDER_VERSION = 3  # bump when the graph changes: old cache files are then never loaded (2: fused
# attention, 3: 7-bit int8 weights)
OPSET = 18  # LayerNormalization (17) and ReduceL2 with axes as an input (18)
CONTRIB_DOMAIN = "com.microsoft"  # onnxruntime's own operators (Attention)
MODEL_CACHE_ENV = "PROTOMEM_MODEL_CACHE"
METADATA_KEY = "protomem.cache_key"


class EncoderConfig(Protocol):
    """What the graph needs of local_model.BertConfig (a protocol: local_model imports this module)."""

    @property
    def hidden(self) -> int: ...
    @property
    def layers(self) -> int: ...
    @property
    def heads(self) -> int: ...
    @property
    def eps(self) -> float: ...


Weights = Mapping[str, np.ndarray]  # checkpoint tensors by name, without the "bert." prefix


def cache_dir() -> Path:
    """Where built models are kept: $PROTOMEM_MODEL_CACHE, else the user's cache dir."""
    explicit = os.environ.get(MODEL_CACHE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "protomem"


def cache_key(model_dir: Path, precision: Precision) -> str:
    """Digest of what the graph is built from: the weights, the config, the builder and precision."""
    digest = hashlib.sha256(f"v{BUILDER_VERSION}:{precision}:".encode())
    for name in ("config.json", "model.safetensors"):
        with (Path(model_dir) / name).open("rb") as fh:
            digest.update(hashlib.file_digest(fh, "sha256").digest())
    return digest.hexdigest()[:24]


def build_graph(cfg: EncoderConfig, w: Weights) -> onnx.ModelProto:
    """The fp32 encoder: input_ids, attention_mask (int64, batch x seq) -> embeddings (batch x
    hidden), mean-pooled over the mask and L2-normalised."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    hidden, heads = cfg.hidden, cfg.heads
    nodes: list[onnx.NodeProto] = []
    initializers: list[onnx.TensorProto] = []

    def const(name: str, value: np.ndarray | float | int) -> str:
        initializers.append(numpy_helper.from_array(np.array(value, order="C"), name))
        return name

    def op(kind: str, inputs: list[str], *, name: str = "", domain: str = "", **attrs: Any) -> str:
        out = f"t{len(nodes)}"
        name = name or f"{kind}_{len(nodes)}"
        nodes.append(helper.make_node(kind, inputs, [out], name=name, domain=domain, **attrs))
        return out

    def linear(x: str, name: str, weight: np.ndarray, bias: np.ndarray) -> str:
        # Named after the checkpoint's layer, so quantization options can pick nodes by name.
        y = op("MatMul", [x, const(name + ".weight_t", weight.T.astype(np.float32))], name=name)
        return op("Add", [y, const(name + ".bias", bias.astype(np.float32))])

    def layer_norm(x: str, name: str) -> str:
        gamma, beta = const(name + ".weight", w[name + ".weight"]), const(name + ".bias", w[name + ".bias"])
        return op("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=cfg.eps)

    zero, one = const("i0", np.int64(0)), const("i1", np.int64(1))
    f_one = const("f1", np.float32(1.0))
    # Token type is always 0 (single sentences): its embedding folds into the position table.
    positions_table = (
        w["embeddings.position_embeddings.weight"] + w["embeddings.token_type_embeddings.weight"][0]
    )
    seq = op("Gather", [op("Shape", ["input_ids"]), one], axis=0)
    positions = op("Gather", [const("positions", positions_table), op("Range", [zero, seq, one])])
    words = op("Gather", [const("words", w["embeddings.word_embeddings.weight"]), "input_ids"])
    x = layer_norm(op("Add", [words, positions]), "embeddings.LayerNorm")

    key_mask = op("Cast", ["attention_mask"], to=TensorProto.INT32)  # Attention's raw 0/1 mask (b, s)
    sqrt2, half = const("sqrt2", np.float32(math.sqrt(2.0))), const("half", np.float32(0.5))
    for i in range(cfg.layers):
        p = f"encoder.layer.{i}."
        a = p + "attention.self."
        # onnxruntime's fused self-attention (com.microsoft Attention: the QKV projection, the
        # scaled, masked softmax and the context, per head) in one kernel, where the plain ops
        # took twelve nodes a layer; quantize() makes it QAttention. The optimized int8 graph
        # went from 150 nodes to 70, a 12-token query 7% faster (2.61 -> 2.43 ms p50, queries
        # interleaved), and the fp32 rows agree with numpy as closely as before (1.6e-7).
        qkv_w = np.concatenate([w[a + "query.weight"], w[a + "key.weight"], w[a + "value.weight"]])
        qkv_b = np.concatenate([w[a + "query.bias"], w[a + "key.bias"], w[a + "value.bias"]])
        qkv = [const(a + "qkv.weight_t", qkv_w.T.astype(np.float32)), const(a + "qkv.bias", qkv_b)]
        context = op(
            "Attention",
            [x, *qkv, key_mask],
            name=a + "qkv",
            domain=CONTRIB_DOMAIN,
            num_heads=heads,
        )
        dense = p + "attention.output.dense"
        attn = linear(context, dense, w[dense + ".weight"], w[dense + ".bias"])
        x = layer_norm(op("Add", [attn, x]), p + "attention.output.LayerNorm")
        inner = linear(
            x, p + "intermediate.dense", w[p + "intermediate.dense.weight"], w[p + "intermediate.dense.bias"]
        )
        # Exact (erf) GELU in the pattern onnxruntime fuses into one BiasGelu kernel.
        erf = op("Erf", [op("Div", [inner, sqrt2])])
        inner = op("Mul", [op("Mul", [inner, op("Add", [erf, f_one])]), half])
        out = linear(inner, p + "output.dense", w[p + "output.dense.weight"], w[p + "output.dense.bias"])
        x = layer_norm(op("Add", [out, x]), p + "output.LayerNorm")

    mask = op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    weights = op("Unsqueeze", [mask, const("axis2", np.array([2], np.int64))])  # b,s,1: padding weighs 0
    axis1 = const("axis1", np.array([1], np.int64))
    summed = op("ReduceSum", [op("Mul", [x, weights]), axis1], keepdims=0)
    count = op("Max", [op("ReduceSum", [weights, axis1], keepdims=0), const("eps_count", np.float32(1e-9))])
    pooled = op("Div", [summed, count])
    norm = op("ReduceL2", [pooled, const("axis_last", np.array([-1], np.int64))], keepdims=1)
    op("Div", [pooled, op("Max", [norm, const("eps_norm", np.float32(1e-12))])])
    nodes[-1].output[0] = "embeddings"

    graph = helper.make_graph(
        nodes,
        "sentence_encoder",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
        ],
        [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", hidden])],
        initializers,
    )
    opsets = [helper.make_opsetid("", OPSET), helper.make_opsetid(CONTRIB_DOMAIN, 1)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="protomem")
    model.ir_version = 8  # the oldest IR that carries opset 18; any onnxruntime >= 1.14 loads it
    onnx.checker.check_model(model)
    return model


def quantize(model: onnx.ModelProto) -> onnx.ModelProto:
    """int8 weights (per output channel, QInt8: the u8s8 VNNI/AMX kernels), activations quantized
    per batch at run time: the MatMuls with constant weights, and Attention's QKV projection
    (QAttention); the attention products themselves stay fp32.

    Weights use 7 of their 8 bits (reduce_range), as onnxruntime advises for CPUs without VNNI:
    there (AVX2 alone, as on a Zen 3 box here) the u8s8 kernel adds pairs of products in 16 bits,
    which saturate with full-range weights. A tiny test model's query row then fell to 0.93
    cosine of its fp32 row; MiniLM's 300 eval questions keep 0.993 mean (0.988 min) either way."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    previous = logging.root.manager.disable
    with tempfile.TemporaryDirectory(prefix="protomem-quantize-") as scratch:
        source, target = Path(scratch) / "fp32.onnx", Path(scratch) / "int8.onnx"
        onnx.save(model, source)
        logging.disable(logging.WARNING)  # the quantizer logs every skipped tensor on the root logger
        try:
            quantize_dynamic(
                source,
                target,
                per_channel=True,
                reduce_range=True,
                weight_type=QuantType.QInt8,
                # Shape inference cannot type the contrib Attention's output: it is float.
                extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
            )
        finally:
            logging.disable(previous)
        return onnx.load(target)


def build(cfg: EncoderConfig, weights: Weights, precision: Precision, key: str) -> bytes:
    """The serialized model at `precision`, tagged with `key`."""
    model = build_graph(cfg, weights)
    if precision == "int8":
        model = quantize(model)
    del model.metadata_props[:]
    model.metadata_props.add(key=METADATA_KEY, value=key)
    return model.SerializeToString()


def write_atomically(path: Path, data: bytes) -> None:
    """Write via a temp file in the same directory + os.replace: readers never see a partial file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


class OnnxEncoder:
    """`encode(ids, mask)` -> (batch, hidden) float32 unit rows, from the cached (or newly built)
    graph of the checkpoint in `model_dir`. `weights` is called only to build. One session with
    `threads` intra-op threads; InferenceSession.run is thread-safe, so the encoder can be shared.
    Raises ImportError without onnxruntime (or without onnx when it has to build)."""

    def __init__(
        self,
        model_dir: Path,
        config: EncoderConfig,
        weights: Callable[[], Weights],
        *,
        precision: Precision = "fp32",
        threads: int = 1,
        directory: Path | None = None,
    ) -> None:
        import onnxruntime

        self.model_dir = Path(model_dir)
        self.precision = precision
        self.threads = threads
        self.key = cache_key(self.model_dir, precision)
        self.path = (directory or cache_dir()) / f"sentence-encoder-{self.key}-{precision}.onnx"
        self._ort = onnxruntime
        self._pid = os.getpid()
        self._in_memory: bytes | None = None  # the model, when it could not be cached on disk
        self.session = self._cached_session()
        if self.session is None:
            logger.info("building %s (%s) from %s", self.path.name, precision, self.model_dir)
            data = build(config, weights(), precision, self.key)
            try:
                write_atomically(self.path, data)
            except OSError as exc:  # a read-only home, say: run from memory, rebuild next process
                logger.warning("cannot cache the ONNX encoder in %s (%s)", self.path.parent, exc)
                self._in_memory = data
            self.session = self._open()

    def _open(self) -> onnxruntime.InferenceSession:
        options = self._ort.SessionOptions()
        options.graph_optimization_level = self._ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        # No spinning between runs: a query is one short run, and idle pool threads spinning on
        # the other core slow the database work that follows (as OpenBLAS's did; see embeddings).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        source = self._in_memory if self._in_memory is not None else str(self.path)
        return self._ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])

    def _cached_session(self) -> onnxruntime.InferenceSession | None:
        """The session over the cached file if it is there, loads, and carries this key."""
        if not self.path.exists():
            return None
        try:
            session = self._open()
        except Exception as exc:  # onnxruntime raises its own Fail/InvalidProtobuf types
            logger.warning("rebuilding %s: it does not load (%s)", self.path, str(exc)[:200])
            return None
        if session.get_modelmeta().custom_metadata_map.get(METADATA_KEY) != self.key:
            logger.warning("rebuilding %s: it was built from other weights or by another builder", self.path)
            return None
        return session

    def encode(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Unit rows for a padded batch: ids and mask are (batch, seq) integer arrays, mask 1 on
        real tokens."""
        if os.getpid() != self._pid:
            # A forked child (a prefork worker) has none of the parent's intra-op threads: a
            # session it inherited could wait on them forever, so it opens its own.
            self.session, self._pid = self._open(), os.getpid()
        feeds = {
            "input_ids": ids.astype(np.int64, copy=False),
            "attention_mask": mask.astype(np.int64, copy=False),
        }
        return self.session.run(["embeddings"], feeds)[0]
