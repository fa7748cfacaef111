"""One cached virtual environment per MCP SDK line, for the end-to-end shim tests.

Each line gets its own venv under ``$MIGRATE_ROOTS_SDK_ENVS`` (default ``<repo>/.sdk-envs/``). Creation is
done once: the env is built in a temporary directory and renamed into place atomically, under a file lock,
so two pytest processes racing on the same line build it once and never see a half-built env.

Plain functions (``sdk_python(line)``) for scripts, and ``sdk_python_or_skip(line)`` for tests, which skips
(instead of failing) when the env cannot be built here, e.g. without network access to the registry.
Set ``MIGRATE_ROOTS_SDK_REQUIRED=1`` (CI) to turn such skips into failures.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

#: line -> (pip requirement, distribution names whose versions we record)
LINES: dict[str, list[str]] = {
    "mcp1": ["mcp==1.30.*"],
    "mcp2": ["mcp>=2.3,<3"],
    "fastmcp2": ["fastmcp==2.14.*"],
    "fastmcp3": ["fastmcp>=3,<4"],
    "fastmcp4": ["fastmcp>=4.2,<5"],
}

#: extra packages every env gets (the driver validates nothing itself, but servers use pydantic's Field,
#: which every SDK already depends on; keep this list empty unless a driver/server needs more)
EXTRA: list[str] = []

#: distributions whose installed versions are written to ``versions.json``
RECORDED = ["mcp", "fastmcp", "pydantic", "anyio", "httpx"]

VERSIONS_FILE = "migrate-roots-versions.json"
LOCK_TIMEOUT_S = 900


class SdkEnvError(RuntimeError):
    """The env for an SDK line could not be created."""


def cache_dir() -> Path:
    return Path(os.environ.get("MIGRATE_ROOTS_SDK_ENVS") or REPO_ROOT / ".sdk-envs")


def env_dir(line: str) -> Path:
    return cache_dir() / line


def _python_in(venv: Path) -> Path:
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def _uv() -> list[str] | None:
    exe = shutil.which("uv")
    if exe:
        return [exe]
    try:
        subprocess.run([sys.executable, "-m", "uv", "--version"], check=True, capture_output=True)
        return [sys.executable, "-m", "uv"]
    except (OSError, subprocess.CalledProcessError):
        return None


def _run(cmd: list[str], **kw) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise SdkEnvError(
            f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}"
        )


@contextmanager
def _file_lock(path: Path, timeout: float = LOCK_TIMEOUT_S) -> Iterator[None]:
    """An exclusive lock on ``path`` (fcntl where available; an O_EXCL lock file elsewhere)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # Windows: O_EXCL marker file with a deadline
        deadline = time.monotonic() + timeout
        while True:
            try:
                fd = os.open(str(path), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
                break
            except FileExistsError:
                if time.monotonic() > deadline:
                    raise SdkEnvError(f"timed out waiting for lock {path}") from None
                time.sleep(0.5)
        try:
            yield
        finally:
            os.close(fd)
            os.unlink(str(path))
        return
    with open(path, "a+") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _is_ready(venv: Path) -> bool:
    return (venv / VERSIONS_FILE).is_file() and _python_in(venv).exists()


def _record_versions(python: Path, out: Path, line: str) -> dict[str, str | None]:
    code = (
        "import json, sys\n"
        "from importlib import metadata\n"
        "out = {}\n"
        f"for d in {RECORDED!r}:\n"
        "    try: out[d] = metadata.version(d)\n"
        "    except metadata.PackageNotFoundError: out[d] = None\n"
        "out['python'] = '.'.join(map(str, sys.version_info[:3]))\n"
        "print(json.dumps(out))\n"
    )
    proc = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    versions = json.loads(proc.stdout)
    versions["line"] = line
    versions["requirements"] = LINES[line]
    out.write_text(json.dumps(versions, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return versions


def _build(line: str, target: Path) -> None:
    reqs = LINES[line] + EXTRA
    uv = _uv()
    if uv:
        # --python: the SDKs need 3.10+; use the interpreter running the tests (3.10+ here).
        _run(uv + ["venv", "--quiet", "--python", sys.executable, str(target)])
        _run(uv + ["pip", "install", "--quiet", "--python", str(_python_in(target))] + reqs)
    else:
        _run([sys.executable, "-m", "venv", str(target)])
        _run(
            [str(_python_in(target)), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + reqs
        )
    _record_versions(_python_in(target), target / VERSIONS_FILE, line)


def ensure_env(line: str) -> Path:
    """Create (once) the env for ``line`` and return its directory."""
    if line not in LINES:
        raise KeyError(f"unknown SDK line {line!r}; known: {sorted(LINES)}")
    venv = env_dir(line)
    if _is_ready(venv):
        return venv
    root = cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    with _file_lock(root / f".{line}.lock"):
        if _is_ready(venv):  # another process built it while we waited
            return venv
        if venv.exists():  # a leftover of a crashed build without the marker
            shutil.rmtree(venv, ignore_errors=True)
        tmp = root / f".{line}.tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            _build(line, tmp)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        # venvs record their own path in pyvenv.cfg and script shebangs; we only ever run
        # `<env>/bin/python file.py`, which works after a rename (python finds pyvenv.cfg next to itself).
        os.replace(tmp, venv)
    return venv


def sdk_python(line: str) -> Path:
    """Path of the python of ``line``'s env, creating the env on first use."""
    return _python_in(ensure_env(line))


def installed_versions(line: str) -> dict[str, object]:
    return json.loads((ensure_env(line) / VERSIONS_FILE).read_text(encoding="utf-8"))


def sdk_python_or_skip(line: str) -> Path:
    """For tests: the env's python, or ``pytest.skip`` when it cannot be built (unless required)."""
    import pytest

    try:
        return sdk_python(line)
    except SdkEnvError as exc:
        if os.environ.get("MIGRATE_ROOTS_SDK_REQUIRED") == "1":
            raise
        pytest.skip(f"SDK env {line} unavailable: {str(exc)[:500]}")


def sdk_env_fixture(line: str):
    """A pytest fixture factory: ``mcp2_python = sdk_env_fixture("mcp2")`` at module level."""
    import pytest

    @pytest.fixture(scope="session")
    def _fixture() -> Path:
        return sdk_python_or_skip(line)

    return _fixture


if __name__ == "__main__":  # python tests/sdk/envs.py [line ...]: prebuild envs (e.g. in CI)
    for name in sys.argv[1:] or list(LINES):
        print(name, sdk_python(name), json.dumps(installed_versions(name)))
