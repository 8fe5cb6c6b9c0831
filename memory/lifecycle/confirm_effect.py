"""What confirming a row will do, said before the operator does it.

An always-on row written by an agent or a document enters every turn of every agent that can
read it once confirmed, so that verdict takes a second, explicit step showing who and how much
of the hot-memory budget it takes. Confirming a proposed revision supersedes the row it names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memory.lifecycle.scope import readable_ids
from memory.lifecycle.selectors import HOT_MAX_CHARS, hot_entries, resolve_namespaces
from memory.store.models import Chunk, DeliveryPolicy, ReviewState
from memory.store.trust import TrustTier, trust_tier
from protomem.config import get_config

MAX_READERS = 100  # agents examined (and named) per effect; the rest are counted


@dataclass(frozen=True)
class AlwaysOnEffect:
    agents: tuple[str, ...]  # active agents whose every turn it would enter
    used_chars: int  # hot-memory chars used with it, the fullest of those agents' sets
    budget: int = HOT_MAX_CHARS
    shed_for: tuple[str, ...] = ()  # agents whose budget it does not fit (it would not enter)
    more_agents: int = 0

    @property
    def text(self) -> str:
        if not self.agents and not self.shed_for:
            return (
                "Enters every turn of no active agent today (none can read it); "
                "any agent that can read it later gets it on every turn."
            )
        parts = []
        if self.agents:
            names = ", ".join(self.agents) + (f" and {self.more_agents} more" if self.more_agents else "")
            parts.append(
                f"Enters every turn for agents {names}; {self.used_chars:,} of {self.budget:,} chars used"
            )
        if self.shed_for:
            parts.append(f"does not fit the hot-memory budget of {', '.join(self.shed_for)}")
        return "; ".join(parts) + "."


@dataclass(frozen=True)
class ConfirmEffect:
    needs_second_step: bool
    always_on: AlwaysOnEffect | None = None
    supersedes: Chunk | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)


def needs_second_step(chunk: Chunk) -> bool:
    """An unconfirmed, current always-on row written by an agent or a document."""
    return (
        chunk.delivery_policy == DeliveryPolicy.ALWAYS
        and chunk.invalidated_at is None
        and chunk.review_state != ReviewState.CONFIRMED
        and trust_tier(chunk.source_type) < TrustTier.OPERATOR
    )


def _agent_model() -> type:
    # The agents are sessions_app's rows; memory reaches them only through Chunk.agent's model.
    return Chunk._meta.get_field("agent").related_model


def always_on_effect(chunk: Chunk) -> AlwaysOnEffect:
    """Which active agents would get `chunk` on every turn, and the budget used with it."""
    if trust_tier(chunk.source_type) < get_config().knowledge.inject_min_trust:
        return AlwaysOnEffect(agents=(), used_chars=0)
    agents = _agent_model().objects.filter(is_active=True).order_by("name")
    entering: list[str] = []
    shed: list[str] = []
    fullest = 0
    examined = 0
    for agent in agents[: MAX_READERS + 1]:
        examined += 1
        if examined > MAX_READERS:
            break
        # the projection's own rule for which namespaces may auto-inject into this agent's turns
        namespaces = resolve_namespaces(get_config().knowledge.inject_namespaces, agent.namespace)
        if namespaces is not None and chunk.namespace not in namespaces:
            continue
        if not readable_ids([chunk.pk], agent=agent):
            continue
        current = [e for e in hot_entries(namespaces=namespaces, agent=agent) if e.pk != chunk.pk]
        used = sum(len(e.content) for e in current) + len(chunk.content)
        if used > HOT_MAX_CHARS:
            shed.append(agent.name)
            continue
        entering.append(agent.name)
        fullest = max(fullest, used)
    more = max(agents.count() - MAX_READERS, 0) if examined > MAX_READERS else 0
    return AlwaysOnEffect(agents=tuple(entering), used_chars=fullest, shed_for=tuple(shed), more_agents=more)


def confirm_effect(chunk: Chunk) -> ConfirmEffect:
    """What confirming `chunk` does beyond setting its state."""
    supersedes = None
    if chunk.proposes_id is not None and chunk.review_state != ReviewState.CONFIRMED:
        supersedes = Chunk.objects.filter(pk=chunk.proposes_id, invalidated_at__isnull=True).first()
    if not needs_second_step(chunk):
        return ConfirmEffect(needs_second_step=False, supersedes=supersedes)
    return ConfirmEffect(needs_second_step=True, always_on=always_on_effect(chunk), supersedes=supersedes)


def agent_names(ids: list[int]) -> dict[int, str]:
    """Agent id -> name for the console's labels (one query)."""
    if not ids:
        return {}
    return dict(_agent_model().objects.filter(pk__in=ids).values_list("pk", "name"))
