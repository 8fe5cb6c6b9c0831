"""bench/load.py's server side: the store it seeds, the databases it recreates, gunicorn on loopback
and what its logs say."""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from collections import Counter, defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench import common
from bench.load_clients import (
    HEADING_WORDS,
    HOT_ROWS,
    SEED,
    VOCAB_SIZE,
    WINDOW,
    WORDS_PER_CHUNK,
)

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


ACCESS_FORMAT = "ACCESS %(s)s %(m)s %(U)s %(D)s %({x-bench-phase}i)s"


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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _proc_cpu_ticks(pid: int, *, with_children: bool) -> int:
    """utime+stime of a process (plus its reaped children's), in clock ticks; 0 once it is gone."""
    return sum(_proc_user_system_ticks(pid, with_children=with_children))


def _proc_user_system_ticks(pid: int, *, with_children: bool) -> tuple[int, int]:
    """(utime, stime) of a process (plus its reaped children's), in clock ticks; 0s once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0, 0
    fields = stat[stat.rindex(")") + 2 :].split()
    user, system = int(fields[11]), int(fields[12])
    if with_children:
        user, system = user + int(fields[13]), system + int(fields[14])
    return user, system


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
        self,
        instance: Path,
        *,
        workers: int,
        threads: int,
        timeout: int,
        log_level: str,
        settings: str,
        profile_dir: Path | None = None,
        worker_class: str = "",
        access_log: bool = True,
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
            # Explicit: gunicorn.conf.py picks the worker by database; here --threads 1 means sync
            # unless a worker class is named (gthread with one thread keeps connections alive).
            "--worker-class",
            worker_class or ("gthread" if threads > 1 else "sync"),
            "--timeout",
            str(timeout),
            "--no-control-socket",  # its default path is shared by every gunicorn on the machine
            "--error-logfile",
            "-",
        ]
        if access_log:  # the server-side times; off measures what writing the log costs
            cmd += ["--access-logfile", str(self.access), "--access-logformat", ACCESS_FORMAT]
        if profile_dir is not None:  # cProfile in every worker (bench/load_gunicorn_profile.py)
            env["BENCH_PROFILE_DIR"] = str(profile_dir)
            cmd += ["--config", str(Path(__file__).with_name("load_gunicorn_profile.py"))]
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

    def cpu_ticks(self) -> tuple[int, int]:
        """(user, system) clock ticks of the master and its workers (exited ones included)."""
        pid = self.proc.pid
        parts = [_proc_user_system_ticks(pid, with_children=True)]
        parts += [_proc_user_system_ticks(c, with_children=False) for c in _children(pid)]
        return sum(u for u, _ in parts), sum(s for _, s in parts)

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
