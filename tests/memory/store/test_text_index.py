"""memory.store.text_index: chunks, skills and session summaries behind one TextIndex interface."""

from __future__ import annotations

import pytest

from delivery.skills import skill_create
from memory.lifecycle.writes import ChunkDraft, add_chunks
from memory.store import text_index
from memory.store.models import Chunk
from memory.store.text_index import CHUNKS, SKILLS, TextIndex, plan, terms_of
from sessions_app.selectors import SUMMARIES
from tests.backends import ranked_backend

pytestmark = pytest.mark.django_db

EVERY_INDEX = (CHUNKS, SKILLS, SUMMARIES)


@pytest.fixture
def fresh_probes():
    for index in EVERY_INDEX:
        index.reset()
    yield
    for index in EVERY_INDEX:
        index.reset()


@pytest.mark.usefixtures("fresh_probes")
def test_every_index_is_in_place_on_this_database():
    assert [index.backend() for index in EVERY_INDEX] == [ranked_backend()] * 3
    assert all(index.ranked() for index in EVERY_INDEX)


@pytest.mark.usefixtures("fresh_probes")
def test_forcing_like_reaches_every_index(settings):
    settings.PROTOMEM_SEARCH_BACKEND = "like"
    assert [index.backend() for index in EVERY_INDEX] == ["like"] * 3


def test_chunks_and_skills_answer_the_same_plan():
    add_chunks(
        [
            ChunkDraft(content="Release trains leave on Tuesdays.", namespace="ti"),
            ChunkDraft(content="The canteen serves soup.", namespace="ti"),
        ]
    )
    deploy = skill_create(name="deploy", description="Ship a release train", content="tag and push")
    skill_create(name="triage", description="Sort incoming bugs")
    steps = plan(terms_of("which release train"))
    assert len(steps) == 2  # every term, then any term (two terms: no pair step)
    release_chunk = Chunk.objects.get(content__startswith="Release trains")
    assert CHUNKS.match_ids(steps[0], limit=None) == [release_chunk.pk]
    assert SKILLS.match_ids(steps[0], limit=None) == [deploy.pk]


def test_an_index_without_matchers_says_so():
    index = TextIndex("elsewhere", fts5_ready=lambda: True, tsvector_ready=lambda: True)
    with pytest.raises(NotImplementedError, match="elsewhere"):
        index.match_ids(text_index.sql().any_term(["x"]), limit=1)


def test_probes_are_cached_until_reset():
    calls: list[str] = []

    def probe() -> bool:
        calls.append("probe")
        return True

    index = TextIndex("counted", fts5_ready=probe, tsvector_ready=probe)
    index.backend()
    index.backend()
    assert calls == ["probe"]
    index.reset()
    index.backend()
    assert calls == ["probe", "probe"]
