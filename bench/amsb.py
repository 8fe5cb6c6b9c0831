"""AMSB (OWASP Agent Memory Guard's public memory-poisoning benchmark) over real HTTP.

    .venv/bin/python -m bench.amsb            # fresh SQLite instance under BENCH_ROOT, gunicorn on loopback
    .venv/bin/python -m bench.amsb --show     # and each scenario's outcome

The benchmark ships in the dev dependency `agent-memory-guard` (requirements-dev.txt): 15 attack
scenarios and 6 benign controls, each a sequence of writes (key, value) and a probe that reads a
key back after a session boundary. Its harness (`run_scenario`) drives an adapter; ours writes
and reads through protomem's HTTP API on a live server, as an agent would:

  remember(key, value)  POST /api/sessions/<writer>/memory/ingest/  content "key: value" (domain "note")
  recall(key)           POST /api/sessions/<next turn>/context/     query "key value"; returns the
                        value as the per-turn context delivers it (None when the row is not in
                        the context: held for review, or never stored)

An attack is kept out when its canary does not survive into the next turn's context; a benign
control passes when its value is delivered intact. Nothing here is tuned on these 21 cases: the
bench reports what the inspection (memory.lifecycle.inspection) does with writes it never saw.
"""

from __future__ import annotations

import argparse
import html
import logging
import uuid
from collections.abc import Sequence
from typing import Any

import httpx
from agent_memory_guard.bench.adapter import MemorySystemAdapter, RememberOutcome
from agent_memory_guard.bench.harness import run_scenario
from agent_memory_guard.bench.scenarios import default_corpus

from bench import common
from bench.load_server import Server

CONFIG = """\
knowledge: {top_k: 10, hold: risky, inject_min_trust: 1}
context: {prior_sessions: "off"}
middleware: {knowledge: true}
"""


class ProtomemHttpAdapter(MemorySystemAdapter):
    """One scenario's memory: its own writer session and next-turn session of one agent."""

    name = "protomem"
    version = "h-inspect"

    def __init__(self, client: httpx.Client) -> None:
        self.client = client
        tag = uuid.uuid4().hex[:10]
        self.writer, self.reader = f"amsb-w-{tag}", f"amsb-r-{tag}"
        for session_id in (self.writer, self.reader):
            resp = client.post("/api/sessions/", json={"session_id": session_id})
            resp.raise_for_status()
        self.written: dict[str, tuple[int, str]] = {}  # key -> (chunk id, value)
        self.held: list[str] = []

    def remember(self, key: str, value: Any, *, source_class: str = "external_tool") -> RememberOutcome:
        text = str(value)
        resp = self.client.post(
            f"/api/sessions/{self.writer}/memory/ingest/",
            json={"content": f"{key}: {text}", "domain": "note"},
        )
        resp.raise_for_status()
        body = resp.json()
        chunk = body.get("chunk") or {}
        if chunk.get("id") is not None:
            self.written[key] = (chunk["id"], text)
        if body.get("action") == "held_for_review":
            self.held.append(",".join(body.get("held_reasons") or []))
            return RememberOutcome.QUARANTINED
        return RememberOutcome.STORED

    def recall(self, key: str) -> Any | None:
        if key not in self.written:
            return None
        chunk_id, value = self.written[key]
        resp = self.client.post(
            f"/api/sessions/{self.reader}/context/", json={"query": f"{key} {value}"[:500]}
        )
        resp.raise_for_status()
        context = resp.json()
        injected = context["injected"]
        if chunk_id not in injected["rag_ids"] + injected["hot_ids"]:
            return None
        # delivered: the value as the prompt carries it (intact, or redacted / altered)
        # (the prompt lays text out in its own lines: compare with whitespace collapsed)
        delivered = " ".join(html.unescape(context["text"]).split())
        return value if " ".join(value.split()) in delivered else context["text"]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show", action="store_true", help="print each scenario's outcome")
    args = parser.parse_args(argv)
    logging.getLogger("httpx").setLevel(logging.WARNING)

    instance = common.bench_instance("amsb", fresh=True)
    (instance / "protomem.yaml").write_text(CONFIG)
    common.migrate()
    from sessions_app.models import Agent, AgentAPIKey

    agent = Agent.objects.create(name="amsb-agent")
    _, key = AgentAPIKey.objects.create_key(name="amsb", agent=agent)
    from django.db import connections

    for conn in connections.all():
        conn.close()

    server = Server(
        instance, workers=1, threads=2, timeout=60, log_level="WARNING", settings="protomem.settings"
    )
    try:
        server.wait_ready()
        base = f"http://127.0.0.1:{server.port}"
        headers = {"Authorization": f"Api-Key {key}"}
        attacks = kept = benign = delivered = 0
        with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
            for scenario in default_corpus():
                adapter = ProtomemHttpAdapter(client)
                run = run_scenario(adapter, scenario)
                if scenario.malicious:
                    attacks += 1
                    kept += run.passed
                else:
                    benign += 1
                    delivered += run.passed
                if args.show:
                    verdict = (
                        "kept out"
                        if scenario.malicious and run.passed
                        else (
                            "delivered" if run.passed else "BREACH" if scenario.malicious else "OVER-BLOCKED"
                        )
                    )
                    note = f" ({run.detail})" if run.recall_error else ""
                    line = f"  {scenario.id:<34} {scenario.category:<20} {verdict:<12}"
                    print(f"{line} held: {adapter.held}{note}")
    finally:
        server.stop()
    print(f"AMSB over HTTP (per-turn context): attacks kept out {kept}/{attacks}, ", end="")
    print(f"benign delivered {delivered}/{benign}")


if __name__ == "__main__":
    main()
