"""Property tests: generated roots-using servers migrate into code that parses, defines every name it uses and
is stable under a second run; arbitrary bytes never crash the engine."""

from __future__ import annotations

import keyword
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrate_roots import codemods, engine, sourcefile
from migrate_roots.config import Settings
from migrate_roots.model import FileResult
from tests.helpers import flakes, run_engine

RESERVED = set(keyword.kwlist) | {
    "mcp", "server", "ctx", "Context", "FastMCP", "fm", "root", "roots", "result", "str", "list", "print",
    "Annotated", "Field", "RootPath", "RootPaths", "list_roots_compat", "self", "await", "async", "None",
}  # fmt: skip
names = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True).filter(lambda n: n not in RESERVED)


@st.composite
def servers(draw: st.DrawFn) -> dict[str, str]:
    """A package: `server.py` with one to three tools, possibly reaching roots through a helper chain that
    may live in `helpers.py`."""
    sdk = draw(st.sampled_from(["mcp", "mcp-alias", "module", "fastmcp"]))
    server_var = draw(names)
    ctx_name = draw(names.filter(lambda n: n != server_var))
    ctx_type = draw(st.sampled_from(["Ctx", "Context"])) if sdk in ("mcp-alias",) else "Context"
    if sdk == "mcp":
        header = "from mcp.server.fastmcp import Context, FastMCP\n"
        make, ctx_ann = "FastMCP", "Context"
    elif sdk == "mcp-alias":
        header = f"from mcp.server.fastmcp import Context as {ctx_type}, FastMCP as Server\n"
        make, ctx_ann = "Server", ctx_type
    elif sdk == "module":
        header = "from mcp.server import fastmcp as fm\n"
        make, ctx_ann = "fm.FastMCP", "fm.Context"
    else:
        header = "from fastmcp import Context, FastMCP\n"
        make, ctx_ann = "FastMCP", "Context"
    call = "list_roots()" if sdk == "fastmcp" else "session.list_roots()"
    comment = draw(st.sampled_from(["", "  # where are we?", "  # noqa"]))
    blank = "\n" * draw(st.integers(1, 3))
    body = [f"{header}{blank}{server_var} = {make}({draw(names)!r})\n"]
    helpers_file: list[str] = []
    used: set[str] = {server_var, ctx_name}
    for _ in range(draw(st.integers(1, 3))):
        tool = draw(names.filter(lambda n: n not in used))
        used.add(tool)
        decorator = draw(st.sampled_from(["tool()", "tool", f"tool(name={tool!r})"]))
        if sdk != "fastmcp" and decorator == "tool":
            decorator = "tool()"
        use = draw(st.sampled_from(["first", "list", "discard"]))
        chain = draw(st.integers(0, 2))
        in_other_file = chain > 0 and draw(st.booleans())
        read = f"await {ctx_name}.{call}"
        roots = "res" if sdk == "fastmcp" else "res.roots"
        if use == "first":
            tail = f"    res = {read}{comment}\n    return str({roots}[0].uri)\n"
        elif use == "list":
            tail = f"    res = {read}\n    return [str(r.uri) for r in {roots}]\n"
        else:
            tail = f"    {read}\n    return 'ok'\n"
        target = f"{tool}_impl"
        chain_names = [f"{tool}_h{i}" for i in range(chain)]
        sink = helpers_file if in_other_file else body
        if chain:
            # helper chain: tool -> h0 -> h1 ... -> roots read
            for i, helper in enumerate(chain_names):
                if i == chain - 1:
                    sink.append(f"\n\nasync def {helper}({ctx_name}: {ctx_ann}):\n{tail}")
                else:
                    nxt = chain_names[i + 1]
                    sink.append(
                        f"\n\nasync def {helper}({ctx_name}: {ctx_ann}):\n    return await {nxt}({ctx_name})\n"
                    )
            target = chain_names[0]
            call_line = f"    return await {target}({ctx_name})\n"
            if in_other_file:
                body[0] = body[0].replace(header, header + f"from .helpers import {target}\n", 1)
            tool_body = call_line
        else:
            tool_body = tail
        async_kw = "async def"
        doc = draw(st.sampled_from(["", '    """A tool."""\n']))
        body.append(
            f"\n\n@{server_var}.{decorator}\n{async_kw} {tool}({ctx_name}: {ctx_ann}) -> object:\n{doc}{tool_body}"
        )
    files = {"server.py": "".join(body)}
    if helpers_file:
        helper_header = {
            "mcp": "from mcp.server.fastmcp import Context\n",
            "mcp-alias": f"from mcp.server.fastmcp import Context as {ctx_type}\n",
            "module": "from mcp.server import fastmcp as fm\n",
            "fastmcp": "from fastmcp import Context\n",
        }[sdk]
        files["helpers.py"] = helper_header + "".join(helpers_file)
    return files


def _write(root: Path, files: dict[str, str]) -> Path:
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for name, text in files.items():
        (pkg / name).write_text(text)
    return pkg


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(servers())
def test_generated_servers_migrate_cleanly(files):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        pkg = _write(root, files)
        for text in files.values():
            compile(text, "server.py", "exec")  # the generator makes valid servers
        results = run_engine(root)
        assert not [r for r in results if r.status.value == "failed"], results
        changed = 0
        for name, old in files.items():
            new = (pkg / name).read_text()
            compile(new, name, "exec")
            if new != old:
                changed += 1
                introduced = {m for m in flakes(new) - flakes(old) if "imported but unused" not in m}
                assert not {m for m in introduced if "undefined name" in m}, (name, introduced, new)
        if (pkg / "_mcp_roots_compat.py").exists():
            compile((pkg / "_mcp_roots_compat.py").read_text(), "shim", "exec")
        snapshot = {p: p.read_bytes() for p in pkg.rglob("*.py")}
        again = run_engine(root)
        assert {p: p.read_bytes() for p in pkg.rglob("*.py")} == snapshot, "second run changed files"
        assert not [r for r in again if r.status.value in ("changed", "failed")]


TOKENS = [b"list_roots", b"ctx.session.list_roots()", b"roots", b"from mcp.server.fastmcp import Context\n"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.binary(max_size=40), st.sampled_from(TOKENS)), max_size=12))
def test_arbitrary_bytes_never_crash_the_engine(parts):
    data = b"".join(parts) + b"\nlist_roots\n"
    options = engine.Options(
        settings=Settings.from_mapping({}), enabled=codemods.select_codes(), write=True, want_diff=True
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.py"
        path.write_bytes(data)
        indexed = engine.index_file(path, options)
        result = indexed if isinstance(indexed, FileResult) else indexed.result
        assert not any(f.code == "MR904" for f in result.findings), result
        if isinstance(indexed, FileResult):
            assert indexed.status.value == "failed"
            assert path.read_bytes() == data
            return
        rewritten = engine.rewrite_file(path, options, {})
        assert not any(f.code == "MR904" for f in rewritten.findings), rewritten
        if rewritten.status.value != "changed":
            assert path.read_bytes() == data


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_decoding_is_total(data):
    """The decoding path: any bytes either decode (and re-encode to the same bytes) or raise DecodeError."""
    try:
        source = sourcefile.decode(data)
    except sourcefile.DecodeError as exc:
        assert exc.line >= 1
        return
    assert source.encode(source.text) == data


def test_engine_run_over_a_folder_of_garbage(tmp_path):
    rng = __import__("random").Random(5)
    for index in range(40):
        blob = bytes(rng.randrange(256) for _ in range(rng.randrange(200)))
        (tmp_path / f"g{index}.py").write_bytes(b"list_roots" + blob)
    before = {p: p.read_bytes() for p in tmp_path.iterdir()}
    results = run_engine(tmp_path, jobs=2)
    assert not [f for r in results for f in r.findings if f.code == "MR904"]
    assert {p: p.read_bytes() for p in tmp_path.iterdir() if p in before} == before
    assert os.path.exists(tmp_path)
