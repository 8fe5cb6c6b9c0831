"""delivery.skills: the skills index rows, search over memory_skill_fts, operator writes."""

from __future__ import annotations

import pytest

from delivery.projection import _skill_shed_sequence
from delivery.skills import (
    _like_ids,
    skill_create,
    skill_get,
    skill_index,
    skill_list,
    skill_relevance,
    skill_search_ids,
    skill_update,
    skills_queryset,
)
from memory.store.models import Skill
from memory.store.text_index import skills_fts5
from protomem.errors import ApplicationError, ConflictError
from tests.backends import on_postgres

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalogue():
    return {
        s.name: s
        for s in [
            skill_create(
                name="deploy", description="Ship a release to production", content="tag, push, watch"
            ),
            skill_create(name="triage", description="Sort incoming bugs by severity"),
            skill_create(
                name="postmortem", description="Write up an incident", content="timeline of the release"
            ),
            skill_create(name="retired", description="Old release ritual", enabled=False),
        ]
    }


def test_fts_table_exists_and_follows_writes(catalogue):
    assert on_postgres() or skills_fts5.skill_fts_ready()
    assert set(skill_search_ids("release", queryset=skills_queryset())) == {
        catalogue["deploy"].pk,
        catalogue["postmortem"].pk,
    }
    skill_update(skill=catalogue["triage"], description="Sort incoming release blockers")
    assert catalogue["triage"].pk in skill_search_ids("release", queryset=skills_queryset())
    Skill.objects.filter(name="deploy").delete()
    assert catalogue["deploy"].pk not in skill_search_ids("release", queryset=skills_queryset())


def test_search_ranks_all_terms_first_and_stems(catalogue):
    # "releases" stems to "release"; only deploy has both words
    ids = skill_search_ids("production releases", queryset=skills_queryset())
    assert ids[0] == catalogue["deploy"].pk
    assert set(ids) == {catalogue["deploy"].pk, catalogue["postmortem"].pk}


def test_search_ignores_fts_syntax(catalogue):
    for hostile in ['"', "release OR", "NEAR(", "*", "-bugs", "name:deploy"]:
        skill_search_ids(hostile, queryset=skills_queryset())  # never raises
    assert skill_search_ids("   ", queryset=skills_queryset()) == []


def test_list_hides_disabled_unless_asked(catalogue):
    assert [s.name for s in skill_list()] == ["deploy", "postmortem", "triage"]
    assert [s.name for s in skill_list(include_disabled=True)] == [
        "deploy",
        "postmortem",
        "retired",
        "triage",
    ]
    assert "retired" not in {s.name for s in skill_list(query="release")}
    assert "retired" in {s.name for s in skill_list(query="release", include_disabled=True)}
    with pytest.raises(Skill.DoesNotExist):
        skill_get(name="retired")
    assert skill_get(name="retired", include_disabled=True).pk == catalogue["retired"].pk


def test_like_fallback_matches_the_same_rows(catalogue):
    assert set(_like_ids(["release"], skills_queryset(), 10)) == {
        catalogue["deploy"].pk,
        catalogue["postmortem"].pk,
    }


def test_index_lists_enabled_by_name_with_relevance(catalogue):
    assert [s.name for s in skill_index()] == ["deploy", "postmortem", "triage"]
    relevant = skill_relevance("incident release")
    assert relevant[0] == catalogue["postmortem"].pk  # both words
    assert set(relevant) == {catalogue["postmortem"].pk, catalogue["deploy"].pk}
    assert skill_relevance("") == []
    assert skill_relevance("ritual") == []  # disabled skills never rank


def test_unmatched_descriptions_shed_first(catalogue):
    # display: deploy(0), postmortem(1), triage(2); triage unmatched, then least relevant match first
    assert _skill_shed_sequence(skill_index(), skill_relevance("incident release")) == (2, 0, 1)


def test_projection_keeps_relevant_skill_descriptions_longest(catalogue):
    from delivery.projection import ProjectionOptions, compose_projected_context

    class Tight(ProjectionOptions):
        def ceiling(self, model):
            return len("<available_skills>") + 200  # room for names and little else

    ctx = compose_projected_context(query="incident release", options=Tight())
    lines = ctx.section("skills").text.splitlines()
    kept = [line for line in lines if line.startswith("- ")]
    assert kept[0] in ("- deploy", "- deploy: Ship a release to production")
    assert "- postmortem: Write up an incident" in kept  # the best match kept its description
    assert "- triage" in kept  # unmatched: name only


def test_create_validates_and_refuses_duplicates(catalogue):
    with pytest.raises(ConflictError):
        skill_create(name="deploy")
    with pytest.raises(ApplicationError):
        skill_create(name="")
    with pytest.raises(ApplicationError):
        skill_create(name="has space")
    assert Skill.objects.count() == 4


def test_update_changes_only_given_fields(catalogue):
    skill = skill_update(skill=catalogue["deploy"], enabled=False)
    skill.refresh_from_db()
    assert (skill.enabled, skill.description) == (False, "Ship a release to production")
