"""Types the project spells for the SDK's objects, read by `typed.py` (sweep N of session 22): an alias of the
Context (r04), a Protocol whose `session` its base Protocol declares (r09), one whose `list_roots()` is a
session's (r05)."""

from typing import Any, Protocol

from sdk import Context, ListRootsResult, ServerSession

AppCtx = Context[ServerSession, Any]


class HasSession(Protocol):
    session: ServerSession


class ToolCtx(HasSession, Protocol):
    request_id: str


class RootsSession(Protocol):
    async def list_roots(self) -> ListRootsResult: ...
