"""`<data_dir>/server.json`: which process serves a data dir, on which ports.

Written once a server is up, removed on a clean stop. `python -m app token|tick` read it so they
act on the server that owns the data dir, never on whatever listens on a default port."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

FILE = "server.json"


def write(data_dir: str, *, pid: int, host: str, db_port: int,
          api_port: Optional[int] = None, smtp_url: Optional[str] = None) -> Path:
    path = Path(data_dir) / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.tmp")
    partial.write_text(json.dumps({"pid": pid, "host": host, "apiPort": api_port,
                                   "dbPort": db_port, "smtpUrl": smtp_url}))
    os.replace(partial, path)  # readers never see half a file
    return path


def read(data_dir: str) -> Optional[dict]:
    try:
        return json.loads((Path(data_dir) / FILE).read_text())
    except (FileNotFoundError, ValueError):
        return None


def remove(data_dir: str, pid: int) -> None:
    info = read(data_dir)
    if info and info.get("pid") == pid:
        (Path(data_dir) / FILE).unlink(missing_ok=True)


def alive(info: dict) -> bool:
    try:
        os.kill(int(info["pid"]), 0)
    except (OSError, KeyError, TypeError, ValueError):
        return False
    return True
