"""Shared benchmark helpers: a throwaway instance dir, a migrated bench database, synthetic
text and latency percentiles.

Never points at the repo's instance dir: every bench database lives under BENCH_ROOT
(default /tmp/protomem-bench, override with PROTOMEM_BENCH_ROOT) and is reused between runs
when its marker says it was built with the same parameters.

Typical use (Django must be set up before models are imported):

    from bench import common
    db = common.bench_instance("search-100000")      # sets env + django.setup()
    if not common.is_built(db, params):
        common.migrate()
        ... load rows ...
        common.mark_built(db, params, extra)
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BENCH_ROOT = Path(os.environ.get("PROTOMEM_BENCH_ROOT") or "/tmp/protomem-bench")  # noqa: S108 - scratch data
MARKER = "built.json"

CONSONANTS = "bdfgklmnprstvz"
# No "e" or "y": the porter stemmer rewrites word endings with those, which could merge words.
VOWELS = "aiou"


def _ensure_outside_repo(path: Path) -> None:
    resolved = path.resolve()
    if resolved == REPO or REPO in resolved.parents:
        raise SystemExit(f"refusing to put a bench database inside the repo: {resolved}")


def bench_instance(name: str, *, fresh: bool = False) -> Path:
    """Point Django at BENCH_ROOT/<name> (its own instance dir and empty config) and set it up.

    Returns the instance dir. Call once per process, before importing models.
    """
    instance = BENCH_ROOT / name
    _ensure_outside_repo(instance)
    if fresh and instance.exists():
        shutil.rmtree(instance)
    instance.mkdir(parents=True, exist_ok=True)
    config = instance / "protomem.yaml"
    if not config.exists():
        config.write_text("{}\n")
    os.environ["PROTOMEM_INSTANCE_DIR"] = str(instance)
    os.environ["PROTOMEM_CONFIG"] = str(config)
    os.environ["DJANGO_SETTINGS_MODULE"] = "protomem.settings"
    for key in ("CELERY_BROKER_URL", "REDIS_URL"):
        os.environ.pop(key, None)  # filesystem broker under the instance dir; nothing is enqueued
    for key in ("DATABASE_URL", "INJECTION_LOG_DATABASE_URL"):
        if os.environ.get(key, "").startswith("sqlite"):  # an inherited SQLite file would hold the rows
            os.environ.pop(key)  # while the built-marker sits here: a later run would search nothing
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    import django

    django.setup()
    return instance


def db_path() -> Path:
    """The default database file of the active (bench) settings."""
    from django.conf import settings

    return Path(settings.DATABASES["default"]["NAME"])


def migrate() -> None:
    """Create the schema with the real migrations (FTS5 table and triggers included)."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("migrate", database="injections", verbosity=0, interactive=False)


def is_built(instance: Path, params: dict[str, Any]) -> dict[str, Any] | None:
    """The marker's contents when the database was fully built with `params`, else None."""
    marker = instance / MARKER
    if not marker.exists():
        return None
    data = json.loads(marker.read_text())
    return data if data.get("params") == params else None


def mark_built(instance: Path, params: dict[str, Any], extra: dict[str, Any]) -> None:
    (instance / MARKER).write_text(json.dumps({"params": params, **extra}, indent=2) + "\n")


def vocabulary(size: int = 5000, *, seed: int = 7) -> list[str]:
    """`size` distinct pseudo-words that the porter stemmer leaves distinct."""
    rng = random.Random(seed)
    words: dict[str, None] = {}
    while len(words) < size:
        syllables = rng.choice((2, 2, 3, 3, 4))
        word = "".join(rng.choice(CONSONANTS) + rng.choice(VOWELS) for _ in range(syllables))
        words.setdefault(word, None)
    vocab = list(words)
    _check_stems_distinct(vocab)
    return vocab


def _check_stems_distinct(vocab: list[str]) -> None:
    probe = sqlite3.connect(":memory:")
    try:
        probe.execute("CREATE VIRTUAL TABLE v USING fts5(w, tokenize='porter unicode61')")
        probe.executemany("INSERT INTO v(w) VALUES (?)", [(w,) for w in vocab])
        probe.execute("CREATE VIRTUAL TABLE vv USING fts5vocab(v, row)")
        (terms,) = probe.execute("SELECT count(*) FROM vv").fetchone()
    finally:
        probe.close()
    if terms != len(vocab):
        raise RuntimeError(f"vocabulary collapses under stemming: {len(vocab)} words, {terms} stems")


def words(rng: random.Random, vocab: Sequence[str], count: int) -> str:
    """`count` words drawn uniformly (with replacement) from `vocab`, space separated."""
    return " ".join(rng.choices(vocab, k=count))


def query_terms(rng: random.Random, vocab: Sequence[str], count: int = 3) -> str:
    """A query of `count` distinct random words."""
    return " ".join(rng.sample(vocab, count))


def add_standing_rules(count: int, rng: random.Random, vocab: Sequence[str], now: datetime) -> None:
    """`count` operator always-on rows ("Standing rule i: ..."), one minute apart, newest first."""
    from memory.lifecycle.writes import ChunkDraft, add_chunks

    add_chunks(
        ChunkDraft(
            content=f"Standing rule {i}: " + words(rng, vocab, 5),
            domain="hot",
            source_type="console",
            created_at=now - timedelta(minutes=i),
        )
        for i in range(count)
    )


def set_knowledge(**changes: Any) -> None:
    """Change `knowledge.*` settings of this process (embeddings on/off, the model, the ANN threshold)."""
    from django.conf import settings

    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(cfg, knowledge=dataclasses.replace(cfg.knowledge, **changes))


def timed_ms(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return (time.perf_counter() - start) * 1000, result


def percentile(samples: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (pct in 0..100)."""
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), round(pct / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def summarize(samples: Sequence[float]) -> dict[str, float]:
    return {
        "p50": percentile(samples, 50),
        "p90": percentile(samples, 90),
        "p99": percentile(samples, 99),
        "mean": statistics.fmean(samples) if samples else float("nan"),
    }


def print_latency(label: str, samples: Sequence[float], *, width: int = 34) -> dict[str, float]:
    """One line: label, p50/p90/p99/mean in ms. Returns the summary."""
    s = summarize(samples)
    print(
        f"  {label:<{width}} p50 {s['p50']:7.3f} ms   p90 {s['p90']:7.3f} ms   "
        f"p99 {s['p99']:7.3f} ms   mean {s['mean']:7.3f} ms   (n={len(samples)})"
    )
    return s


def progress(iterable: Sequence[Any] | Iterator[Any], *, every: int, total: int, label: str) -> Iterator[Any]:
    """Yield items, printing a progress line to stderr every `every` items."""
    start = time.perf_counter()
    for n, item in enumerate(iterable, 1):
        yield item
        if n % every == 0:
            rate = n / max(time.perf_counter() - start, 1e-9)
            print(f"    {label}: {n:,}/{total:,} ({rate:,.0f}/s)", file=sys.stderr, flush=True)


# -- what a bench measured (so a run that silently fell back to keyword only says so)


def store_census(model: str | None = None) -> dict[str, int]:
    """Rows in the store, deliverable rows, and stored vectors of `model` and of other models."""
    from memory.store import vectors
    from memory.store.deliverable import deliverable
    from memory.store.models import Chunk

    census = {"rows": Chunk.objects.count(), "deliverable rows": deliverable().count()}
    if model is not None:
        mine = vectors.vector_count(model=model)
        census[f"vectors of {model}"] = mine
        census["vectors of other models"] = vectors.vector_count() - mine
    return census


@dataclasses.dataclass
class Meter:
    """Counts taken while `metered()` is active: SQL statements run, query embeddings computed
    (cache hits excluded), vector searches (memory.store.vectors.nearest_ids / nearest_rows)."""

    statements: int = 0
    query_embeddings: int = 0
    vector_searches: int = 0

    def line(self) -> str:
        return (
            f"{self.statements:,} SQL statements, {self.query_embeddings:,} query embeddings "
            f"computed (cache misses), {self.vector_searches:,} vector searches"
        )


@contextmanager
def metered() -> Iterator[Meter]:
    """Count what the code run inside touches (on this thread's default connection; embeddings
    and vector searches on any thread)."""
    from django.db import connection

    from memory.embedding import embeddings
    from memory.store import vectors

    meter = Meter()
    patched: list[tuple[Any, str, Any]] = []
    inside = threading.local()  # nearest_ids calls nearest_rows: one search, counted once

    def counting(module: Any, name: str, field: str) -> None:
        original = getattr(module, name, None)
        if original is None:
            return

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if getattr(inside, field, False):
                return original(*args, **kwargs)
            setattr(meter, field, getattr(meter, field) + 1)
            setattr(inside, field, True)
            try:
                return original(*args, **kwargs)
            finally:
                setattr(inside, field, False)

        patched.append((module, name, original))
        setattr(module, name, wrapper)

    counting(embeddings, "embed_query", "query_embeddings")
    counting(vectors, "nearest_ids", "vector_searches")
    counting(vectors, "nearest_rows", "vector_searches")

    def count_sql(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        meter.statements += 1
        return execute(sql, params, many, context)

    try:
        with connection.execute_wrapper(count_sql):
            yield meter
    finally:
        for module, name, original in reversed(patched):
            setattr(module, name, original)


def print_measured(what: str, census: dict[str, int], meter: Meter | None = None) -> None:
    """One line saying what was measured: the calls, the store they ran over, what they touched."""
    store = ", ".join(f"{value:,} {name}" for name, value in census.items())
    touched = f"; {meter.line()}" if meter is not None else ""
    print(f"  measured: {what}; store: {store}{touched}")
