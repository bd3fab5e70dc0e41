"""What a fresh interpreter imports and answers: for start-up checks the test process, which
has imported everything already, cannot make itself."""
from __future__ import annotations

import json
import subprocess
import sys


def probe(code: str, env: dict) -> dict:
    """Run ``code`` in a new interpreter with only ``env``; the JSON its last line printed."""
    out = subprocess.run([sys.executable, "-c", code], env={"PATH": "/usr/bin:/bin", **env},
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])
