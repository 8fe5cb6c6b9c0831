"""gunicorn config for `bench.load --profile DIR`: the repository's settings plus cProfile in each
worker, from app loaded to exit (gunicorn's own accept / parse / write included), one file per worker.

CPU time, not wall: a worker waiting for a core on a shared machine is not charged for it.
"""

from __future__ import annotations

import cProfile
import os
import runpy
import time
from pathlib import Path
from typing import Any

globals().update(
    {
        k: v
        for k, v in runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py")).items()
        if not k.startswith("__")
    }
)

_profiler: cProfile.Profile | None = None


def post_worker_init(worker: Any) -> None:
    global _profiler
    _profiler = cProfile.Profile(time.process_time)
    _profiler.enable()


def worker_exit(server: Any, worker: Any) -> None:
    if _profiler is not None:
        _profiler.disable()
        _profiler.dump_stats(str(Path(os.environ["BENCH_PROFILE_DIR"]) / f"worker-{os.getpid()}.prof"))
