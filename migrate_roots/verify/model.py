"""The data `verify` returns: sessions, one row of cells per tool and check, the exit code. No printing."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

SCHEMA_VERSION = 1

EXIT_OK, EXIT_FAILED, EXIT_NOT_STARTED = 0, 1, 2

#: (session id, era, client roots, label), in the order they run. The first is the baseline.
SESSIONS: tuple[tuple[str, str, bool, str], ...] = (
    ("legacy-roots", "legacy", True, "legacy + roots"),
    ("legacy-noroots", "legacy", False, "legacy, no roots"),
    ("modern", "2026-07-28", True, "2026-07-28"),
)
SESSION_LABELS = {sid: label for sid, _era, _roots, label in SESSIONS}

#: check id -> what it proves
CHECKS = {
    "listed": "the tool is in tools/list (with its path argument in inputSchema)",
    "with-argument": "called with the path argument set to the workspace: a result, not an error",
    "without-argument": "called without it: the same answer via roots (legacy + roots), else a tool error "
    "that names the argument",
    "call": "called with arguments from its schema or --args: a result, not an error",
}

PASS, FAIL, SKIP = "pass", "fail", "skip"


@dataclass
class Call:
    """What the client saw for one tools/call."""

    args: dict[str, Any]
    is_error: bool
    text: str
    raised: str | None = (
        None  # the exception the client raised: a protocol error, a timeout, a lost connection
    )


@dataclass
class SessionRun:
    """One session as it ran: its listing and its calls, keyed (tool, variant)."""

    id: str
    workspace: str | None = None
    status: str = "ran"  # "ran", "skipped", "failed"
    reason: str | None = None
    tools: dict[str, Any] = field(default_factory=dict)  # name -> inputSchema
    calls: dict[tuple[str, str], Call] = field(default_factory=dict)  # (tool, "with"|"without"|"call")


@dataclass
class Cell:
    session: str
    status: str  # PASS, FAIL, SKIP
    summary: str  # a few words for the table
    detail: str | None = None  # the answer or error it is judged on (workspace shown as <workspace>)


@dataclass
class Row:
    tool: str
    check: str
    label: str  # e.g. "without `root`"
    cells: list[Cell]


@dataclass
class ToolInfo:
    name: str
    path_argument: str | None
    shape: str | None
    found_by: str | None
    called: bool
    args: dict[str, Any]  # the arguments besides the path argument
    args_from: str


@dataclass
class SessionInfo:
    id: str
    label: str
    era: str
    roots: bool
    status: str
    reason: str | None


@dataclass
class VerifyResult:
    command: list[str]
    python: str
    sdk: dict[str, str | None]
    timeout: float
    sessions: list[SessionInfo]
    tools: list[ToolInfo]
    rows: list[Row]
    exit_code: int
    error: str | None = None  # why the server did not start (exit 2)
    stderr_tail: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def failures(self) -> list[tuple[Row, Cell]]:
        return [(row, cell) for row in self.rows for cell in row.cells if cell.status == FAIL]

    @property
    def counts(self) -> dict[str, int]:
        out = {PASS: 0, FAIL: 0, SKIP: 0}
        for row in self.rows:
            for cell in row.cells:
                out[cell.status] += 1
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> VerifyResult:
        """The inverse of `to_json` (for renderers that read `--format json`, e.g. the GitHub Action)."""
        fields = {k: v for k, v in data.items() if k not in ("schema_version", "ok", "counts")}
        fields["sessions"] = [SessionInfo(**s) for s in data["sessions"]]
        fields["tools"] = [ToolInfo(**t) for t in data["tools"]]
        fields["rows"] = [
            Row(r["tool"], r["check"], r["label"], [Cell(**c) for c in r["cells"]]) for r in data["rows"]
        ]
        return cls(**fields)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["schema_version"] = SCHEMA_VERSION
        data["ok"] = self.exit_code == EXIT_OK
        data["counts"] = self.counts
        return data
