"""A tool nested in a class's `__init__`, reaching roots through an attribute of `self` that the class binds
once to an instance of a package class (`self.ws = Workspace()`, then `await self.ws.first(ctx)`)."""

from app import mcp
from sdk import Context
from workspace import Workspace


class Held:
    def __init__(self) -> None:
        self.ws = Workspace()

        @mcp.tool()
        async def where_held(ctx: Context) -> str:
            """The project directory, through the instance this object holds."""
            return await self.ws.first(ctx)


held = Held()
