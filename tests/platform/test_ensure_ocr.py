"""scripts/ensure_ocr.sh: the receipt tests' font is installed or named in one line; Tesseract
is installed when it can be and otherwise only noted. Runs the real script with a PATH
holding only what each case allows and a fake apt-get."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "ensure_ocr.sh"


def _bin(tmp_path: Path, *, apt: bool = False) -> Path:
    directory = tmp_path / "bin"
    directory.mkdir()
    for tool in ("bash",):
        (directory / tool).symlink_to(shutil.which(tool))
    if apt:  # installs both: a font file and a tesseract on PATH
        font = tmp_path / "font.ttf"
        (directory / "apt-get").write_text(
            f'#!/bin/sh\necho "$@" >> {tmp_path}/apt.log\n'
            f'case "$1" in install) : > {font}; printf "#!/bin/sh\\n" > {directory}/tesseract;'
            f' /bin/chmod +x {directory}/tesseract;; esac\n')
        (directory / "apt-get").chmod(0o755)
    return directory


def _run(bin_dir: Path, uid: str, font: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPT)], capture_output=True, text=True, timeout=60,
                          env={"PATH": str(bin_dir), "ENSURE_OCR_UID": uid,
                               "ENSURE_OCR_FONT": str(font)})


def test_without_the_font_and_not_root_it_fails_with_one_line(tmp_path):
    run = _run(_bin(tmp_path), "1000", tmp_path / "font.ttf")
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        "make test needs a TrueType font for its receipt tests: run "
        "'sudo apt-get install -y fonts-dejavu-core'"]


def test_with_the_font_a_missing_tesseract_is_only_noted(tmp_path):
    font = tmp_path / "font.ttf"
    font.touch()
    run = _run(_bin(tmp_path), "1000", font)
    assert run.returncode == 0 and "tesseract-ocr" in run.stderr


def test_as_root_with_apt_it_installs_what_is_missing(tmp_path):
    run = _run(_bin(tmp_path, apt=True), "0", tmp_path / "font.ttf")
    assert run.returncode == 0, run.stderr
    assert "install -y -qq fonts-dejavu-core tesseract-ocr" in (tmp_path / "apt.log").read_text()
    assert "note:" not in run.stderr
