"""Generated annotations evaluate at runtime on the oldest Python a project declares (pyenv's 3.8 and 3.9).

The SDKs need 3.10, but `target-version` (or `requires-python`) may say older; FastMCP evaluates parameter
annotations at runtime, so `str | None` would crash there. Stub modules stand in for mcp, pydantic and
typing_extensions: what is checked is the spelling, with `typing.get_type_hints` on the real interpreter.
"""

from __future__ import annotations

import glob
import subprocess
import textwrap

import pytest

from tests.helpers import run_engine

SERVER = textwrap.dedent(
    """\
    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")

    @mcp.tool()
    async def one(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)

    @mcp.tool()
    async def every(ctx: Context) -> int:
        result = await ctx.session.list_roots()
        return len(result.roots)
    """
)

STUBS = {
    "mcp/__init__.py": "",
    "mcp/server/__init__.py": "",
    "mcp/server/fastmcp.py": textwrap.dedent(
        """\
        class Context: ...
        class FastMCP:
            def __init__(self, name): self.tools = []
            def tool(self):
                def register(fn):
                    self.tools.append(fn)
                    return fn
                return register
        """
    ),
    "pydantic.py": "class Field:\n    def __init__(self, **kw):\n        self.kw = kw\n",
    "typing_extensions.py": textwrap.dedent(
        """\
        class _Annotated:
            def __class_getitem__(cls, item):
                return item[0]
        Annotated = _Annotated
        """
    ),
    "_mcp_roots_compat.py": "async def list_roots_compat(*a, **k): ...\n",
}

CHECK = textwrap.dedent(
    """\
    import typing, server
    for fn in server.mcp.tools:
        hints = typing.get_type_hints(fn)
        print(fn.__name__, hints["root"])
    """
)


def interpreter(version: str) -> str:
    found = sorted(glob.glob(f"/root/.pyenv/versions/{version}.*/bin/python"))
    if not found:
        pytest.skip(f"no Python {version} here")
    return found[-1]


def migrate(tmp_path, target: str):
    (tmp_path / "server.py").write_text(SERVER)
    for name, text in STUBS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "_mcp_roots_compat.py").unlink()
    run_engine(tmp_path, settings={"target-version": target})
    (tmp_path / "_mcp_roots_compat.py").write_text(STUBS["_mcp_roots_compat.py"])


@pytest.mark.parametrize("version", ["3.8", "3.9"])
def test_generated_annotations_evaluate(tmp_path, version):
    python = interpreter(version)
    migrate(tmp_path, version)
    out = subprocess.run([python, "-c", CHECK], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    # 3.8 prints Optional[X] as Union[X, NoneType]; 3.9 as Optional[X].
    lines = out.stdout.replace("typing.Union[str, NoneType]", "typing.Optional[str]").splitlines()
    lines = [
        line.replace("typing.Union[typing.List[str], NoneType]", "typing.Optional[typing.List[str]]")
        for line in lines
    ]
    assert lines == ["one typing.Optional[str]", "every typing.Optional[typing.List[str]]"]


def test_modern_spelling_would_fail_on_39(tmp_path):
    """The negative control: the 3.10 spelling really breaks on 3.9, so the test above can fail."""
    python = interpreter("3.9")
    migrate(tmp_path, "3.10")
    assert "str | None" in (tmp_path / "server.py").read_text()
    out = subprocess.run([python, "-c", CHECK], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode != 0
    assert "unsupported operand type(s) for |" in out.stderr
