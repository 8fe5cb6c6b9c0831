"""bench/load.py's agents: one thread per agent, a mix of recall, context and ingest over HTTP, and
the check that every acknowledged write is in the store."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench import common

SEED = 20260707
VOCAB_SIZE = 5000


WORDS_PER_CHUNK = 30


HEADING_WORDS = 3


INGEST_WORDS = 20


HOT_ROWS = 20


WINDOW = 32_000


OPS = ("recall", "context", "ingest")


# The phase header tags warm-up requests, so the server-side figures cover the same requests.
PHASE_HEADER = "X-Bench-Phase"


@dataclass
class Sample:
    op: str
    status: str  # HTTP status code, or "err:<ExceptionName>" when no response came back
    ms: float
    started: float  # seconds since the load started


@dataclass
class IngestRecord:
    content: str
    status: str
    chunk_id: int | None = None
    action: str = ""


@dataclass
class Clock:
    """Set by the main thread just before the start barrier opens (which publishes it)."""

    t0: float = 0.0
    deadline: float = 0.0


@dataclass
class ClientResult:
    samples: list[Sample] = field(default_factory=list)
    ingests: list[IngestRecord] = field(default_factory=list)
    reconnects: int = 0


class Client(threading.Thread):
    """One agent conversation: register a session, then loop over the mix until the deadline."""

    def __init__(
        self,
        *,
        index: int,
        key: str,
        port: int,
        mix: list[tuple[str, float]],
        vocab: list[str],
        run_tag: str,
        clock: Clock,
        warmup: float,
        timeout: float,
        start_gate: threading.Barrier,
    ) -> None:
        super().__init__(name=f"client-{index}", daemon=True)
        self.index, self.port, self.mix, self.vocab = index, port, mix, vocab
        self.run_tag, self.clock, self.warmup, self.timeout = run_tag, clock, warmup, timeout
        self.start_gate = start_gate
        self.headers = {
            "Authorization": f"Api-Key {key}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }
        self.session_id = f"load-{run_tag}-{index}"
        self.rng = random.Random(f"{SEED}-client-{index}")  # not the seed stream
        self.result = ClientResult()
        self.conn: http.client.HTTPConnection | None = None

    def _request(self, method: str, path: str, body: dict[str, Any] | None, phase: str) -> tuple[str, bytes]:
        payload = json.dumps(body).encode() if body is not None else None
        headers = {**self.headers, PHASE_HEADER: phase}
        for attempt in (0, 1):
            fresh = self.conn is None
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                if response.will_close:
                    self.conn.close()
                    self.conn = None
                return str(response.status), data
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as exc:
                self.conn.close()
                self.conn = None
                # A kept-alive socket the server closed between requests: resend once on a new one.
                if fresh or attempt:
                    return f"err:{type(exc).__name__}", b""
                self.result.reconnects += 1
            except (TimeoutError, OSError, http.client.HTTPException) as exc:
                self.conn.close()
                self.conn = None
                return f"err:{type(exc).__name__}", b""
        raise AssertionError("unreachable")

    def _timed(self, op: str, method: str, path: str, body: dict[str, Any] | None) -> tuple[str, bytes]:
        started = time.perf_counter()
        phase = "measure" if started - self.clock.t0 >= self.warmup and op != "register" else "warmup"
        status, data = self._request(method, path, body, phase)
        self.result.samples.append(
            Sample(op, status, (time.perf_counter() - started) * 1000, started - self.clock.t0)
        )
        return status, data

    def _pick(self) -> str:
        roll = self.rng.random()
        for op, upto in self.mix:
            if roll < upto:
                return op
        return self.mix[-1][0]

    def run(self) -> None:
        self.start_gate.wait()
        status, _ = self._timed("register", "POST", "/api/sessions/", {"session_id": self.session_id})
        if status not in ("200", "201"):
            return  # counted in the histogram; without a session only recall would work
        sid = urllib.parse.quote(self.session_id, safe="")
        seq = 0
        while time.perf_counter() < self.clock.deadline:
            op = self._pick()
            if op == "recall":
                query = urllib.parse.urlencode(
                    {"query": common.query_terms(self.rng, self.vocab), "top_k": 10}
                )
                self._timed(op, "GET", f"/api/memory/recall/?{query}", None)
            elif op == "context":
                body = {
                    "query": common.query_terms(self.rng, self.vocab),
                    "model": "bench-model",
                    "working_state": "- finish the load run",
                }
                self._timed(op, "POST", f"/api/sessions/{sid}/context/", body)
            else:
                seq += 1
                content = f"{self.run_tag}c{self.index}n{seq} " + common.words(
                    self.rng, self.vocab, INGEST_WORDS
                )
                status, data = self._timed(
                    op, "POST", f"/api/sessions/{sid}/memory/ingest/", {"content": content}
                )
                record = IngestRecord(content=content, status=status)
                if status in ("200", "201"):
                    answer = json.loads(data)
                    record.action = answer.get("action", "")
                    record.chunk_id = (answer.get("chunk") or {}).get("id")
                self.result.ingests.append(record)
        if self.conn is not None:
            self.conn.close()


def verify_writes(ingests: list[IngestRecord], run_tag: str) -> dict[str, Any]:
    """Every 201 is in the store under its id with the content sent; no unanswered row landed."""
    from django.db import connections

    from memory.store.models import Chunk

    for conn in connections.all():
        conn.close()  # a fresh read after the server's last commit
    stored = [r for r in ingests if r.status == "201"]
    ids = [r.chunk_id for r in stored if r.chunk_id is not None]
    rows = dict(Chunk.objects.filter(pk__in=ids).values_list("pk", "content"))
    missing = [r for r in stored if r.chunk_id not in rows]
    altered = [r for r in stored if r.chunk_id in rows and rows[r.chunk_id] != r.content]
    tagged = set(
        Chunk.objects.filter(source_type="memory_ingest", content__startswith=run_tag).values_list(
            "pk", flat=True
        )
    )
    answered = {r.chunk_id for r in ingests if r.chunk_id is not None}
    unknown = [r for r in ingests if r.status.startswith("err:") or r.status.startswith("5")]
    return {
        "answered_201": len(stored),
        "actions": Counter(r.action or r.status for r in ingests),
        "missing": missing,
        "altered": altered,
        "rows_with_marker": len(tagged),
        "unanswered_rows": sorted(tagged - answered),
        "unknown_outcome": unknown,
    }
