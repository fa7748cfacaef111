"""The real `pre-commit` runs our .pre-commit-hooks.yaml against a temporary git repository.

The hook source is a git repository made from this checkout (the files a `pip install .` needs, plus the
hooks file), referenced by path and commit exactly as users reference ours by URL and tag; pre-commit clones
it and installs it into its own virtual environment, so the test also proves the package installs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "migrate_roots")

SERVER = textwrap.dedent(
    """\
    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")


    @mcp.tool()
    async def where(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)
    """
)


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    out = subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True)
    return out.stdout.strip()


def hook_repo(tmp: Path) -> tuple[Path, str]:
    """A git repository holding this checkout's package and hooks file; returns (path, commit)."""
    repo = tmp / "hook-source"
    repo.mkdir()
    for name in SOURCES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, repo / name)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "hook source")
    return repo, git(repo, "rev-parse", "HEAD")


def pre_commit(project: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never", "NO_COLOR": "1"}
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_hooks_file_declares_check_and_fix():
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"migrate-roots-check", "migrate-roots"}
    assert "apply --check" in hooks["migrate-roots-check"]["entry"]
    assert "--check" not in hooks["migrate-roots"]["entry"]
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["pass_filenames"] is False


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_real_pre_commit_check_then_fix(tmp_path):
    pytest.importorskip("pre_commit")
    source, rev = hook_repo(tmp_path)
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "server.py").write_text(SERVER)
    config = {
        "repos": [
            {
                "repo": str(source),
                "rev": rev,
                "hooks": [{"id": "migrate-roots-check"}, {"id": "migrate-roots"}],
            }
        ]
    }
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    # The hooks read [tool.migrate-roots] like the CLI does; the decorator-roots family keeps this test about
    # the hook mechanics, not about what every rule family rewrites.
    (project / "pyproject.toml").write_text('[tool.migrate-roots]\nselect = ["MR10"]\n')
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "server")
    home = tmp_path / "pre-commit-home"

    check = pre_commit(project, home, "run", "migrate-roots-check", "--all-files")
    assert check.returncode == 1, check.stdout + check.stderr
    assert "migrate-roots (check)" in check.stdout and "Failed" in check.stdout
    assert "+async def where(ctx: Context, root:" in check.stdout.replace("+    ", "+")  # the diff is printed
    assert (project / "pkg" / "server.py").read_text() == SERVER, "the check hook must write nothing"

    fix = pre_commit(project, home, "run", "migrate-roots", "--all-files")
    assert fix.returncode == 1, fix.stdout + fix.stderr  # pre-commit fails a hook that modified files
    assert "files were modified by this hook" in fix.stdout
    fixed = (project / "pkg" / "server.py").read_text()
    assert "list_roots_compat(ctx, root" in fixed
    assert (project / "pkg" / "_mcp_roots_compat.py").is_file()

    git(project, "add", "-A")
    again = pre_commit(project, home, "run", "--all-files")
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.stdout.count("Passed") == 2
