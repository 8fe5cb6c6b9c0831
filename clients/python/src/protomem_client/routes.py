"""The API operations this client covers, and the ones it deliberately leaves out.

Paths are spelled as /api/schema/ spells them, so a test can compare both sets: it fails when
the schema gains an operation that is in neither ROUTES nor OPERATOR_ONLY (the client would
drift), or when ROUTES names one the schema no longer has. The request builders format these
templates, so the client cannot call a path that is not listed here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    tool: str  # the client method that calls it (the same name on both clients)

    @property
    def key(self) -> tuple[str, str]:
        return (self.method, self.path)


SESSION_REGISTER = Route("POST", "/api/sessions/", "session_register")
SESSIONS_LIST = Route("GET", "/api/sessions/", "sessions_list")
SESSION_GET = Route("GET", "/api/sessions/{session_id}/", "session_get")
SESSION_RETIRE = Route("DELETE", "/api/sessions/{session_id}/", "session_retire")
TURN_APPEND = Route("POST", "/api/sessions/{session_id}/messages/", "turn_append")
SESSION_MESSAGES = Route("GET", "/api/sessions/{session_id}/messages/", "session_messages")
SESSION_SEARCH = Route("GET", "/api/sessions/search/", "session_search")
RECALL_SESSION = Route("GET", "/api/sessions/{session_id}/summary/", "recall_session")
MEMORY_INGEST = Route("POST", "/api/sessions/{session_id}/memory/ingest/", "memory_ingest")
KNOWLEDGE_INGEST = Route("POST", "/api/sessions/{session_id}/knowledge/ingest/", "knowledge_ingest")
# memory_recall sends its query in a JSON body (no URL length to mind); GET is the same operation.
MEMORY_RECALL = Route("POST", "/api/memory/recall/", "memory_recall")
MEMORY_RECALL_GET = Route("GET", "/api/memory/recall/", "memory_recall")
MEMORY_LIST = Route("GET", "/api/memory/list/", "memory_list")
CONTEXT = Route("POST", "/api/sessions/{session_id}/context/", "context")
SKILLS_LIST = Route("GET", "/api/skills/", "skills_list")
SKILL_GET = Route("GET", "/api/skills/{name}/", "skill_get")

ROUTES: tuple[Route, ...] = (
    SESSION_REGISTER,
    SESSIONS_LIST,
    SESSION_GET,
    SESSION_RETIRE,
    TURN_APPEND,
    SESSION_MESSAGES,
    SESSION_SEARCH,
    RECALL_SESSION,
    MEMORY_INGEST,
    KNOWLEDGE_INGEST,
    MEMORY_RECALL,
    MEMORY_RECALL_GET,
    MEMORY_LIST,
    CONTEXT,
    SKILLS_LIST,
    SKILL_GET,
)

# Operations an agent key is refused (403). The schema cannot tell them apart: every operation
# lists the same security schemes, because operators may also use an Api-Key. Add a new
# operator route here, or a method to the clients for a new agent route; the drift test also
# calls each of these with an agent key and requires the 403, so this list cannot hide an
# agent route.
OPERATOR_ONLY: frozenset[tuple[str, str]] = frozenset(
    {
        ("GET", "/api/knowledge/chunks/"),  # browse the whole store
        ("GET", "/api/knowledge/chunks/{chunk_id}/"),
        ("PUT", "/api/knowledge/chunks/{chunk_id}/"),  # operator edit (a confirmed revision)
        ("POST", "/api/knowledge/chunks/{chunk_id}/promote/"),  # reviewers: copy into the commons
        ("POST", "/api/knowledge/chunks/{chunk_id}/erase/"),  # operators: erase a row and its revisions
        ("POST", "/api/knowledge/chunks/bulk-delete/"),
        ("POST", "/api/knowledge/chunks/bulk-restore/"),
        ("POST", "/api/memory/chunks/{chunk_id}/review/"),  # reviewers: the verdict
        ("GET", "/api/memory/chunks/{chunk_id}/influence/"),  # a chunk's blast radius
        ("POST", "/api/sessions/{session_id}/quarantine/"),  # reviewers: reject all a session wrote
        ("POST", "/api/quarantines/{quarantine_id}/lift/"),  # reviewers: restore the states before
        ("GET", "/api/memory/injections/{log_id}/replay/"),  # a logged turn's exact envelope
        ("GET", "/api/memory/injections/"),  # the injection log
        ("GET", "/api/prompts/preview/"),  # the projection without logging
        ("POST", "/api/skills/"),  # add a skill
        ("PUT", "/api/skills/{name}/"),  # change a skill
    }
)
