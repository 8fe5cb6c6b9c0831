"""Concurrent-agent load on the HTTP API: recall, per-turn context and ingest under gunicorn.

    .venv/bin/python -m bench.load                               # SQLite, 50 clients, 30 s
    .venv/bin/python -m bench.load --clients 50 --seconds 60 --workers 5 --worker-class sync
    .venv/bin/python -m bench.load --no-access-log      # what the server costs without its access log
    .venv/bin/python -m bench.load --database-url postgres://postgres@127.0.0.1:5432/protomem_load

Every run builds a fresh instance dir under /tmp/protomem-bench (load-sqlite / load-pg): the
real migrations on both databases (default and injections), `--chunks` retrievable chunks
(30 pseudo-words each) plus 20 always-on rows, loaded through memory.lifecycle.writes.add_chunks,
and `--agents` agents with one API key each (default one agent per client; fewer agents
means several clients, each with its own session, share an agent). With --database-url the
PostgreSQL databases named in the settings are dropped and created first (and dropped after,
unless --keep); settings.py has to read DATABASE_URL for that run.

gunicorn then serves protomem.wsgi on a free loopback port (`--workers`, default 2*cores+1; gthread
workers with `--threads` threads, default as gunicorn.conf.py runs them (1 on SQLite, 3 on PostgreSQL);
`--worker-class sync` for one connection per request; its access log, unless --no-access-log, records
the server-side time of every request). `--clients` threads, each with its own keep-alive http.client
connection (a sync worker closes it after every response; gthread keeps it, as an agent fleet behind a
proxy would), first register a session (POST /api/sessions/) and then loop for `--seconds` over the mix
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

SQLite note: with one thread per worker (sync, or gthread x 1 as scripts/run.sh runs it) writers
never waited measurably; with gthread (5 x 10) and a write-heavy mix one ingest waited 19.4 s for
the write lock, just under the 20 s busy timeout after which it would be a "database is locked"
500: SQLite's busy handler polls with sleeps instead of queueing, so 50 in-process writers can
starve one.

Exit status 1 on any 5xx, transport error (reset, timeout) or lost / altered write.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from bench import common
from bench.load_clients import (
    HOT_ROWS,
    OPS,
    VOCAB_SIZE,
    Client,
    Clock,
    verify_writes,
)
from bench.load_server import (
    Server,
    _pg_recreate,
    access_times,
    pg_backend_cpu,
    scan_log,
    setup,
)


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


def _profile_dir(path: str) -> Path | None:
    if not path:
        return None
    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("worker-*.prof"):
        old.unlink()
    return out


def _print_profile(path: Path, requests: int) -> None:
    """The workers' merged profile: own CPU by area per request, then the top functions."""
    import io
    import pstats

    from bench.load_profile import cpu_by_area

    files = sorted(str(p) for p in path.glob("worker-*.prof"))
    if not files:
        print(f"  profile: no worker profiles in {path}")
        return
    stats = pstats.Stats(*files)
    areas = cpu_by_area(stats)
    whole = sum(areas.values()) or 1.0
    print(f"  server profile ({len(files)} workers, whole worker lives, profiler on; {path}):")
    for area, seconds in sorted(areas.items(), key=lambda kv: -kv[1]):
        print(
            f"    {area:<34} {seconds / whole * 100:5.1f}%  "
            f"{seconds * 1000 / max(requests, 1):5.2f} ms/request"
        )
    out = io.StringIO()
    pstats.Stats(*files, stream=out).sort_stats("tottime").print_stats(25)
    print(out.getvalue())


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
    parser.add_argument(
        "--threads",
        type=int,
        default=0,
        help="threads per gthread worker; default as gunicorn.conf.py serves: 3 on PostgreSQL, 1 on SQLite",
    )
    parser.add_argument(
        "--worker-class",
        default="gthread",
        choices=("sync", "gthread"),
        help="gthread (keep-alive; gunicorn.conf.py's choice) or sync (one connection per request)",
    )
    parser.add_argument(
        "--no-access-log",
        action="store_true",
        help="no gunicorn access log (its cost); server-side times are then not printed",
    )
    parser.add_argument("--timeout", type=int, default=30, help="gunicorn worker timeout (its default)")
    parser.add_argument("--request-timeout", type=float, default=120.0, help="client socket timeout")
    parser.add_argument("--log-level", default="INFO", help="the server's LOG_LEVEL")
    parser.add_argument("--database-url", default="", help="postgres://...; default: SQLite files")
    parser.add_argument(
        "--server-settings",
        default="protomem.settings",
        help="the server's DJANGO_SETTINGS_MODULE (a variant on the same databases; extend PYTHONPATH)",
    )
    parser.add_argument(
        "--profile",
        default="",
        help="a directory: cProfile every gunicorn worker (CPU time) and print where the server's CPU went",
    )
    parser.add_argument("--keep", action="store_true", help="keep the PostgreSQL database afterwards")
    args = parser.parse_args()
    args.agents = args.agents or args.clients
    # a PostgreSQL run with one thread per worker measured the accept imbalance, not the server:
    # 98 req/s with the machine half idle (one worker's thread serving 25 kept-alive clients)
    args.threads = args.threads or (3 if args.database_url else 1)
    if args.worker_class == "sync" and args.threads > 1:
        raise SystemExit("--threads > 1 needs the gthread worker")
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
        profile_dir=_profile_dir(args.profile),
        worker_class=args.worker_class,
        access_log=not args.no_access_log,
    )
    try:
        server.wait_ready(deadline_s=300.0)  # 5 workers importing the app at once on a busy machine
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
    server_user = (server_ticks1[0] - server_ticks0[0]) / hz
    server_cpu = server_user + (server_ticks1[1] - server_ticks0[1]) / hz
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
        f"({args.worker_class}{', no access log' if args.no_access_log else ''}), "
        f"{args.chunks:,} chunks + {HOT_ROWS} always-on"
    )
    print(f"  mix {args.mix}; server settings {args.server_settings}; instance {instance}")
    print(
        f"  wall {wall:.1f} s; cpu: server {server_cpu:.1f} s ({server_cpu / wall * 100:.0f}% of one core; "
        f"user {server_user:.1f} s, system {server_cpu - server_user:.1f} s), "
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
    from memory.embedding import embeddings
    from protomem.config import get_config

    model = embeddings.active_model() if get_config().knowledge.embeddings else None
    common.print_measured(
        f"{len(samples):,} requests over HTTP (searches ran in the server: vectors searched only if the "
        "store holds some of the active model)",
        common.store_census(model),
    )
    server_line = ", ".join(f"{label}: {n}" for label, n in log_counts.items()) or "none"
    print(f"  server log ({server.log}): {server_line}")
    for line in log_examples:
        print(f"    {line}")
    if args.profile:
        _print_profile(Path(args.profile), len(samples))
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
