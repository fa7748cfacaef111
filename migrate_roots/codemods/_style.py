"""What the project's own tools expect of the code we write: line length and import sections.

Read once per folder from the nearest configuration, as ruff and black find theirs: `ruff.toml`,
`.ruff.toml`, or a `pyproject.toml` with a `[tool.ruff]` (or, for the line length, `[tool.black]` or
`[tool.isort]`) table, or flake8's `max-line-length` in `.flake8`, `setup.cfg` or `tox.ini`;
without one, ruff's and black's defaults (88 columns; first party: the folders of the project root and its
`src/`). Nothing here is exact for every configuration (ruff's `extend`, per-file settings); it is what
keeps the usual project free of new `I` and `E501` findings.
"""

from __future__ import annotations

import functools
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_LINE_LENGTH = 88


@dataclass(frozen=True)
class Style:
    line_length: int = DEFAULT_LINE_LENGTH
    root: str = ""  # the folder of the configuration: ruff's `src` paths are relative to it
    src: tuple[str, ...] = (".", "src")
    known_first_party: frozenset[str] = frozenset()
    known_third_party: frozenset[str] = frozenset()
    force_single_line: bool = False  # isort's: one imported name a statement
    lines_after_imports: int = -1  # isort's: blank lines after the imports (-1: ruff decides, one for us)
    tabs: bool = False  # ruff's `format.indent-style = "tab"`

    def first_party(self, top: str) -> bool:
        """Whether ruff's isort counts the top-level module `top` as first party."""
        if top in self.known_first_party:
            return True
        if top in self.known_third_party or not self.root:
            return False
        for src in self.src:
            base = os.path.join(self.root, src)
            if os.path.isdir(os.path.join(base, top)) or os.path.isfile(os.path.join(base, f"{top}.py")):
                return True
        return False


def _read_toml(path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - 3.10 only
        import tomli as tomllib
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _from_ruff(table: dict[str, Any], root: Path, black: dict[str, Any] | None) -> Style:
    lint = table.get("lint", {}) if isinstance(table.get("lint"), dict) else {}
    isort = lint.get("isort", table.get("isort", {}))
    isort = isort if isinstance(isort, dict) else {}
    length = table.get("line-length", (black or {}).get("line-length", DEFAULT_LINE_LENGTH))
    src = table.get("src", [".", "src"])
    return Style(
        line_length=length if isinstance(length, int) and length > 0 else DEFAULT_LINE_LENGTH,
        root=str(root),
        src=tuple(s for s in src if isinstance(s, str)) if isinstance(src, list) else (".", "src"),
        known_first_party=frozenset(x for x in isort.get("known-first-party", []) if isinstance(x, str)),
        known_third_party=frozenset(x for x in isort.get("known-third-party", []) if isinstance(x, str)),
        force_single_line=isort.get("force-single-line") is True,
        lines_after_imports=after if isinstance(after := isort.get("lines-after-imports"), int) else -1,
        tabs=isinstance(fmt := table.get("format"), dict) and fmt.get("indent-style") == "tab",
    )


@functools.cache
def style_for(folder: str) -> Style:
    """The style for files in `folder` (an absolute path)."""
    here = Path(folder)
    fallback: Style | None = None
    for current in (here, *here.parents):
        for name in ("ruff.toml", ".ruff.toml"):
            if (current / name).is_file():
                return _from_ruff(_read_toml(current / name), current, None)
        pyproject = current / "pyproject.toml"
        length: object = None
        if pyproject.is_file():
            tool = _read_toml(pyproject).get("tool", {})
            ruff, black, isort = tool.get("ruff"), tool.get("black"), tool.get("isort")
            if isinstance(ruff, dict):
                return _from_ruff(ruff, current, black if isinstance(black, dict) else None)
            length = black.get("line-length") if isinstance(black, dict) else None
            if length is None and isinstance(isort, dict) and isinstance(isort.get("line_length"), int):
                length = min(isort["line_length"], DEFAULT_LINE_LENGTH)  # a maximum too (see below)
        if fallback is None and (pyproject.is_file() or any((current / name).is_file() for name in _INI)):
            # black's (or flake8's, isort's) line length, and ruff's defaults relative to the first project root.
            # flake8's and isort's are a maximum, not a formatter's width: never above black's default, which a
            # project checked by flake8 at 120 may still format to (gr-mcp: black, and flake8 at 88 in pre-commit).
            ini = _ini_length(current) if length is None else None
            length = length if length is not None else min(ini, DEFAULT_LINE_LENGTH) if ini else None
            fallback = Style(
                line_length=length if isinstance(length, int) and length > 0 else DEFAULT_LINE_LENGTH,
                root=str(current),
            )
    return fallback or Style(root=str(here))


_INI = frozenset({".flake8", "setup.cfg", "tox.ini"})


def _ini_length(folder: Path) -> int | None:
    """flake8's `max-line-length` (or pycodestyle's, or isort's `line_length`) from `.flake8`, `setup.cfg` or
    `tox.ini`: a project without ruff or black configuration checks its lines there (sweep H, r02)."""
    import configparser

    for name in (".flake8", "setup.cfg", "tox.ini"):
        parser = configparser.ConfigParser(interpolation=None)
        try:
            if not parser.read(folder / name, encoding="utf-8"):
                continue
        except (configparser.Error, UnicodeDecodeError):
            continue
        for section, key in (
            ("flake8", "max-line-length"),
            ("pycodestyle", "max-line-length"),
            ("isort", "line_length"),
        ):
            for spelled in (key, key.replace("-", "_")):
                value = parser.get(section, spelled, fallback="").strip()
                if value.isdigit() and int(value) > 0:
                    return int(value)
    return None


def style_of(path: str) -> Style:
    return style_for(os.path.dirname(os.path.abspath(path)))
