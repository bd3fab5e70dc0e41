"""Run every bench script in turn (make bench). Each also runs on its own."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    failed = 0
    # local_*_bench.py (embedded endpoint at scale, soak) are among them: each takes minutes.
    for script in sorted(HERE.glob("*_bench.py")):
        print(f"\n=== {script.name} ===", flush=True)
        failed |= subprocess.run([sys.executable, str(script)], cwd=HERE).returncode
    sys.exit(failed)
