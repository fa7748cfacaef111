"""migrate-roots benchmarks: every figure is a ratio against a baseline measured in the same run.

    /tmp/venv/bin/python -m benchmarks            # all five (builds benchmarks/.work/ the first time)
    /tmp/venv/bin/python -m benchmarks 1 5        # only some
    /tmp/venv/bin/python -m benchmarks --servers 500 --big 5000   # smaller all-hits trees

Trees live in benchmarks/.work/ (gitignored), each its own git repository so discovery sees its files:
- `libs/`: the `.py` files of big installed libraries (numpy, boto3, botocore, moto, hypothesis, ...), no MCP
  roots user (moto's AWS Organizations `list_roots` does hold the trigger token: a realistic false positive);
- `few/`: `libs/` plus 20 generated roots-using servers;
- `all-N/`: N generated roots-using servers (one package each; one in six with a helper module).
Wall times are the best of `--repeat` runs (default 3) of the real command in a subprocess.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "benchmarks" / ".work"
PY = sys.executable
BIN = str(Path(PY).with_name("migrate-roots"))
LIBRARIES = ("numpy", "boto3", "botocore", "moto", "hypothesis", "IPython", "awscli", "pydantic", "libcst")
TIMEOUT = 900  # seconds; a command that takes longer is reported as inf
TOKENS = ("list_roots",)  # the prefilter's trigger tokens (codemods.trigger_pattern)

sys.path.insert(0, str(ROOT))


from benchmarks.servers import EVERYDAY, write_servers  # noqa: E402


def site_dirs() -> list[Path]:
    dirs = [Path(sysconfig.get_paths()["purelib"])]
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for prefix in (sys.base_prefix, "/usr/local", "/usr"):
        dirs += [Path(prefix) / "lib" / version / "site-packages", Path(prefix) / "lib/python3/dist-packages"]
    return [d for d in dict.fromkeys(dirs) if d.is_dir()]


def _git_init(folder: Path) -> None:
    run = lambda *a: subprocess.run(["git", *a], cwd=folder, check=True, capture_output=True)  # noqa: E731
    run("init", "-q")
    run("add", "-A")
    run("-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "tree")


def build_libs() -> Path:
    target = WORK / "libs"
    if (target / ".git").is_dir():
        return target
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for name in LIBRARIES:
        source = next((d / name for d in site_dirs() if (d / name).is_dir()), None)
        if source is None:
            print(f"  (library {name} not installed; skipped)")
            continue
        for path in source.rglob("*.py"):
            dest = target / name / path.relative_to(source)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
    _git_init(target)
    return target


def build_few(everyday: bool = False) -> Path:
    target = WORK / ("few-everyday" if everyday else "few")
    if (target / ".git").is_dir():
        return target
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(build_libs(), target, ignore=shutil.ignore_patterns(".git"))
    write_servers(target / "servers", 20, seed=1, names=EVERYDAY if everyday else ())
    _git_init(target)
    return target


def build_all(count: int) -> Path:
    target = WORK / f"all-{count}"
    if (target / ".git").is_dir():
        return target
    shutil.rmtree(target, ignore_errors=True)
    write_servers(target, count, seed=2)
    _git_init(target)
    return target


def py_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*.py") if ".git" not in p.parts]


# ---------------------------------------------------------------------------------------------------------
# Measuring


class PeakRSS:
    """Peak of the summed RSS of a process and all its descendants, and of the process alone (`main`),
    sampled every 20 ms from /proc."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self.main, self._stop = pid, 0, 0, threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _tree(self) -> list[int]:
        pids, frontier = [], [self.pid]
        while frontier:
            pid = frontier.pop()
            pids.append(pid)
            try:
                for task in os.listdir(f"/proc/{pid}/task"):
                    frontier += [
                        int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()
                    ]
            except OSError:
                pass
        return pids

    def _rss(self, pid: int) -> int:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0

    def _loop(self) -> None:
        while not self._stop.is_set():
            sizes = {p: self._rss(p) for p in self._tree()}
            self.peak = max(self.peak, sum(sizes.values()))
            self.main = max(self.main, sizes.get(self.pid, 0))
            time.sleep(0.02)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


MAIN_RSS: dict[str, int] = {}  # command -> peak RSS of its main process, from the last `timed(rss=True)`


def timed(cmd: list[str], cwd: Path | None = None, repeat: int = 3, rss: bool = False) -> tuple[float, int]:
    """Best wall time of `repeat` runs (and peak tree RSS in bytes when asked)."""
    best, peak = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        meter = PeakRSS(proc.pid) if rss else None
        try:
            _, err = proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.communicate()
            if meter is not None:
                meter.stop()
            print(f"  (timed out after {TIMEOUT} s: {' '.join(cmd[:4])} ...)", flush=True)
            return float("inf"), 0
        elapsed = time.perf_counter() - start
        if meter is not None:
            peak = max(peak, meter.stop())
            MAIN_RSS[" ".join(cmd)] = max(MAIN_RSS.get(" ".join(cmd), 0), meter.main)
        if proc.returncode not in (0, 1, 3) or b"Traceback" in err:  # 3: some files unparsable
            raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {err.decode()[-2000:]}")
        best = min(best, elapsed)
    return best, peak


def timed_rounds(
    cmds: dict[str, list[str]], cwd: Path | None, repeat: int, rss: tuple[str, ...] = ()
) -> dict[str, tuple[float, int]]:
    """Best wall time (and peak RSS) of each command over `repeat` rounds, the commands taking turns within a
    round: on this VM a slow spell lasts minutes, and commands timed one block after another compared the
    spells, not the commands (-j 1 of one command varied by 1.3x within ten minutes)."""
    best: dict[str, tuple[float, int]] = {k: (float("inf"), 0) for k in cmds}
    for _ in range(repeat):
        for key, cmd in cmds.items():
            wall, peak = timed(cmd, cwd, 1, rss=key in rss)
            best[key] = (min(best[key][0], wall), max(best[key][1], peak))
    return best


# The machine's own -j 2 speed-up: the same pure-Python loop twice, in a pool of one process and of two. On a
# VM whose two cores are shared, this ceiling was 1.65x-2.2x minutes apart; a -j ratio is read against it.
CEILING = """
import multiprocessing, sys
def work(n):
    total = 0
    for i in range(n):
        total += i * i
    return total
if __name__ == "__main__":
    with multiprocessing.get_context("fork").Pool(int(sys.argv[1])) as pool:
        pool.map(work, [int(sys.argv[2])] * 2, chunksize=1)
"""


READ_LOOP = """
import os, sys
n = 0
for dirpath, dirnames, filenames in os.walk(sys.argv[1]):
    dirnames[:] = [d for d in dirnames if d != ".git"]
    for name in filenames:
        if name.endswith(".py"):
            with open(os.path.join(dirpath, name), "rb") as handle:
                n += len(handle.read())
print(n)
"""

# Run with -P: the trees hold copies of libcst and pydantic sources, which must not shadow the installed ones.
# The baseline of benchmark 3 is libcst's parse plus its providers for what the tool reads of a tree: node
# positions and scopes (PositionProvider, ScopeProvider, and the ExpressionContextProvider the scopes depend
# on). `--four` adds the parent and qualified-name providers the tool resolved until 2026-12-01; `--ours` is
# parse plus the tool's own equivalent of them all (`codemods.base.resolve`): the strictest baseline.
LIBCST_ALONE = """
import sys
from pathlib import Path
import libcst as cst
from libcst.metadata import ParentNodeProvider, PositionProvider, QualifiedNameProvider, ScopeProvider
providers = (PositionProvider, ScopeProvider)
if sys.argv[1] == "--four":
    providers = (*providers, ParentNodeProvider, QualifiedNameProvider)
    del sys.argv[1]
resolve = lambda wrapper: wrapper.resolve_many(providers)
if sys.argv[1] == "--ours":
    from migrate_roots.codemods.base import resolve
    del sys.argv[1]
for name in sys.argv[1:]:
    for path in sorted(Path(name).rglob("*.py")):
        data = path.read_bytes()
        if not data.strip():  # the empty __init__.py files: the tool parses every other file of the tree
            continue
        module = cst.parse_module(data.decode("utf-8"))
        resolve(cst.MetadataWrapper(module, unsafe_skip_copy=True))
"""


def compile_bytecode() -> None:
    """Compile the tool's modules as `pip install` does (this machine sets PYTHONDONTWRITEBYTECODE=1, under
    which an editable install recompiled every rule module on every run: 0.1-0.2 s of each run that parses)."""
    subprocess.run(
        [
            PY,
            "-m",
            "compileall",
            "-q",
            str(ROOT / "migrate_roots"),
        ],
        check=True,
        capture_output=True,
    )


def mr(*args: str) -> list[str]:
    return [BIN, *args, "--no-progress", "-q"]


def line(label: str, value: str, target: str = "", ok: bool | None = None) -> str:
    verdict = "" if ok is None else ("  ok" if ok else "  MISSED")
    text = f"  {label:<58} {value:>14}  {target}{verdict}"
    print(text, flush=True)
    return text


# ---------------------------------------------------------------------------------------------------------
# The benchmarks


def trigger_regex(select: list[str]) -> str:
    """The prefilter's pattern as an extended regex for grep (the same tokens the engine searches)."""
    out = subprocess.run(
        [
            PY,
            "-c",
            "from migrate_roots import codemods; p = codemods.trigger_pattern(codemods.select_codes(__import__('sys')"
            ".argv[1:])); print(p.pattern.decode() if p else '')",
            *select,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return out


def bench_nohit(repeat: int, rule_sets: list[list[str]]) -> list[str]:
    libs = build_libs()
    files = py_files(libs)
    size = sum(p.stat().st_size for p in files)
    print(f"1. no-hit tree: {len(files)} files, {size / 1e6:.1f} MB ({libs})")
    loop, _ = timed([PY, "-P", "-c", READ_LOOP, "."], libs, repeat)
    empty = WORK / "empty"
    empty.mkdir(parents=True, exist_ok=True)
    # Start-up: the same command on a folder with nothing in it (interpreter, typer, pydantic, the catalogue).
    start, _ = timed(mr("scan", "."), empty, repeat)
    out = [line("python read-all-bytes loop", f"{loop:.3f} s")]
    out.append(line("migrate-roots scan of an empty folder (start-up)", f"{start:.3f} s"))
    for select in rule_sets:
        label = "+".join(select) if select else "default rules"
        pattern = trigger_regex(select)
        times = repeat
        grep, _ = timed(["grep", "-rlE", "--include=*.py", "--exclude-dir=.git", pattern, "."], libs, repeat)
        scan, _ = timed(mr("scan", ".", *_sel(select)), libs, times)
        out.append(line(f"[{label}] grep -rlE for the trigger tokens", f"{grep:.3f} s"))
        out.append(line(f"[{label}] scan wall time", f"{scan:.3f} s"))
        out.append(
            line(f"[{label}] scan / read loop", f"{scan / loop:.2f}x", "target <= 3x", scan / loop <= 3)
        )
        out.append(line(f"[{label}] scan / grep", f"{scan / grep:.2f}x"))
        out.append(line(f"[{label}] (scan - start-up) / read loop", f"{(scan - start) / loop:.2f}x"))
        # The prefilter shares the tree with forked children (migrate_roots/fanout.py); one process, for scale.
        serial, _ = timed(mr("scan", ".", "-j", "1", *_sel(select)), libs, times)
        out.append(line(f"[{label}] scan -j 1 / read loop", f"{serial / loop:.2f}x"))
    return out


def _sel(select: list[str]) -> list[str]:
    return [x for code in select for x in ("--select", code)]


def bench_few(
    repeat: int, libcst_runner: bool, rule_sets: list[list[str]], everyday: bool = False
) -> list[str]:
    few = build_few(everyday)
    files = py_files(few)
    named = f" named {', '.join(EVERYDAY)}" if everyday else ""
    print(f"2. few hits: {len(files)} files, 20 roots-using servers{named} ({few})")
    out = [parsed_line(few, rule_sets)] if everyday else []
    measured = []
    # What parsing the servers' files alone costs (one process): the scan spreads it over two. The commands
    # take turns within each round (`timed_rounds`).
    cmds = {"base": ["env", f"PYTHONPATH={ROOT}", PY, "-P", "-c", LIBCST_ALONE, "servers"]}
    for n, select in enumerate(rule_sets):
        cmds[f"scan{n}"] = mr("scan", ".", "-j", "2", *_sel(select))
        cmds[f"dry{n}"] = mr("apply", "--dry-run", ".", "-j", "2", *_sel(select))
    best = timed_rounds(cmds, few, repeat)
    base = best["base"][0]
    out.append(line("libcst parse + providers of the servers' files alone, 1 process", f"{base:.3f} s"))
    for n, select in enumerate(rule_sets):
        label = "+".join(select) if select else "default rules"
        scan, dry = best[f"scan{n}"][0], best[f"dry{n}"][0]
        out.append(line(f"[{label}] scan -j 2", f"{scan:.3f} s", "target < 2 s", scan < 2))
        out.append(line(f"[{label}] apply --dry-run -j 2", f"{dry:.3f} s", "target < 2 s", dry < 2))
        out.append(line(f"[{label}] scan -j 2 / libcst alone (1 process)", f"{scan / base:.2f}x"))
        measured.append((label, scan, dry))
    if libcst_runner:
        # The command comes first: libcst's first argument pass takes the first positional as the command.
        cmd = [
            PY,
            "-m",
            "libcst.tool",
            "codemod",
            "-x",
            "benchmarks.noop_codemod.NoOpCommand",
            "-j",
            "2",
            "--no-format",
            "--hide-progress",
            str(few),
        ]
        libcst, _ = timed(["env", f"PYTHONPATH={ROOT}", *cmd], ROOT, 1)
        out.append(line("libcst codemod runner, no-op command, -j 2", f"{libcst:.1f} s"))
        for label, scan, dry in measured:
            out.append(
                line(
                    f"[{label}] libcst runner / scan",
                    f"{libcst / scan:.1f}x",
                    "target >= 20x",
                    libcst / scan >= 20,
                )
            )
            out.append(
                line(
                    f"[{label}] libcst runner / apply --dry-run",
                    f"{libcst / dry:.1f}x",
                    "target >= 20x",
                    libcst / dry >= 20,
                )
            )
    return out


def parsed_line(tree: Path, rule_sets: list[list[str]]) -> str:
    """How many files a scan parses, against the servers' own non-empty files: stage two must add only the
    files that import a server's modules (none in this tree), whatever the tools are called."""
    servers = sum(1 for p in py_files(tree / "servers") if p.read_bytes().strip())
    select = rule_sets[-1] if rule_sets else []
    cmd = [BIN, "scan", ".", "-j", "2", "--no-progress", *_sel(select)]  # not -q: the summary line counts
    done = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    match = re.search(r"(\d+) parsed", done.stderr + done.stdout)  # the summary line goes to stderr
    parsed = int(match.group(1)) if match else -1
    return line(
        "files parsed (the servers' own files)", f"{parsed} ({servers})", "= servers'", parsed == servers
    )


def bench_all(count: int, repeat: int, old_baseline: bool = True) -> list[str]:
    tree = build_all(count)
    parsed = sum(1 for p in py_files(tree) if p.read_bytes().strip())
    roots = sum(1 for p in py_files(tree) if b"list_roots" in p.read_bytes())
    print(f"3. all hits: {count} servers, {parsed} files parsed ({roots} holding roots calls) ({tree})")
    alone = ["env", f"PYTHONPATH={ROOT}", PY, "-P", "-c", LIBCST_ALONE]
    base, _ = timed([*alone, "."], tree, repeat)
    ours, _ = timed([*alone, "--ours", "."], tree, repeat)
    # The tool used to resolve libcst's ParentNodeProvider and QualifiedNameProvider too (until 2026-12-01).
    four = timed([*alone, "--four", "."], tree, repeat)[0] if old_baseline else 0.0
    rounds = timed_rounds(
        {
            "scan1": mr("scan", ".", "-j", "1"),
            "scan2": mr("scan", ".", "-j", "2"),
            "dry1": mr("apply", "--dry-run", ".", "-j", "1"),
            "dry2": mr("apply", "--dry-run", ".", "-j", "2"),
            # Sized to take about as long as the -j 2 runs (about 0.2 s a server on this machine).
            "ceil1": [PY, "-c", CEILING, "1", str(300_000 * count)],
            "ceil2": [PY, "-c", CEILING, "2", str(300_000 * count)],
        },
        tree,
        repeat,
        rss=("dry1", "dry2"),
    )
    (scan1, _), (scan2, _), (dry1, rss1), (dry2, rss2) = (
        rounds[k] for k in ("scan1", "scan2", "dry1", "dry2")
    )
    ceiling = rounds["ceil1"][0] / rounds["ceil2"][0]
    per = 1000 / parsed
    out = [line("libcst parse + Position/Scope providers alone, per file", f"{base * per:.1f} ms")]
    out.append(line("libcst parse + the tool's own metadata (resolve), per file", f"{ours * per:.1f} ms"))
    if four:
        out.append(
            line("libcst parse + Position/Scope/Parent/QualifiedName, per file", f"{four * per:.1f} ms")
        )
        out.append(line("scan -j 1 / libcst with the four providers", f"{scan1 / four:.2f}x"))
    out.append(line("scan -j 1 / parse + the tool's own metadata", f"{scan1 / ours:.2f}x"))
    out.append(line("scan -j 1, per file", f"{scan1 * per:.1f} ms"))
    out.append(line("apply --dry-run -j 1, per file", f"{dry1 * per:.1f} ms"))
    out.append(
        line("scan -j 1 / libcst alone", f"{scan1 / base:.2f}x", "target <= 1.5x", scan1 / base <= 1.5)
    )
    out.append(
        line(
            "apply --dry-run -j 1 / libcst alone", f"{dry1 / base:.2f}x", "target <= 1.5x", dry1 / base <= 1.5
        )
    )
    out.append(line("the machine's own ceiling: a CPU loop, 1 / 2 processes", f"{ceiling:.2f}x"))
    out.append(line("scan: -j 1 / -j 2", f"{scan1 / scan2:.2f}x", "target >= 1.7x", scan1 / scan2 >= 1.7))
    out.append(
        line("apply --dry-run: -j 1 / -j 2", f"{dry1 / dry2:.2f}x", "target >= 1.7x", dry1 / dry2 >= 1.7)
    )
    out.append(
        line(
            "scan, dry run: -j 1 / -j 2 against the ceiling",
            f"{scan1 / scan2 / ceiling:.0%}, {dry1 / dry2 / ceiling:.0%}",
        )
    )
    return out + rss_lines(count, {1: rss1, 2: rss2})


def bench_memory(count: int, jobs: list[int]) -> list[str]:
    tree = build_all(count)
    print(f"4. memory: {count} servers ({tree})")
    peaks = {j: timed(mr("apply", "--dry-run", ".", "-j", str(j)), tree, 1, rss=True)[1] for j in jobs}
    return rss_lines(count, peaks)


def rss_lines(count: int, peaks: dict[int, int]) -> list[str]:
    """Peak RSS of `apply --dry-run` with -j 1, -j 2, ... against the 300 MB target, and of its main process
    (the one that holds what the run keeps between files: the workers' share does not depend on the tree)."""
    out = []
    for jobs, rss in peaks.items():
        main = MAIN_RSS.get(" ".join(mr("apply", "--dry-run", ".", "-j", str(jobs))), 0)
        out.append(
            line(
                f"peak RSS, apply --dry-run -j {jobs}, {count} servers (main process)",
                f"{rss / 2**20:.0f} MB ({main / 2**20:.0f})",
                "target < 300 MB",
                rss < 300 * 2**20,
            )
        )
    return out


def bench_startup(repeat: int) -> list[str]:
    one = WORK / "one"
    if not (one / ".git").is_dir():
        write_servers(one, 1, seed=3)
        _git_init(one)
    print("5. start-up")
    bare, _ = timed([PY, "-c", "pass"], None, repeat * 3)
    # The floor of any scan that parses: importing libcst (its node classes are ~270 dataclasses).
    floor, _ = timed([PY, "-c", "import libcst"], None, repeat * 3)
    version, _ = timed([BIN, "--version"], None, repeat * 3)
    scan, _ = timed(mr("scan", "srv00000/server.py"), one, repeat * 3)
    out = [line("python -c pass (baseline)", f"{bare:.3f} s")]
    out.append(line("python -c 'import libcst' (floor of a parsing run)", f"{floor:.3f} s"))
    out.append(line("migrate-roots --version", f"{version:.3f} s", "target < 0.3 s", version < 0.3))
    out.append(line("migrate-roots scan of one small file", f"{scan:.3f} s", "target < 0.6 s", scan < 0.6))
    out.append(line("scan of one small file / import libcst", f"{scan / floor:.2f}x"))
    return out


def machine() -> str:
    cpu = ""
    with contextlib.suppress(OSError, StopIteration):
        cpu = next(
            x.split(":", 1)[1].strip()
            for x in Path("/proc/cpuinfo").read_text().splitlines()
            if x.startswith("model name")
        )
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        f"{platform.system()} {platform.release()}, {cores} cores ({cpu}), Python {platform.python_version()}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("which", nargs="*", type=int, default=[1, 2, 3, 4, 5], help="benchmarks to run")
    parser.add_argument("--servers", type=int, default=2000, help="servers in the all-hits tree (3)")
    parser.add_argument("--big", type=int, default=0, help="servers in the memory tree (4); default 10x")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--memory-jobs",
        default="1,2",
        help="(4): the --jobs values to measure, comma-separated (default 1,2)",
    )
    parser.add_argument("--timeout", type=int, default=900, help="seconds before a command counts as inf")
    parser.add_argument("--no-libcst-runner", action="store_true", help="skip libcst's slow runner in (2)")
    parser.add_argument("--no-old-baseline", action="store_true", help="(3): skip the four-provider baseline")
    parser.add_argument("--skip-default", action="store_true", help="(1), (2): only the --select rules")
    parser.add_argument(
        "--select",
        action="append",
        default=[],
        help="also measure (1) and (2) with only these rule codes (repeatable), e.g. MR1",
    )
    args = parser.parse_args(argv)
    compile_bytecode()
    global TIMEOUT
    TIMEOUT = args.timeout
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}")
    out: list[str] = []
    sets = [*([args.select] if args.select else []), *([] if args.skip_default else [[]])]
    for number in args.which:
        if number == 1:
            out += bench_nohit(args.repeat, sets)
        elif number == 2:
            out += bench_few(args.repeat, not args.no_libcst_runner, sets)
            out += bench_few(args.repeat, False, sets, everyday=True)
        elif number == 3:
            out += bench_all(args.servers, args.repeat, not args.no_old_baseline)
        elif number == 4:
            out += bench_memory(args.big or 10 * args.servers, [int(j) for j in args.memory_jobs.split(",")])
        elif number == 5:
            out += bench_startup(args.repeat)
    missed = [x for x in out if x.endswith("MISSED")]
    print(f"{len(missed)} target(s) missed")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
