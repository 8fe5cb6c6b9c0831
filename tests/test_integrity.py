"""`manage.py protomem check`: corrupted indexes are reported (exit 1) and --rebuild repairs them
(exit 0); a web server SIGKILLed mid-writes leaves every acknowledged write stored and indexed.

The two `..._on_this_backend` tests use the suite's own database (SQLite or PostgreSQL). The
rest run against their own migrated SQLite file through real `manage.py` and gunicorn
processes, whatever database the suite uses: they are about SQLite specifics (FTS5
external-content indexes, their triggers, the vector table, WAL crash recovery), and the
corruption is done with sqlite3 on the file, as a crash or a stray hand edit would leave it.
"""

from __future__ import annotations

import http.client
import io
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.store import vectors
from memory.store.integrity import NOT_APPLICABLE_PG, integrity_check
from tests.fixtures.worker import wait_until

REPO = Path(__file__).resolve().parents[1]
MODEL = "integrity-test"
DIM = 4
# Vectors for every seeded chunk, plus one chunk with a word no other row has.
SEED_EXTRA = f"""
import numpy as np
from memory.store import vectors
from memory.store.models import Chunk
from memory.lifecycle.writes import ChunkDraft, add_chunk
add_chunk(ChunkDraft(content="The quokka ledger is reconciled on Fridays", heading="Quokka", domain="note"))
ids = list(Chunk.objects.order_by("pk").values_list("pk", flat=True))
vectors.vectors_store([(i, np.arange({DIM}, dtype=np.float32) + i) for i in ids], model="{MODEL}")
"""


class Store:
    """One instance directory: a migrated SQLite store and the environment to run against it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.db = root / "agent.db"
        root.mkdir(parents=True, exist_ok=True)
        config = root / "protomem.yaml"
        config.write_text(f"knowledge:\n  db_path: {self.db}\n")
        # A SQLite file whatever the suite runs on: drop the server-database URLs.
        drop = ("DATABASE_URL", "INJECTION_LOG_DATABASE_URL")
        self.env = {key: value for key, value in os.environ.items() if key not in drop}
        self.env.update(
            DJANGO_SETTINGS_MODULE="protomem.settings_test",
            PROTOMEM_CONFIG=str(config),
            PROTOMEM_INSTANCE_DIR=str(root / "instance"),
            PROTOAGENT_INJECTION_LOG=str(root / "injections.db"),
            PROTOMEM_TEST_DIR=str(root / "test-run"),
        )

    def manage(self, *args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(  # noqa: S603 - our own interpreter and manage.py
            [sys.executable, "manage.py", *args],
            env=self.env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if check:
            assert result.returncode == 0, (args, result.stdout, result.stderr)
        return result

    def check(self, *args: str, skip_checks: bool = False) -> tuple[int, dict[str, Any]]:
        """`protomem check --json [args]`: exit code and the report, per index name."""
        before = ["--skip-checks"] if skip_checks else []
        result = self.manage("protomem", *before, "check", "--json", *args)
        report = json.loads(result.stdout)
        return result.returncode, {index["name"]: index for index in report["indexes"]}

    def sql(self, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """One statement on the file directly, committed; its rows."""
        return self.script(statement, params=params)

    def script(self, *statements: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Statements in one transaction (params bind the last one); the last one's rows."""
        db = sqlite3.connect(self.db)
        try:
            rows: list[tuple[Any, ...]] = []
            for index, statement in enumerate(statements):
                rows = db.execute(statement, params if index == len(statements) - 1 else ()).fetchall()
            db.commit()
            return rows
        finally:
            db.close()

    def count(self, table: str) -> int:
        return int(self.sql(f"SELECT count(*) FROM {table}")[0][0])  # noqa: S608 - test constants


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Migrated once per module, with seed-demo's sessions, summaries, skills and chunks, and vectors."""
    store = Store(tmp_path_factory.mktemp("integrity") / "template")
    store.manage("migrate", "-v0", check=True)
    store.manage("migrate", "--database", "injections", "-v0", check=True)
    store.manage("protomem", "seed-demo", check=True)
    store.manage("shell", "-c", SEED_EXTRA, check=True)
    return store


@pytest.fixture
def store(template: Store, tmp_path: Path) -> Store:
    """A private copy of the template store (sqlite3 backup: consistent, WAL included)."""
    copy = Store(tmp_path / "store")
    source, target = sqlite3.connect(template.db), sqlite3.connect(copy.db)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    return copy


def search_ids(store: Store, query: str, *options: str) -> set[int]:
    """Chunk ids `protomem search` prints (the deliverable-row search recall uses)."""
    result = store.manage("protomem", *options, "search", query, "-k", "10000", check=True)
    return {int(m) for m in re.findall(r"^#(\d+)\t", result.stdout, re.M)}


# ------------------------------------------------------------------ the suite's own database


@pytest.mark.django_db
def test_check_passes_on_this_backend():
    # given a chunk written through the service, on whatever database the suite runs on
    add_chunk(ChunkDraft(content="Backups run nightly at 02:00", heading="Backups"))
    out = io.StringIO()
    # when
    call_command("protomem", "check", "--json", stdout=out)
    report = {index["name"]: index for index in json.loads(out.getvalue())["indexes"]}
    # then the FTS indexes are consistent on SQLite and not applicable on PostgreSQL
    assert set(report) == {"chunk_fts", "skill_fts", "summary_fts", "chunk_vectors"}
    assert all(index["ok"] for index in report.values())
    if connection.vendor == "postgresql":
        fts_statuses = {report[name]["status"] for name in ("chunk_fts", "skill_fts", "summary_fts")}
        assert fts_statuses == {NOT_APPLICABLE_PG}
    else:
        assert report["chunk_fts"]["counts"] == {"rows": 1, "indexed": 1, "unindexed": 0, "stale": 0}
        assert report["chunk_vectors"]["counts"]["vectors"] == 0


@pytest.mark.django_db
def test_orphan_vector_is_reported_and_dropped_on_this_backend():
    # given a vector for a live chunk and one for a chunk id that does not exist
    chunk = add_chunk(ChunkDraft(content="Deploys need two approvals", heading="Deploys"))
    assert vectors.vectors_store([(chunk.pk, np.ones(DIM, dtype=np.float32))], model=MODEL) == 1
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO memory_chunk_vector (chunk_id, model, dim, vector) VALUES (%s, %s, %s, %s)",
            [chunk.pk + 1000, MODEL, DIM, vectors.encode(np.ones(DIM, dtype=np.float32))],
        )
    # when checked: exit 1, the orphan counted
    with pytest.raises(CommandError) as refused:
        call_command("protomem", "check", "--json", stdout=io.StringIO())
    assert refused.value.returncode == 1
    assert integrity_check().index("chunk_vectors").counts["orphans"] == 1
    # when rebuilt: the orphan dropped, the live chunk's vector kept, consistent again
    out = io.StringIO()
    call_command("protomem", "check", "--rebuild", "--no-progress", stdout=out)
    assert "dropped 1 unusable vector row(s)" in out.getvalue()
    assert sorted(vectors.stored_vectors([chunk.pk, chunk.pk + 1000])) == [chunk.pk]
    assert integrity_check().ok


@pytest.mark.django_db
def test_lost_namespace_trigger_is_reported_and_recreated_on_this_backend():
    # given the trigger that tells vector caches a row changed namespace (migration 0014) dropped
    with connection.cursor() as cursor:  # rolled back with the test transaction
        on_table = " ON memory_chunk" if connection.vendor == "postgresql" else ""
        cursor.execute(f"DROP TRIGGER memory_chunk_vector_chunk_moved{on_table}")
    # when checked: named as missing
    assert integrity_check().index("chunk_vectors").problems == ["missing memory_chunk_vector_chunk_moved"]
    # when rebuilt: recreated from that migration, and it works
    out = io.StringIO()
    call_command("protomem", "check", "--rebuild", "--no-progress", stdout=out)
    migration = "memory.0014_chunk_vector_namespace_trigger"
    recreated = f"recreated memory_chunk_vector_chunk_moved (migration {migration})"
    assert recreated in out.getvalue()
    assert integrity_check().ok
    chunk = add_chunk(ChunkDraft(content="Deploys need two approvals", heading="Deploys", namespace="a"))
    vectors.vectors_store([(chunk.pk, np.ones(DIM, dtype=np.float32))], model=MODEL)
    with connection.cursor() as cursor:
        cursor.execute("SELECT epoch FROM memory_chunk_vector_state")
        before = bytes(cursor.fetchone()[0])
        cursor.execute("UPDATE memory_chunk SET namespace = 'b' WHERE id = %s", [chunk.pk])
        cursor.execute("SELECT epoch FROM memory_chunk_vector_state")
        assert bytes(cursor.fetchone()[0]) != before


# ------------------------------------------------------------------ corrupted SQLite stores


def test_clean_store_passes_with_counts(store: Store):
    code, report = store.check()
    assert code == 0
    assert all(index["status"] == "ok" for index in report.values())
    chunks = store.count("memory_chunk")
    assert chunks > 20
    assert report["chunk_fts"]["counts"] == {"rows": chunks, "indexed": chunks, "unindexed": 0, "stale": 0}
    assert report["skill_fts"]["counts"]["indexed"] == store.count("memory_skill") > 0
    assert report["summary_fts"]["counts"]["indexed"] == store.count("sessions_app_sessionsummary") > 0
    assert report["chunk_vectors"]["counts"] == {
        "state_row": 1,
        "vectors": chunks,
        "orphans": 0,
        "bad_length": 0,
        "old_dim": 0,
        "models": 1,
    }


def test_deleted_fts_rows_are_reported_and_rebuilt(store: Store):
    # given the quokka chunk and one other taken out of the index with FTS5's 'delete' command
    (quokka,) = store.sql("SELECT id FROM memory_chunk WHERE heading = 'Quokka'")[0]
    store.sql(
        "INSERT INTO memory_chunk_fts(memory_chunk_fts, rowid, heading, content) "
        "SELECT 'delete', id, heading, content FROM memory_chunk "
        "WHERE id IN ((SELECT min(id) FROM memory_chunk), ?)",
        params=(quokka,),
    )
    assert search_ids(store, "quokka") == set()
    # when checked: exit 1, both rows named as missing, FTS5's own check failing
    code, report = store.check()
    assert code == 1
    chunk_fts = report["chunk_fts"]
    assert chunk_fts["status"] == "problems"
    assert chunk_fts["counts"]["unindexed"] == 2
    assert chunk_fts["counts"]["indexed"] == chunk_fts["counts"]["rows"] - 2
    assert any(p.startswith("FTS5 integrity-check failed") for p in chunk_fts["problems"])
    assert [name for name, index in report.items() if not index["ok"]] == ["chunk_fts"]
    # when checked --quick: the counts alone catch it, without FTS5's integrity-check
    code, quick = store.check("--quick")
    assert code == 1
    assert quick["chunk_fts"]["problems"] == ["2 memory_chunk row(s) missing from the index"]
    # when rebuilt: exit 0, the index whole again, the row found again
    result = store.manage("protomem", "check", "--rebuild", "--no-progress")
    assert result.returncode == 0, result.stderr
    assert "repaired: rebuilt memory_chunk_fts from memory_chunk" in result.stdout
    code, report = store.check()
    assert code == 0
    assert report["chunk_fts"]["counts"]["unindexed"] == 0
    assert search_ids(store, "quokka") == {quokka}


def test_dropped_trigger_is_recreated_and_missed_rows_indexed(store: Store):
    # given the insert trigger is gone and a chunk is written meanwhile
    store.sql("DROP TRIGGER memory_chunk_fts_ai")
    store.manage(
        "shell",
        "-c",
        "from memory.lifecycle.writes import ChunkDraft, add_chunk; "
        "add_chunk(ChunkDraft(content='The wombat rota changes monthly', heading='Wombat'))",
        check=True,
    )
    assert search_ids(store, "wombat", "--skip-checks") == set()
    # when: Django's system check refuses other commands (memory.E001), ours still runs and reports
    refused = store.manage("protomem", "search", "wombat")
    assert refused.returncode == 1
    assert "memory.E001" in refused.stderr
    code, report = store.check()
    assert code == 1
    assert "missing memory_chunk_fts_ai" in report["chunk_fts"]["problems"]
    assert report["chunk_fts"]["counts"]["unindexed"] == 1
    # when rebuilt: the trigger is back (the migration's own SQL) and the missed row indexed
    rebuilt = store.manage("protomem", "check", "--rebuild", "--no-progress")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "recreated memory_chunk_fts_ai (migration memory.0002_chunk_fts)" in rebuilt.stdout
    assert store.sql("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name = 'memory_chunk_fts_ai'")
    code, report = store.check()
    assert code == 0
    (wombat,) = store.sql("SELECT id FROM memory_chunk WHERE heading = 'Wombat'")[0]
    assert search_ids(store, "wombat") == {wombat}
    # and new writes are indexed by the recreated trigger
    store.manage(
        "shell",
        "-c",
        "from memory.lifecycle.writes import ChunkDraft, add_chunk; "
        "add_chunk(ChunkDraft(content='The numbat audit is quarterly', heading='Numbat'))",
        check=True,
    )
    assert len(search_ids(store, "numbat")) == 1


def test_unusable_vectors_are_reported_and_dropped(store: Store):
    # given an orphan vector, an old-dimension one (chunk a's, re-stored at its old row id with
    # dim 2), one whose BLOB is shorter than its dim (chunk b's) and a lost epoch row
    vectors_before = store.count("memory_chunk_vector")
    (a, a_row), (b, _) = store.sql(
        "SELECT chunk_id, id FROM memory_chunk_vector ORDER BY id LIMIT 2 OFFSET 1"
    )
    store.sql("DELETE FROM memory_chunk_vector WHERE chunk_id = ?", (a,))
    insert = "INSERT INTO memory_chunk_vector (id, chunk_id, model, dim, vector) VALUES (?, ?, ?, ?, ?)"
    store.sql(insert, (a_row, a, MODEL, 2, bytes(8)))
    store.sql(insert, (None, 999999, MODEL, DIM, bytes(4 * DIM)))
    store.sql("UPDATE memory_chunk_vector SET vector = ? WHERE chunk_id = ?", (bytes(4 * DIM - 4), b))
    store.sql("DELETE FROM memory_chunk_vector_state")
    # when checked
    code, report = store.check()
    assert code == 1
    counts = report["chunk_vectors"]["counts"]
    assert (counts["orphans"], counts["old_dim"], counts["bad_length"], counts["state_row"]) == (1, 1, 1, 0)
    assert [name for name, index in report.items() if not index["ok"]] == ["chunk_vectors"]
    # when rebuilt: the three rows dropped, the epoch row back, every other vector kept
    result = store.manage("protomem", "check", "--rebuild", "--no-progress")
    assert result.returncode == 0, result.stderr
    assert "dropped 3 unusable vector row(s)" in result.stdout
    assert "recreated epoch row (migration memory.0009_chunk_vector_store)" in result.stdout
    assert store.count("memory_chunk_vector") == vectors_before - 2
    assert store.sql("SELECT count(*) FROM memory_chunk_vector WHERE chunk_id IN (?, ?, 999999)", (a, b)) == [
        (0,)
    ]
    assert store.count("memory_chunk_vector_state") == 1
    assert store.check()[0] == 0


def test_skill_and_summary_indexes_are_checked_and_rebuilt(store: Store):
    # given a skill taken out of its index and the summaries' delete trigger dropped before a delete
    store.sql(
        "INSERT INTO memory_skill_fts(memory_skill_fts, rowid, name, description, content) "
        "SELECT 'delete', id, name, description, content FROM memory_skill ORDER BY id LIMIT 1"
    )
    store.script(
        "DROP TRIGGER sessions_app_summary_fts_ad",
        "DELETE FROM sessions_app_sessionsummary "
        "WHERE id = (SELECT min(id) FROM sessions_app_sessionsummary)",
    )
    # when checked
    code, report = store.check()
    assert code == 1
    assert report["skill_fts"]["counts"]["unindexed"] == 1
    summary = report["summary_fts"]
    assert summary["counts"]["stale"] == 1
    assert "missing sessions_app_summary_fts_ad" in summary["problems"]
    assert report["chunk_fts"]["ok"]
    assert report["chunk_vectors"]["ok"]
    # when rebuilt
    assert store.manage("protomem", "check", "--rebuild").returncode == 0
    code, report = store.check()
    assert code == 0
    assert report["summary_fts"]["counts"]["indexed"] == store.count("sessions_app_sessionsummary")
    assert report["skill_fts"]["counts"]["indexed"] == store.count("memory_skill")


def test_rebuild_all_rebuilds_consistent_indexes_too(store: Store):
    result = store.manage("protomem", "check", "--rebuild", "--all", "--no-progress")
    assert result.returncode == 0, result.stderr
    for table in ("memory_chunk_fts", "memory_skill_fts", "sessions_app_summary_fts"):
        assert f"rebuilt {table}" in result.stdout
    refused = store.manage("protomem", "check", "--all")  # --all only goes with --rebuild
    assert refused.returncode == 1
    assert "--all only goes with --rebuild" in refused.stderr


# ------------------------------------------------------------------ SIGKILL during writes

KILL_AFTER = 40  # acknowledged writes before the kill
WRITES = 400  # more than can finish before it, so writes are in flight when it lands
CLIENTS = 6


class Server:
    """gunicorn (2 sync workers) in its own process group, so one SIGKILL takes all of it."""

    def __init__(self, store: Store) -> None:
        self.log = store.root / "gunicorn.log"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "protomem.wsgi:application",
                "--bind",
                "127.0.0.1:0",
                "--workers",
                "2",
                "--timeout",
                "60",
            ],
            env=store.env,
            cwd=REPO,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        port = wait_until(self._port, timeout=60, what=f"gunicorn to listen (log: {self.log})")
        self.url = f"http://127.0.0.1:{port}"
        wait_until(lambda: self._get("/healthz") == 200, timeout=60, what="gunicorn to answer /healthz")

    def _port(self) -> str | None:
        assert self.proc.poll() is None, self.log.read_text()
        match = re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", self.log.read_text())
        return match.group(1) if match else None

    def _get(self, path: str) -> int:
        try:
            with urllib.request.urlopen(self.url + path, timeout=5) as response:  # noqa: S310 - our server
                return int(response.status)
        except OSError:  # refused, reset, or a worker still booting on a loaded machine: not ready yet
            return 0

    def post(self, path: str, body: dict[str, Any], key: str) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(  # noqa: S310 - our server
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Api-Key {key}"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - our server
                return int(response.status), json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, {}

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)  # the group we started: master and workers
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.kill()


def test_sigkill_during_writes_keeps_acknowledged_writes_and_a_consistent_index(store: Store):
    # given a running server, an agent key made in the store and a registered session
    key = store.manage("protomem", "create-agent-key", "crash-writer", check=True).stdout.strip()
    server = Server(store)
    try:
        assert server.post("/api/sessions/", {"session_id": "crash-1"}, key)[0] == 201
        acked: dict[int, int] = {}  # write number -> chunk id, for every 201
        failed: list[int] = []
        sending: set[int] = set()
        lock = threading.Lock()
        enough = threading.Event()

        def write(number: int) -> None:
            body = {
                "content": f"crashprobe write {number}: token w{number}x in the ledger",
                "heading": f"crash {number}",
                "domain": "note",
            }
            with lock:
                sending.add(number)
            try:
                status, payload = server.post("/api/sessions/crash-1/memory/ingest/", body, key)
            except (OSError, http.client.HTTPException, ValueError):  # reset, refused, cut short
                status, payload = 0, {}
            with lock:
                sending.discard(number)
                if status == 201:
                    acked[number] = payload["chunk"]["id"]
                    if len(acked) >= KILL_AFTER:
                        enough.set()
                else:
                    failed.append(number)

        # when the server is SIGKILLed once KILL_AFTER writes were acknowledged, others in flight
        with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
            for number in range(WRITES):
                pool.submit(write, number)
            assert enough.wait(timeout=180), f"only {len(acked)} writes acknowledged (log: {server.log})"
            with lock:
                started = set(sending)
            server.kill()
        assert server.proc.returncode == -signal.SIGKILL
    finally:
        server.stop()
    assert len(acked) >= KILL_AFTER
    assert len(acked) + len(failed) == WRITES
    cut_off = started - set(acked)  # sent before the kill, never answered
    assert cut_off, "the kill interrupted no write"

    # then every acknowledged write is in the store, as sent
    rows = dict(store.sql("SELECT id, content FROM memory_chunk WHERE content LIKE 'crashprobe write %'"))
    for number, chunk_id in acked.items():
        assert rows.get(chunk_id) == f"crashprobe write {number}: token w{number}x in the ledger"
    # and the indexes are consistent (system checks included)
    result = store.manage("protomem", "check", "--no-progress")
    assert result.returncode == 0, (result.stdout, result.stderr)
    code, report = store.check()
    assert code == 0
    assert report["chunk_fts"]["counts"]["indexed"] == store.count("memory_chunk")
    # and search finds every acknowledged row (and only rows that are really there)
    found = search_ids(store, "crashprobe")
    assert set(acked.values()) <= found <= set(rows)
    some = next(iter(acked))
    assert search_ids(store, f"w{some}x") == {acked[some]}
