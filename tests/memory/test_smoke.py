import pytest

from memory.selectors import chunk_search
from memory.services import ChunkDraft, add_chunk

pytestmark = pytest.mark.django_db


def test_add_then_search_finds_stemmed_word():
    chunk = add_chunk(ChunkDraft(content="Audit logs are kept for ninety days", source_type="console"))
    assert [c.pk for c in chunk_search("audit log retention")] == [chunk.pk]
