"""Where a hot request's CPU goes: bench/load.py's mix, in process, under cProfile.

    .venv/bin/python -m bench.load_profile                 # 600 requests on a fresh SQLite instance
    .venv/bin/python -m bench.load_profile --requests 2000 --top 40 --sort tottime

Builds the same instance as bench/load.py (load-sqlite under BENCH_ROOT: real migrations,
`--chunks` rows + the always-on rows, one agent), then sends `--requests` requests of the mix
(recall / context / ingest, default 50/30/20) through Django's test client (the whole WSGI
stack, middleware, DRF, the database; no socket) and prints: CPU per request by op (process
time, measured in this run), the modules the first request imported (the MCP stack should not
be among them) and cProfile's top functions. Ratios, not absolute goals: compare two runs.
--wsgi calls protomem.wsgi.application itself (the production handler: the agent's lean middleware
lane, no test-client signals or response copies), the closest to gunicorn's worker without a socket.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import sys
import time
import urllib.parse
from collections import defaultdict
from typing import Any

from bench import common
from bench.load_clients import INGEST_WORDS, VOCAB_SIZE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=600)
    parser.add_argument("--chunks", type=int, default=5000)
    parser.add_argument("--mix", default="recall=50,context=30,ingest=20")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sort", default="cumulative", help="pstats sort key (cumulative, tottime)")
    parser.add_argument("--no-profile", action="store_true", help="CPU per request only, no cProfile")
    parser.add_argument("--wsgi", action="store_true", help="protomem.wsgi.application, not the test client")
    parser.add_argument("--seed", type=int, default=7, help="the request mix's random seed")
    parser.add_argument("--database-url", default="", help="postgres://... (recreated); default: SQLite")
    args = parser.parse_args()

    from bench import load_server

    setup_args = argparse.Namespace(database_url=args.database_url, chunks=args.chunks, agents=1)
    before = set(sys.modules)
    _instance, keys = load_server.setup(setup_args)
    from django.test import Client

    client: Any = _WsgiClient(keys[0]) if args.wsgi else Client(HTTP_AUTHORIZATION=f"Api-Key {keys[0]}")
    weights = [(op, float(w)) for op, _, w in (p.partition("=") for p in args.mix.split(","))]
    rng = random.Random(args.seed)
    vocab = common.vocabulary(VOCAB_SIZE)
    resp = client.post("/api/sessions/", {"session_id": "prof"}, content_type="application/json")
    if resp.status_code not in (200, 201):
        raise SystemExit(f"registering the session failed: {resp.status_code} {resp.content!r}")
    first_request_imports = sorted(m for m in set(sys.modules) - before if m.startswith("mcp"))

    def one(op: str, seq: int) -> int:
        if op == "recall":
            q = urllib.parse.urlencode({"query": common.query_terms(rng, vocab), "top_k": 10})
            return client.get(f"/api/memory/recall/?{q}").status_code
        if op == "context":
            body = {"query": common.query_terms(rng, vocab), "model": "bench-model", "working_state": "- x"}
            return client.post(
                "/api/sessions/prof/context/", body, content_type="application/json"
            ).status_code
        content = f"profrun c0n{seq} " + common.words(rng, vocab, INGEST_WORDS)
        return client.post(
            "/api/sessions/prof/memory/ingest/",
            json.dumps({"content": content}),
            content_type="application/json",
        ).status_code

    ops = [rng.choices([op for op, _ in weights], [w for _, w in weights])[0] for _ in range(args.requests)]
    for i, op in enumerate(ops[:30]):  # warm: first-request imports and caches
        one(op, -i - 1)
    cpu: dict[str, list[float]] = defaultdict(list)
    statuses: dict[str, int] = defaultdict(int)
    statements: dict[str, int] = defaultdict(int)
    counter = _StatementCounter()
    # CPU time, not wall: on a shared machine a preempted function would otherwise look slow.
    profiler = cProfile.Profile(time.process_time)
    for seq, op in enumerate(ops):
        t0 = time.process_time()
        if not args.no_profile:
            profiler.enable()
        with counter.counting():
            status = one(op, seq)
        statements[op] += counter.take()
        if not args.no_profile:
            profiler.disable()
        cpu[op].append((time.process_time() - t0) * 1000)
        statuses[f"{op} {status}"] += 1
    total = sum(sum(v) for v in cpu.values())
    mode = "profiler off" if args.no_profile else "profiler on"
    print(f"== load_profile: {args.requests} requests in process, {args.chunks:,} chunks, mix {args.mix}")
    print(f"  measured: {args.requests} requests through the WSGI stack; statuses {dict(statuses)}")
    print(
        f"  MCP modules imported by loading the app and the first request: {first_request_imports or 'none'}"
    )
    for op, values in sorted(cpu.items()):
        print(
            f"  {op:<8} n={len(values):<5} cpu per request mean {sum(values) / len(values):6.2f} ms "
            f"p50 {common.percentile(values, 50):6.2f} ms ({mode}); "
            f"SQL statements per request {statements[op] / len(values):.2f}"
        )
    print(f"  all      cpu per request mean {total / args.requests:6.2f} ms ({mode})")
    if args.no_profile:
        return
    stats = pstats.Stats(profiler)
    areas = cpu_by_area(stats)
    whole = sum(areas.values()) or 1.0
    print("  own time by area (builtins charged to their caller's area; profiler on):")
    for area, seconds in sorted(areas.items(), key=lambda kv: -kv[1]):
        share = seconds / whole
        print(f"    {area:<34} {share * 100:5.1f}%  {share * total / args.requests:5.2f} ms/request")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats(args.sort).print_stats(args.top)
    print(out.getvalue())


class _Response:
    def __init__(self, status_code: int, content: bytes) -> None:
        self.status_code, self.content = status_code, content


class _WsgiClient:
    """The test client's get/post, answered by protomem.wsgi.application (what gunicorn calls)."""

    def __init__(self, key: str) -> None:
        from protomem.wsgi import application

        self.app = application
        self.key = key

    def _call(self, method: str, url: str, body: bytes, content_type: str) -> _Response:
        path, _, query = url.partition("?")
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1",
            "HTTP_AUTHORIZATION": f"Api-Key {self.key}",
            "CONTENT_LENGTH": str(len(body)),
            "wsgi.input": io.BytesIO(body),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "wsgi.version": (1, 0),
        }
        if content_type:
            environ["CONTENT_TYPE"] = content_type
        status: list[str] = []
        result = self.app(environ, lambda s, headers, exc_info=None: status.append(s))
        try:
            content = b"".join(result)
        finally:
            getattr(result, "close", lambda: None)()
        return _Response(int(status[0].split()[0]), content)

    def get(self, url: str) -> _Response:
        return self._call("GET", url, b"", "")

    def post(self, url: str, data: Any, content_type: str = "application/json") -> _Response:
        body = data if isinstance(data, (bytes, str)) else json.dumps(data)
        return self._call("POST", url, body.encode() if isinstance(body, str) else body, content_type)


class _StatementCounter:
    """SQL statements run on every database connection while counting (executemany counts once)."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        self.n += 1
        return execute(sql, params, many, context)

    def counting(self):  # type: ignore[no-untyped-def]
        from contextlib import ExitStack

        from django.db import connections

        stack = ExitStack()
        for conn in connections.all():
            stack.enter_context(conn.execute_wrapper(self))
        return stack

    def take(self) -> int:
        n, self.n = self.n, 0
        return n


AREAS = (
    ("database driver (SQL run + fetch)", ("sqlite3", "psycopg")),
    ("Django ORM (building SQL, rows)", ("django/db/",)),
    ("DRF", ("rest_framework/", "rest_framework_api_key/", "drf_spectacular/")),
    ("Django request / middleware / urls", ("django/",)),
    ("gunicorn (accept, parse, write, log)", ("gunicorn/",)),
    (
        "product code",
        ("/memory/", "/delivery/", "/sessions_app/", "/protomem/", "/audit/", "/observability/"),
    ),
)


def _area(filename: str, funcname: str) -> str | None:
    """The area of one profiled function, or None for a builtin (charged to its callers)."""
    if filename == "~":
        if "SQLiteCursorWrapper" in funcname or "sqlite3" in funcname or "psycopg" in funcname:
            return AREAS[0][0]
        return None
    for name, needles in AREAS:
        if any(n in filename for n in needles):
            return name
    return "stdlib and other libraries"


def cpu_by_area(stats: pstats.Stats) -> dict[str, float]:
    """Own (tottime) seconds per area; a builtin's time goes to its callers' areas, pro rata."""
    table = stats.stats  # type: ignore[attr-defined]
    out: dict[str, float] = defaultdict(float)

    def area_of(key: tuple[str, int, str], depth: int = 0) -> dict[str, float]:
        filename, _, funcname = key
        area = _area(filename, funcname)
        if area is not None or depth > 3:
            return {area or "stdlib and other libraries": 1.0}
        callers = table[key][4]
        total = sum(v[2] for v in callers.values()) or 1.0
        shares: dict[str, float] = defaultdict(float)
        for caller, values in callers.items():
            for name, share in area_of(caller, depth + 1).items():
                shares[name] += share * values[2] / total
        return shares or {"stdlib and other libraries": 1.0}

    for key, (_, _, tottime, _, _) in table.items():
        for name, share in area_of(key).items():
            out[name] += tottime * share
    return dict(out)


if __name__ == "__main__":
    main()
