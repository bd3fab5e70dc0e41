"""Run every bench script in turn (make bench). Each also runs on its own.

Each script's time (wall and CPU, its children included) is printed after it and summed at
the end, with the scripts that failed; the exit status is non-zero if any failed. Scripts
that report results (bench.support.report) leave them in .bench/results/; `python
bench/docs_table.py --update` puts them into docs/benchmarks.md.

`make bench` (no flag) runs the benches that take minutes at a smaller size, QUICK below, so
the whole run stays within ~10 minutes on 2 cores; each says the size it ran at. The CPU total
is the fair figure on a shared machine: idle, a single-threaded script takes about its CPU
time. `--full`
runs every script at its own default, the size docs/benchmarks.md's rows name."""
from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# script -> its arguments under `make bench`: the sizes whose figures docs/benchmarks.md says
# come from `--full` (or the script on its own). Time figures are per operation, so they move
# little with size; call counts per item include fixed costs spread over fewer items.
QUICK = {
    "cold_start_bench.py": ["9"],  # runs (25): a median of paired ratios either way
    "foundation_bench.py": ["3"],  # fresh interpreters per handler (7): a median
    "import_bench.py": ["2000"],  # rows (10,000)
    "insight_bench.py": ["1000"],  # expenses in the group (5,000): 2 Query pages of 500
    "local_scale_bench.py": ["1000"],  # expenses in the big group, 3x that as filler (5,000)
    "local_soak_bench.py": ["500"],  # requests (3,000)
    "outbox_sweep_bench.py": ["100"],  # events (200): calls and CPU per event
    "receipt_ingest_bench.py": ["3"],  # rounds per median (5)
    "recurring_bench.py": ["250"],  # due templates (1,000): it prints the calls at 1,000 too
    "reply_bench.py": ["10"],  # repeats per median (30)
}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    full = "--full" in sys.argv[1:]
    failed, times = [], []
    started = time.monotonic()
    # local_*_bench.py (embedded endpoint at scale, soak) are among them: each takes minutes.
    for script in sorted(HERE.glob("*_bench.py")):
        args = [] if full else QUICK.get(script.name, [])
        print(f"\n=== {script.name} {' '.join(args)} ===", flush=True)
        wall, cpu = time.monotonic(), _children_cpu()
        if subprocess.run([sys.executable, str(script), *args], cwd=HERE).returncode:
            failed.append(script.name)
        wall, cpu = time.monotonic() - wall, _children_cpu() - cpu
        times.append((script.name, wall, cpu))
        print(f"--- {script.name}: {wall:.0f} s wall, {cpu:.0f} s CPU", flush=True)
    print(f"\n=== {len(times)} scripts in {time.monotonic() - started:.0f} s wall, "
          f"{sum(cpu for _, _, cpu in times):.0f} s CPU; failed: {', '.join(failed) or 'none'}")
    sys.exit(1 if failed else 0)
