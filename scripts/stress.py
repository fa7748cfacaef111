"""Large-tree round trip: `migrate-roots apply` over tens of thousands of real files, checked file by file.

    /tmp/venv/bin/python scripts/stress.py                       # every installed library + 200 servers
    /tmp/venv/bin/python scripts/stress.py --limit 5000 --select MR1   # a quicker run

Copies the `.py` files of every site-packages (and the standard library) it finds into a scratch folder
(default: a fresh temporary folder; not a git work tree, so the dirty-tree guard does not apply), adds
generated roots-using servers, hashes every file, runs `apply` (a real write) and checks:
- zero crashes: no MR904 finding, no traceback, exit code 0, 1 or 3;
- every file the run did not report as changed is byte-identical;
- every changed file parses (libcst, and `compile()` when this Python knows the syntax);
- a second run changes nothing.
Prints the figures (files, MB, seconds, findings by code) and exits 1 on any violation.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.servers import write_servers  # noqa: E402

BIN = str(Path(sys.executable).with_name("migrate-roots"))


def sources() -> list[Path]:
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    dirs = [Path(sysconfig.get_paths()["purelib"]), Path(sysconfig.get_paths()["stdlib"])]
    for prefix in (sys.base_prefix, "/usr/local", "/usr"):
        dirs += [Path(prefix) / "lib" / version / "site-packages", Path(prefix) / "lib/python3/dist-packages"]
    dirs += sorted((ROOT / ".sdk-envs").glob("*/lib/python*/site-packages"))
    return [d for d in dict.fromkeys(d.resolve() for d in dirs) if d.is_dir()]


def build(target: Path, limit: int, servers: int) -> int:
    count = 0
    for index, source in enumerate(sources()):
        for path in sorted(source.rglob("*.py")):
            rel = path.relative_to(source)
            if "site-packages" in rel.parts or "__pycache__" in rel.parts or not path.is_file():
                continue
            dest = target / f"src{index}" / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
            count += 1
            if limit and count >= limit:
                break
        if limit and count >= limit:
            break
    write_servers(target / "servers", servers, seed=11)
    return count


def digest(folder: Path) -> dict[str, str]:
    out = {}
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            out[path.relative_to(folder).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def apply(folder: Path, select: list[str], jobs: int) -> tuple[int, dict, str, float]:
    cmd = [BIN, "apply", ".", "--no-progress", "--format", "json", "-j", str(jobs)]
    for code in select:
        cmd += ["--select", code]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=folder, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    try:
        report = json.loads(proc.stdout or "{}")
    except json.JSONDecodeError:
        report = {}
    return proc.returncode, report, proc.stderr, seconds


def results_of(report: dict) -> list[dict]:
    for key in ("results", "files"):
        if isinstance(report.get(key), list):
            return report[key]
    return []


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workdir", type=Path, help="scratch folder (default: a new temporary folder)")
    parser.add_argument("--limit", type=int, default=0, help="copy at most this many library files")
    parser.add_argument("--servers", type=int, default=200)
    parser.add_argument("--select", action="append", default=[])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="migrate-roots-stress-"))
    tree = work / "tree"
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir(parents=True)
    copied = build(tree, args.limit, args.servers)
    before = digest(tree)
    size = sum((tree / p).stat().st_size for p in before)
    print(f"tree: {len(before)} files ({copied} library files, {args.servers} servers), {size / 1e6:.0f} MB")
    import libcst as cst

    problems: list[str] = []
    code, report, stderr, seconds = apply(tree, args.select, args.jobs)
    results = results_of(report)
    findings = Counter(f["code"] for r in results for f in r.get("findings", []))
    changed = {r["path"] for r in results if r.get("status") == "changed"}
    print(
        f"apply: exit {code} in {seconds:.1f} s; {len(changed)} changed; findings: {dict(sorted(findings.items()))}"
    )
    if code not in (0, 1, 3) or "Traceback" in stderr or not report:
        problems.append(f"crash: exit {code}: {stderr[-3000:]}")
    if findings.get("MR904"):
        internal = [r["path"] for r in results if any(f["code"] == "MR904" for f in r.get("findings", []))]
        problems.append(f"{findings['MR904']} internal errors (MR904): {internal[:10]}")
    after = digest(tree)
    changed_norm = {Path(p).as_posix().removeprefix("./") for p in changed}
    for name, old in before.items():
        if after.get(name) != old and name not in changed_norm:
            problems.append(f"touched but not reported as changed: {name}")
    parsed = compiled = 0
    for name in sorted(changed_norm):
        path = tree / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        try:
            cst.parse_module(data)
            parsed += 1
        except Exception as exc:  # noqa: BLE001 - any failure is a finding of this script
            problems.append(f"changed file does not parse: {name}: {exc}")
            continue
        try:
            compile(data, name, "exec", dont_inherit=True)
            compiled += 1
        except SyntaxError:
            pass  # newer syntax than this interpreter: libcst's parse above is the check
    new_files = sorted(set(after) - set(before))
    print(
        f"changed files: {parsed} parse with libcst, {compiled} also compile(); new files: {len(new_files)}"
    )
    code2, report2, stderr2, seconds2 = apply(tree, args.select, args.jobs)
    again = [r["path"] for r in results_of(report2) if r.get("status") == "changed"]
    print(f"second run: exit {code2} in {seconds2:.1f} s; {len(again)} changed")
    if again:
        problems.append(f"second run changed {len(again)} files: {again[:10]}")
    if digest(tree) != after:
        problems.append("second run modified bytes")
    for problem in problems[:50]:
        print("PROBLEM:", problem)
    print(f"{len(problems)} problem(s); scratch folder: {work}")
    if not args.keep and not problems:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
