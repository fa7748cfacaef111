"""MR212 names what holds the roots by what the name is bound to, not by its case: `CONFIG = Config()` or
`SETTINGS = Settings()` is an instance ("an attribute of a long-lived object"), never "a class attribute, shared
by every instance"; a name bound by a class statement, here or in the module it is imported from, is a class
(sweep K r10 of session 22)."""

from __future__ import annotations

import pytest

from tests.helpers import package, run_engine

CLASS = "a class attribute, shared by every instance"
OBJECT = "an attribute of a long-lived object"

DATACLASS = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass Config:\n    project_dir: str | None = None\n"
)
PLAIN = "class Config:\n    def __init__(self) -> None:\n        self.project_dir: str | None = None\n"
CLASS_LEVEL = "class Config:\n    project_dir: str | None = None\n"
TOOL = """\
from mcp.server.fastmcp import Context, FastMCP
{imports}
mcp = FastMCP("files")

{defs}

@mcp.tool()
async def where(ctx: Context) -> str:
    if not {name}.project_dir:
        result = await ctx.session.list_roots()
        {name}.project_dir = str(result.roots[0].uri)
    return str({name}.project_dir)
"""


def _kept(tmp_path, files: dict[str, str], name: str) -> str:
    root = package(tmp_path, files)
    findings = [f for r in run_engine(root, select=["MR2"], write=False) for f in r.findings]
    kept = [f.message for f in findings if f.message.startswith(f"roots kept on `{name}.project_dir`")]
    assert len(kept) == 1 and all(f.code == "MR212" for f in findings), findings
    return kept[0]


@pytest.mark.parametrize(
    ("defs", "name"),
    [
        (CLASS_LEVEL, "Config"),  # the class itself
        (CLASS_LEVEL.replace("Config", "config"), "config"),  # a class, whatever its case
    ],
    ids=["class", "lower-case-class"],
)
def test_noop_class_statement_stays_a_class_attribute(tmp_path, defs, name):
    message = _kept(tmp_path, {"server.py": TOOL.format(imports="", defs=defs, name=name)}, name)
    assert f"outlive the request ({CLASS})" in message, message


@pytest.mark.parametrize(
    ("defs", "name"),
    [
        (DATACLASS + "\n\nCONFIG = Config()\n", "CONFIG"),
        (PLAIN + "\n\nCONFIG = Config()\n", "CONFIG"),
        (CLASS_LEVEL + "\n\nSETTINGS = Config()\n", "SETTINGS"),
        (DATACLASS + "\n\nconfig = Config()\n", "config"),  # right before too
        ("def _make():\n    return object()\n\n\nSTATE = _make()\n", "STATE"),  # an object a call makes
    ],
    ids=["dataclass-instance", "plain-instance", "instance-of-class-level", "lower-case", "factory"],
)
def test_an_instance_is_not_a_class_attribute(tmp_path, defs, name):
    message = _kept(tmp_path, {"server.py": TOOL.format(imports="", defs=defs, name=name)}, name)
    assert f"outlive the request ({OBJECT})" in message, message
    assert "class attribute" not in message, message


def test_pydantic_copy_on_an_instance(tmp_path):
    """`global SETTINGS; SETTINGS = SETTINGS.model_copy(update=...)` (sweep K r10, src_pydantic_global)."""
    server = """\
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("files")


class Settings(BaseModel):
    project_dir: Path | None = None


SETTINGS = Settings()


@mcp.tool()
async def where(ctx: Context) -> str:
    global SETTINGS
    if SETTINGS.project_dir is None:
        result = await ctx.session.list_roots()
        SETTINGS = SETTINGS.model_copy(update={"project_dir": Path(str(result.roots[0].uri))})
    return str(SETTINGS.project_dir)
"""
    root = package(tmp_path, {"server.py": server})
    findings = [f for r in run_engine(root, select=["MR2"], write=False) for f in r.findings]
    copied = [f.message for f in findings if f.code == "MR212"]
    assert len(copied) == 1, findings
    said = "roots handed to `SETTINGS.model_copy()` stay on `SETTINGS` (an object the module keeps, shared by every"
    assert said in copied[0], copied[0]
    assert "class attribute" not in copied[0], copied[0]


@pytest.mark.parametrize(
    ("config", "imports", "name", "said"),
    [
        (
            DATACLASS + "\n\nCONFIG = Config()\n",
            "\nfrom .config import CONFIG\n",
            "CONFIG",
            "an attribute of `CONFIG`, an object imported from `.config` and shared by every request",
        ),
        (
            CLASS_LEVEL,
            "\nfrom .config import Config\n",
            "Config",
            "a class attribute of `Config`, a class imported from `.config` and shared by every request",
        ),
        (
            CLASS_LEVEL,
            "\nfrom .config import Config as Cfg\n",
            "Cfg",
            "a class attribute of `Cfg`, a class imported from `.config` and shared by every request",
        ),
        (  # re-exported from a third module: not shown to be a class there, said as an object
            "from .models import Config\n",
            "\nfrom .config import Config\n",
            "Config",
            "an attribute of `Config`, an object imported from `.config` and shared by every request",
        ),
    ],
    ids=["instance", "class", "class-renamed", "re-exported"],
)
def test_imported_holder_by_its_binding(tmp_path, config, imports, name, said):
    files = {
        "config.py": config,
        "models.py": CLASS_LEVEL,
        "server.py": TOOL.format(imports=imports, defs="", name=name),
    }
    message = _kept(tmp_path, files, name)
    assert f"outlive the request ({said})" in message, message
