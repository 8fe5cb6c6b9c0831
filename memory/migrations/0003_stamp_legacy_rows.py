"""One-shot: stamp rows that predate the creation-stamp rule (memory_kind, policy, review state).

The table is copied from memory.stamps on purpose (a migration must not change with the code).
Reverse is a no-op: the stamps are valid data, and which values were guessed is not recorded.
"""

from django.db import migrations

KIND_BY_DOMAIN = {
    "hot": "standing", "standing": "standing", "fact": "fact", "facts": "fact",
    "conversation": "episode", "episode": "episode", "finding": "note", "note": "note",
    "notes": "note", "context": "note", "preferences": "profile", "profile": "profile",
    "decision": "decision", "decisions": "decision", "knowledge": "reference",
    "reference": "reference", "document": "reference",
}
KIND_BY_SOURCE_TYPE = {"harvest": "episode", "extracted": "fact"}
EXTERNAL = {"knowledge_ingest", "web", "youtube", "pdf", "media", "document", "snapshot", "plugin", "eval"}
OPERATOR = {"console", "operator", "admin"}
BATCH = 1000


def kind_for(domain, source_type):
    domain, st = (domain or "").lower(), (source_type or "").lower()
    if domain == "hot":
        return "standing"
    if st in EXTERNAL:
        return "reference"
    return KIND_BY_DOMAIN.get(domain) or KIND_BY_SOURCE_TYPE.get(st, "note")


def forward(apps, schema_editor):
    Chunk = apps.get_model("memory", "Chunk")
    todo = Chunk.objects.filter(memory_kind__isnull=True) | Chunk.objects.filter(
        review_state__isnull=True
    ) | Chunk.objects.filter(delivery_policy__isnull=True)
    batch = []
    for row in todo.only("id", "domain", "source_type", "memory_kind", "review_state", "delivery_policy").iterator(chunk_size=BATCH):
        row.memory_kind = row.memory_kind or kind_for(row.domain, row.source_type)
        if (row.domain or "").lower() == "hot":
            row.delivery_policy = "always"
        row.delivery_policy = row.delivery_policy or "retrieved"
        row.review_state = row.review_state or (
            "confirmed" if (row.source_type or "").lower() in OPERATOR else "pending"
        )
        batch.append(row)
        if len(batch) >= BATCH:
            Chunk.objects.bulk_update(batch, ["memory_kind", "delivery_policy", "review_state"])
            batch = []
    if batch:
        Chunk.objects.bulk_update(batch, ["memory_kind", "delivery_policy", "review_state"])


class Migration(migrations.Migration):
    dependencies = [("memory", "0002_chunk_fts")]
    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
