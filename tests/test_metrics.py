"""GET /metrics: who may read it, and that each operator metric moves when its path runs."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import DatabaseError
from django.utils import timezone
from prometheus_client import REGISTRY, Histogram
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

from memory import tasks as memory_tasks
from memory.lifecycle import retention
from observability.collectors import StoreCollector, review_queue_metrics
from protomem.metrics import UNMATCHED_ROUTE, timed
from sessions_app import tasks as session_tasks
from tests.conftest import grant
from tests.factories import ChunkFactory, SessionFactory, UserFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

REPO = Path(__file__).resolve().parents[1]
METRICS = "/metrics"
REQUESTS = "protomem_http_request_duration_seconds_count"
TOKEN = "scrape-token-for-tests-0123456789"


def scrape(client: APIClient, **headers: str) -> dict[tuple[str, frozenset], float]:
    """(sample name, labels) -> value, from the page as Prometheus would read it."""
    resp = client.get(METRICS, **headers)
    assert resp.status_code == 200, resp.content
    samples = {}
    for family in text_string_to_metric_families(resp.content.decode()):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def counter(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def metrics_client(operator_client: APIClient) -> APIClient:
    """An operator Api-Key whose staff user holds audit.view_injectionlog."""
    return operator_client


# ------------------------------------------------------------------------------ access


def test_anonymous_is_asked_to_authenticate(api_client):
    resp = api_client.get(METRICS)
    assert resp.status_code == 401
    assert resp["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert b"protomem_" not in resp.content


def test_agents_are_refused(agent_client):
    resp = agent_client.get(METRICS)
    assert resp.status_code == 403
    assert b"protomem_" not in resp.content


def test_staff_without_the_permission_is_refused(staff_client):
    assert staff_client.get(METRICS).status_code == 403


def test_staff_with_the_injection_log_permission_reads_it_in_the_admin_session(db):
    user = grant(UserFactory(username="watcher", is_staff=True), ("audit", "view_injectionlog"))
    client = APIClient()
    client.force_login(user)
    resp = client.get(METRICS)
    assert resp.status_code == 200
    assert resp["Content-Type"].startswith("text/plain")
    assert b"protomem_review_queue_rows" in resp.content


def test_the_scrape_token_opens_the_page_and_nothing_else(settings, api_client):
    settings.PROTOMEM_METRICS_TOKEN = TOKEN
    assert api_client.get(METRICS, HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200
    assert api_client.get(METRICS, HTTP_AUTHORIZATION="Bearer wrong-token").status_code == 401
    # The token is no principal anywhere else: an operator route asks for credentials.
    assert api_client.get("/api/memory/injections/", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 401


def test_no_token_configured_opens_nothing(settings, api_client):
    settings.PROTOMEM_METRICS_TOKEN = ""
    assert api_client.get(METRICS, HTTP_AUTHORIZATION="Bearer ").status_code == 401
    assert api_client.get(METRICS, HTTP_AUTHORIZATION="Bearer anything").status_code == 401


def test_openmetrics_is_served_when_asked(metrics_client):
    resp = metrics_client.get(METRICS, HTTP_ACCEPT="application/openmetrics-text; version=1.0.0")
    assert resp.status_code == 200
    assert resp["Content-Type"].startswith("application/openmetrics-text")
    assert resp.content.rstrip().endswith(b"# EOF")


# ------------------------------------------------------------------------------ latency


def test_context_and_recall_show_up_by_route_and_in_their_own_histograms(agent_client, metrics_client):
    ChunkFactory(content="The ocelot feeding is at noon", review_state="confirmed")
    SessionFactory(agent=agent_client.agent, session_id="thread-ocelot-42")
    before = scrape(metrics_client)

    context = agent_client.post("/api/sessions/thread-ocelot-42/context/", {"query": "ocelot"})
    recall = agent_client.get("/api/memory/recall/", {"query": "ocelot"})
    assert context.status_code == 200, context.content
    assert recall.status_code == 200, recall.content
    after = scrape(metrics_client)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved(REQUESTS, route="session-context", method="POST", status="2xx") == 1
    assert moved(REQUESTS, route="memory-recall", method="GET", status="2xx") == 1
    assert moved("protomem_context_duration_seconds_count", stage="deliver") == 1
    assert moved("protomem_context_duration_seconds_count", stage="compose") == 1
    assert moved("protomem_recall_duration_seconds_count") == 1
    assert value(after, "protomem_recall_duration_seconds_sum") > 0
    # The route is the pattern's name, never the path: no session id ever becomes a label.
    labels = {v for (_, pairs) in after for (_, v) in pairs}
    assert not any("thread-ocelot-42" in v for v in labels)


def test_an_unmatched_path_is_one_label_value(agent_client, metrics_client):
    before = scrape(metrics_client)
    assert agent_client.get("/no/such/page-1").status_code == 404
    assert agent_client.get("/no/such/page-2").status_code == 404
    after = scrape(metrics_client)
    key = {"route": UNMATCHED_ROUTE, "method": "GET", "status": "4xx"}
    assert value(after, REQUESTS, **key) - value(before, REQUESTS, **key) == 2


def test_timed_observes_a_call_that_raises():
    histogram = Histogram("protomem_test_timed_seconds", "test only", registry=None)

    @timed(histogram)
    def boom() -> None:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        boom()
    [count] = [s.value for s in histogram.collect()[0].samples if s.name.endswith("_count")]
    assert count == 1


# ------------------------------------------------------------------------------ store gauges


def test_review_queue_depth_counts_live_pending_rows_by_risk_and_hold(metrics_client):
    for _ in range(2):
        ChunkFactory(risk=1, held_reasons="instruction")
    ChunkFactory(risk=1, held_reasons="")
    for _ in range(3):
        ChunkFactory(risk=3, held_reasons=None)
    ChunkFactory(risk=None, source_type="operator")
    ChunkFactory(risk=2, review_state="confirmed")  # reviewed: not in the queue
    ChunkFactory(risk=2, held_reasons="instruction", invalidated_at=timezone.now())  # gone

    samples = scrape(metrics_client)

    def depth(risk: str, held: str) -> float:
        return value(samples, "protomem_review_queue_rows", risk=risk, held=held)

    assert depth("1", "true") == 2
    assert depth("1", "false") == 1
    assert depth("3", "false") == 3
    assert depth("none", "false") == 1
    assert depth("2", "true") == depth("2", "false") == depth("3", "true") == 0
    assert value(samples, "protomem_collector_up", collector="review_queue") == 1


def test_hold_all_pending_counts_every_pending_row_as_held(settings, metrics_client):
    cfg = settings.PROTOMEM
    knowledge = dataclasses.replace(cfg.knowledge, hold="all_pending")
    settings.PROTOMEM = dataclasses.replace(cfg, knowledge=knowledge)
    ChunkFactory(risk=3, held_reasons=None)
    samples = scrape(metrics_client)
    assert value(samples, "protomem_review_queue_rows", risk="3", held="true") == 1
    assert value(samples, "protomem_review_queue_rows", risk="3", held="false") == 0


def test_embedding_backlog_is_reported_only_while_embeddings_are_on(settings, metrics_client):
    ChunkFactory()
    ChunkFactory()
    assert not any(name == "protomem_embedding_backlog_chunks" for name, _ in scrape(metrics_client))

    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg, knowledge=dataclasses.replace(cfg.knowledge, embeddings=True, embed_model="test-embed")
    )
    samples = scrape(metrics_client)
    assert value(samples, "protomem_embedding_backlog_chunks", model="test-embed") == 2
    assert value(samples, "protomem_collector_up", collector="embedding_backlog") == 1


def test_a_failing_collector_query_drops_its_family_and_reports_down():
    def broken():
        raise DatabaseError("server gone")
        yield  # pragma: no cover - a generator, as the real parts are

    collector = StoreCollector(parts={"broken": broken, "review_queue": review_queue_metrics})
    families = {family.name: family for family in collector.collect()}
    up = {s.labels["collector"]: s.value for s in families["protomem_collector_up"].samples}
    assert up == {"broken": 0, "review_queue": 1}
    assert "protomem_review_queue_rows" in families


# ------------------------------------------------------------------------------ task outcomes


def test_expiry_task_counts_its_run_and_the_rows_it_expired(metrics_client):
    ChunkFactory(expires_at=timezone.now() - timedelta(hours=1))
    labels = {"task": "memory.chunks_expire_sweep", "outcome": "success"}
    runs = counter("protomem_task_runs_total", **labels)
    items = counter("protomem_task_items_total", task="memory.chunks_expire_sweep")

    assert memory_tasks.chunks_expire_sweep_task.apply().get() == 1

    assert counter("protomem_task_runs_total", **labels) == runs + 1
    assert counter("protomem_task_items_total", task="memory.chunks_expire_sweep") == items + 1
    assert value(scrape(metrics_client), "protomem_task_runs_total", **labels) == runs + 1


def test_a_failing_task_counts_as_failure(monkeypatch, settings):
    settings.CELERY_TASK_EAGER_PROPAGATES = False

    def broken(**kwargs):
        raise ValueError("bad row")

    monkeypatch.setattr(retention, "chunks_expire_sweep", broken)
    labels = {"task": "memory.chunks_expire_sweep", "outcome": "failure"}
    before = counter("protomem_task_runs_total", **labels)
    result = memory_tasks.chunks_expire_sweep_task.apply()
    assert result.failed()
    assert counter("protomem_task_runs_total", **labels) == before + 1


def test_harvest_counts_the_outcome_it_returns():
    session = SessionFactory()  # live, never retired: nothing to claim
    labels = {"task": "sessions.harvest", "outcome": "not_claimed"}
    before = counter("protomem_task_runs_total", **labels)
    assert session_tasks.session_harvest_task.apply(args=[session.pk]).get() == "not_claimed"
    assert counter("protomem_task_runs_total", **labels) == before + 1


# ------------------------------------------------------------------------------ several processes

RECORD = """
from protomem.metrics import exposition, record_task_run
record_task_run("memory.chunks_expire_sweep", "SUCCESS", 3)
if {render}:
    print(exposition()[0].decode())
"""


def test_multiprocess_mode_sums_every_process(tmp_path):
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    for render in (False, True):
        done = subprocess.run(  # noqa: S603 - our own interpreter and a fixed script
            [sys.executable, "-c", RECORD.format(render=render)],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    samples = {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(done.stdout)
        for s in family.samples
    }
    task = "memory.chunks_expire_sweep"
    assert value(samples, "protomem_task_runs_total", task=task, outcome="success") == 2
    assert value(samples, "protomem_task_items_total", task=task) == 6
    assert len(list(tmp_path.glob("counter_*.db"))) == 2  # one file per process
