"""gunicorn's own CPU per request: one sync worker answering GET /healthz, two configs alternated.

    .venv/bin/python -m bench.gunicorn_overhead                       # stock vs gunicorn.conf.py
    .venv/bin/python -m bench.gunicorn_overhead --requests 3000 --rounds 4
    .venv/bin/python -m bench.gunicorn_overhead --b-config my.conf.py --keep-alive   # e.g. gthread

--keep-alive sends every request of a round on one connection (as an agent behind a proxy
would); a sync worker still closes each one, so the client reconnects when told to.

/healthz does next to no work in Django, so the worker's CPU per request (user + system, from
/proc, all requests of a round) is mostly gunicorn's: accept, parse, access log, close. Config A
is gunicorn's defaults plus the repository's limit_request_line; config B is gunicorn.conf.py.
Rounds alternate A and B (a shared machine drifts); the minimum and median per config are printed.
Uses DATABASE_URL etc. from the environment (the app has to boot; /healthz opens no connection).
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import common
from bench.load_server import free_port

STOCK_CONF = "limit_request_line = 0\n"


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime of that process


def _worker_pid(master: int) -> int:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == master:
                return int(entry.name)
    raise SystemExit("no gunicorn worker found")


class _Client:
    """GET /healthz, on a new connection each time or on one kept alive while the server allows."""

    def __init__(self, port: int, keep_alive: bool) -> None:
        self.port, self.keep_alive = port, keep_alive
        self.conn: http.client.HTTPConnection | None = None

    def get(self) -> int:
        if self.conn is None or not self.keep_alive:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port)
        self.conn.request("GET", "/healthz", headers={"Authorization": "Api-Key x", "Accept": "*/*"})
        resp = self.conn.getresponse()
        resp.read()
        if resp.will_close:  # a sync worker closes every connection
            self.conn.close()
            self.conn = None
        return resp.status


def _round(config: Path, requests: int, log_dir: Path, keep_alive: bool, access_log: bool = True) -> float:
    """ms of worker CPU per /healthz request over `requests` sequential requests."""
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "gunicorn",
        "protomem.wsgi",
        "--config",
        str(config),
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "1",
        "--no-control-socket",
        "--error-logfile",
        str(log_dir / "error.log"),
    ]
    if access_log:
        cmd += ["--access-logfile", str(log_dir / "access.log")]
    proc = subprocess.Popen(cmd, cwd=common.REPO)  # noqa: S603 - our interpreter and arguments
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)  # readiness poll, not part of the measurement
        client = _Client(port, keep_alive)
        for _ in range(50):  # warm the worker (first-request imports) before measuring
            client.get()
        worker = _worker_pid(proc.pid)
        before = _cpu_ticks(worker)
        for _ in range(requests):
            status = client.get()
            if status != 200:
                raise SystemExit(f"/healthz answered {status}")
        ticks = _cpu_ticks(worker) - before
    finally:
        proc.terminate()
        proc.wait(30)
    return ticks / os.sysconf("SC_CLK_TCK") * 1000 / requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--b-config", default=str(common.REPO / "gunicorn.conf.py"))
    parser.add_argument("--keep-alive", action="store_true", help="reuse the connection while allowed")
    parser.add_argument(
        "--b-no-access-log", action="store_true", help="config B without an access log (what it costs)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gunicorn-overhead-") as tmp:
        stock = Path(tmp) / "stock.conf.py"
        stock.write_text(STOCK_CONF)
        results: dict[str, list[float]] = {"A stock": [], "B gunicorn.conf.py": []}
        variants = (
            ("A stock", stock, True),
            ("B gunicorn.conf.py", Path(args.b_config), not args.b_no_access_log),
        )
        for _ in range(args.rounds):
            for name, conf, access_log in variants:
                results[name].append(_round(conf, args.requests, Path(tmp), args.keep_alive, access_log))
                print(f"  {name}: {results[name][-1]:.3f} ms/request", flush=True)
    for name, values in results.items():
        print(f"{name}: min {min(values):.3f} median {statistics.median(values):.3f} ms CPU per /healthz")
    ratio = statistics.median(results["B gunicorn.conf.py"]) / statistics.median(results["A stock"])
    print(f"B/A (medians): {ratio:.2f}")


if __name__ == "__main__":
    main()
