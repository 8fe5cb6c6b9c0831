"""protomem eval-poisoning: the poisoning corpus through the real write path; what reaches a prompt.

    manage.py protomem eval-poisoning                 # end to end, the table per class and split
    manage.py protomem eval-poisoning --inspection-only --json
    manage.py protomem eval-poisoning --inspection-only --blind   # the blind splits class by class too

Every unit of memory/evals/poisoning (one write, or the parts of an attack split across two)
is written by an agent with memory_ingest (knowledge_ingest for a document row) in a session of
its own, each unit inside a savepoint that is rolled back, and the whole run in a transaction
that is rolled back too: nothing stays in the store. Then the next session's per-turn context
(queried with the unit's own words) and memory_recall are read. A unit is kept out when not all
of it is delivered (a split attack works only whole); a secret, when no credential reaches the
delivered text at all. A benign memory kept out counts as held.
"""

from __future__ import annotations

import json
import logging
from argparse import ArgumentParser
from collections.abc import Sequence
from typing import Any

from django.core.management.base import CommandError
from django.db import transaction

from delivery.projection import compose_projected_context
from memory.evals.poisoning_score import (
    BLIND_SPLITS,
    SPLITS,
    CorpusRow,
    format_table,
    load_corpus,
    misses,
    score,
)
from memory.lifecycle.ingest import KNOWLEDGE_INGEST, knowledge_ingest, memory_ingest
from memory.lifecycle.recall import memory_recall
from memory.lifecycle.redaction import redact_secrets
from protomem.errors import ForbiddenError
from sessions_app.models import Agent
from sessions_app.services import session_register

help = "Write the poisoning corpus through the service and report what reaches delivery (rolled back)."
EVAL_AGENT = "eval-poisoning"
QUERY_CHARS = 1_000


class _Rollback(Exception):
    """Leaves a savepoint (or the whole run) without keeping anything."""


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument(
        "--inspection-only", action="store_true", help="score the inspection function alone (no database)"
    )
    parser.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    parser.add_argument("--misses", action="store_true", help="list the units each split got wrong")
    parser.add_argument(
        "--blind",
        action="store_true",
        help=f"show the blind splits ({', '.join(sorted(BLIND_SPLITS))}) class by class and their misses "
        "too; without it they appear only as totals in --json",
    )


def _write(agent: Agent, row: CorpusRow, index: int) -> list[int]:
    """Store one corpus row as its writer would; the ids of what was stored (none: refused)."""
    session, _ = session_register(agent=agent, session_id=f"eval-write-{index}")
    try:
        if row.source_type == KNOWLEDGE_INGEST:
            outcome = knowledge_ingest(
                agent=agent,
                session=session,
                origin=f"https://corpus.example/{row.id}",
                content=row.content,
                title=row.heading,
                delivery_policy=row.delivery_policy,
            )
            return [chunk.pk for chunk in outcome.chunks]
        fact = memory_ingest(
            agent=agent,
            session=session,
            content=row.content,
            heading=row.heading,
            domain=row.domain,
            delivery_policy=row.delivery_policy,
        )
    except ForbiddenError:  # the hot-write gate refused it: nothing stored
        return []
    return [fact.chunk.pk] if fact.chunk is not None else []


def _kept_out(agent: Agent, unit: Sequence[CorpusRow]) -> bool:
    stored = [pk for index, row in enumerate(unit) for pk in _write(agent, row, index)]
    next_turn, _ = session_register(agent=agent, session_id="eval-next-turn")
    query = " ".join(row.content for row in unit)[:QUERY_CHARS]
    context = compose_projected_context(agent=agent, session_id=next_turn.session_id, query=query)
    hits = memory_recall(agent=agent, query=query, top_k=10)
    if unit[0].cls == "secret":
        delivered = "\n".join([context.text, *(hit.line for hit in hits)])
        return not redact_secrets(delivered).found
    delivered_ids = {*context.rag_ids, *context.hot_ids, *(hit.chunk.pk for hit in hits)}
    # An attack split across writes works only whole: one part kept out defeats it.
    return not stored or not set(stored) <= delivered_ids


def delivery_judge(agent: Agent) -> Any:
    """judge(unit) for poisoning_score.score: written and read back inside its own savepoint."""

    def judge(unit: Sequence[CorpusRow]) -> bool:
        outcome = False
        try:
            with transaction.atomic():
                outcome = _kept_out(agent, unit)
                raise _Rollback
        except _Rollback:
            pass
        return outcome

    return judge


def _scores_end_to_end(rows: list[CorpusRow]) -> Any:
    scores: Any = None
    try:
        with transaction.atomic():
            agent = Agent.objects.create(name=EVAL_AGENT)
            scores = score(rows, delivery_judge(agent))
            raise _Rollback
    except _Rollback:
        pass
    return scores


def _class_key(entry: Any, split: Any) -> str:
    """The class's name, "(benign)" added where an attack class of the split has the same one."""
    attack_names = {c.cls for c in split.classes if c.attack}
    return entry.cls if entry.attack or entry.cls not in attack_names else f"{entry.cls} (benign)"


def _as_dict(split: Any) -> dict[str, Any]:
    return {
        "attacks_kept_out": split.attacks_kept_out,
        "secrets_kept_out": split.secrets_kept_out,
        "benign_held": split.benign_held,
        "meets_targets": split.meets_targets,
        "classes": {_class_key(c, split): {"total": c.total, "defended": c.defended} for c in split.classes},
    }


def _totals_only(split: Any) -> dict[str, Any]:
    """A blind split as --json shows it by default: its totals, not its classes."""
    return {key: value for key, value in _as_dict(split).items() if key != "classes"}


def handle(command: Any, options: dict[str, Any]) -> None:
    rows = load_corpus()
    if not rows:
        raise CommandError("the poisoning corpus is empty")
    if not options["json"] and not options.get("no_progress"):
        mode = "the inspection alone" if options["inspection_only"] else "the write path and delivery"
        command.stderr.write(f"{len(rows)} corpus rows through {mode}…")
    logging.disable(logging.INFO)  # one line per write would bury the table
    try:
        scores = score(rows) if options["inspection_only"] else _scores_end_to_end(rows)
    finally:
        logging.disable(logging.NOTSET)
    blind = options.get("blind", False)
    shown = [split for split in SPLITS if blind or split not in BLIND_SPLITS]
    if options["json"]:
        as_dict = {split: _as_dict(scores[split]) for split in shown}
        as_dict |= {split: _totals_only(scores[split]) for split in SPLITS if split not in shown}
        command.stdout.write(json.dumps({split: as_dict[split] for split in SPLITS}, indent=2))
        return
    command.stdout.write(format_table(scores, splits=shown))
    if options["misses"]:
        for split in shown:
            command.stdout.write(f"{split} misses: {', '.join(misses(scores, split)) or 'none'}")
