"""Skills (procedural memory): the index block's rows, search, and the operator writes.

Reads: `skill_list` (the API's list and search), `skill_index` (what the projection lists every
turn), `skill_relevance` (the turn's matching skills, ranked; consulted only when shedding).
Writes (operators): `skill_create`, `skill_update`.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from django.db import IntegrityError, connections, transaction
from django.db.models import Q, QuerySet

from memory.store.models import Skill
from memory.store.text_index import SKILLS, plan, terms_of
from protomem.errors import ApplicationError, ConflictError

SKILL_SEARCH_LIMIT = 200


def skills_queryset(*, include_disabled: bool = False) -> QuerySet[Skill]:
    """Skills by name; disabled ones only when asked (operators)."""
    qs = Skill.objects.order_by("name", "id")
    return qs if include_disabled else qs.filter(enabled=True)


def _like_ids(terms: list[str], queryset: QuerySet[Skill], limit: int) -> list[int]:
    matches = [Q(name__icontains=t) | Q(description__icontains=t) | Q(content__icontains=t) for t in terms]
    any_match = functools.reduce(lambda a, b: a | b, matches)
    return list(queryset.filter(any_match).values_list("pk", flat=True)[:limit])


def skill_search_ids(query: str, *, queryset: QuerySet[Skill], limit: int = SKILL_SEARCH_LIMIT) -> list[int]:
    """Ids of `queryset` rows matching a free-text query, best first (all terms, pairs, any term)."""
    terms = terms_of(query)
    if not terms or limit <= 0:
        return []
    if not SKILLS.ranked():  # no skills index here (or search forced to LIKE)
        return _like_ids(terms, queryset, limit)
    out: dict[int, None] = {}
    for expression in plan(terms):
        ids = [i for i in SKILLS.match_ids(expression, limit=None) if i not in out]
        if ids:
            allowed = set(queryset.filter(pk__in=ids).values_list("pk", flat=True))
            for skill_id in ids:
                if skill_id in allowed:
                    out[skill_id] = None
        if len(out) >= limit:
            break
    return list(out)[:limit]


def skill_list(*, query: str = "", include_disabled: bool = False) -> list[Skill]:
    """All skills by name, or those matching `query`, best match first."""
    qs = skills_queryset(include_disabled=include_disabled)
    if not query.strip():
        return list(qs)
    ids = skill_search_ids(query, queryset=qs)
    by_id = qs.in_bulk(ids)
    return [by_id[i] for i in ids if i in by_id]


def skill_get(*, name: str, include_disabled: bool = False) -> Skill:
    """One skill by exact name; Skill.DoesNotExist when missing (or disabled, for agents)."""
    return skills_queryset(include_disabled=include_disabled).get(name=name)


class SkillEntry(NamedTuple):
    """One row of the skill index (no playbook content: that is fetched on demand)."""

    pk: int
    name: str
    description: str


@functools.cache
def _skill_index_sql(alias: str) -> tuple[str, tuple[object, ...]]:
    """skill_index()'s query as Django compiles it for `alias`; it has no per-call values."""
    qs = skills_queryset().using(alias).values_list(*SkillEntry._fields)
    sql, params = qs.query.get_compiler(using=alias).as_sql()
    return sql, tuple(params)


def skill_index() -> list[SkillEntry]:
    """What `<available_skills>` lists every turn: each enabled skill (name, description) by name.

    Read fresh every call; only the SQL is compiled once (building the queryset cost more than
    running it).
    """
    alias = Skill.objects.db
    sql, params = _skill_index_sql(alias)
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        return [SkillEntry(*row) for row in cursor.fetchall()]


def skill_relevance(query: str) -> list[int]:
    """Enabled skill ids matching the turn's query, best first (which descriptions to keep longest)."""
    return skill_search_ids(query, queryset=skills_queryset()) if query.strip() else []


def _clean_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise ApplicationError("name must not be empty", extra={"field": "name"})
    if any(ch.isspace() for ch in name) or "/" in name:
        raise ApplicationError("name must be one word (no spaces or slashes)", extra={"field": "name"})
    return name


def skill_create(*, name: str, description: str = "", content: str = "", enabled: bool = True) -> Skill:
    """Add a skill (operators); 409 when the name is taken."""
    skill = Skill(name=_clean_name(name), description=description.strip(), content=content, enabled=enabled)
    skill.full_clean(validate_unique=False)
    try:
        with transaction.atomic():
            skill.save(force_insert=True)
    except IntegrityError as exc:
        raise ConflictError(f"a skill named {skill.name!r} already exists") from exc
    return skill


def skill_update(
    *,
    skill: Skill,
    description: str | None = None,
    content: str | None = None,
    enabled: bool | None = None,
) -> Skill:
    """Change a skill's description, content or enabled flag (operators); unset means unchanged."""
    changes: dict[str, object] = {}
    if description is not None:
        changes["description"] = description.strip()
    if content is not None:
        changes["content"] = content
    if enabled is not None:
        changes["enabled"] = enabled
    if not changes:
        return skill
    for key, value in changes.items():
        setattr(skill, key, value)
    skill.full_clean(validate_unique=False)
    skill.save(update_fields=[*changes, "updated_at"])
    return skill
