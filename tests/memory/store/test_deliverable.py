"""memory.store.deliverable: the conditions copied from the once-built template filter exactly as
the ORM definition does, through the ORM and through their compiled SQL, for every policy."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.store import deliverable as module
from memory.store.models import Chunk
from memory.store.row_filter import RowFilter, compiled_filter
from tests.factories import ChunkFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def rows() -> list[Chunk]:
    """One row for each way in or out of delivery, in two namespaces."""
    kinds = [
        {},
        {"review_state": "confirmed"},
        {"review_state": "rejected"},
        {"invalidated_at": NOW - timedelta(days=1)},
        {"expires_at": NOW - timedelta(seconds=1)},
        {"expires_at": NOW + timedelta(seconds=1)},
        {"held_reasons": "imperative"},
        {"held_reasons": "imperative", "review_state": "confirmed"},
    ]
    return [ChunkFactory(namespace=ns, **kind) for ns in ("a", "b") for kind in kinds]


@pytest.mark.parametrize("hold", [module.HOLD_RISKY, module.HOLD_ALL_PENDING, module.HOLD_OFF])
@pytest.mark.parametrize("include_superseded", [False, True])
@pytest.mark.parametrize("when", [NOW, NOW + timedelta(days=30)])
def test_the_copied_conditions_pass_the_rows_the_orm_definition_passes(
    rows: list[Chunk], hold: str, include_superseded: bool, when: datetime
) -> None:
    everything = [row.pk for row in rows]
    for caller in (Chunk.objects.all(), Chunk.objects.filter(namespace="a")):
        defined = module._conditions(caller, now=when, include_superseded=include_superseded, hold=hold)
        expected = set(defined.values_list("pk", flat=True))

        copied = module.deliverable(caller, now=when, include_superseded=include_superseded, hold=hold)

        assert set(copied.values_list("pk", flat=True)) == expected  # through the ORM
        assert RowFilter(copied).allowed(everything) == expected  # through its compiled SQL
        assert compiled_filter(copied) is not None
        assert 0 < len(expected) < len(rows)


def test_the_template_is_never_changed_by_a_copy_or_by_what_is_built_on_it(rows: list[Chunk]) -> None:
    template = module._template(False, module.HOLD_RISKY)
    assert template is not None
    before = str(template.where), template.sql, template.params

    later = NOW + timedelta(days=30)
    first = module.deliverable(Chunk.objects.filter(namespace="a"), now=NOW, hold=module.HOLD_RISKY)
    narrowed = first.filter(domain="fact").exclude(review_state="confirmed")
    nested = Chunk.objects.filter(pk__in=narrowed.values("pk"))
    second = module.deliverable(Chunk.objects.filter(namespace="a"), now=later, hold=module.HOLD_RISKY)

    assert (str(template.where), template.sql, template.params) == before
    assert set(nested.values_list("pk", flat=True)) <= set(first.values_list("pk", flat=True))
    soon = NOW + timedelta(seconds=1)
    expired_between = next(row.pk for row in rows if row.namespace == "a" and row.expires_at == soon)
    assert expired_between in set(first.values_list("pk", flat=True))
    assert expired_between not in set(second.values_list("pk", flat=True))


def test_a_sliced_queryset_is_refused_as_the_orm_refuses_it(rows: list[Chunk]) -> None:
    with pytest.raises(TypeError):
        module.deliverable(Chunk.objects.all()[:3])
