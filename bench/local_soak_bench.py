"""Local mode soak: `.venv/bin/python bench/local_soak_bench.py` from the repo root.

A few thousand mixed API requests (create groups and expenses, read balances, list expenses),
some concurrent, against a `python -m app serve` subprocess; prints the server's peak RSS as it
goes (it must level off, not grow with the request count), then how long SIGTERM takes to end
the process with its data saved.
"""
from __future__ import annotations

import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.local.serving import Server, call, sign_in

REQUESTS = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
THREADS = 4


def _rss_mb(pid: int) -> tuple[float, float]:
    """(current, peak) resident set size of the process, from /proc."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text()
                  .splitlines() if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def _worker(server, token, count, done):
    gid = ids = None
    for n in range(count):
        if n % 50 == 0:
            status, group = call("POST", server.url + "/groups",
                                 {"name": "Soak", "currency": "EUR"}, token)
            gid, ids = group["groupId"], [group["myParticipantId"]]
        elif n % 3 == 0:
            call("GET", server.url + f"/groups/{gid}/balances", token=token)
        elif n % 3 == 1:
            call("GET", server.url + f"/groups/{gid}/expenses", token=token)
        else:
            call("POST", server.url + f"/groups/{gid}/expenses",
                 {"description": "Soak", "date": "2026-11-28", "amount": 900,
                  "payments": [{"participantId": ids[0], "amount": 900}],
                  "splitMode": "EQUAL", "splits": [{"participantId": ids[0]}]}, token)
        done.append(1)


def main() -> None:
    with tempfile.TemporaryDirectory() as data_dir:
        server = Server(Path(data_dir))
        token, _ = sign_in(server)
        done: list = []
        workers = [threading.Thread(target=_worker, args=(server, token, REQUESTS // THREADS,
                                                          done)) for _ in range(THREADS)]
        start = time.perf_counter()
        for worker in workers:
            worker.start()
        mark = 0
        while any(worker.is_alive() for worker in workers):
            time.sleep(0.5)
            if len(done) >= mark:
                current, peak = _rss_mb(server.process.pid)
                print(f"{len(done):>6} requests  RSS {current:6.0f} MB  peak {peak:6.0f} MB",
                      flush=True)
                mark += REQUESTS // 6
        elapsed = time.perf_counter() - start
        _, peak = _rss_mb(server.process.pid)
        stop = time.perf_counter()
        code = server.stop(signal.SIGTERM, timeout=60)
        stopped = time.perf_counter() - stop
        saved = "Stopped; data saved." in server.output()
    print(f"{len(done)} requests in {elapsed:.0f} s ({len(done) / elapsed:.0f}/s), "
          f"peak RSS {peak:.0f} MB; SIGTERM -> exit {code} in {stopped:.2f} s, saved: {saved}")


if __name__ == "__main__":
    main()
