"""Chunk-store endpoints: the agent's memory tools, operator review, edit, browse, bulk delete.

Thin: parse, authorize, call memory services / selectors, serialize. Roles:

- agents (Api-Key): memory_ingest / knowledge_ingest into one of their sessions (someone
  else's session, or an unknown one, is 404), memory_recall, memory_list;
- operators (staff; session or operator key): browse the store, edit (PUT), bulk delete /
  restore; review and promotion to the commons also need the memory.review_chunk permission
  (a promoted copy is confirmed by construction, so promoting is a review verdict).

Agents never review or edit; operators do not use the agent tools. No key or a wrong one is
401, the wrong role 403.
"""

from __future__ import annotations

import functools
from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memory.api.filters import BULK_FILTER_KEYS, MemoryListFilter, StoreFilter
from memory.api.serializers import (
    BulkDeleteInput,
    BulkDeleteOutput,
    BulkRestoreInput,
    BulkRestoreOutput,
    ChunkOutput,
    IngestOutput,
    KnowledgeIngestInput,
    KnowledgeIngestOutput,
    MemoryIngestInput,
    MemoryListItemOutput,
    RecallHitOutput,
    RecallOutput,
    RecallQueryInput,
    ReviewInput,
    ReviseInput,
    RevisionOutput,
)
from memory.lifecycle import ingest, recall, retention
from memory.lifecycle.review import chunk_promote, chunk_review, chunk_revise
from memory.store.models import Chunk
from protomem.api import MAX_DB_INT, harden_filters
from protomem.representation import Representation, compile_representation
from sessions_app.authentication import own_session
from sessions_app.permissions import HasModelPerms, IsAgent

OPERATOR_EDIT_PATH = "operator_edit"
REVIEW_PATH = "review_api"
PROMOTE_PATH = "promote_api"


def operator_actor(request: Request) -> str:
    return f"user:{request.user.pk}"


def chunk_or_404(chunk_id: int | str) -> Chunk:
    # The route takes any digits; past the DB's integer range no row can match (and the
    # lookup itself would overflow).
    if int(chunk_id) > MAX_DB_INT:
        raise Http404
    try:
        return Chunk.objects.get(pk=chunk_id)
    except Chunk.DoesNotExist:
        raise Http404 from None


def _filter_data(filters: dict[str, Any]) -> dict[str, str]:
    """A bulk-delete filter as the query-string values the store filterset parses.

    JSON scalars become their query-string spelling and `ids` may also be a list; nested
    values are refused (400) instead of being stringified into a filter that matches nothing.
    """
    data: dict[str, str] = {}
    errors: dict[str, list[str]] = {}
    for name, value in filters.items():
        if name == "ids" and isinstance(value, list) and all(type(v) is int for v in value):
            data[name] = ",".join(str(v) for v in value)
        elif isinstance(value, bool):
            data[name] = "true" if value else "false"
        elif isinstance(value, int | float | str):
            data[name] = str(value)
        elif value is not None:
            errors[name] = ["must be a string, number or boolean (ids: a list of integers)"]
    if errors:
        raise ValidationError({"filter": errors})
    return data


@functools.cache
def _chunk_output() -> ChunkOutput:
    """ChunkOutput built once per process: a ModelSerializer builds its fields from the model on
    every instantiation (~1 ms, more than a recall's own work); to_representation only reads
    them, so the bound instance serves every request (the JSON is the same, the schema too)."""
    serializer = ChunkOutput()
    _ = serializer.fields
    return serializer


@functools.cache
def _recall_hits_output() -> Any:
    serializer = RecallHitOutput(many=True)
    _ = serializer.child.fields
    return serializer


@functools.cache
def _chunk_dict() -> Representation:
    """ChunkOutput compiled (protomem.representation): the same dict for a fraction of the CPU."""
    return compile_representation(_chunk_output())


@functools.cache
def _recall_hits_list() -> Representation:
    return compile_representation(_recall_hits_output())


CHUNK_ID = OpenApiParameter("chunk_id", int, OpenApiParameter.PATH, description="chunk id")

WRITE_ERRORS = {
    400: OpenApiResponse(description="invalid body, forged provenance or out-of-range expires_in_days"),
    401: OpenApiResponse(description="no or wrong API key"),
    403: OpenApiResponse(description="not an agent, pinned namespace, incognito session or hot-write gate"),
    404: OpenApiResponse(description="no such session for this agent"),
}


class MemoryIngestApi(APIView):
    """memory_ingest: record something the agent learnt, stamped with its session."""

    permission_classes = [IsAgent]

    @extend_schema(
        request=MemoryIngestInput,
        responses={201: IngestOutput, 200: IngestOutput, **WRITE_ERRORS},
        summary="memory_ingest (201 stored, 200 duplicate: nothing written)",
    )
    def post(self, request: Request, session_id: str) -> Response:
        session = own_session(request.user.agent, session_id)
        data = MemoryIngestInput(data=request.data)
        data.is_valid(raise_exception=True)
        outcome = ingest.memory_ingest(agent=request.user.agent, session=session, **data.validated_data)
        chunk = outcome.chunk
        action, held = ingest.reported_action(outcome)
        stored = outcome.action in ("inserted", "superseded", "proposed")
        body = {
            "action": action,
            "chunk": _chunk_dict()(chunk) if chunk is not None else None,
            "superseded_id": outcome.superseded_id,
            "proposes": outcome.proposed_id,
            "held_reasons": list(held),
            "score": outcome.score,
        }
        return Response(body, status=status.HTTP_201_CREATED if stored else status.HTTP_200_OK)


class KnowledgeIngestApi(APIView):
    """knowledge_ingest: a third-party document, chunked, sourced from its origin (tier 1)."""

    permission_classes = [IsAgent]

    @extend_schema(
        request=KnowledgeIngestInput,
        responses={201: KnowledgeIngestOutput, 200: KnowledgeIngestOutput, **WRITE_ERRORS},
        summary="knowledge_ingest (201 stored or replaced, 200 unchanged)",
    )
    def post(self, request: Request, session_id: str) -> Response:
        session = own_session(request.user.agent, session_id)
        data = KnowledgeIngestInput(data=request.data)
        data.is_valid(raise_exception=True)
        params = dict(data.validated_data)
        params["max_chars"] = params.pop("max_chunk_chars")
        outcome = ingest.knowledge_ingest(agent=request.user.agent, session=session, **params)
        body = {
            "action": outcome.action,
            "chunks": ChunkOutput(outcome.chunks, many=True).data,
            "superseded_ids": list(outcome.superseded_ids),
            "proposed_ids": list(outcome.proposed_ids),
            "held_ids": ingest.held_chunk_ids(outcome),
        }
        stored = outcome.action != "duplicate"
        return Response(body, status=status.HTTP_201_CREATED if stored else status.HTTP_200_OK)


class MemoryRecallApi(APIView):
    """memory_recall: search durable knowledge (unscoped by inject_namespaces; pinned agents stay pinned)."""

    permission_classes = [IsAgent]

    @extend_schema(parameters=[RecallQueryInput], responses={200: RecallOutput}, summary="memory_recall")
    def get(self, request: Request) -> Response:
        return self._recall(request, request.query_params)

    @extend_schema(
        request=RecallQueryInput,
        responses={200: RecallOutput},
        summary="memory_recall (the query in a JSON body: no URL length limit to mind)",
    )
    def post(self, request: Request) -> Response:
        return self._recall(request, request.data)

    def _recall(self, request: Request, source: Any) -> Response:
        data = RecallQueryInput(data=source)
        data.is_valid(raise_exception=True)
        params = data.validated_data
        hits = recall.memory_recall(
            agent=request.user.agent,
            query=params["query"],
            top_k=params["top_k"],
            namespace=params["namespace"],
            include_superseded=params["include_superseded"],
        )
        for hit in hits:
            hit.chunk.tag, hit.chunk.line = hit.tag, hit.line  # type: ignore[attr-defined]
        return Response(
            {
                "query": params["query"],
                "count": len(hits),
                "results": _recall_hits_list()([h.chunk for h in hits]),
                "text": "\n".join(h.line for h in hits),
            }
        )


class MemoryListApi(ListAPIView):
    """memory_list: live rows newest first, e.g. ?review_state=pending; lines show expires=."""

    permission_classes = [IsAgent]
    serializer_class = MemoryListItemOutput
    filterset_class = MemoryListFilter

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return Chunk.objects.none()
        return recall.memory_list_rows(agent=self.request.user.agent)


class ChunkReviewApi(APIView):
    """The operator's verdict on a row: confirmed, rejected (never deletes) or pending (re-open)."""

    permission_classes = [HasModelPerms]
    required_perms = {"POST": ("memory.review_chunk",)}

    @extend_schema(
        parameters=[CHUNK_ID],
        request=ReviewInput,
        responses={
            200: ChunkOutput,
            400: OpenApiResponse(description="state is not confirmed, rejected or pending"),
            403: OpenApiResponse(description="not an operator with memory.review_chunk"),
            404: OpenApiResponse(description="no such chunk"),
        },
        summary="Review a chunk",
    )
    def post(self, request: Request, chunk_id: int) -> Response:
        chunk_or_404(chunk_id)
        data = ReviewInput(data=request.data)
        data.is_valid(raise_exception=True)
        chunk = chunk_review(
            chunk_id=int(chunk_id),
            state=data.validated_data["state"],
            actor=operator_actor(request),
            path=REVIEW_PATH,
        )
        return Response(ChunkOutput(chunk).data)


class ChunkPromoteApi(APIView):
    """Operators with memory.review_chunk: copy a private row into the commons (idempotent)."""

    permission_classes = [HasModelPerms]
    required_perms = {"POST": ("memory.promote_chunk", "memory.review_chunk")}

    @extend_schema(
        parameters=[CHUNK_ID],
        request=None,
        responses={
            201: ChunkOutput,
            200: ChunkOutput,
            400: OpenApiResponse(description="already a commons row, or superseded / deleted"),
            401: OpenApiResponse(description="no or wrong API key"),
            403: OpenApiResponse(description="not an operator with memory.review_chunk"),
            404: OpenApiResponse(description="no such chunk"),
        },
        summary="Promote a private chunk into the commons (201 new copy, 200 already promoted)",
    )
    def post(self, request: Request, chunk_id: int) -> Response:
        chunk_or_404(chunk_id)
        already = Chunk.objects.filter(promoted_from=int(chunk_id)).exists()
        copy = chunk_promote(chunk_id=int(chunk_id), actor=operator_actor(request), path=PROMOTE_PATH)
        code = status.HTTP_200_OK if already else status.HTTP_201_CREATED
        return Response(ChunkOutput(copy).data, status=code)


class StoreChunkListApi(ListAPIView):
    """Operators: the whole store, newest first, history included (filter it with invalidated=false)."""

    permission_classes = [HasModelPerms]
    required_perms = {"GET": ("memory.view_chunk",)}
    serializer_class = ChunkOutput
    filterset_class = StoreFilter

    def get_queryset(self) -> Any:
        return Chunk.objects.order_by("-created_at", "-id")


class StoreChunkDetailApi(APIView):
    """Operators: one row; PUT makes a confirmed revision (a rejected row's stays rejected)."""

    permission_classes = [HasModelPerms]
    required_perms = {"GET": ("memory.view_chunk",), "PUT": ("memory.change_chunk", "memory.review_chunk")}

    @extend_schema(parameters=[CHUNK_ID], responses={200: ChunkOutput}, summary="One chunk")
    def get(self, request: Request, chunk_id: int) -> Response:
        return Response(ChunkOutput(chunk_or_404(chunk_id)).data)

    @extend_schema(
        parameters=[CHUNK_ID],
        request=ReviseInput,
        responses={
            200: RevisionOutput,
            400: OpenApiResponse(description="invalid body"),
            404: OpenApiResponse(description="no such chunk"),
            409: OpenApiResponse(description="already superseded: edit its newest revision"),
        },
        summary="Operator edit: a new revision superseding this row",
    )
    def put(self, request: Request, chunk_id: int) -> Response:
        chunk_or_404(chunk_id)
        data = ReviseInput(data=request.data)
        data.is_valid(raise_exception=True)
        new = chunk_revise(
            chunk_id=int(chunk_id),
            content=data.validated_data["content"],
            heading=data.validated_data.get("heading"),
            actor=operator_actor(request),
            path=OPERATOR_EDIT_PATH,
        )
        return Response({"chunk": ChunkOutput(new).data, "supersedes": int(chunk_id)})


class StoreBulkDeleteApi(APIView):
    """Operators: mark rows (ids or a store filter) bulk-deleted; the grace reap removes them later."""

    permission_classes = [HasModelPerms]
    required_perms = {"POST": ("memory.delete_chunk",)}

    @extend_schema(
        request=BulkDeleteInput,
        responses={
            200: BulkDeleteOutput,
            400: OpenApiResponse(description="no ids / filter, or a bad filter"),
        },
        summary="Bulk delete (soft, with a grace period)",
    )
    def post(self, request: Request) -> Response:
        data = BulkDeleteInput(data=request.data)
        data.is_valid(raise_exception=True)
        queryset = None
        filters = data.validated_data.get("filter")
        if filters is not None:
            unknown = sorted(set(filters) - BULK_FILTER_KEYS)
            if unknown:
                raise ValidationError({"filter": [f"unknown filter(s): {', '.join(unknown)}"]})
            if all(v in (None, "", []) for v in filters.values()):
                raise ValidationError({"filter": ["give at least one filter value"]})
            filterset = harden_filters(
                StoreFilter(data=_filter_data(filters), queryset=Chunk.objects.all(), request=request)
            )
            if not filterset.is_valid():
                raise ValidationError({"filter": filterset.errors})
            queryset = filterset.qs
        result = retention.chunks_bulk_delete(
            ids=data.validated_data.get("ids"),
            queryset=queryset,
            actor=operator_actor(request),
            path="bulk_delete_api",
        )
        return Response({"marked": result.marked, "ids": list(result.ids), "reap_after": result.reap_after})


class StoreBulkRestoreApi(APIView):
    """Operators: undo a bulk delete before the grace reap."""

    permission_classes = [HasModelPerms]
    required_perms = {"POST": ("memory.delete_chunk",)}

    @extend_schema(request=BulkRestoreInput, responses={200: BulkRestoreOutput}, summary="Undo a bulk delete")
    def post(self, request: Request) -> Response:
        data = BulkRestoreInput(data=request.data)
        data.is_valid(raise_exception=True)
        ids = retention.chunks_bulk_restore(
            ids=data.validated_data["ids"], actor=operator_actor(request), path="bulk_restore_api"
        )
        return Response({"restored": len(ids), "ids": list(ids)})
