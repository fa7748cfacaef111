"""The roots-call plan under `--select` / `--ignore`: a read the plan would rewrite whose code is not selected
(`--ignore MR101`) is left as it is, and the package is planned again without it, so nothing is threaded to it
(sweep H, r05: the tool got a `root` argument that nothing read, without a word). Reads the plan marks keep
their marker under their own code (`--select MR103` still shows the reads no tool reaches).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from migrate_roots.codemods._roots_model import Plan, Pos, Summary
from migrate_roots.codemods._roots_plan import plan_package


def plan(summaries: Mapping[str, Summary], settings: Any) -> dict[str, Plan]:
    plans = plan_package(summaries, settings)
    off = _deselected(summaries, plans, settings)
    return plan_package(summaries, settings, off) if off else plans


def _deselected(
    summaries: Mapping[str, Summary], plans: Mapping[str, Plan], settings: Any
) -> frozenset[tuple[str, Pos]]:
    from migrate_roots.codemods import select_codes

    enabled = select_codes(settings.select, settings.ignore)
    out: set[tuple[str, Pos]] = set()
    for path, summary in summaries.items():
        decided = plans[path].sites if path in plans else {}
        for func in summary.functions.values():
            for site in func.sites:
                code = func.code or ("MR101" if site.shape == "result" else "MR102")
                if site.pos in decided and decided[site.pos] is None and code not in enabled:
                    out.add((path, site.pos))
    return frozenset(out)
