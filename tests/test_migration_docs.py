"""MIGRATION.md cannot drift: it is built from docs/, and every code example in docs/ is executed or parsed.

- MIGRATION.md equals what scripts/build_migration.py builds now.
- Every ` ```python before` block (docs/rules/*.md, docs/migration/*.md) is followed by one ` ```python after`
  block, and `migrate-roots apply` on the before text saved as `pkg/server.py` in a package yields exactly the
  after text (tests.helpers.check_transformed: also no new pyflakes warnings, and a second run is a no-op).
- Every other `python` block in docs/migration parses; `toml` blocks parse and use only real settings;
  `yaml` blocks parse.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from migrate_roots.config import Settings
from tests.helpers import check_transformed

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs" / "rules").glob("*.md")) + sorted((ROOT / "docs" / "migration").glob("*.md"))
_OPEN = re.compile(r"^(```+|~~~+)(.*)$")

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@dataclass
class Block:
    path: Path
    line: int
    info: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    out: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    i = 0
    while i < len(lines):
        match = _OPEN.match(lines[i].rstrip("\n"))
        if not match:
            i += 1
            continue
        fence, info, start = match.group(1), match.group(2).strip(), i + 1
        i += 1
        body = []
        while i < len(lines) and lines[i].rstrip("\n").strip() != fence:
            body.append(lines[i])
            i += 1
        assert i < len(lines), f"{path}:{start}: unclosed code block"
        out.append(Block(path, start, info, "".join(body)))
        i += 1
    return out


def pairs() -> list[tuple[Block, Block]]:
    found = []
    for path in DOCS:
        items = blocks(path)
        for n, block in enumerate(items):
            if block.info == "python before":
                after = items[n + 1] if n + 1 < len(items) else None
                assert after is not None and after.info == "python after", (
                    f"{block.where}: a `python before` block must be followed by a `python after` block"
                )
                found.append((block, after))
            elif block.info == "python after":
                assert n > 0 and items[n - 1].info == "python before", f"{block.where}: `python after` alone"
    return found


PAIRS = pairs()


def _load_builder():
    spec = importlib.util.spec_from_file_location("build_migration", ROOT / "scripts" / "build_migration.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_migration_md_is_up_to_date():
    builder = _load_builder()
    assert (ROOT / "MIGRATION.md").read_text(encoding="utf-8") == builder.build(), (
        "MIGRATION.md is out of date: run `python scripts/build_migration.py`"
    )


def test_migration_md_holds_every_page_and_rule():
    text = (ROOT / "MIGRATION.md").read_text(encoding="utf-8")
    prose = re.sub(r"^```.*?^```[ \t]*$", "", text, flags=re.M | re.S)  # headings outside code blocks
    assert text.startswith("# ") and prose.count("\n# ") == 0  # one title; the pages are demoted under it
    for page in DOCS:
        title = page.read_text(encoding="utf-8").splitlines()[0][2:]
        assert f"\n## {title}\n" in text, page
    for needle in (
        "## The two eras",
        "## What the migrated tool does",
        "## Configuration",
        "subscriptions/listen",
    ):
        assert needle in text


def test_code_block_info_strings_are_exact():
    for path in DOCS:
        for block in blocks(path):
            if block.info.startswith("python"):
                assert block.info in ("python", "python before", "python after"), (
                    f"{block.where}: {block.info!r}"
                )


def test_every_rule_page_has_examples():
    for path in sorted((ROOT / "docs" / "rules").glob("*.md")):
        codes = re.findall(r"^## (MR\d{3}) ", path.read_text(encoding="utf-8"), flags=re.M)
        assert codes, f"{path.name}: no `## MRxxx name` heading"
        if all(code.startswith("MR9") for code in codes):
            continue  # the engine's own codes (files it could not process) rewrite nothing
        assert any(b.path == path for b, _ in PAIRS), f"{path.name}: no before/after example"


@pytest.mark.parametrize("before, after", PAIRS, ids=[b.where for b, _ in PAIRS])
def test_before_after_pair(tmp_path, before, after):
    check_transformed(tmp_path, before.text, after.text)


GUIDE_BLOCKS = [b for p in sorted((ROOT / "docs" / "migration").glob("*.md")) for b in blocks(p)]


@pytest.mark.parametrize("block", [b for b in GUIDE_BLOCKS if b.info == "python"], ids=lambda b: b.where)
def test_python_blocks_parse(block):
    ast.parse(block.text, filename=block.where)


@pytest.mark.parametrize("block", [b for b in GUIDE_BLOCKS if b.info == "toml"], ids=lambda b: b.where)
def test_toml_blocks_are_real_settings(block):
    table = tomllib.loads(block.text)["tool"]["migrate-roots"]
    Settings.from_mapping(table)  # unknown keys are refused (extra="forbid")


@pytest.mark.parametrize("block", [b for b in GUIDE_BLOCKS if b.info == "yaml"], ids=lambda b: b.where)
def test_yaml_blocks_parse(block):
    yaml.safe_load(block.text)
