"""A read whose every failure is absorbed, in a server whose call handler takes its own path key
(codemods/_roots_absorbed.py): passes None and names that key. Noop (still marked MR103) cases first: each
condition the rule rests on, broken one at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import helpers

HERE = Path(__file__).resolve().parent
SOURCE = (HERE / "e2e" / "lowlevel_mcp1_absorbed.py").read_text()


def _run(tmp_path: Path, source: str):
    (tmp_path / "server.py").write_text(source)
    results = helpers.run_engine(tmp_path, write=False)
    return [f for r in results for f in r.findings]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("    except Exception:  # no roots support", "    except ValueError:  # no roots support"),
        ("        return None\n    for root", "        raise\n    for root"),
        ("    root_arg = arguments.pop(WORKSPACE_ROOT_PARAM, None)\n", "    root_arg = None\n"),
        (
            "    root_arg = arguments.pop(WORKSPACE_ROOT_PARAM, None)\n",
            "    root_arg = arguments.pop(WORKSPACE_ROOT_PARAM, None)\n    other = arguments.pop('project_dir', None)\n",
        ),
        ('WORKSPACE_ROOT_PARAM = "workspace_root"', 'WORKSPACE_ROOT_PARAM = "limit"'),
    ],
    ids=["narrow-handler", "re-raised", "no-own-key", "two-own-keys", "not-a-path-key"],
)
def test_noop_a_broken_condition_keeps_the_marker(tmp_path, old, new):
    assert old in SOURCE
    findings = _run(tmp_path, SOURCE.replace(old, new))
    if (
        "ValueError" in new
    ):  # that handler would swallow the shim's error, which the SDK's never met: said first
        assert helpers.codes(findings) == ["MR105"], findings
        assert findings[0].message.startswith("`except ValueError` around this call would catch")
        return
    assert helpers.codes(findings) == ["MR103"], findings
    assert "returns and its caller keeps and calls later" in findings[0].message


def test_an_absorbed_read_passes_none_and_names_the_servers_key(tmp_path):
    findings = _run(tmp_path, SOURCE)
    assert helpers.codes(findings) == ["MR101"]
    assert "the server's call handler takes its own `workspace_root` argument" in findings[0].message


def test_the_key_read_by_get_and_as_a_literal_counts_too(tmp_path):
    source = SOURCE.replace("arguments.pop(WORKSPACE_ROOT_PARAM, None)", 'arguments.get("workspace_root")')
    assert helpers.codes(_run(tmp_path, source)) == ["MR101"]
