"""Write inspection cost per write: memory.lifecycle.inspection.inspect_write, pure, no database.

    .venv/bin/python -m bench.inspection                 # 20 passes over the corpus, 5,000 typical rows
    .venv/bin/python -m bench.inspection --passes 5 --typical 1000

Times, interleaved per row and in the same run:

  inspect     inspect_write(...) on the row, as the write service will call it
  lower       str.lower() of the same text: a floor for "touching every character once in C"

over (a) every row of the poisoning corpus (memory/evals/poisoning/, rows from 30 chars to
25,000), (b) the corpus rows of at most 1,500 chars (the document-chunk limit; what agents
store), and (c) a typical 300-char memory row. Prints p50 and p99 in microseconds and the
inspect/lower ratio of each; then, paired in the same run, the p50 with and without the
classifier layer (memory.lifecycle.inspection_classifier), and the mean per row of the rows
<= 1,500 chars one by one against inspect_writes on all of them at once (the bulk path). No
assertions: the issue's bar is "well under 1 ms for a typical row".
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

from bench.common import percentile
from memory.evals.poisoning_score import CorpusRow, inspect_row, load_corpus
from memory.lifecycle.inspection import WriteToInspect, inspect_writes

TYPICAL_ROW = (
    "Deploys to production go through the release workflow: the on-call engineer cuts the tag on "
    "Wednesday morning, the QA team signs off in the release ticket, and the rollout runs region by "
    "region with a 30-minute soak. Rollbacks redeploy the previous image; note them in the incident doc."
)[:300]


def _time_us(fn: Callable[[], object]) -> float:
    start = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - start) / 1000


def measure(rows: Sequence[CorpusRow], passes: int) -> tuple[list[float], list[float]]:
    """(inspect samples, lower samples) in µs, one of each per row per pass, interleaved."""
    inspect_us: list[float] = []
    lower_us: list[float] = []
    for _ in range(passes):
        for row in rows:
            inspect_us.append(_time_us(lambda row=row: inspect_row(row)))
            lower_us.append(_time_us(row.content.lower))
    return inspect_us, lower_us


def report(label: str, inspect_us: Sequence[float], lower_us: Sequence[float]) -> None:
    p50, p99 = percentile(inspect_us, 50), percentile(inspect_us, 99)
    base50, base99 = percentile(lower_us, 50), percentile(lower_us, 99)
    print(
        f"  {label:<28} inspect p50 {p50:8.1f} µs  p99 {p99:8.1f} µs   "
        f"lower p50 {base50:6.2f} µs  p99 {base99:6.2f} µs   "
        f"ratio p50 {p50 / base50:7.0f}x  p99 {p99 / base99:7.0f}x   (n={len(inspect_us)})"
    )


def classifier_share(rows: Sequence[CorpusRow], passes: int) -> tuple[float, float]:
    """(p50 with the classifier layer, p50 without it) in µs, interleaved per row in one run."""
    on: list[float] = []
    off: list[float] = []
    for _ in range(passes):
        for row in rows:
            on.append(_time_us(lambda row=row: inspect_row(row)))
            off.append(_time_us(lambda row=row: inspect_row(row, classifier=False)))
    return percentile(on, 50), percentile(off, 50)


def batch_share(rows: Sequence[CorpusRow], passes: int) -> tuple[float, float]:
    """(mean CPU µs per row one by one, the same through inspect_writes), alternated per pass."""
    writes = [
        WriteToInspect(
            content=r.content, heading=r.heading, domain=r.domain, delivery_policy=r.delivery_policy,
            source_type=r.source_type, typical_length=r.typical_length,
            copies_from_sessions=r.copies_from_sessions,
        )
        for r in rows
    ]  # fmt: skip
    alone = batched = 0.0
    for _ in range(passes):  # CPU time: whole passes on a shared machine would count its preemptions
        start = time.process_time()
        [inspect_row(row) for row in rows]
        alone += time.process_time() - start
        start = time.process_time()
        inspect_writes(writes)
        batched += time.process_time() - start
    n = passes * len(rows)
    return alone / n * 1e6, batched / n * 1e6


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passes", type=int, default=20, help="passes over the corpus")
    parser.add_argument("--typical", type=int, default=5000, help="timed calls on the typical row")
    args = parser.parse_args(argv)

    corpus = load_corpus()
    short = [row for row in corpus if len(row.content) <= 1500]
    typical = CorpusRow(id="typical", cls="bench", content=TYPICAL_ROW, split="tune", attack=False)
    measure(corpus, 1)  # warm-up: pattern compilation, caches

    print(f"inspect_write cost per write ({len(TYPICAL_ROW)}-char typical row; corpus {len(corpus)} rows)")
    report("corpus, all rows", *measure(corpus, args.passes))
    report("corpus, rows <= 1,500 chars", *measure(short, args.passes))
    report("typical 300-char row", *measure([typical], args.typical))
    paired = (("typical row", [typical], args.typical), ("corpus <= 1,500", short, args.passes))
    for label, rows, passes in paired:
        on, off = classifier_share(rows, passes)
        print(f"  {label}: p50 with the classifier layer {on:.1f} µs, without {off:.1f} µs: {on / off:.2f}x")
    alone, batched = batch_share(short, args.passes)
    print(
        f"  corpus <= 1,500, mean CPU per row: inspect_write one by one {alone:.1f} µs, "
        f"inspect_writes on all at once (add_chunks' path) {batched:.1f} µs: {alone / batched:.2f}x"
    )
    held = inspect_row(typical)
    print(f"  (typical row: hold={held.hold}, risk={held.risk}, reasons={[r.code for r in held.reasons]})")


if __name__ == "__main__":
    main()
