"""`manage.py protomem search "query"`: id, date, trust label and heading per hit."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from django.core.management import call_command

from memory.lifecycle.writes import chunk_supersede
from tests.backends import ranked_backend
from tests.factories import ChunkFactory

pytestmark = pytest.mark.django_db


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("protomem", "search", *args, stdout=out, stderr=err)
    return out.getvalue().splitlines(), err.getvalue()


@pytest.fixture
def rows(db):
    ChunkFactory.create_batch(8, content="unrelated filler about lunch", heading="filler")
    return {
        "operator": ChunkFactory(
            heading="Deploy freeze",
            content="deploy freeze on fridays",
            source_type="console",
            created_at=datetime(2026, 7, 1, 9, 30, tzinfo=UTC),
        ),
        "agent": ChunkFactory(
            heading="",
            content="deploy notes from the harvest\nsecond line",
            source_type="harvest",
            created_at=datetime(2026, 6, 2, tzinfo=UTC),
        ),
        "external": ChunkFactory(
            heading="Vendor page",
            content="how vendors deploy",
            source_type="web",
            created_at=datetime(2025, 12, 31, 23, 59, tzinfo=UTC),
        ),
    }


def test_prints_one_line_per_hit_best_first(rows):
    lines, err = run("deploy freeze")
    assert lines[0] == f"#{rows['operator'].pk}\t2026-07-01\toperator\tDeploy freeze"
    assert sorted(lines[1:]) == sorted(
        [
            f"#{rows['agent'].pk}\t2026-06-02\tagent\tdeploy notes from the harvest",
            f"#{rows['external'].pk}\t2025-12-31\texternal\tVendor page",
        ]
    )
    assert f"3 hit(s) via {ranked_backend()}" in err


def test_top_k(rows):
    lines, err = run("deploy", "-k", "1")
    assert len(lines) == 1
    assert "1 hit(s)" in err


def test_no_hits_and_hostile_queries(rows):
    assert run("zebrafish")[0] == []
    assert run('"(NEAR AND-:*')[0] == []
    assert run("")[0] == []
    assert run("deploy", "-k", "-2")[0] == []


def test_superseded_rows_only_on_request(rows):
    new = ChunkFactory(
        heading="Deploy freeze v2", content="deploy freeze on fridays and mondays", source_type="console"
    )
    chunk_supersede(old_id=rows["operator"].pk, new_id=new.pk)
    ids = [line.split("\t")[0] for line in run("deploy freeze")[0]]
    assert f"#{rows['operator'].pk}" not in ids
    assert f"#{new.pk}" in ids
    ids = [line.split("\t")[0] for line in run("deploy freeze", "--include-superseded")[0]]
    assert f"#{rows['operator'].pk}" in ids


def test_like_fallback(rows, settings):
    settings.PROTOMEM_SEARCH_BACKEND = "like"
    lines, err = run("deploy freeze")
    assert lines[0].startswith(f"#{rows['operator'].pk}\t")
    assert "via like" in err


def test_untitled_rows_show_their_first_line(db):
    ChunkFactory.create_batch(5, content="unrelated filler", heading="filler")
    blank_first = ChunkFactory(heading="", content="\n\n  quokka first real line\nsecond", source_type="")
    lines, _ = run("quokka")
    assert lines == [
        f"#{blank_first.pk}\t{blank_first.created_at:%Y-%m-%d}\texternal\tquokka first real line"
    ]
