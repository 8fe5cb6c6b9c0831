"""Memory routes: the agent's memory tools, review, operator edit / browse / bulk delete.

Trailing slashes are optional (the review route is specified without one).
"""

from __future__ import annotations

from django.urls import re_path

from memory.api import review_views, views

SESSION = r"sessions/(?P<session_id>[^/]+)"
CHUNK = r"(?P<chunk_id>[0-9]+)"

urlpatterns = [
    re_path(rf"^{SESSION}/memory/ingest/?$", views.MemoryIngestApi.as_view(), name="memory-ingest"),
    re_path(rf"^{SESSION}/knowledge/ingest/?$", views.KnowledgeIngestApi.as_view(), name="knowledge-ingest"),
    re_path(r"^memory/recall/?$", views.MemoryRecallApi.as_view(), name="memory-recall"),
    re_path(r"^memory/list/?$", views.MemoryListApi.as_view(), name="memory-list"),
    re_path(rf"^memory/chunks/{CHUNK}/review/?$", views.ChunkReviewApi.as_view(), name="chunk-review"),
    re_path(
        rf"^memory/chunks/{CHUNK}/influence/?$",
        review_views.ChunkInfluenceApi.as_view(),
        name="chunk-influence",
    ),
    re_path(
        rf"^{SESSION}/quarantine/?$", review_views.SessionQuarantineApi.as_view(), name="session-quarantine"
    ),
    re_path(
        r"^quarantines/(?P<quarantine_id>[0-9]+)/lift/?$",
        review_views.QuarantineLiftApi.as_view(),
        name="quarantine-lift",
    ),
    re_path(r"^knowledge/chunks/?$", views.StoreChunkListApi.as_view(), name="store-chunk-list"),
    re_path(
        r"^knowledge/chunks/bulk-delete/?$",
        views.StoreBulkDeleteApi.as_view(),
        name="store-chunk-bulk-delete",
    ),
    re_path(
        r"^knowledge/chunks/bulk-restore/?$",
        views.StoreBulkRestoreApi.as_view(),
        name="store-chunk-bulk-restore",
    ),
    re_path(rf"^knowledge/chunks/{CHUNK}/erase/?$", review_views.ChunkEraseApi.as_view(), name="chunk-erase"),
    re_path(rf"^knowledge/chunks/{CHUNK}/promote/?$", views.ChunkPromoteApi.as_view(), name="chunk-promote"),
    re_path(rf"^knowledge/chunks/{CHUNK}/?$", views.StoreChunkDetailApi.as_view(), name="store-chunk-detail"),
]
