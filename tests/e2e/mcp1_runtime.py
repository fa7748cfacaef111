"""A legacy mcp 1.x FastMCP server, before migration: tools built at run time with a synthesized
`__signature__` that declares `project_dir`, the arguments handed on as a dict, and roots read only when
the caller left `project_dir` out (Myco's shape)."""

import inspect
from typing import Annotated, Any
from urllib.parse import unquote, urlparse

from mcp.server.fastmcp import Context, FastMCP
from pydantic import Field

mcp = FastMCP("e2e-mcp1-runtime")


async def _root_from_client(ctx: Any) -> str | None:
    try:
        session = getattr(ctx, "session", None)
        if session is None or not hasattr(session, "list_roots"):
            return None
        result = await session.list_roots()
    except Exception:
        return None
    return unquote(urlparse(str(result.roots[0].uri)).path) if result.roots else None


async def _invoke(name: str, args: dict[str, Any], ctx: Any) -> str:
    args_in = dict(args)
    project_dir: str | None = None
    raw = args_in.pop("project_dir", None)
    if raw:
        project_dir = str(raw)
    if project_dir is None and ctx is not None:
        project_dir = await _root_from_client(ctx)
    return project_dir or "no project"


def _signature() -> inspect.Signature:
    described = Field(description="Absolute path of the project; else the client's first root.")
    return inspect.Signature(
        [
            inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context),
            inspect.Parameter(
                "project_dir",
                inspect.Parameter.KEYWORD_ONLY,
                default=None,
                annotation=Annotated[str | None, described],
            ),
        ]
    )


def _make(name: str) -> Any:
    async def _handler(ctx: Context, **kwargs: Any) -> str:
        clean = {k: v for k, v in kwargs.items() if v is not None}
        return await _invoke(name, clean, ctx)

    _handler.__name__ = name
    _handler.__signature__ = _signature()  # type: ignore[attr-defined]
    return _handler


for tool_name in ("where", "where_all"):
    mcp.add_tool(_make(tool_name), name=tool_name, description="The project directory.")


if __name__ == "__main__":
    mcp.run()
