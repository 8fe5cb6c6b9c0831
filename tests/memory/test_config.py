"""protomem.config: the knowledge:/context: file, its defaults, and the environment knobs."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from protomem.config import (
    ContextConfig,
    KnowledgeConfig,
    ProtomemConfig,
    load_config,
    parse_config,
)

REPO = Path(__file__).resolve().parents[2]


def parse(raw, *, env=None, instance_dir=Path("/srv/pm")):
    return parse_config(raw, instance_dir=instance_dir, env=env or {})


def test_every_knowledge_key_has_the_spec_default():
    # given no config file at all
    cfg = parse(None)
    # then every knowledge: key carries the spec's default (db_path is instance-scoped)
    assert dataclasses.asdict(cfg.knowledge) == {
        "db_path": "/srv/pm/knowledge/agent.db",
        "embeddings": True,  # issue 28: semantic recall on by default, in-process
        "embed_model": "local:all-minilm-l6-v2",
        "query_precision": "fp32",  # not in the spec: how a local model embeds search queries
        "facts": True,
        "top_k": 5,
        "inject_namespaces": (),
        "inject_min_trust": 1,
        "hot_write_confirm": False,
        "scope": "scoped",
        "hold": "risky",  # not in the spec: a row that could steer the model waits for a reviewer
        "vector_ann_min_rows": 50_000,  # issue 31: SQLite's shared ANN file from this many vectors
        "reserved_source_prefixes": ("user:", "admin", "operator", "console"),
    }
    assert [f.name for f in dataclasses.fields(KnowledgeConfig)] == list(dataclasses.asdict(cfg.knowledge))


def test_every_other_block_has_its_default():
    cfg = parse({})
    assert dataclasses.asdict(cfg.context) == {"budget_pct": 8.0, "prior_sessions": "newest"}
    assert dataclasses.asdict(cfg.memory) == {"max_sessions": 10, "max_tokens": 2000, "retire_after_days": 30}
    assert cfg.middleware.knowledge is True
    assert dataclasses.asdict(cfg.gateway) == {
        "base_url": "",
        "api_key": "",
        "aux_model": "",
        "timeout_s": 30.0,
    }
    assert (cfg.default_model, cfg.models) == ("", {})
    assert cfg.disable_memory is False
    assert cfg.memory_path == "/srv/pm/memory"
    assert cfg.injection_log_path == "/srv/pm/memory-injections.db"
    assert [f.name for f in dataclasses.fields(ContextConfig)] == ["budget_pct", "prior_sessions"]


def test_every_key_can_be_set():
    raw = {
        "knowledge": {
            "db_path": "/data/kb.db",
            "embeddings": True,
            "embed_model": "nomic-embed-text",
            "query_precision": "fp32",
            "facts": False,
            "top_k": 12,
            "inject_namespaces": ["proj-a", ""],
            "inject_min_trust": 3,
            "hot_write_confirm": True,
            "scope": "layered",
            "hold": "all_pending",
            "vector_ann_min_rows": 0,
            "reserved_source_prefixes": ["user:", "ops:"],
        },
        "context": {"budget_pct": 2.5, "prior_sessions": "relevant"},
        "memory": {"max_sessions": 3, "max_tokens": 500, "retire_after_days": 7},
        "middleware": {"knowledge": False},
        "gateway": {"base_url": "http://gw", "api_key": "k", "aux_model": "small", "timeout_s": 5},
        "default_model": "big",
        "models": {"big": {"context_window": 128000}, "small": {"context_window": 32000}},
    }
    cfg = parse(raw)
    assert dataclasses.asdict(cfg.knowledge) == {
        **raw["knowledge"],
        "inject_namespaces": ("proj-a", ""),
        "reserved_source_prefixes": ("user:", "ops:"),
    }
    assert (cfg.context.budget_pct, cfg.context.prior_sessions) == (2.5, "relevant")
    assert dataclasses.asdict(cfg.memory) == raw["memory"]
    assert cfg.middleware.knowledge is False
    assert dataclasses.asdict(cfg.gateway) == {**raw["gateway"], "timeout_s": 5.0}
    assert cfg.context_window("small") == 32000
    assert cfg.context_window("unknown-model") == 128000  # falls back to the default model's window
    assert cfg.context_window(None) == 128000


def test_negative_top_k_is_read_as_zero():
    assert parse({"knowledge": {"top_k": -3}}).knowledge.top_k == 0
    assert parse({"knowledge": {"top_k": 0}}).knowledge.top_k == 0


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"knowledge": {"inject_min_trust": 7}}, "config key knowledge.inject_min_trust: must be 1, 2 or 3"),
        ({"knowledge": {"inject_min_trust": 0}}, "config key knowledge.inject_min_trust: must be 1, 2 or 3"),
        ({"knowledge": {"topk": 5}}, "config key knowledge.topk: unknown key"),
        ({"knowlege": {"top_k": 5}}, "config key knowlege: unknown key"),
        ({"context": {"budget": 5}}, "config key context.budget: unknown key"),
        ({"knowledge": {"scope": "global"}}, "config key knowledge.scope: must be one of"),
        ({"knowledge": {"query_precision": "fp16"}}, "config key knowledge.query_precision: must be one of"),
        ({"knowledge": {"vector_ann_min_rows": -1}}, "config key knowledge.vector_ann_min_rows: must not be"),
        ({"context": {"prior_sessions": "all"}}, "config key context.prior_sessions: must be one of"),
        ({"context": {"budget_pct": 101}}, "config key context.budget_pct: must be between 0 and 100"),
        ({"context": {"budget_pct": -1}}, "config key context.budget_pct: must be between 0 and 100"),
        ({"knowledge": {"top_k": "five"}}, "config key knowledge.top_k: expected a whole number"),
        ({"knowledge": {"top_k": 2.5}}, "config key knowledge.top_k: expected a whole number"),
        ({"knowledge": {"top_k": True}}, "config key knowledge.top_k: expected a whole number"),
        ({"knowledge": {"embeddings": "yes"}}, "config key knowledge.embeddings: expected true/false"),
        (
            {"knowledge": {"inject_namespaces": "proj-a"}},
            "config key knowledge.inject_namespaces: expected a list",
        ),
        ({"knowledge": {"embed_model": 3}}, "config key knowledge.embed_model: expected a string"),
        ({"knowledge": ["top_k"]}, "config key knowledge: expected a mapping"),
        ({"memory": {"max_sessions": -1}}, "config key memory.max_sessions: must not be negative"),
        ({"models": {"big": {"window": 3}}}, "config key models.big: expected {context_window: N}"),
        ({"models": {"big": {"context_window": -3}}}, "config key models.big.context_window"),
        ({"models": ["big"]}, "config key models: expected a mapping"),
    ],
)
def test_bad_config_names_the_key(raw, message):
    with pytest.raises(ImproperlyConfigured) as excinfo:
        parse(raw)
    assert message in str(excinfo.value)


@pytest.mark.parametrize("value", ["1", "true", "yes", "TRUE", " Yes "])
def test_disable_memory_env_truthy(value):
    assert parse({}, env={"PROTOAGENT_DISABLE_MEMORY": value}).disable_memory is True


@pytest.mark.parametrize("value", ["", "0", "false", "no", "off", "maybe"])
def test_disable_memory_env_falsy(value):
    assert parse({}, env={"PROTOAGENT_DISABLE_MEMORY": value}).disable_memory is False


def test_memory_path_and_injection_log_env_override_the_instance_defaults():
    cfg = parse({}, env={"MEMORY_PATH": "/var/sessions", "PROTOAGENT_INJECTION_LOG": "/var/log/inj.db"})
    assert cfg.memory_path == "/var/sessions"
    assert cfg.injection_log_path == "/var/log/inj.db"


def test_empty_env_values_keep_the_defaults():
    cfg = parse({}, env={"MEMORY_PATH": "", "PROTOAGENT_INJECTION_LOG": ""})
    assert cfg.memory_path == "/srv/pm/memory"
    assert cfg.injection_log_path == "/srv/pm/memory-injections.db"


def test_gateway_env_overrides_the_file():
    env = {"PROTOMEM_GATEWAY_URL": "http://env", "PROTOMEM_GATEWAY_KEY": "ek", "PROTOMEM_AUX_MODEL": "m"}
    cfg = parse({"gateway": {"base_url": "http://file", "api_key": "fk"}}, env=env)
    assert (cfg.gateway.base_url, cfg.gateway.api_key, cfg.gateway.aux_model) == ("http://env", "ek", "m")


def test_load_config_reads_protomem_config(tmp_path):
    path = tmp_path / "custom.yaml"
    path.write_text("knowledge:\n  top_k: 3\n  inject_namespaces: ['']\ncontext:\n  budget_pct: 0\n")
    cfg = load_config(base_dir=tmp_path, instance_dir=tmp_path / "inst", env={"PROTOMEM_CONFIG": str(path)})
    assert (cfg.knowledge.top_k, cfg.knowledge.inject_namespaces, cfg.context.budget_pct) == (3, ("",), 0.0)
    assert cfg.knowledge.db_path == str(tmp_path / "inst" / "knowledge" / "agent.db")


def test_load_config_defaults_to_protomem_yaml_beside_manage_py(tmp_path):
    (tmp_path / "protomem.yaml").write_text("knowledge:\n  top_k: 7\n")
    cfg = load_config(base_dir=tmp_path, instance_dir=tmp_path, env={})
    assert cfg.knowledge.top_k == 7


def test_load_config_without_any_file_is_all_defaults(tmp_path):
    cfg = load_config(base_dir=tmp_path, instance_dir=tmp_path, env={})
    assert cfg == parse_config(None, instance_dir=tmp_path, env={})
    assert cfg.knowledge == KnowledgeConfig(db_path=str(tmp_path / "knowledge" / "agent.db"))


def test_an_empty_file_is_all_defaults(tmp_path):
    (tmp_path / "protomem.yaml").write_text("")
    assert load_config(base_dir=tmp_path, instance_dir=tmp_path, env={}).knowledge.top_k == 5


def test_missing_protomem_config_file_is_an_error(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="PROTOMEM_CONFIG names a missing file"):
        load_config(
            base_dir=tmp_path, instance_dir=tmp_path, env={"PROTOMEM_CONFIG": str(tmp_path / "no.yaml")}
        )


@pytest.mark.parametrize(
    ("text", "message"), [("knowledge: [", "not valid YAML"), ("- a\n- b\n", "a mapping")]
)
def test_unreadable_file_is_an_error(tmp_path, text, message):
    (tmp_path / "protomem.yaml").write_text(text)
    with pytest.raises(ImproperlyConfigured, match=message):
        load_config(base_dir=tmp_path, instance_dir=tmp_path, env={})


def test_config_is_frozen():
    cfg = parse({})
    assert isinstance(cfg, ProtomemConfig)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.knowledge.top_k = 9  # type: ignore[misc]


def test_get_config_follows_settings_overrides(settings):
    from protomem.config import get_config

    settings.PROTOMEM = dataclasses.replace(
        settings.PROTOMEM, knowledge=dataclasses.replace(settings.PROTOMEM.knowledge, top_k=2)
    )
    assert get_config().knowledge.top_k == 2


def run_manage(args, tmp_path, **env):
    full_env = {
        **os.environ,
        "PROTOMEM_INSTANCE_DIR": str(tmp_path / "instance"),
        "DJANGO_SETTINGS_MODULE": "protomem.settings",
        **env,
    }
    return subprocess.run(  # noqa: S603 - our own interpreter and manage.py
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_startup_refuses_a_bad_value_naming_the_key(tmp_path):
    # given a config file with an out-of-range trust floor
    path = tmp_path / "bad.yaml"
    path.write_text("knowledge:\n  inject_min_trust: 7\n")
    # when the project starts
    result = run_manage(["check"], tmp_path, PROTOMEM_CONFIG=str(path))
    # then it stops with an error naming the key
    assert result.returncode != 0
    assert "config key knowledge.inject_min_trust: must be 1, 2 or 3, got 7" in result.stderr


def test_startup_refuses_an_unknown_key(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text("knowledge:\n  inject_min_tust: 2\n")
    result = run_manage(["check"], tmp_path, PROTOMEM_CONFIG=str(path))
    assert result.returncode != 0
    assert "config key knowledge.inject_min_tust: unknown key" in result.stderr
