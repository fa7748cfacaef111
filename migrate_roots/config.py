"""Settings from `[tool.migrate-roots]` of the nearest pyproject.toml, validated; the command line wins."""

from __future__ import annotations

import keyword
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any


class ConfigError(Exception):
    """A one-line message for the user; the CLI exits 2."""


class SettingError(ValueError):
    """One bad `[tool.migrate-roots]` key: which, and what is wrong with it."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem


def _kebab(name: str) -> str:
    return name.replace("_", "-")


_LISTS = {"select", "ignore", "exclude", "path_params"}


def _check(name: str, value: object) -> str | None:
    """What is wrong with `value` for the setting `name`, or None."""
    if name in _LISTS:
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            return "Input should be a list of strings"
    elif name == "jobs":
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            return "Input should be a valid integer"
        if isinstance(value, int) and not 1 <= value <= 256:
            return "Input should be between 1 and 256"
    elif name == "markers":
        if not isinstance(value, bool):
            return "Input should be a valid boolean"
    elif not isinstance(value, str):
        return "Input should be a valid string"
    elif name in ("param_name", "shim_module") and not value.isidentifier():
        return f"{value!r} is not a Python identifier"
    elif name in ("param_name", "shim_module") and keyword.iskeyword(value):
        return f"{value!r} is a Python keyword"
    elif name == "target_version":
        parts = value.split(".")
        if len(parts) != 2 or not all(p.isdigit() for p in parts) or parts[0] != "3":
            return f"{value!r} is not a version like 3.10"
    return None


def _path_params() -> list[str]:
    return [
        "root",
        "repo_path",
        "repo_root",
        "repository",
        "project_root",
        "project_path",
        "project_dir",
        "workspace",
        "workspace_root",
        "workspace_path",
        "root_path",
        "root_dir",
        "base_dir",
        "directory",
        "path",
        "cwd",
    ]


# A frozen dataclass checked by hand rather than a pydantic model: pydantic's import and model build were a
# third of a no-match run's start-up (benchmarks/RESULTS.md, 1 and 5).
@dataclass(frozen=True, kw_only=True)
class Settings:
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    jobs: int | None = None  # 1 to 256
    markers: bool = True
    # Name of the new tool parameter that carries the directory.
    param_name: str = "root"
    # Existing tool parameters that already name a directory: reused instead of adding `param_name`.
    path_params: list[str] = field(default_factory=_path_params)
    # Module written into the user's package (once, only if used).
    shim_module: str = "_mcp_roots_compat"
    # Environment variable the shim reads as an allow-list of directories.
    allowlist_env: str = "MCP_ROOTS_ALLOWED_PATHS"
    # Oldest Python the user's code must run on: decides `Optional[str]` or `str | None` (and where
    # `Annotated` comes from). Default: the lower bound of `project.requires-python`, else 3.10 (what mcp needs).
    target_version: str = "3.10"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Settings:
        """Settings from `[tool.migrate-roots]` keys (kebab-case or snake_case); `SettingError` names the key."""
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            name = key.replace("-", "_")
            if name not in known:
                raise SettingError(key, "unknown key")
            problem = _check(name, value)
            if problem:
                raise SettingError(_kebab(name), problem)
            values[name] = list(value) if isinstance(value, tuple) else value
        return cls(**values)

    @property
    def target(self) -> tuple[int, int]:
        major, minor = self.target_version.split(".")
        return int(major), int(minor)


def _lower_bound(spec: object) -> str | None:
    if not isinstance(spec, str):
        return None
    match = re.search(r">=?\s*3\.(\d+)", spec) or re.search(r"~=\s*3\.(\d+)", spec)
    return f"3.{match.group(1)}" if match else None


def find_pyproject(start: Path) -> Path | None:
    here = start.resolve()
    if here.is_file():
        here = here.parent
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_settings(start: Path, overrides: dict[str, Any]) -> Settings:
    """Read the nearest pyproject.toml above `start`, then apply non-None command-line overrides."""
    data: dict[str, Any] = {}
    source = find_pyproject(start)
    if source is not None:
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover - 3.10 only
            import tomli as tomllib

        try:
            doc = tomllib.loads(source.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
            raise ConfigError(f"{source}: cannot read: {exc}") from None
        table = doc.get("tool", {}).get("migrate-roots", {})
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: [tool.migrate-roots] must be a table")
        data.update(table)
        if "target-version" not in data:
            # The oldest Python the project supports decides how new annotations are spelled.
            found = _lower_bound(doc.get("project", {}).get("requires-python"))
            if found:
                data["target-version"] = found
    data.update({k.replace("_", "-"): v for k, v in overrides.items() if v not in (None, [], ())})
    try:
        return Settings.from_mapping(data)
    except SettingError as exc:
        origin = f"{source}: " if source is not None else ""
        if exc.problem == "unknown key":
            raise ConfigError(f"{origin}[tool.migrate-roots]: unknown key {exc.key!r}") from None
        raise ConfigError(f"{origin}[tool.migrate-roots] {exc.key}: {exc.problem}") from None
