"""Concurrent-agent load on the HTTP API: recall, per-turn context and ingest under gunicorn.

    .venv/bin/python -m bench.load                               # SQLite, 50 clients, 30 s
    .venv/bin/python -m bench.load --clients 50 --seconds 60 --workers 5 --threads 1
    .venv/bin/python -m bench.load --database-url postgres://postgres@127.0.0.1:5432/protomem_load

Every run builds a fresh instance dir under /tmp/protomem-bench (load-sqlite / load-pg): the
real migrations on both databases (default and injections), `--chunks` retrievable chunks
(30 pseudo-words each) plus 20 always-on rows, loaded through memory.lifecycle.writes.add_chunks,
and `--agents` agents with one API key each (default one agent per client; fewer agents
means several clients, each with its own session, share an agent). With --database-url the
PostgreSQL databases named in the settings are dropped and created first (and dropped after,
unless --keep); settings.py has to read DATABASE_URL for that run.

gunicorn then serves protomem.wsgi on a free loopback port (`--workers`, default 2*cores+1;
`--threads` > 1 switches to the gthread worker; its access log records the server-side time
of every request). `--clients` threads, each with its own keep-alive http.client connection,
first register a session (POST /api/sessions/) and then loop for `--seconds` over the mix
(default 50% recall, 30% context, 20% ingest):

  recall    GET  /api/memory/recall/?query=<3 words>&top_k=10
  context   POST /api/sessions/<id>/context/   {query, model, working_state}   (log row written)
  ingest    POST /api/sessions/<id>/memory/ingest/  {content: <unique marker> + 20 words}  (a fact)

Ops started in the first `--warmup` seconds are left out of the latency and throughput
figures (not out of the status counts or the write check). Then it prints per op: count,
throughput, client p50/p99 and the server's own p50/p99 (access log), the status histogram,
5xx and transport errors; it checks every ingest answered 201 is in the store under its id
with the content sent, and that no other row carries this run's marker; and it scans the
gunicorn log for database-locked errors, tracebacks and worker timeouts. The load generator's
CPU is printed beside the server's, so a saturated client is visible, and the workers'
schedstat splits server time into on-cpu, waiting-for-a-cpu (a shared machine) and blocked
(SQLite busy-timeout sleeps, PostgreSQL round trips). --server-settings runs the server on a
settings variant over the same databases (e.g. a patched backend on PYTHONPATH).

SQLite note: with sync workers (threads 1, as scripts/run.sh) writers never waited measurably;
with gthread (5 x 10) and a write-heavy mix one ingest waited 19.4 s for the write lock, just
under the 20 s busy timeout after which it would be a "database is locked" 500: SQLite's busy
handler polls with sleeps instead of queueing, so 50 in-process writers can starve one.

Exit status 1 on any 5xx, transport error (reset, timeout) or lost / altered write.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
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
CONFIG = f"""\
default_model: bench-model
models:
  bench-model: {{context_window: {WINDOW}}}
knowledge: {{top_k: 5}}
context: {{budget_pct: 8, prior_sessions: newest}}
"""
# What the server log is scanned for; the first matching label wins per line.
LOG_PATTERNS = (
    ("database is locked", re.compile(r"database is locked", re.I)),
    ("database table is locked", re.compile(r"database table is locked", re.I)),
    ("sqlite busy (other)", re.compile(r"SQLITE_BUSY|database is busy", re.I)),
    ("pg deadlock / serialization", re.compile(r"deadlock detected|could not serialize", re.I)),
    ("pg too many connections", re.compile(r"too many (clients|connections)", re.I)),
    ("OperationalError", re.compile(r"OperationalError")),
    ("IntegrityError", re.compile(r"IntegrityError")),
    ("worker timeout", re.compile(r"WORKER TIMEOUT")),
    ("worker killed / exited", re.compile(r"Worker \(pid:\d+\) (was sent|exited)")),
    ("Internal Server Error", re.compile(r"Internal Server Error")),
    ("Traceback", re.compile(r"^Traceback")),
)
# The phase header tags warm-up requests, so the server-side figures cover the same requests.
PHASE_HEADER = "X-Bench-Phase"
ACCESS_FORMAT = "ACCESS %(s)s %(m)s %(U)s %(D)s %({x-bench-phase}i)s"


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


# -- setup ------------------------------------------------------------------------------------


def _pg_admin_conninfo(url: str) -> dict[str, Any]:
    parts = urllib.parse.urlparse(url)
    return {
        "host": parts.hostname or "127.0.0.1",
        "port": parts.port or 5432,
        "user": urllib.parse.unquote(parts.username or "postgres"),
        "password": urllib.parse.unquote(parts.password) if parts.password else None,
        "dbname": "postgres",
    }


def _pg_databases() -> list[tuple[dict[str, Any], str]]:
    """(admin conninfo, database name) for every PostgreSQL database the settings name."""
    from django.conf import settings

    found: dict[tuple[Any, ...], tuple[dict[str, Any], str]] = {}
    for db in settings.DATABASES.values():
        if "postgresql" not in db["ENGINE"]:
            continue
        info = {
            "host": db.get("HOST") or "127.0.0.1",
            "port": int(db.get("PORT") or 5432),
            "user": db.get("USER") or "postgres",
            "password": db.get("PASSWORD") or None,
            "dbname": "postgres",
        }
        found[(info["host"], info["port"], db["NAME"])] = (info, db["NAME"])
    return list(found.values())


def _pg_recreate(*, drop_only: bool = False) -> None:
    import psycopg
    from psycopg import sql

    for info, name in _pg_databases():
        with psycopg.connect(**{k: v for k, v in info.items() if v is not None}, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
            if not drop_only:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def pg_backend_cpu() -> tuple[float, int]:
    """(cpu seconds, count) of the PostgreSQL backends connected to the bench databases.

    The bench closes its own connections before the load, so these are the server's, opened
    during the run (CONN_MAX_AGE keeps them until the workers stop).
    """
    import psycopg

    totals, count = 0, 0
    for info, name in _pg_databases():
        with psycopg.connect(**{k: v for k, v in info.items() if v is not None}, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [name]
            ).fetchall()
        for (pid,) in rows:
            totals += _proc_cpu_ticks(pid, with_children=False)
            count += 1
    return totals / os.sysconf("SC_CLK_TCK"), count


def setup(args: argparse.Namespace) -> tuple[Path, list[str]]:
    """Fresh instance dir, migrated and seeded; returns it and the agents' raw API keys."""
    name = "load-pg" if args.database_url else "load-sqlite"
    instance = common.BENCH_ROOT / name
    if instance.exists():
        shutil.rmtree(instance)
    instance.mkdir(parents=True)
    (instance / "protomem.yaml").write_text(CONFIG)
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    else:
        os.environ.pop("DATABASE_URL", None)
    common.bench_instance(name)

    from django.conf import settings

    engines = {alias: db["ENGINE"].rsplit(".", 1)[-1] for alias, db in settings.DATABASES.items()}
    if args.database_url and "postgresql" not in engines["default"]:
        raise SystemExit(
            f"--database-url given but protomem/settings.py still configures {engines}: "
            "it does not read DATABASE_URL yet"
        )
    print(f"  databases: {engines}", file=sys.stderr, flush=True)
    if args.database_url:
        _pg_recreate()
    common.migrate()
    start = time.perf_counter()
    seed(args.chunks)
    keys = create_agents(args.agents)
    print(f"  seeded in {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    from django.db import connections

    for conn in connections.all():
        if conn.vendor == "sqlite":
            with conn.cursor() as cursor:
                cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()  # the server gets the database to itself until the write check
    return instance, keys


def seed(chunks: int) -> None:
    """`chunks` retrievable host rows and HOT_ROWS always-on rows, through add_chunks."""
    from django.db import connection
    from django.utils import timezone

    from memory.lifecycle.writes import ChunkDraft, add_chunks

    rng = random.Random(SEED)
    vocab = common.vocabulary(VOCAB_SIZE)
    now = timezone.now()
    add_chunks(
        ChunkDraft(
            content=common.words(rng, vocab, WORDS_PER_CHUNK - HEADING_WORDS),
            heading=common.words(rng, vocab, HEADING_WORDS),
            source=f"thread-{rng.randint(1, 500)}",
            source_type=rng.choice(("extracted", "harvest", "console", "web")),
            created_at=now - timedelta(seconds=rng.randint(0, 365 * 86400)),
        )
        for _ in range(chunks)
    )
    common.add_standing_rules(HOT_ROWS, rng, vocab, now)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def create_agents(count: int) -> list[str]:
    from sessions_app.models import Agent, AgentAPIKey

    keys = []
    for i in range(count):
        agent = Agent.objects.create(name=f"load-agent-{i}")
        _, key = AgentAPIKey.objects.create_key(name=f"load-{i}", agent=agent)
        keys.append(key)
    return keys


# -- server -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _proc_cpu_ticks(pid: int, *, with_children: bool) -> int:
    """utime+stime of a process (plus its reaped children's), in clock ticks; 0 once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = stat[stat.rindex(")") + 2 :].split()
    ticks = int(fields[11]) + int(fields[12])
    if with_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
            out.append(int(entry.name))
    return out


class Server:
    """gunicorn serving protomem.wsgi on loopback, logs in the instance dir."""

    def __init__(
        self, instance: Path, *, workers: int, threads: int, timeout: int, log_level: str, settings: str
    ) -> None:
        self.port = free_port()
        self.log = instance / "gunicorn.log"
        self.access = instance / "access.log"
        env = dict(os.environ)
        env["LOG_LEVEL"] = log_level
        env["DJANGO_SETTINGS_MODULE"] = settings
        cmd = [
            sys.executable,
            "-m",
            "gunicorn",
            "protomem.wsgi",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--timeout",
            str(timeout),
            "--access-logfile",
            str(self.access),
            "--access-logformat",
            ACCESS_FORMAT,
            "--no-control-socket",  # its default path is shared by every gunicorn on the machine
            "--error-logfile",
            "-",
        ]
        self._log_fh = self.log.open("w")
        self.proc = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            cmd, cwd=common.REPO, env=env, stdout=self._log_fh, stderr=subprocess.STDOUT
        )
        self.workers = workers

    def wait_ready(self, deadline_s: float = 90.0) -> None:
        """Poll /healthz until every worker has booted (or the deadline passes)."""
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"gunicorn exited ({self.proc.returncode}); see {self.log}")
            booted = self.log.read_text().count("Booting worker")
            if booted >= self.workers:
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                    conn.request("GET", "/healthz")
                    if conn.getresponse().status == 200:
                        conn.close()
                        return
                except OSError:
                    pass
            time.sleep(0.2)  # readiness poll interval, not synchronization of the measured work
        raise SystemExit(f"gunicorn not ready after {deadline_s:.0f} s; see {self.log}")

    def cpu_ticks(self) -> int:
        pid = self.proc.pid
        return _proc_cpu_ticks(pid, with_children=True) + sum(
            _proc_cpu_ticks(c, with_children=False) for c in _children(pid)
        )

    def sched_ns(self) -> dict[int, tuple[int, int]]:
        """Per thread of the master and its workers: (ns on cpu, ns runnable but waiting for one)."""
        out = {}
        for pid in (self.proc.pid, *_children(self.proc.pid)):
            for task in Path(f"/proc/{pid}/task").glob("*"):
                try:
                    on_cpu, waiting, _ = (task / "schedstat").read_text().split()
                except (OSError, ValueError):
                    continue
                out[int(task.name)] = (int(on_cpu), int(waiting))
        return out

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log_fh.close()


# -- clients ----------------------------------------------------------------------------------


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


# -- checks and report ------------------------------------------------------------------------


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


def scan_log(path: Path) -> tuple[Counter[str], list[str]]:
    counts: Counter[str] = Counter()
    examples: list[str] = []
    for line in path.read_text(errors="replace").splitlines():
        for label, pattern in LOG_PATTERNS:
            if pattern.search(line):
                counts[label] += 1
                if len(examples) < 6 and line not in examples and label not in ("Traceback",):
                    examples.append(line.strip()[:200])
                break
    return counts, examples


def _op_of(path: str) -> str:
    if "/memory/recall" in path:
        return "recall"
    if path.endswith(("/context/", "/context")):
        return "context"
    if "/memory/ingest" in path:
        return "ingest"
    if path.rstrip("/") == "/api/sessions":
        return "register"
    return "other"


def access_times(path: Path, *, measured_only: bool = True) -> dict[str, list[float]]:
    """Server-side request time (ms) per op, from the gunicorn access log."""
    out: dict[str, list[float]] = defaultdict(list)
    if not path.exists():
        return out
    for line in path.read_text(errors="replace").splitlines():
        parts = line.split()
        if len(parts) == 6 and parts[0] == "ACCESS" and (parts[5] == "measure" or not measured_only):
            out[_op_of(parts[3])].append(int(parts[4]) / 1000)
    return out


def _mix(spec: str) -> list[tuple[str, float]]:
    weights = {}
    for part in spec.split(","):
        op, _, share = part.partition("=")
        if op.strip() not in OPS:
            raise SystemExit(f"--mix: unknown op {op!r} (one of {', '.join(OPS)})")
        weights[op.strip()] = float(share)
    total = sum(weights.values())
    cumulative, out = 0.0, []
    for op, share in weights.items():
        cumulative += share / total
        out.append((op, cumulative))
    return out


def _machine_busy() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--agents", type=int, default=0, help="default: one per client")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=2.0, help="left out of latency / throughput")
    parser.add_argument("--mix", default="recall=50,context=30,ingest=20")
    parser.add_argument("--chunks", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--threads", type=int, default=1, help=">1 runs gunicorn's gthread worker")
    parser.add_argument("--timeout", type=int, default=30, help="gunicorn worker timeout (its default)")
    parser.add_argument("--request-timeout", type=float, default=120.0, help="client socket timeout")
    parser.add_argument("--log-level", default="INFO", help="the server's LOG_LEVEL")
    parser.add_argument("--database-url", default="", help="postgres://...; default: SQLite files")
    parser.add_argument(
        "--server-settings",
        default="protomem.settings",
        help="the server's DJANGO_SETTINGS_MODULE (a variant on the same databases; extend PYTHONPATH)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the PostgreSQL database afterwards")
    args = parser.parse_args()
    args.agents = args.agents or args.clients
    if args.agents > args.clients:
        raise SystemExit("--agents must not exceed --clients")
    mix = _mix(args.mix)

    instance, keys = setup(args)
    run_tag = f"loadrun{int(time.time())}"
    server = Server(
        instance,
        workers=args.workers,
        threads=args.threads,
        timeout=args.timeout,
        log_level=args.log_level,
        settings=args.server_settings,
    )
    try:
        server.wait_ready()
        vocab = common.vocabulary(VOCAB_SIZE)
        gate = threading.Barrier(args.clients + 1)
        clock = Clock()
        clients = [
            Client(
                index=i,
                key=keys[i % args.agents],
                port=server.port,
                mix=mix,
                vocab=vocab,
                run_tag=run_tag,
                clock=clock,
                warmup=args.warmup,
                timeout=args.request_timeout,
                start_gate=gate,
            )
            for i in range(args.clients)
        ]
        for c in clients:
            c.start()
        sched0, server_ticks0, usage0, busy0 = (
            server.sched_ns(),
            server.cpu_ticks(),
            resource.getrusage(resource.RUSAGE_SELF),
            _machine_busy(),
        )
        clock.t0 = wall0 = time.perf_counter()
        clock.deadline = clock.t0 + args.seconds
        gate.wait()  # everyone starts together
        for c in clients:
            c.join()
        wall = time.perf_counter() - wall0
        sched1, server_ticks1, usage1, busy1 = (
            server.sched_ns(),
            server.cpu_ticks(),
            resource.getrusage(resource.RUSAGE_SELF),
            _machine_busy(),
        )
        pg_cpu = pg_backend_cpu() if args.database_url else None
    finally:
        server.stop()

    hz = os.sysconf("SC_CLK_TCK")
    client_cpu = (usage1.ru_utime - usage0.ru_utime) + (usage1.ru_stime - usage0.ru_stime)
    server_cpu = (server_ticks1 - server_ticks0) / hz
    machine_busy = (busy1[0] - busy0[0]) / max(busy1[1] - busy0[1], 1) * 100
    samples = [s for c in clients for s in c.result.samples]
    ingests = [r for c in clients for r in c.result.ingests]
    reconnects = sum(c.result.reconnects for c in clients)
    check = verify_writes(ingests, run_tag)
    log_counts, log_examples = scan_log(server.log)
    server_ms = access_times(server.access)
    all_server_ms = access_times(server.access, measured_only=False)
    # Threads that exited mid-run (a killed worker) drop out of both sums alike.
    sched_cpu = sum(v[0] - sched0.get(t, (0, 0))[0] for t, v in sched1.items()) / 1e6
    sched_wait = sum(v[1] - sched0.get(t, (0, 0))[1] for t, v in sched1.items()) / 1e6

    from django.conf import settings

    backend = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    measured = [s for s in samples if s.started >= args.warmup and s.op != "register"]
    window = max(args.seconds - args.warmup, 1e-9)
    print(
        f"\n== load: {args.clients} clients ({args.agents} agents) for {args.seconds:g} s on {backend}, "
        f"gunicorn {args.workers} workers x {args.threads} threads "
        f"({'gthread' if args.threads > 1 else 'sync'}), {args.chunks:,} chunks + {HOT_ROWS} always-on"
    )
    print(f"  mix {args.mix}; server settings {args.server_settings}; instance {instance}")
    print(
        f"  wall {wall:.1f} s; cpu: server {server_cpu:.1f} s ({server_cpu / wall * 100:.0f}% of one core), "
        f"load generator {client_cpu:.1f} s ({client_cpu / wall * 100:.0f}% of one core); machine busy "
        f"{machine_busy:.0f}% of {os.cpu_count()} cores (other tenants included); load avg "
        f"{os.getloadavg()[0]:.2f}"
    )
    if pg_cpu is not None:
        print(
            f"  postgres: {pg_cpu[1]} backend connections used {pg_cpu[0]:.1f} s cpu "
            f"({pg_cpu[0] * 1000 / max(len(samples), 1):.1f} ms per request), not in the server figure"
        )
    # CPU per request is what a shared machine distorts least: 1000 / it is req/s per free core.
    per_request = server_cpu * 1000 / max(len(samples), 1)
    print(
        f"  server cpu per request {per_request:.1f} ms (all {len(samples):,} requests) -> "
        f"~{1000 / per_request * (os.cpu_count() or 1):.0f} req/s if the server had every core"
    )
    served = [m for v in all_server_ms.values() for m in v]
    if served:
        n = len(served)
        inside, on_cpu, queued = sum(served) / n, sched_cpu / n, sched_wait / n
        blocked = max(inside - on_cpu - queued, 0)
        print(
            f"  server time per request {inside:.1f} ms = on cpu {on_cpu:.1f} + waiting for a cpu "
            f"{queued:.1f} + blocked (locks, busy-timeout sleeps, db round trips) {blocked:.1f} ms"
            f" (schedstat of the workers' threads; {n:,} requests in the access log)"
        )
    print(f"  after {args.warmup:g} s warm-up ({len(measured):,} requests in {window:.1f} s):")
    for op in ("register", *OPS, "all"):
        if op == "register":
            chosen = [s for s in samples if s.op == "register"]
        elif op == "all":
            chosen = measured
        else:
            chosen = [s for s in measured if s.op == op]
        if not chosen:
            continue
        ms = [s.ms for s in chosen]
        srv = (
            server_ms.get(op, []) if op != "all" else [m for k, v in server_ms.items() if k in OPS for m in v]
        )
        rate = "" if op == "register" else f"{len(chosen) / window:7.1f}/s"
        srv_text = (
            f"   server p50 {common.percentile(srv, 50):7.1f} p99 {common.percentile(srv, 99):7.1f} ms"
            if srv
            else ""
        )
        print(
            f"  {op:<9} n={len(chosen):<6} {rate:>9}   client p50 {common.percentile(ms, 50):7.1f} "
            f"p99 {common.percentile(ms, 99):7.1f} max {max(ms):7.1f} ms{srv_text}"
        )
    statuses = Counter((s.op, s.status) for s in samples)
    print("  status codes (whole run):")
    for op in ("register", *OPS):
        row = {st: n for (o, st), n in sorted(statuses.items()) if o == op}
        if row:
            print(f"    {op:<9} " + "  ".join(f"{st}: {n}" for st, n in row.items()))
    five_xx = sum(n for (_, st), n in statuses.items() if st.startswith("5"))
    transport = sum(n for (_, st), n in statuses.items() if st.startswith("err:"))
    print(f"  5xx: {five_xx}   transport errors: {transport}   keep-alive resends: {reconnects}")
    print(
        f"  writes: {check['answered_201']} answered 201 ({dict(check['actions'])}); "
        f"missing {len(check['missing'])}, altered {len(check['altered'])}; rows with this run's marker "
        f"{check['rows_with_marker']}, landed without a 201/200 answer {len(check['unanswered_rows'])}; "
        f"outcome unknown (5xx / transport) {len(check['unknown_outcome'])}"
    )
    for record in (check["missing"] + check["altered"])[:5]:
        print(f"    LOST/ALTERED #{record.chunk_id}: {record.content[:60]!r}")
    server_line = ", ".join(f"{label}: {n}" for label, n in log_counts.items()) or "none"
    print(f"  server log ({server.log}): {server_line}")
    for line in log_examples:
        print(f"    {line}")
    lost = len(check["missing"]) + len(check["altered"])
    verdict = five_xx == 0 and transport == 0 and lost == 0
    print(f"  target no 5xx and no lost writes at {args.clients} clients: {'PASS' if verdict else 'FAIL'}")
    if args.database_url and not args.keep:
        from django.db import connections

        for conn in connections.all():
            conn.close()
        _pg_recreate(drop_only=True)
    sys.exit(0 if verdict else 1)


if __name__ == "__main__":
    main()
