from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from axes.utils import reset as axes_reset
from django.db import connections, transaction
from django.db.models.sql import InsertQuery

from audit.models import AuditEvent, InjectionLog, InjectionLogItem, InjectionScope, InjectionSection
from audit.signals import hot_written
from protomem.routers import INJECTIONS_DB

HOT_WRITTEN = "memory.hot_written"
REVIEWED = "memory.reviewed"
REVISED = "memory.revised"
PROMOTED = "memory.promoted"
CREDENTIAL_REDACTED = "memory.secret_redacted"  # credentials removed from a write before storage
AGENT_DEACTIVATED = "agent.deactivated"
PROPOSAL_ACCEPTED = "memory.proposal_accepted"  # a reviewer confirmed a proposed revision
PROPOSAL_WITHDRAWN = "memory.proposal_withdrawn"  # ... and reopened or rejected it again
QUARANTINED = "memory.quarantined"  # a session's writes rejected as one recorded action
QUARANTINE_LIFTED = "memory.quarantine_lifted"  # ... and put back to their states before it
LOGIN_LOCKED_OUT = "login.locked_out"  # too many failed admin logins (django-axes)
LOGIN_LOCKOUT_LIFTED = "login.lockout_lifted"  # a superuser cleared the failures early


def audit_event_record(
    *, event: str, actor: str, path: str = "", chunk_id: int | None = None, data: dict[str, Any] | None = None
) -> AuditEvent:
    """Append one audit event (inside the caller's transaction)."""
    return AuditEvent.objects.create(event=event, actor=actor, path=path, chunk_id=chunk_id, data=data or {})


def login_lockout_record(
    *, username: str | None, ip_address: str | None, failures: int, path: str
) -> AuditEvent:
    """Record that a login was locked out; the caller records each lockout once."""
    return audit_event_record(
        event=LOGIN_LOCKED_OUT,
        actor=f"ip:{ip_address or 'unknown'}",
        path=path,
        data={"username": username or "", "ip_address": ip_address or "", "failures": failures},
    )


def login_lockout_lift(
    *, actor: str, path: str, username: str | None = None, ip_address: str | None = None
) -> int:
    """Clear the failed logins of a username and/or an address (either matches); audited once.

    Returns how many attempt rows were cleared; running it twice clears nothing the second time
    (and still records who tried, so a lift is never silent).
    """
    if not username and not ip_address:
        raise ValueError("a lockout is lifted for a username, an address, or both")
    with transaction.atomic():
        cleared = axes_reset(
            ip=ip_address or None, username=username or None, ip_or_username=bool(username and ip_address)
        )
        audit_event_record(
            event=LOGIN_LOCKOUT_LIFTED,
            actor=actor,
            path=path,
            data={"username": username or "", "ip_address": ip_address or "", "cleared": cleared},
        )
    return cleared


def hot_written_record(*, chunk_id: int, actor: str, path: str) -> AuditEvent:
    """Persist memory.hot_written and send the signal once the write commits."""
    event = audit_event_record(event=HOT_WRITTEN, actor=actor, path=path, chunk_id=chunk_id)
    transaction.on_commit(
        lambda: hot_written.send(sender=AuditEvent, chunk_id=chunk_id, actor=actor, path=path)
    )
    return event


_ITEM_FIELDS = ("log", "chunk_id", "section", "scope", "agent_id", "session_id")


def _compiled_item_insert(alias: str, rows: int) -> tuple[str, list[Any]]:
    """The INSERT of `rows` InjectionLogItem rows as Django compiles a bulk_create for `alias`,
    with its parameters for rows whose chunk ids are 0, 1, ... (the rest blank)."""
    fields = [InjectionLogItem._meta.get_field(name) for name in _ITEM_FIELDS]
    query = InsertQuery(InjectionLogItem)
    blanks = [
        InjectionLogItem(log_id=0, chunk_id=i, section="", scope="", agent_id=None, session_id="")
        for i in range(rows)
    ]
    query.insert_values(fields, blanks)
    ((sql, params),) = query.get_compiler(using=alias).as_sql()
    return sql, list(params)


@functools.cache
def _item_insert_sql(alias: str) -> tuple[str, str | None]:
    """The one-row INSERT of an InjectionLogItem for `alias`, and the many-row one when the backend
    compiles one statement for any row count that takes its values by column (PostgreSQL's
    UNNEST: one array per field), else None; both compiled once.

    Building ~100 model instances for bulk_create cost more than the write itself on every
    delivered turn. executemany of the one-row INSERT is SQLite's own loop in C, but psycopg
    binds and sends each row as its own statement (~50 per turn), which cost as much again.
    """
    one, _ = _compiled_item_insert(alias, 1)
    (two, params), (three, _) = _compiled_item_insert(alias, 2), _compiled_item_insert(alias, 3)
    by_column = two == three and len(params) == len(_ITEM_FIELDS) and list(params[1]) == [0, 1]
    return one, two if by_column else None


def _item_insert(rows: Sequence[tuple[Any, ...]], alias: str) -> None:
    one, by_column = _item_insert_sql(alias)
    with connections[alias].cursor() as cursor:
        if by_column is not None and len(rows) > 1:
            cursor.execute(by_column, [list(column) for column in zip(*rows, strict=True)])
        else:
            cursor.executemany(one, rows)


_LOG_FIELDS = tuple(f for f in InjectionLog._meta.concrete_fields if not f.primary_key)


@functools.cache
def _log_insert_sql(alias: str) -> str:
    """The one-row INSERT of an InjectionLog returning its id, as Django compiles it for `alias`
    (compiled once): what objects.create() runs, without building the statement every turn."""
    query = InsertQuery(InjectionLog)
    query.insert_values(_LOG_FIELDS, [InjectionLog()])
    compiler = query.get_compiler(using=alias)
    compiler.returning_fields = [InjectionLog._meta.pk]
    ((sql, _params),) = compiler.as_sql()
    return sql


def _log_insert(log: InjectionLog, alias: str) -> None:
    """INSERT `log` (its id set from the database), as log.save() would on a new row."""
    connection = connections[alias]
    values = [f.get_db_prep_save(f.pre_save(log, True), connection) for f in _LOG_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(_log_insert_sql(alias), values)
        log.pk = cursor.fetchone()[0]
    log._state.adding, log._state.db = False, alias


def injection_log_record(
    *,
    agent_id: int | None,
    session_id: str,
    digest_session_ids: Sequence[str] = (),
    hot_ids: Sequence[int] = (),
    rag_ids: Sequence[int] = (),
    approx_tokens: int = 0,
    scopes: Mapping[int, str] | None = None,
    envelope_sha256: str = "",
    digest_lines: Sequence[str] = (),
    time_zone: str = "",
    row_states: Mapping[int, str] | None = None,
) -> InjectionLog:
    """Append one injection-log row (and its per-chunk items) for ids that entered a prompt.

    `scopes` maps a chunk id to "private" / "commons" (memory.lifecycle.scope); unlisted ids are private.
    The replay fields (the envelope's sha256, the digest lines, the time zone and each row's review
    state at delivery) are what delivery.replay needs to rebuild the turn; see InjectionLog.
    """
    scope_of = {int(k): str(v) for k, v in (scopes or {}).items()}
    private = str(InjectionScope.PRIVATE)
    hot_section, rag_section = str(InjectionSection.HOT), str(InjectionSection.RAG)
    hot = list(dict.fromkeys(int(i) for i in hot_ids))
    rag = list(dict.fromkeys(int(i) for i in rag_ids))
    with transaction.atomic(using=INJECTIONS_DB):
        log = InjectionLog(
            agent_id=agent_id,
            session_id=session_id,
            digest_session_ids=list(dict.fromkeys(str(s) for s in digest_session_ids)),
            hot_ids=hot,
            rag_ids=rag,
            approx_tokens=max(int(approx_tokens), 0),
            envelope_sha256=envelope_sha256,
            digest_lines=[str(line) for line in digest_lines],
            time_zone=time_zone,
            row_states={str(int(k)): str(v or "") for k, v in (row_states or {}).items()},
        )
        _log_insert(log, INJECTIONS_DB)
        rows = [
            (log.pk, i, section, scope_of.get(i, private), agent_id, session_id)
            for section, ids in ((hot_section, hot), (rag_section, rag))
            for i in ids
        ]
        if rows:
            _item_insert(rows, INJECTIONS_DB)
    return log
