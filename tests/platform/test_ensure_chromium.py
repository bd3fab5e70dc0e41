"""scripts/ensure_chromium.sh and `make test`: a fresh machine gets Chromium or one clear line.

Each case runs the real script with a PATH that holds only what the case allows (so a
machine with Chromium installed still sees "none"), fake `apt-get`/`chromium` scripts, and
ENSURE_CHROMIUM_UID standing in for `id -u`."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "ensure_chromium.sh"
HINT = "make test needs headless Chromium for its browser tests"


@pytest.fixture
def bin_dir(tmp_path) -> Path:
    """A PATH directory with bash and chmod only: no chromium, no apt-get."""
    directory = tmp_path / "bin"
    directory.mkdir()
    for tool in ("bash", "chmod"):
        (directory / tool).symlink_to(shutil.which(tool))
    return directory


def _fake(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def _apt_get(bin_dir: Path, *, works: bool = True) -> Path:
    """apt-get that logs its arguments and, for `install`, puts a chromium on PATH."""
    log = bin_dir.parent / "apt.log"
    install = (f'printf "#!/bin/sh\\n" > {bin_dir}/chromium; chmod +x {bin_dir}/chromium\n'
               if works else "exit 100\n")
    _fake(bin_dir / "apt-get", f'echo "$@" >> {log}\n'
                               f'case "$1" in install) {install};; esac\n')
    return log


def _run(bin_dir: Path, uid: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPT)], capture_output=True, text=True, timeout=60,
                          env={"PATH": str(bin_dir), "ENSURE_CHROMIUM_UID": uid, **env})


def _one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_without_chromium_and_not_root_it_fails_with_one_line_saying_what_to_install(bin_dir):
    _apt_get(bin_dir)  # apt-get exists, but a non-root user cannot use it
    run = _run(bin_dir, "1000")
    assert run.returncode == 1
    line = _one_line(run.stderr)
    assert line.startswith(HINT) and "apt-get install -y chromium" in line
    assert not (bin_dir / "chromium").exists()


def test_as_root_with_apt_it_installs_debians_chromium(bin_dir):
    log = _apt_get(bin_dir)
    run = _run(bin_dir, "0")
    assert run.returncode == 0, run.stderr
    assert log.read_text().splitlines() == ["update -qq", "install -y -qq chromium"]
    assert (bin_dir / "chromium").exists()


@pytest.mark.parametrize("apt", ["fails", "missing"])
def test_as_root_without_a_working_apt_it_fails_with_one_line(bin_dir, apt):
    if apt == "fails":
        _apt_get(bin_dir, works=False)
    run = _run(bin_dir, "0")
    assert run.returncode == 1
    assert HINT in _one_line(run.stderr.replace(
        "Installing Debian's chromium for the browser tests (apt-get)...\n", ""))


@pytest.mark.parametrize("how", ["chromium", "chromium-browser", "CHROMIUM"])
def test_a_chromium_already_there_installs_nothing(bin_dir, tmp_path, how):
    log = _apt_get(bin_dir)
    env = {}
    if how == "CHROMIUM":
        env["CHROMIUM"] = str(_fake(tmp_path / "my-chromium", ""))
    else:
        _fake(bin_dir / how, "")
    run = _run(bin_dir, "0", **env)
    assert run.returncode == 0 and run.stderr == ""
    assert not log.exists()


def test_a_chromium_variable_naming_no_binary_is_refused(bin_dir, tmp_path):
    run = _run(bin_dir, "0", CHROMIUM=str(tmp_path / "nothing"))
    assert run.returncode == 1 and "is not an executable file" in _one_line(run.stderr)


def test_make_test_stops_at_once_before_installing_or_testing(bin_dir, tmp_path):
    """`make test` checks Chromium first: nothing else runs (no venv, no lint, no pytest)."""
    ran = tmp_path / "ran.log"
    recorder = _fake(tmp_path / "recorder", f'echo "$@" >> {ran}\nexit 1\n')
    (bin_dir / "make").symlink_to(shutil.which("make"))
    run = subprocess.run(
        [str(bin_dir / "make"), "--no-print-directory", "test", f"PY={recorder}",
         f"PYTHON={recorder}", f"VENV={tmp_path / 'venv'}", f"SAM_VENV={tmp_path / 'sam'}",
         f"CHECKOV_VENV={tmp_path / 'checkov'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"PATH": str(bin_dir), "ENSURE_CHROMIUM_UID": "1000"})
    assert run.returncode != 0
    assert [line for line in run.stderr.splitlines() if HINT in line], run.stderr
    assert "pytest" not in run.stdout and not ran.exists(), run.stdout
