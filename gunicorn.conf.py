"""gunicorn settings, read by every gunicorn started from the repository root (make run, tests, bench).

A recall query may be 2,000 characters, and percent-encoded CJK text is 9 bytes a character: far
past gunicorn's 4,094-byte default request line, which it refuses with an HTML 414. 0 lifts that
cap (gunicorn allows nothing between 8,190 and unlimited); protomem.middleware still answers an
over-long query string with a JSON 414 (PROTOMEM_MAX_QUERY_BYTES), and POST /api/memory/recall/
takes the query in a body.
"""

import os

limit_request_line = 0

# Each worker touches its heartbeat file on every loop of its accept loop; on a tmpfs that is a
# memory write, not a metadata update on a disk filesystem's journal (gunicorn's own advice).
if os.path.isdir("/dev/shm"):  # noqa: S108 - a fixed system path, not a temp file we create
    worker_tmp_dir = "/dev/shm"  # noqa: S108

# gthread workers on both databases: they keep a client's connection alive between requests, where
# a sync worker accepts, parses and closes one TCP connection per request. bench/load.py, 50
# agents, 5 workers, alternated pairs. PostgreSQL, gthread x 3: sync 6.8-7.4 ms of server CPU per
# request on a busy shared machine, 6.0-6.2 ms; on a quiet one 5.1-5.5 against 4.7-5.1 ms.
# SQLite, gthread x 1 against sync, 5 pairs on a machine loaded 4-12 by other jobs: 5.3-6.5 against
# 6.1-6.8 ms, lower in every pair (by 0.2-1.2 ms). 0 5xx and 0 lost writes in all. The price: a
# higher client p99 (PostgreSQL, quiet machine: 460-510 against 270 ms; SQLite, busy machine:
# 630-3070 against 380-2100 ms), as a kept-alive connection stays on the worker that accepted it,
# so busy workers are not relieved by idle ones. With the access log off too (below), against sync
# with it: 6.3 -> 4.8 and 6.1 -> 4.5 ms (client p99 612 -> 326 and 236 -> 541 ms).
# SQLite keeps ONE thread per worker: its busy handler polls with sleeps instead of queueing, so
# writer threads in one process can starve each other for the write lock (a 19.4 s wait measured
# with gthread 5 x 10); with one thread the processes contend as sync workers did. Connections:
# workers x threads x 2 databases (default and injections) must stay under PostgreSQL's
# max_connections. An explicit --threads / --worker-class on the command line still wins.
_DATABASE_SCHEME = os.environ.get("DATABASE_URL", "").partition(":")[0].lower()
_ON_POSTGRESQL = _DATABASE_SCHEME in {"postgres", "postgresql", "pgsql", "postgis"}
worker_class = "gthread"
threads = int(os.environ.get("PROTOMEM_WEB_THREADS", "3" if _ON_POSTGRESQL else "1"))

# No access log unless PROTOMEM_ACCESS_LOG names a file ("-" for stdout): building and writing its
# line costs 0.14-0.22 ms of worker CPU per request (bench/gunicorn_overhead.py --b-no-access-log,
# 4 rounds: median 1.00 -> 0.82 ms per /healthz; bench/load.py SQLite, 3 pairs: 6.1-6.4 -> 5.6-6.1
# ms; PostgreSQL gthread x 3, one pair: 7.0 -> 4.8 ms, other tenants' load 15.7 against 8.4, so
# mostly not the log's), and request latency, status and errors are already in /metrics and the
# application's log.
accesslog = os.environ.get("PROTOMEM_ACCESS_LOG") or None
