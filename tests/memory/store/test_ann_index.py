"""memory.store.ann_index: the shared usearch file on SQLite, its delta, swaps and exact filters."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone

from memory.lifecycle.scope import readable_by
from memory.store import ann_index, vectors
from memory.store.deliverable import deliverable
from memory.store.models import Chunk
from memory.store.vectors import nearest_ids, vectors_delete, vectors_store
from tests.factories import AgentFactory, ChunkFactory
from tests.memory.store.vector_stub import clean_embedding_state  # noqa: F401 - fixture

pytestmark = [pytest.mark.sqlite_only, pytest.mark.usefixtures("clean_embedding_state", "clean_ann")]

M = "ann-test-model"
DIM = 16
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def clean_ann(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No index files or mapped bases shared between tests; writers never build on their own.
    Builds run on one thread: usearch's multi-threaded insert order varies from run to run, so
    the same rows gave top-10 agreement 0.975-1.0 on a loaded CI machine; one thread gives the
    same graph every run."""
    monkeypatch.setattr(ann_index, "AUTO_BUILD", False)
    monkeypatch.setattr(ann_index, "build", functools.partial(ann_index.build, threads=1))

    def wipe() -> None:
        ann_index.reset_cache()
        directory = ann_index.index_dir()
        if directory is not None:
            shutil.rmtree(directory, ignore_errors=True)

    wipe()
    yield
    wipe()


def set_threshold(settings: Any, rows: int) -> None:
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg, knowledge=dataclasses.replace(cfg.knowledge, vector_ann_min_rows=rows)
    )


def clustered(n: int, *, seed: int, dim: int = DIM, centres: int = 8) -> np.ndarray:
    rng = np.random.default_rng(seed)
    middle = rng.standard_normal((centres, dim)).astype(np.float32)
    rows = middle[rng.integers(0, centres, n)] + 0.4 * rng.standard_normal((n, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def near(vector: np.ndarray, *, seed: int, noise: float = 0.02) -> np.ndarray:
    out = vector + noise * np.random.default_rng(seed).standard_normal(len(vector)).astype(np.float32)
    return out / np.linalg.norm(out)


def store(rows: np.ndarray, **fields: Any) -> list[Chunk]:
    chunks = [ChunkFactory(**fields) for _ in range(len(rows))]
    vectors_store(zip((c.pk for c in chunks), rows, strict=True), model=M)
    return chunks


def no_full_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact path's in-process matrix must not be built while the ANN path answers."""

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("the ANN path loaded every vector")

    monkeypatch.setattr(vectors, "snapshot", refuse)


def exact(settings: Any, fn: Any) -> Any:
    """What the exact path (threshold off) answers."""
    saved = settings.PROTOMEM
    set_threshold(settings, 0)
    try:
        return fn()
    finally:
        settings.PROTOMEM = saved


def test_ann_results_equal_exact_search_on_a_small_store(
    db: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = clustered(400, seed=1)
    chunks = store(rows, namespace="main")
    set_threshold(settings, 100)
    report = ann_index.build(M)
    assert report is not None
    assert report.vectors == 400
    assert report.dim == DIM
    queries = [near(rows[i], seed=i, noise=0.3) for i in range(0, 400, 20)]
    everything = Chunk.objects.filter(namespace="main")
    want = [exact(settings, lambda q=q: nearest_ids(q, k=10, model=M)) for q in queries]
    want_rows = [
        exact(settings, lambda q=q: nearest_ids(q, k=10, model=M, queryset=everything)) for q in queries
    ]

    no_full_load(monkeypatch)
    got = [nearest_ids(q, k=10, model=M) for q in queries]
    got_rows = [nearest_ids(q, k=10, model=M, queryset=everything) for q in queries]

    # HNSW is approximate: the bar is the agreement (>= 0.98 of the exact top 10), never a
    # row outside the store, closest first.
    assert agreement(got, want) >= 0.98
    assert agreement(got_rows, want_rows) >= 0.98
    ids = {c.pk for c in chunks}
    assert all(len(found) == 10 and set(found) <= ids for found in got + got_rows)
    assert sum(found[0] == best[0] for found, best in zip(got, want, strict=True)) >= len(want) - 1
    assert ann_index.check(M) == []


def agreement(got: list[list[int]], want: list[list[int]]) -> float:
    return sum(len(set(g) & set(w)) for g, w in zip(got, want, strict=True)) / sum(len(w) for w in want)


def test_a_quantized_base_returns_rows_in_exact_cosine_order(db: Any, settings: Any) -> None:
    """The int8 base only proposes: its hits are rescored from the table's float32 vectors."""
    rows = clustered(400, seed=21)
    chunks = store(rows)
    by_pk = {c.pk: rows[i] for i, c in enumerate(chunks)}
    set_threshold(settings, 100)
    ann_index.build(M)
    base = ann_index.active_base(M)
    assert base is not None
    assert base.meta["dtype"] == "i8"
    for i in range(0, 400, 40):
        query = near(rows[i], seed=100 + i, noise=0.5)
        found = nearest_ids(query, k=10, model=M, queryset=Chunk.objects.all())
        scores = [float(by_pk[pk] @ query) for pk in found]
        assert scores == sorted(scores, reverse=True)


def test_a_float32_base_written_before_int8_is_still_read(
    db: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = clustered(200, seed=22)
    chunks = store(rows)
    set_threshold(settings, 100)
    monkeypatch.setattr(ann_index, "DTYPE", "f32")
    ann_index.build(M)
    monkeypatch.setattr(ann_index, "DTYPE", "i8")
    ann_index.reset_cache()  # a process started after the upgrade maps the old file
    base = ann_index.active_base(M)
    assert base is not None
    assert base.meta["dtype"] == "f32"
    assert nearest_ids(rows[7], k=1, model=M) == [chunks[7].pk]
    assert ann_index.check(M) == []


def test_below_the_threshold_the_exact_path_answers(db: Any, settings: Any) -> None:
    store(clustered(50, seed=2))
    set_threshold(settings, 100)
    ann_index.build(M)  # a base of 50 rows: under the threshold, so not used
    assert ann_index.active_base(M) is None
    set_threshold(settings, 50)
    assert ann_index.active_base(M) is not None


def test_prepare_hybrid_maps_the_base_before_any_search_without_a_query(
    db: Any, settings: Any, django_assert_num_queries: Any
) -> None:
    from memory.retrieval.retrieve import prepare_hybrid

    store(clustered(50, seed=3))
    set_threshold(settings, 10)
    ann_index.build(M)
    cfg = settings.PROTOMEM
    off = dataclasses.replace(cfg.knowledge, embeddings=False, embed_model=M)
    settings.PROTOMEM = dataclasses.replace(cfg, knowledge=off)
    ann_index.reset_cache()
    prepare_hybrid()
    assert ann_index._bases == {}  # embeddings off: nothing loaded

    settings.PROTOMEM = dataclasses.replace(cfg, knowledge=dataclasses.replace(off, embeddings=True))
    with django_assert_num_queries(0):
        prepare_hybrid()
    assert [key[1] for key in ann_index._bases] == [M]


@pytest.mark.parametrize("path", ["pinned-few-rows", "over-fetch", "exact-fallback"])
def test_filtered_search_is_exact_when_the_near_rows_may_not_be_returned(
    db: Any, settings: Any, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """The only near neighbours are held, expired, another agent's, or in another namespace."""
    me, other = AgentFactory(), AgentFactory()
    query = clustered(1, seed=3)[0]
    past = timezone.now() - timedelta(days=1)
    forbidden = [
        *store(
            np.stack([near(query, seed=10)]), namespace="ns", review_state="pending", held_reasons="secret"
        ),
        *store(np.stack([near(query, seed=11)]), namespace="ns", review_state="confirmed", expires_at=past),
        *store(np.stack([near(query, seed=12)]), namespace="ns", review_state="confirmed", agent=other),
        *store(np.stack([near(query, seed=20 + i, noise=0.1) for i in range(150)]), namespace="elsewhere"),
    ]
    allowed = store(clustered(6, seed=4), namespace="ns", review_state="confirmed")
    store(clustered(200, seed=5), namespace="elsewhere", review_state="confirmed")
    mine = store(clustered(2, seed=6), namespace="ns", review_state="confirmed", agent=me)
    set_threshold(settings, 10)
    assert ann_index.build(M) is not None
    if path != "pinned-few-rows":
        monkeypatch.setattr(ann_index, "SMALL_FILTER_ROWS", 0)
    if path == "exact-fallback":
        monkeypatch.setattr(ann_index, "OVERFETCH", (1, 2))
    queryset = deliverable(readable_by(Chunk.objects.filter(namespace="ns"), agent=me, scope="scoped"))
    want = exact(settings, lambda: nearest_ids(query, k=5, model=M, queryset=queryset))

    no_full_load(monkeypatch)
    got = nearest_ids(query, k=5, model=M, queryset=queryset)

    # exact about what may be returned; the ranking itself is approximate (a build is not deterministic)
    assert len(got) == 5
    assert len(set(got) & set(want)) >= 4
    assert set(got) <= {c.pk for c in [*allowed, *mine]}
    assert not set(got) & {c.pk for c in forbidden}
    # with no filter, the forbidden rows are the nearest: the index does hold them
    assert set(nearest_ids(query, k=3, model=M)) <= {c.pk for c in forbidden[:3]}


def test_writes_after_the_build_are_searched_exactly_in_the_delta(
    db: Any, settings: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    rows = clustered(300, seed=7)
    chunks = store(rows)
    set_threshold(settings, 100)
    ann_index.build(M)
    no_full_load(monkeypatch)
    target = clustered(1, seed=8, centres=1)[0]

    (fresh,) = store(np.stack([target]))  # a new row after the build
    assert nearest_ids(target, k=1, model=M) == [fresh.pk]

    moved = chunks[5]  # a base row rewritten to sit on the query
    with django_capture_on_commit_callbacks(execute=True):  # logged as changed once committed
        vectors_store([(moved.pk, near(target, seed=1, noise=0.001))], model=M)
    assert set(nearest_ids(target, k=2, model=M)) == {fresh.pk, moved.pk}
    old_place = rows[5]
    assert moved.pk not in nearest_ids(old_place, k=3, model=M)  # its base vector is stale

    with django_capture_on_commit_callbacks(execute=True):
        vectors_delete([fresh.pk, moved.pk])
    found = nearest_ids(target, k=2, model=M)
    assert fresh.pk not in found
    assert moved.pk not in found
    assert len(found) == 2


def test_rebuild_due_at_the_threshold_and_when_the_delta_grows(
    db: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_threshold(settings, 100)
    store(clustered(99, seed=9))
    assert not ann_index.rebuild_due(M)
    store(clustered(1, seed=10))
    assert ann_index.rebuild_due(M)
    ann_index.build(M)
    assert not ann_index.rebuild_due(M)
    monkeypatch.setattr(ann_index, "REBUILD_DELTA_MIN", 5)
    store(clustered(5, seed=11))
    assert ann_index.rebuild_due(M)


READER = """
import json, os, sys
import django
django.setup()
from memory.store import ann_index
for line in sys.stdin:
    query = json.loads(line)
    base = ann_index.current_base(os.environ["ANN_MODEL"])
    import numpy as np
    found = ann_index.nearest_ids(np.asarray(query, dtype=np.float32), k=1, model=os.environ["ANN_MODEL"])
    print(json.dumps({"file": base.meta["file"] if base else None, "found": found}), flush=True)
"""


@pytest.mark.django_db(transaction=True)
def test_another_process_maps_the_base_and_sees_the_swapped_file(settings: Any, tmp_path: Path) -> None:
    store(clustered(200, seed=12))
    set_threshold(settings, 100)
    first = ann_index.build(M)
    assert first is not None
    db_file = str(connection.settings_dict["NAME"])
    config = tmp_path / "protomem.yaml"
    config.write_text(json.dumps({"knowledge": {"db_path": db_file, "vector_ann_min_rows": 100}}))
    env = {
        **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        "DJANGO_SETTINGS_MODULE": "protomem.settings",
        "PROTOMEM_CONFIG": str(config),
        "PROTOMEM_INSTANCE_DIR": str(tmp_path),
        "ANN_MODEL": M,
    }
    reader = subprocess.Popen(  # noqa: S603 - our own interpreter and script
        [sys.executable, "-c", READER],
        cwd=REPO,
        env=env,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        target = clustered(1, seed=13, centres=1)[0]

        def ask() -> dict[str, Any]:
            assert reader.stdin is not None
            assert reader.stdout is not None
            reader.stdin.write(json.dumps(target.tolist()) + "\n")
            reader.stdin.flush()
            line = reader.stdout.readline()
            assert line, reader.stderr.read() if reader.stderr else ""
            return json.loads(line)

        before = ask()
        assert before["file"] == first.file
        (fresh,) = store(np.stack([target]))
        assert ask() == {"file": first.file, "found": [fresh.pk]}  # from the delta

        second = ann_index.build(M)
        assert second is not None
        assert second.file != first.file
        assert second.vectors == 201
        assert not (ann_index.index_dir() / first.file).exists()  # type: ignore[operator]
        assert ask() == {"file": second.file, "found": [fresh.pk]}  # now from the new base
    finally:
        if reader.stdin is not None:
            reader.stdin.close()
        reader.wait(timeout=60)
    assert reader.returncode == 0


def test_off_sqlite_files_or_with_the_threshold_off_nothing_is_built(db: Any, settings: Any) -> None:
    store(clustered(20, seed=14))
    set_threshold(settings, 0)
    assert not ann_index.rebuild_due(M)
    assert ann_index.index_dir() == Path(f"{connection.settings_dict['NAME']}.ann")
    assert django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")


@pytest.mark.django_db(transaction=True)
def test_the_writer_builds_the_base_in_the_background_once_the_store_reaches_the_threshold(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    monkeypatch.setattr(ann_index, "AUTO_BUILD", True)
    set_threshold(settings, 50)
    store(clustered(49, seed=15))
    assert ann_index.current_base(M) is None
    assert not [t for t in threading.enumerate() if t.name == f"ann-build-{M}"]

    (last,) = store(clustered(1, seed=16))  # committed (autocommit): the writer's hook runs now
    for thread in [t for t in threading.enumerate() if t.name == f"ann-build-{M}"]:
        thread.join(timeout=120)

    base = ann_index.current_base(M)
    assert base is not None
    assert base.meta["count"] == 50
    assert ann_index.nearest_ids(clustered(1, seed=16)[0], k=1, model=M) == [last.pk]


def test_onnxruntime_still_loads_after_the_ann_index_is_opened(tmp_path: Path) -> None:
    """Importing onnxruntime after usearch's library crashed the process (SIGSEGV): a worker
    that opened the ANN file, then embedded a query or built the int8 scan, died."""
    code = (
        "import django; django.setup(); from memory.store import ann_index; "
        "ann_index._new_index(4, 'f32'); import onnxruntime; print(onnxruntime.get_device())"
    )
    env = {
        **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        "DJANGO_SETTINGS_MODULE": "protomem.settings",
        "PROTOMEM_INSTANCE_DIR": str(tmp_path),
    }
    done = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("CPU")


def _mapped_rss_kb(path: Path) -> int:
    """Resident kB of this process's mappings of `path` (/proc/self/smaps)."""
    target, total, inside = os.path.realpath(path), 0, False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            head = line.split()
            if head and "-" in head[0] and not head[0].endswith(":"):
                inside = line.rstrip().endswith(target)
            elif inside and head[0] == "Rss:":
                total += int(head[1])
    return total


def test_searches_release_the_mapped_pages_past_the_budget(
    db: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the resident budget a worker does not keep the pages of the shared file it touched:
    they are dropped from its page tables (they stay in the page cache), and answers are
    unchanged. Under it (the default budget is larger than this small file) they stay mapped, and
    the process never even looks its mappings up."""
    rows = clustered(3000, seed=31, dim=64)
    chunks = [ChunkFactory() for _ in range(len(rows))]
    vectors_store(zip((c.pk for c in chunks), rows, strict=True), model=M)
    set_threshold(settings, 100)
    ann_index.build(M)
    base = ann_index.active_base(M)
    assert base is not None
    path = ann_index.index_dir() / base.meta["file"]  # type: ignore[operator]
    assert os.path.getsize(path) < ann_index.DEFAULT_RESIDENT_BUDGET
    queries = [near(rows[i], seed=i, noise=0.3) for i in range(0, 3000, 150)]
    kept = [nearest_ids(q, k=10, model=M) for q in queries]  # under the default budget: nothing released
    assert _mapped_rss_kb(path) > 0
    assert base.mapped is None, "/proc/self/maps was read with no release due"

    settings.PROTOMEM_ANN_RESIDENT_BUDGET = 0
    released = [nearest_ids(q, k=10, model=M) for q in queries]
    assert released == kept
    assert base.mapped, "the base's mapping was not found in /proc/self/maps"
    assert _mapped_rss_kb(path) == 0


def test_the_resident_budget_has_a_default_a_setting_and_an_off_switch(settings: Any) -> None:
    """No setting: the default (releases only on files larger than it); a setting in bytes wins;
    None turns releases off; the module override (benches) wins over both."""
    assert not hasattr(django_settings, ann_index.RESIDENT_BUDGET_SETTING)
    assert ann_index.resident_budget() == ann_index.DEFAULT_RESIDENT_BUDGET
    settings.PROTOMEM_ANN_RESIDENT_BUDGET = 5 * 2**20
    assert ann_index.resident_budget() == 5 * 2**20
    settings.PROTOMEM_ANN_RESIDENT_BUDGET = None
    assert ann_index.resident_budget() is None
    ann_index.RESIDENT_BUDGET = 7
    try:
        assert ann_index.resident_budget() == 7
    finally:
        ann_index.RESIDENT_BUDGET = None


def test_the_search_view_has_no_key_table_and_writers_use_a_keyed_one(db: Any, settings: Any) -> None:
    """A searching process maps the file without usearch's key -> slot table (building it walks
    every node); contains() on such a view answers False, so the writer's changed log and check()
    go through Base.keyed(), which does answer."""
    rows = clustered(400, seed=5)
    chunks = store(rows)
    set_threshold(settings, 100)
    ann_index.build(M)
    base = ann_index.active_base(M)
    assert base is not None
    keys = np.asarray([chunks[0].pk], dtype=np.uint64)
    assert not np.asarray(base.index.contains(keys)).any()
    assert np.asarray(base.keyed().contains(keys)).all()
    assert ann_index.check(M) == []
