"""Run the sessions: start the client script with the server's python, feed it the calls, collect what it saw.

The client script (client.py, next to this file) runs under `--python`; it starts the server itself, one
process per session, through the SDK's stdio client. Here we only speak JSON lines with it, bound every wait
(each call has its own timeout inside the client; a backstop here ends a client that stops answering), and
always end it: its stdin is closed, then its whole process group is killed. The server processes are the
SDK's to end (it closes their stdin, then terminates them); a server the client could not end still sees its
stdin close when the client dies.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from migrate_roots.verify.checks import evaluate
from migrate_roots.verify.model import (
    EXIT_FAILED,
    EXIT_NOT_STARTED,
    EXIT_OK,
    SESSIONS,
    Call,
    SessionInfo,
    SessionRun,
    ToolInfo,
    VerifyResult,
)
from migrate_roots.verify.plan import PlanError, ToolPlan, plan_tool

CLIENT = Path(__file__).resolve().parent / "client.py"
STDERR_TAIL_LINES = 30
#: importing an SDK can take seconds on a busy machine: the client's first answer gets this long
START_BACKSTOP_S = 120.0


class VerifyError(RuntimeError):
    """A usage problem (no such python, no SDK there, a bad option): a one-line message, exit 2."""


class ClientHung(RuntimeError):
    """The client script stopped answering (it was ended)."""


@dataclass
class Options:
    command: list[str]
    python: str
    tools: Mapping[str, str | None] = field(default_factory=dict)  # --tool NAME[=ARG]
    call_all: bool = False
    args: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # --args FILE
    timeout: float = 30.0
    start_timeout: float = 60.0
    cwd: str | None = None
    seed: Path | None = None  # --seed DIR: copied into each session's workspace


def default_python(cwd: Path) -> str | None:
    """The project's `.venv` interpreter if there is one, else the first `python` (or `python3`) on PATH."""
    for candidate in (cwd / ".venv" / "bin" / "python", cwd / ".venv" / "Scripts" / "python.exe"):
        if candidate.exists():
            return str(candidate)
    return shutil.which("python") or shutil.which("python3")


def load_args_file(path: Path) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise VerifyError(f"--args {path}: cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise VerifyError(f"--args {path}: not JSON: {exc}") from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise VerifyError(f"--args {path}: expected a JSON object of tool name -> arguments object")
    return data


class ClientProcess:
    """The client script as a child process, spoken to in JSON lines."""

    def __init__(self, python: str, cwd: str | None) -> None:
        self.stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed by run()
        try:
            self.proc = subprocess.Popen(
                [python, "-I", str(CLIENT)],  # -I: the project's own modules never shadow the stdlib here
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                cwd=cwd,
                start_new_session=(os.name != "nt"),
            )
        except OSError as exc:
            self.stderr.close()
            raise VerifyError(f"--python {python}: cannot run it: {exc.strerror or exc}") from None
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(b"")

    def send(self, message: dict) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            pass  # it exited: the next receive reports that

    def receive(self, backstop: float) -> dict:
        try:
            line = self.lines.get(timeout=backstop)
        except queue.Empty:
            self.end()
            raise ClientHung(f"the client did not answer within {backstop:g}s and was ended") from None
        if not line:
            raise ClientHung(f"the client exited (code {self.proc.poll()})")
        return dict(json.loads(line))

    def request(self, message: dict, backstop: float) -> dict:
        self.send(message)
        return self.receive(backstop)

    def end(self) -> None:
        if self.proc.stdin and not self.proc.stdin.closed:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=15)
        if os.name != "nt":
            # its group: anything it started in that group, even after it exited
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stderr_tail(self) -> str:
        self.stderr.seek(0)
        lines = self.stderr.read().decode("utf-8", "replace").splitlines()
        return "\n".join(lines[-STDERR_TAIL_LINES:])


def run(options: Options) -> VerifyResult:
    """Every session, every check: the data for the table, the JSON and the exit code."""
    if not options.command:
        raise VerifyError("give the server's start command after `--`, e.g. `verify -- python -m my_server`")
    if options.seed is not None and not options.seed.is_dir():
        raise VerifyError(f"--seed {options.seed}: not a folder")
    client = ClientProcess(options.python, options.cwd)
    try:
        return _run(client, options)
    finally:
        client.end()
        client.stderr.close()


def _run(client: ClientProcess, options: Options) -> VerifyResult:
    setup = {
        "command": options.command,
        "cwd": options.cwd,
        "env": None,
        "timeout": options.timeout,
        "start_timeout": options.start_timeout,
    }
    try:
        hello = client.request(setup, START_BACKSTOP_S)
    except ClientHung as exc:
        raise VerifyError(
            f"--python {options.python}: the client script did not start ({exc}): "
            f"{client.stderr_tail()[-500:]}"
        ) from None
    if not hello.get("hello"):
        raise VerifyError(f"{hello.get('error')}; pass the server's interpreter with --python")
    backstop = 2 * max(options.timeout, options.start_timeout) + 15
    plans: dict[str, ToolPlan] = {}
    runs: list[SessionRun] = []
    infos: list[SessionInfo] = []
    notes: list[str] = []
    not_started: str | None = None
    hung: str | None = None
    for sid, era, with_roots, label in SESSIONS:
        run = SessionRun(sid)
        runs.append(run)
        if hung:
            run.status, run.reason = "failed", hung
        elif not_started is None:
            try:
                _session(client, run, with_roots, options, plans, notes, backstop)
            except ClientHung as exc:
                hung = str(exc)
                run.status, run.reason = "failed", hung
        if run.status == "failed" and not any(r.status == "ran" for r in runs):
            not_started = run.reason
            break
        infos.append(SessionInfo(sid, label, era, with_roots, run.status, run.reason))
    common = dict(
        command=list(options.command),
        python=str(hello.get("python") or options.python),
        sdk=dict(hello.get("sdk") or {}),
        timeout=options.timeout,
    )
    if not_started is not None:
        client.end()
        return VerifyResult(
            **common,  # type: ignore[arg-type]
            sessions=infos,
            tools=[],
            rows=[],
            exit_code=EXIT_NOT_STARTED,
            error=not_started,
            stderr_tail=client.stderr_tail(),
        )
    missing = sorted(set(options.tools) - set(plans))
    notes += [f"--tool {name}: no such tool in tools/list" for name in missing]
    unknown = sorted(set(options.args) - set(plans))
    notes += [f"--args: no tool named {name!r}" for name in unknown]
    if not any(p.path_argument for p in plans.values()):
        notes.append(
            "no tool has a migrate-roots path argument (none carries the marker): name one with --tool NAME=ARG"
        )
    rows = evaluate(plans.values(), runs, options.call_all)
    failed = bool(missing) or any(c.status == "fail" for row in rows for c in row.cells)
    tools = [
        ToolInfo(
            p.name,
            p.path_argument,
            p.shape,
            p.found_by,
            bool(p.path_argument) or options.call_all,
            dict(p.base_args),
            p.args_from,
        )
        for p in plans.values()
    ]
    return VerifyResult(
        **common,  # type: ignore[arg-type]
        sessions=infos,
        tools=tools,
        rows=rows,
        exit_code=EXIT_FAILED if failed else EXIT_OK,
        stderr_tail=client.stderr_tail() if failed else None,
        notes=notes,
    )


def _session(
    client: ClientProcess,
    run: SessionRun,
    with_roots: bool,
    options: Options,
    plans: dict[str, ToolPlan],
    notes: list[str],
    backstop: float,
) -> None:
    workspace = Path(tempfile.mkdtemp(prefix=f"migrate-roots-verify-{run.id}-")).resolve()
    run.workspace = str(workspace)
    try:
        if options.seed is not None:
            shutil.copytree(options.seed, workspace, dirs_exist_ok=True, symlinks=True)
        era = "modern" if run.id == "modern" else run.id
        roots = [workspace.as_uri()] if with_roots else []
        opened = client.request({"op": "open", "era": era, "roots": roots}, backstop)
        if not opened.get("ok"):
            run.status = "skipped" if opened.get("skipped") else "failed"
            run.reason = str(opened.get("reason") or opened.get("error") or "the session did not open")
            client.request({"op": "close"}, backstop)
            return
        run.tools = {t["name"]: t.get("input_schema") for t in opened.get("tools") or []}
        for name, schema in run.tools.items():
            if name not in plans:
                try:
                    plans[name] = plan_tool(name, schema, options.tools, options.args.get(name))
                except PlanError as exc:
                    notes.append(str(exc))
                    plans[name] = plan_tool(name, schema, {}, options.args.get(name))
        for plan in plans.values():
            variants: list[tuple[str, dict[str, Any]]] = []
            if plan.path_argument:
                variants = [("with", plan.with_path(str(workspace))), ("without", plan.without_path())]
            elif options.call_all:
                variants = [("call", plan.without_path())]
            for variant, args in variants:
                answer = client.request({"op": "call", "tool": plan.name, "args": args}, backstop)
                run.calls[(plan.name, variant)] = Call(
                    args, bool(answer.get("is_error")), str(answer.get("text") or ""), answer.get("raised")
                )
        client.request({"op": "close"}, backstop)
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def python_for(cwd: Path, given: str | None) -> str:
    if given:
        return given
    found = default_python(cwd)
    if found is None:
        raise VerifyError("no python found (no .venv here, none on PATH): pass --python")
    return found


__all__ = ["ClientProcess", "Options", "VerifyError", "default_python", "load_args_file", "python_for", "run"]
