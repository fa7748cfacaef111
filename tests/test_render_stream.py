"""`scan`/`apply` render each result as the engine yields it; the streamed JSON equals the whole document."""

from __future__ import annotations

import io

import pytest

from migrate_roots import __version__
from migrate_roots.model import (
    Action,
    FileResult,
    Finding,
    Report,
    Severity,
    Status,
    Summary,
    ToolChange,
    to_json,
)
from migrate_roots.report.render import Seen, stream_json


def _result(n: int) -> FileResult:
    finding = Finding(
        path=f"pkg/é{n}.py",
        line=n,
        col=1,
        code="MR101",
        message='`session.list_roots()` "quoted"\n',
        severity=Severity.BROKEN,
        action=Action.REWRITTEN,
        tool="where",
    )
    tool = ToolChange(tool="where", path=f"pkg/é{n}.py", line=n, parameter="root", shape="single")
    return FileResult(
        path=f"pkg/é{n}.py",
        status=Status.CHANGED if n % 2 else Status.FAILED,
        findings=[finding] * n,
        tools=[tool],
        diff="--- a\n+++ b\n" if n % 2 else None,
    )


@pytest.mark.parametrize("count", [0, 1, 3])
def test_streamed_json_is_the_whole_document(count):
    results = [_result(n) for n in range(count)]
    summary = Summary(files_seen=count, findings_by_code={"MR101": count} if count else {}, seconds=0.25)
    out = io.StringIO()
    seen = Seen()
    stream_json(iter(results), summary, seen, out)
    assert out.getvalue() == to_json(Report(tool_version=__version__, files=results, summary=summary)) + "\n"
    assert seen.failed == (count > 0) and seen.changed == (count > 1) and seen.findings == (count > 1)


def test_summary_is_read_after_the_last_result():
    summary = Summary()

    def results():
        yield _result(1)
        summary.files_seen = 7  # the engine fills the summary in when it is done

    out = io.StringIO()
    stream_json(results(), summary, Seen(), out)
    assert '"files_seen": 7' in out.getvalue()
