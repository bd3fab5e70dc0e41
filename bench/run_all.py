"""Run every bench script in turn (make bench). Each also runs on its own.

Each script's time (wall and CPU, its children included) is printed after it and summed at
the end, with the scripts that failed; the exit status is non-zero if any failed. Scripts
that report results (bench.support.report) leave them in .bench/results/; `python
bench/docs_table.py --update` puts them into docs/benchmarks.md."""
from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    failed, times = [], []
    started = time.monotonic()
    # local_*_bench.py (embedded endpoint at scale, soak) are among them: each takes minutes.
    for script in sorted(HERE.glob("*_bench.py")):
        print(f"\n=== {script.name} ===", flush=True)
        wall, cpu = time.monotonic(), _children_cpu()
        if subprocess.run([sys.executable, str(script)], cwd=HERE).returncode:
            failed.append(script.name)
        wall, cpu = time.monotonic() - wall, _children_cpu() - cpu
        times.append((script.name, wall, cpu))
        print(f"--- {script.name}: {wall:.0f} s wall, {cpu:.0f} s CPU", flush=True)
    print(f"\n=== {len(times)} scripts in {time.monotonic() - started:.0f} s wall, "
          f"{sum(cpu for _, _, cpu in times):.0f} s CPU; failed: {', '.join(failed) or 'none'}")
    sys.exit(1 if failed else 0)
