"""Build the Lambda package: what `make build-<LogicalId>` (so `sam build`) runs.

    python3 scripts/lambda_package.py ARTIFACTS_DIR [--architecture arm64|x86_64] [--python PATH]
    python3 scripts/lambda_package.py --find-python

Standard library only, so any Python 3 can run it; the work itself is done by the runtime's
Python (3.12), found here because pyenv's `python3.12` shim refuses to run unless that
version is selected. The package holds the runtime requirements exactly as requirements.lock
pins them (every file hash-checked, nothing resolved at build time), then app/ (without
app/local) and models/, precompiled for 3.12:

- compiled dependencies are the target platform's wheels (manylinux, Lambda's glibc 2.34);
- a dependency published only as an sdist (http-ece) is downloaded hash-checked, built into
  a wheel on this machine, and must come out pure Python (py3-none-any), else the build
  fails: a compiled sdist built here would be for the build host, not for Lambda.

SAM passes the make target nothing but ARTIFACTS_DIR (aws-sam-cli#3349), so the architecture
is --architecture (the Makefile's LAMBDA_ARCHITECTURE) or else the default of template.yaml's
`Architecture` parameter: `sam build` without overrides and this step agree by construction.

Two caches under .aws-sam (so `make clean` drops them): the wheels of one lock for one
architecture (a warm build needs no network), and the assembled package keyed by a hash of
every input (SAM builds each makefile function on its own, all at once: they share one).
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
WHEEL_CACHE = ROOT / ".aws-sam" / "wheels"
PACKAGE_CACHE = ROOT / ".aws-sam" / "package"
SOURCES = ("app", "models")
EXCLUDED = ("app/local", "app/__main__.py")  # the embedded endpoint and its CLI: local only
RUNTIME = (3, 12)
MACHINES = {"arm64": "aarch64", "x86_64": "x86_64"}
# Lambda's python3.12 runs on Amazon Linux 2023 (glibc 2.34): every manylinux tag up to it.
GLIBC_MINOR = 34


class BuildError(Exception):
    pass


def _is_runtime_python(candidate: str) -> bool:
    check = f"import sys; sys.exit(sys.version_info[:2] != {RUNTIME!r})"
    try:
        return subprocess.run([candidate, "-c", check], capture_output=True,
                              timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _pyenv_root() -> Path | None:
    if os.environ.get("PYENV_ROOT"):
        return Path(os.environ["PYENV_ROOT"])
    try:
        out = subprocess.run(["pyenv", "root"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        out = None
    if out and out.returncode == 0 and out.stdout.strip():
        return Path(out.stdout.strip())
    default = Path.home() / ".pyenv"
    return default if default.is_dir() else None


def _version_key(path: str) -> tuple:
    return tuple(int(part) for part in re.findall(r"\d+", Path(path).parents[1].name))


def candidates() -> list[str]:
    """Every python3.12 on PATH (a pyenv shim that refuses is skipped when tried), then
    pyenv's installed 3.12.x interpreters, newest first."""
    name = "python%d.%d" % RUNTIME
    found = []
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        path = os.path.join(directory or ".", name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            found.append(path)
    root = _pyenv_root()
    if root:
        pattern = str(root / "versions" / ("%d.%d.*" % RUNTIME) / "bin" / name)
        found += sorted(glob.glob(pattern), key=_version_key, reverse=True)
    return list(dict.fromkeys(found))


def find_python(explicit: str | None = None) -> str:
    if explicit:
        if _is_runtime_python(explicit):
            return explicit
        raise BuildError(f"LAMBDA_PYTHON={explicit} is not a working Python "
                         f"{RUNTIME[0]}.{RUNTIME[1]}.")
    for candidate in candidates():
        if _is_runtime_python(candidate):
            return candidate
    raise BuildError(
        "The Lambda package needs Python %d.%d, the runtime's (its bytecode and the import "
        "check are for that version), and none was found: no working python%d.%d on PATH and "
        "none under pyenv's versions/. Install it (e.g. `pyenv install 3.12`, or the "
        "distribution's python3.12) or name it: make build LAMBDA_PYTHON=/path/to/python3.12"
        % (RUNTIME * 2))


def template_architecture(template: Path = ROOT / "template.yaml") -> str:
    """The Default of the template's `Architecture` parameter (a line scan: no YAML parser in
    the standard library; tests/deploy/test_package.py checks it against a real parse)."""
    in_parameters = in_architecture = False
    for line in template.read_text(encoding="utf-8").splitlines():
        if re.match(r"^\S", line):
            in_parameters = line.startswith("Parameters:")
            in_architecture = False
        elif in_parameters and re.match(r"^  \S", line):
            in_architecture = line.strip() == "Architecture:"
        elif in_architecture:
            match = re.match(r"^\s+Default:\s*['\"]?([\w-]+)['\"]?\s*$", line)
            if match:
                return match.group(1)
    raise BuildError("template.yaml has no Architecture parameter with a Default")


def platform_args(architecture: str) -> list[str]:
    machine = MACHINES[architecture]
    tags = [f"manylinux_2_{minor}_{machine}" for minor in range(GLIBC_MINOR, 16, -1)]
    tags.append(f"manylinux2014_{machine}")  # pip expands it to manylinux2010/1
    args = ["--implementation", "cp", "--python-version", "%d.%d" % RUNTIME]
    for tag in tags:
        args += ["--platform", tag]
    return args


def _pip(python: str, *args: str) -> None:
    command = [python, "-m", "pip", "--disable-pip-version-check", "--no-input", *args]
    if args[0] == "install":  # the build may run as root (CI): that is not a mistake here
        command.append("--root-user-action=ignore")
    result = subprocess.run(command, cwd=ROOT)
    if result.returncode:
        raise BuildError(f"pip failed ({result.returncode}): {' '.join(command)}")


def _safe_output(artifacts: Path) -> Path:
    artifacts = artifacts.resolve()
    if artifacts in ROOT.parents or artifacts == ROOT or \
            any(artifacts == ROOT / name or ROOT / name in artifacts.parents for name in SOURCES):
        raise BuildError(f"refusing to build into {artifacts}")
    return artifacts


def wheels(architecture: str, python: str) -> list[Path]:
    """Every locked distribution as a wheel for the target, from the wheel cache when this
    lock was fetched for this architecture before (.aws-sam/wheels, one directory per lock
    hash and platform: a warm build needs no network), else downloaded, hash-checked, sdists
    built, and cached by an atomic rename, so parallel builds never see half a directory."""
    platform = platform_args(architecture)
    key = hashlib.sha256(LOCK.read_bytes() + " ".join(platform).encode()).hexdigest()[:16]
    cache = WHEEL_CACHE / f"{architecture}-{key}"
    if not cache.is_dir():
        WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=f".{architecture}-", dir=WHEEL_CACHE))
        try:
            _fetch(python, platform, scratch)
            try:
                scratch.rename(cache)
            except OSError:  # a parallel build cached the same lock first: use that one
                pass
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        for stale in WHEEL_CACHE.glob(f"{architecture}-*"):
            if stale != cache:
                shutil.rmtree(stale, ignore_errors=True)
    return sorted(cache.glob("*.whl"))


def _fetch(python: str, platform: list[str], into: Path) -> None:
    downloads = into / "downloads"
    # --no-deps: the lock is the whole resolution; it also lets pip fetch the sdist of a
    # package that has no wheel, which --only-binary would refuse outright.
    _pip(python, "download", "--quiet", "--no-deps", "--require-hashes", "-r", str(LOCK),
         "-d", str(downloads), *platform)
    for sdist in sorted(p for p in downloads.iterdir() if not p.name.endswith(".whl")):
        _pip(python, "wheel", "--quiet", "--no-deps", "-w", str(into), str(sdist))  # checked
        sdist.unlink()
    for wheel in into.glob("*.whl"):
        if not wheel.name.endswith("-none-any.whl"):
            raise BuildError(f"{wheel.name} was built from an sdist and is not pure "
                             "Python: it would be for this machine, not for Lambda")
    for wheel in downloads.glob("*.whl"):
        wheel.rename(into / wheel.name)
    downloads.rmdir()


def build(artifacts: Path, architecture: str, python: str) -> None:
    """Put the package in ARTIFACTS_DIR. SAM runs one make per makefile-built function, all at
    once (`parallel = true`), for what is one and the same package: the first builds it into
    .aws-sam/package under a file lock, keyed by a hash of everything that goes into it, and
    every build (this one too) hard-links it from there (a copy across file systems)."""
    artifacts = _safe_output(artifacts)
    if architecture not in MACHINES:
        raise BuildError(f"architecture {architecture!r}: expected one of {sorted(MACHINES)}")
    package = cached_package(architecture, python)
    # SAM reuses the directory across builds: start empty so nothing stale ships.
    if artifacts.exists():
        shutil.rmtree(artifacts)
    artifacts.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(package, artifacts, copy_function=_link_or_copy)


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _inputs_digest(architecture: str, python: str) -> str:
    version = subprocess.run([python, "-c", "import sys; print(sys.version)"],
                             capture_output=True, text=True, check=True).stdout
    digest = hashlib.sha256(f"{architecture} {platform_args(architecture)} {version}".encode())
    files = [LOCK, Path(__file__).resolve()]
    for name in SOURCES:
        files += sorted(path for path in (ROOT / name).rglob("*")
                        if path.is_file() and "__pycache__" not in path.parts
                        and path.suffix != ".pyc")
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def cached_package(architecture: str, python: str) -> Path:
    PACKAGE_CACHE.mkdir(parents=True, exist_ok=True)
    package = PACKAGE_CACHE / f"{architecture}-{_inputs_digest(architecture, python)}"
    with open(PACKAGE_CACHE / ".lock", "w") as lock:
        try:
            import fcntl
            fcntl.flock(lock, fcntl.LOCK_EX)  # parallel builds wait for the first one
        except ImportError:  # no flock (Windows): parallel builds may each build; still right
            pass
        if package.is_dir():
            return package
        scratch = Path(tempfile.mkdtemp(prefix=f".{architecture}-", dir=PACKAGE_CACHE))
        try:
            _assemble(scratch / "package", architecture, python)
            (scratch / "package").rename(package)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        for stale in PACKAGE_CACHE.glob(f"{architecture}-*"):
            if stale != package:
                shutil.rmtree(stale, ignore_errors=True)
    return package


def _assemble(artifacts: Path, architecture: str, python: str) -> None:
    artifacts.mkdir(parents=True)
    _pip(python, "install", "--quiet", "--no-deps", "--no-index", "--no-compile",
         "--target", str(artifacts), *platform_args(architecture),
         *map(str, wheels(architecture, python)))
    shutil.rmtree(artifacts / "bin", ignore_errors=True)  # console scripts: never run there
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCES:
        shutil.copytree(ROOT / name, artifacts / name, ignore=ignore)
    for name in EXCLUDED:
        path = artifacts / name
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    # Ship bytecode for the runtime's Python: Lambda's file system is read-only, so without it
    # every cold start compiles our sources and the dependencies'.
    result = subprocess.run([python, "-m", "compileall", "-q", "-j", "0",
                             "--invalidation-mode", "unchecked-hash", str(artifacts)])
    if result.returncode:
        raise BuildError("compileall failed")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("artifacts_dir", nargs="?")
    parser.add_argument("--architecture", default=os.environ.get("LAMBDA_ARCHITECTURE") or None)
    parser.add_argument("--python", default=os.environ.get("LAMBDA_PYTHON") or None)
    parser.add_argument("--find-python", action="store_true",
                        help="print the Python 3.12 the build would use, and stop")
    args = parser.parse_args(argv)
    try:
        python = find_python(args.python)
        if args.find_python:
            print(python)
            return 0
        if not args.artifacts_dir:
            raise BuildError("ARTIFACTS_DIR is not set (sam build sets it; or run "
                             "`make build-ApiFunction ARTIFACTS_DIR=/some/dir`)")
        architecture = args.architecture or template_architecture()
        print(f"Lambda package: {architecture}, Python {python} -> {args.artifacts_dir}",
              flush=True)
        build(Path(args.artifacts_dir), architecture, python)
    except BuildError as error:
        print(f"lambda_package: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
