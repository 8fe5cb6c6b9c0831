"""protomem seed-demo: fill the store with realistic demo data so the console can be tried at once.

Everything goes through the services an agent or operator would use: agent_key_create,
session_register and session_turn_append (which write the summaries the digest reads),
add_chunk, fact_ingest (the dedup + supersede consolidation, for domain "fact"), chunk_revise,
chunk_review and chunks_bulk_delete, skill_create, and deliver_projected_context (which logs
the injections).
Refuses to run when demo data exists unless --force, which adds another round.
"""

from __future__ import annotations

from argparse import ArgumentParser
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from delivery.projection import deliver_projected_context
from delivery.skills import skill_create
from memory.lifecycle.facts import fact_ingest
from memory.lifecycle.retention import chunks_bulk_delete
from memory.lifecycle.review import chunk_review, chunk_revise
from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.store.models import Chunk, Skill
from protomem.cli.seed_demo_data import ASSISTANT, OPERATOR_ACTOR, RESEARCHER, SEED_PATH, SKILLS, chunk_specs
from sessions_app.models import Agent, Session
from sessions_app.services import MessageInput, agent_key_create, session_register, session_turn_append

help = "Fill the store with demo sessions, facts, hot memory, review states and injections (for the console)."


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="add another round even if demo data exists")


@dataclass
class Seeded:
    """What one round stored, for the summary line (and the tests)."""

    round: int
    agents: list[Agent] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    skills: int = 0
    injections: int = 0


# Demo conversations: (session suffix, agent, surface, flags, hours ago, turns of (user, assistant)).
SESSIONS: list[dict[str, Any]] = [
    {
        "key": "release",
        "agent": ASSISTANT,
        "surface": "chat",
        "hours_ago": 70,
        "turns": [
            (
                "How do we ship a release build of the billing service?",
                "The release pipeline is manual: run the `release` workflow with workflow_dispatch on main, "
                "then approve the production environment in the Actions tab.",
            ),
            (
                "Can I do that on a Friday afternoon?",
                "Not after 15:00 UTC: production deploys are frozen then. Schedule it for Monday morning.",
            ),
        ],
    },
    {
        "key": "staging-db",
        "agent": ASSISTANT,
        "surface": "chat",
        "hours_ago": 46,
        "turns": [
            (
                "The staging database keeps running out of connections. What is the limit?",
                "Staging Postgres has max_connections = 100 and each API pod opens a pool of 20, so five "
                "pods exhaust it. Lower the pool size or add PgBouncer.",
            ),
        ],
    },
    {
        "key": "oncall",
        "agent": ASSISTANT,
        "surface": "a2a",
        "hours_ago": 26,
        "turns": [
            (
                "Who is on call this week and how do I escalate a sev-1?",
                "The rotation switches Mondays at 09:00 UTC. For a sev-1 page the primary, then post in "
                "#sre-escalations; the incident commander takes over from there.",
            ),
        ],
    },
    {
        "key": "status",
        "agent": ASSISTANT,
        "surface": "chat",
        "hours_ago": 5,
        "turns": [
            (
                "Draft the weekly status update for the platform team.",
                "Here is a draft in your usual format: wins, risks, asks, each under 50 words.",
            ),
        ],
    },
    {
        "key": "private",
        "agent": ASSISTANT,
        "surface": "chat",
        "incognito": True,
        "hours_ago": 3,
        "turns": [("Help me word a resignation letter.", "Of course. Here is a short, gracious draft.")],
    },
    {
        "key": "papers",
        "agent": RESEARCHER,
        "surface": "chat",
        "hours_ago": 30,
        "turns": [
            (
                "Summarise what we know about retrieval-augmented memory poisoning.",
                "Persistent memory is a prompt-injection vector: a poisoned write is replayed into later "
                "turns. Mitigations are provenance, trust tiers, review and injection logs.",
            ),
        ],
    },
]


def _next_round() -> int:
    ids = Session.objects.filter(session_id__startswith="demo-r").values_list("session_id", flat=True)
    rounds = [int(s.split("-")[1][1:]) for s in ids if s.split("-")[1][1:].isdigit()]
    return max(rounds, default=0) + 1


def seed_demo(*, force: bool = False, say: Any = None) -> Seeded | None:
    """Store one demo round; None (and nothing written) when demo data exists and not `force`."""
    say = say or (lambda _msg: None)
    if Agent.objects.filter(name=ASSISTANT).exists() and not force:
        return None
    now = timezone.now()
    rnd = _next_round()
    out = Seeded(round=rnd)

    agents = {}
    for name, namespace in ((ASSISTANT, ""), (RESEARCHER, "research")):
        agent, _raw_key = agent_key_create(name=name, namespace=namespace)  # keys stay hashed; not shown
        agents[name] = agent
    out.agents = list(agents.values())
    say(f"agents: {', '.join(agents)}")

    sessions: dict[str, Session] = {}
    for spec in SESSIONS:
        agent = agents[spec["agent"]]
        session, _ = session_register(
            agent=agent,
            session_id=f"demo-r{rnd}-{spec['key']}",
            surface=spec["surface"],
            incognito=spec.get("incognito", False),
        )
        start = now - timedelta(hours=spec["hours_ago"])
        turns = spec["turns"]
        for i, (user, assistant) in enumerate(turns):
            session_turn_append(
                session=session,
                messages=[
                    MessageInput(role="user", content=user),
                    MessageInput(role="assistant", content=assistant),
                ],
                terminal=i == len(turns) - 1,
                turn_id=f"t{i + 1}",
                now=start + timedelta(minutes=3 * i),
            )
        sessions[spec["key"]] = session
    background, _ = session_register(agent=agents[ASSISTANT], session_id=f"background:demo-r{rnd}-nightly")
    out.sessions = [*sessions.values(), background]
    say(f"sessions: {len(out.sessions)} (summaries written on their terminal turns)")

    chunks: list[Chunk] = []
    duplicates = 0
    for spec in chunk_specs(agents, sessions, now):
        draft: ChunkDraft = spec["draft"]
        actor = OPERATOR_ACTOR if draft.source_type == "admin" else f"agent:{draft.agent_id}"
        with transaction.atomic():
            if draft.domain == "fact":
                outcome = fact_ingest(draft=draft, actor=actor, path=SEED_PATH)
                chunk = outcome.chunk
                if outcome.action == "duplicate":
                    duplicates += 1  # a --force round repeats facts the store already holds
                    continue
            else:
                chunk = add_chunk(draft, actor=actor, path=SEED_PATH)
            if chunk is None:
                continue
            chunks.append(chunk)
            if spec.get("review"):
                chunk_review(chunk_id=chunk.pk, state=spec["review"], actor=OPERATOR_ACTOR, path=SEED_PATH)
            if spec.get("delete"):
                chunks_bulk_delete(ids=[chunk.pk], actor=OPERATOR_ACTOR, path=SEED_PATH)
            current = chunk
            for text in spec.get("revise", []):
                current = chunk_revise(
                    chunk_id=current.pk, content=text, actor=OPERATOR_ACTOR, path=SEED_PATH
                )
                chunks.append(current)
    out.chunks = chunks
    say(
        f"chunks: {len(chunks)} (hot, pending, confirmed, rejected, expired, superseded, deleted)"
        + (f"; {duplicates} facts already known, skipped" if duplicates else "")
    )

    for name, description, content in SKILLS:
        if not Skill.objects.filter(name=name).exists():
            skill_create(name=name, description=description, content=content)
            out.skills += 1
    say(f"skills: {out.skills}")

    # Each summarized session asks something again: the projection delivers and logs it.
    for spec in SESSIONS:
        session = sessions[spec["key"]]
        for user, _assistant in spec["turns"]:
            _context, log = deliver_projected_context(session=session, query=user)
            out.injections += 1 if log is not None else 0
    say(f"injections: {out.injections}")
    return out


def handle(command: Any, options: dict[str, Any]) -> None:
    quiet = options.get("no_progress")

    def say(message: str) -> None:
        if not quiet:
            command.stderr.write(f"seed-demo: {message}")

    result = seed_demo(force=options["force"], say=say)
    if result is None:
        command.stderr.write(
            f"seed-demo: demo data is already here (agent {ASSISTANT}); nothing added. "
            "Use --force to add another round."
        )
        return
    command.stdout.write(
        f"seeded round {result.round}: {len(result.sessions)} sessions, {len(result.chunks)} chunks, "
        f"{result.skills} skills, {result.injections} injections. Open /admin/ to review."
    )
