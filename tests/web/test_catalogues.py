"""Every language the web app speaks is complete (issue 49): each catalogue in web/src/i18n
has every key of en.ts, no key en.ts lacks, valid ICU messages, and the same arguments
({name}, {count, plural, ...}) as English. web/scripts/check-catalogues.mjs checks them with
the app's own TypeScript compiler and intl-messageformat; these tests run it, and show it
catches what it is for on a catalogue made wrong on purpose."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from scripts import build_web

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "web" / "scripts" / "check-catalogues.mjs"


def _check(*args: str) -> subprocess.CompletedProcess:
    build_web.build()  # node_modules as locked (npm ci when it does not match), under its lock
    return subprocess.run([shutil.which("node") or "node", str(CHECK), *args], cwd=ROOT / "web",
                          capture_output=True, text=True, timeout=120)


def test_every_catalogue_has_every_key_and_argument_of_english():
    result = _check()
    assert result.returncode == 0, result.stderr
    assert "catalogues complete" in result.stdout


def test_the_check_names_a_missing_key_a_dropped_placeholder_and_a_lost_plural(tmp_path):
    (tmp_path / "en.ts").write_text(
        'const en = {\n  "greet": "Hello {name}",\n'
        '  "count": "{count, plural, one {# change} other {# changes}}",\n'
        '  "bye": "Bye",\n  "sum": "Total {amount}",\n};\n'
        "export type MessageKey = keyof typeof en;\n"
        "export type Catalogue = Partial<Record<MessageKey, string>>;\nexport default en;\n")
    (tmp_path / "xx.ts").write_text(
        'import type { Catalogue } from "./en";\n'
        'const xx: Catalogue = {\n  "greet": "Salut",\n  "count": "{count} changements",\n'
        '  "sum": "Total {amount",\n  "extra": "Not in English",\n};\nexport default xx;\n')
    (tmp_path / "index.ts").write_text("export {};\n")  # not a catalogue: skipped
    result = _check(str(tmp_path))
    assert result.returncode == 1
    problems = sorted(result.stderr.strip().splitlines())
    assert problems[:2] == ["xx: count has {count}, en has {count:plural}",
                            "xx: extra is not a key of en.ts"]
    assert problems[2:4] == ["xx: greet has {}, en has {name}", "xx: lacks bye"]
    assert problems[4].startswith("xx: sum is not a valid ICU message")
    assert len(problems) == 5
