"""Settings from `[tool.migrate-roots]` of the nearest pyproject.toml, validated; the command line wins."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - 3.10 only
    import tomli as tomllib


class ConfigError(Exception):
    """A one-line message for the user; the CLI exits 2."""


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=_kebab, populate_by_name=True, frozen=True)

    select: list[str] = Field(default_factory=list)
    ignore: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)
    jobs: int | None = Field(default=None, ge=1, le=256)
    markers: bool = True
    # Name of the new tool parameter that carries the directory.
    param_name: str = "root"
    # Existing tool parameters that already name a directory: reused instead of adding `param_name`.
    path_params: list[str] = Field(
        default_factory=lambda: [
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
    )
    # Module written into the user's package (once, only if used).
    shim_module: str = "_mcp_roots_compat"
    # Environment variable the shim reads as an allow-list of directories.
    allowlist_env: str = "MCP_ROOTS_ALLOWED_PATHS"
    # Oldest Python the user's code must run on: decides `Optional[str]` or `str | None` (and where
    # `Annotated` comes from). Default: the lower bound of `project.requires-python`, else 3.10 (what mcp needs).
    target_version: str = "3.10"

    @field_validator("param_name", "shim_module")
    @classmethod
    def _identifier(cls, value: str) -> str:
        if not value.isidentifier():
            raise ValueError(f"{value!r} is not a Python identifier")
        return value

    @field_validator("target_version")
    @classmethod
    def _version(cls, value: str) -> str:
        parts = value.split(".")
        if len(parts) != 2 or not all(p.isdigit() for p in parts) or parts[0] != "3":
            raise ValueError(f"{value!r} is not a version like 3.10")
        return value

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
        return Settings.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "?"
        origin = f"{source}: " if source is not None else ""
        if err["type"] == "extra_forbidden":
            raise ConfigError(f"{origin}[tool.migrate-roots]: unknown key {where!r}") from None
        raise ConfigError(f"{origin}[tool.migrate-roots] {where}: {err['msg']}") from None
