"""Session search (session_search): stemmed FTS5 over summaries, LIKE fallback, scoping."""

from __future__ import annotations

import pytest

from memory.lifecycle.redaction import REDACTED
from sessions_app import fts
from sessions_app.models import SessionSummary
from sessions_app.selectors import reset_backend_cache, search_backend_name, session_search
from tests.backends import on_postgres, ranked_backend
from tests.sessions_app.conftest import converse

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(agent, other_agent):
    converse(agent, "s-audit", "Where do the audit logs get shipped?", "To the retention bucket.")
    converse(agent, "s-kestrel", "Plan the kestrel migration", "Three phases, starting Monday.")
    converse(agent, "s-login", "The login test is flaky", "Fixed a race in the fixture.")
    converse(other_agent, "theirs", "audit log export for another agent", "done")


@pytest.fixture
def like_backend(settings):
    settings.PROTOMEM_SEARCH_BACKEND = "like"
    reset_backend_cache()
    yield
    reset_backend_cache()


def ids(hits):
    return [h.session_id for h in hits]


def test_stemming_finds_audit_logs_for_audit_log(agent, history):
    assert search_backend_name() == ranked_backend()
    hits = session_search(agent=agent, query="audit log")
    assert ids(hits) == ["s-audit"]
    assert hits[0].topic == "Where do the audit logs get shipped?"
    assert "[audit]" in hits[0].snippet
    assert "[logs]" in hits[0].snippet


def test_no_shared_stem_finds_nothing(agent, history):
    assert session_search(agent=agent, query="retained") == []  # "retention" does not share the stem


def test_only_the_callers_sessions_are_searched(agent, other_agent, history):
    assert "theirs" not in ids(session_search(agent=agent, query="audit log export"))
    assert ids(session_search(agent=other_agent, query="audit")) == ["theirs"]


def test_more_matching_terms_rank_first_then_partial_matches_fill(agent, history):
    hits = session_search(agent=agent, query="kestrel migration login")
    assert ids(hits)[0] == "s-kestrel"
    assert set(ids(hits)) == {"s-kestrel", "s-login"}


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        "audit AND OR NOT",
        "NEAR(audit log)",
        "audit* ^log",
        "col:audit",
        "') ; DROP TABLE sessions_app_sessionsummary; --",
        "",
        "   ",
        "!!!",
    ],
)
def test_hostile_queries_never_raise(agent, history, query):
    hits = session_search(agent=agent, query=query)
    assert all(h.session_id.startswith("s-") for h in hits)
    assert SessionSummary.objects.count() == 4


def test_snippets_are_redacted(agent):
    converse(agent, "s-key", "the deploy key is sk-proj-Qw3rTy9UiOp4AsDfGh5JkLz7XcVbNm12 for kestrel")
    (hit,) = session_search(agent=agent, query="deploy key")
    assert "sk-proj" not in hit.snippet
    assert REDACTED in hit.snippet


def test_index_follows_summary_rewrites(agent):
    converse(agent, "s-1", "first about kestrel")
    summary = SessionSummary.objects.get()
    summary.text = "now about ospreys"
    summary.save()
    assert ids(session_search(agent=agent, query="osprey")) == ["s-1"]
    assert ids(session_search(agent=agent, query="kestrel")) == ["s-1"]  # the topic still says so
    summary.delete()
    assert session_search(agent=agent, query="osprey") == []
    assert on_postgres() or fts.integrity_check() is True


def test_like_fallback_finds_the_same_sessions(agent, history, like_backend):
    assert search_backend_name() == "like"
    hits = session_search(agent=agent, query="audit log")
    assert ids(hits)[0] == "s-audit"  # both terms; "log" also matches inside "login" (substring)
    assert "[audit]" in hits[0].snippet
    assert "theirs" not in ids(session_search(agent=agent, query="export"))


def test_limit_caps_results(agent):
    for i in range(5):
        converse(agent, f"s-{i}", f"kestrel note {i}")
    assert len(session_search(agent=agent, query="kestrel", k=3)) == 3


def test_terms_in_too_many_sessions_do_not_rank_they_only_fill(agent, monkeypatch):
    # given: "deploy" in every session (above the cap), "kestrel" in one old session
    monkeypatch.setattr("sessions_app.selectors.MIN_RANK_CAP", 2)
    converse(agent, "s-kestrel", "deploy the kestrel service")
    for i in range(5):
        converse(agent, f"s-{i}", f"deploy number {i}")
    # when / then: the informative term decides the top, the common one fills newest first
    hits = session_search(agent=agent, query="deploy kestrel", k=4)
    assert ids(hits) == ["s-kestrel", "s-4", "s-3", "s-2"]
    assert ids(session_search(agent=agent, query="deploy", k=2)) == ["s-4", "s-3"]
